import Foundation
import Logging

/// The level of a log line. HaapiLogger uses only these four.
public enum LogType: String, Sendable, Hashable, CaseIterable {
    /// Details for following a flow step by step.
    case debug = "DEBUG"
    /// What happened, for the record.
    case info = "INFO"
    /// Something went wrong but the flow goes on (a retry, a fallback).
    case warning = "WARNING"
    /// Something failed.
    case error = "ERROR"
}

/// A destination for log lines, added with ``HaapiLogger/appendLogSink(_:)``.
///
/// Sinks receive lines already filtered by tag and level, with sensitive values already
/// masked (unless masking was turned off).
public protocol LogSink: Sendable {
    /// Writes one log line.
    func writeLog(logType: LogType, followUpTag: any FollowUpTag, message: String, file: String, line: Int)
}

/// A ``LogSink`` that forwards to swift-log, so server-side users get HAAPI logs in their
/// usual logging backend. The tag is attached as the `followUpTag` metadata; control
/// characters in the message are written as `\u{…}`, as on the console.
public struct SwiftLogSink: LogSink {
    /// The swift-log logger lines go to.
    public let logger: Logger

    /// Forwards to `logger`.
    public init(logger: Logger) { self.logger = logger }

    /// Logs the line at swift-log's level of the same name, with the tag as `followUpTag` metadata and
    /// `HAAPI` as the source.
    public func writeLog(logType: LogType, followUpTag: any FollowUpTag, message: String, file: String, line: Int) {
        let level: Logger.Level
        switch logType {
        case .debug: level = .debug
        case .info: level = .info
        case .warning: level = .warning
        case .error: level = .error
        }
        // A backend may write to a terminal or a line-based file: the message, which carries what
        // servers said, goes as PrintableText (no control character acts, no newline forges an entry).
        logger.log(
            level: level, "\(PrintableText(message))", metadata: ["followUpTag": "\(followUpTag.tagName)"], source: "HAAPI",
            file: file, function: "", line: UInt(line))
    }
}

/// The built-in console sink: standard error, one line per entry, in the seeds' format
/// `[TAG] [LEVEL] File.line : message`. A message carries what servers said (a token type, an
/// error description), so it goes out as ``PrintableText``: an escape sequence in it cannot act
/// on the terminal, and a newline in it cannot start a forged entry.
struct ConsoleLogSink: LogSink {
    /// Where a line goes: standard error (a test collects them).
    var write: @Sendable (PrintableText) -> Void = { Stderr.line($0) }

    func writeLog(logType: LogType, followUpTag: any FollowUpTag, message: String, file: String, line: Int) {
        let fileName = (file as NSString).lastPathComponent.replacingOccurrences(of: ".swift", with: "")
        write("[\(followUpTag.tagName)] [\(logType.rawValue)] \(fileName).\(line) : \(message)")
    }
}
