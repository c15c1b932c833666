import Foundation

/// The package's logger, configured as the seeds describe.
///
/// - Nothing is logged until the app sets ``followUpTags``; then only lines of those tags are.
/// - Four level switches: debug (on in debug builds), info, warning and error (on).
/// - Sensitive values (tokens, codes, secrets, passwords, DPoP proofs, `Authorization`
///   headers, client assertions) are masked unless ``isSensitiveValueMasked`` is turned off,
///   which logs a loud warning, and marks every unmasked line.
/// - Lines go to standard error (see ``isConsoleEnabled``) and to every sink added with
///   ``appendLogSink(_:)``, such as ``SwiftLogSink``.
///
/// A class of static members only, as Curity's `HaapiLogger` is; it has no instances.
public final class HaapiLogger: NSObject, Sendable {
    private override init() {}

    /// The global settings: lines go to standard error too, unlike a scope's by default.
    private static let state = LockedValue(HaapiLoggerScope(followUpTags: [], sinks: [], isConsoleEnabled: true))

    /// One of the logger's on/off switches.
    private static func switchState(_ which: WritableKeyPath<HaapiLoggerScope, Bool>) -> Bool { state.withLock { $0[keyPath: which] } }

    /// Turns one of the logger's switches on or off.
    private static func setSwitch(_ which: WritableKeyPath<HaapiLoggerScope, Bool>, _ on: Bool) {
        state.withLock { $0[keyPath: which] = on }
    }

    /// Settings that replace the global ones for one task and the tasks it starts.
    @TaskLocal static var scoped: HaapiLoggerScope?

    /// Runs `body` with logger settings of its own: every line logged by `body`, by the actors
    /// it calls and by the tasks it starts follows `scope` instead of the global settings.
    /// Useful to capture the logs of one operation (a test, a support report) while other
    /// work logs as usual.
    public static func withScope<T>(_ scope: HaapiLoggerScope, _ body: () async throws -> T) async rethrows -> T {
        try await $scoped.withValue(scope) { try await body() }
    }

    /// ``withScope(_:_:)`` for synchronous work: the fuzz harnesses run with every line built
    /// (building a line can fail as any code can) and, without sinks, none written.
    package static func withSynchronousScope<T>(_ scope: HaapiLoggerScope, _ body: () throws -> T) rethrows -> T {
        try $scoped.withValue(scope) { try body() }
    }

    /// What a masked value is printed as.
    public static let maskText = "*****"

    /// The tags whose lines are logged; empty (the default) logs nothing.
    public static var followUpTags: [any FollowUpTag] {
        get { state.withLock { $0.followUpTags } }
        set { state.withLock { $0.followUpTags = newValue } }
    }

    /// Whether debug lines are logged; on in debug builds, off in release builds.
    public static var isDebugEnabled: Bool {
        get { switchState(\.isDebugEnabled) }
        set { setSwitch(\.isDebugEnabled, newValue) }
    }

    /// Whether info lines are logged (default on).
    public static var isInfoEnabled: Bool {
        get { switchState(\.isInfoEnabled) }
        set { setSwitch(\.isInfoEnabled, newValue) }
    }

    /// Whether warning lines are logged (default on).
    public static var isWarningEnabled: Bool {
        get { switchState(\.isWarningEnabled) }
        set { setSwitch(\.isWarningEnabled, newValue) }
    }

    /// Whether error lines are logged (default on).
    public static var isErrorEnabled: Bool {
        get { switchState(\.isErrorEnabled) }
        set { setSwitch(\.isErrorEnabled, newValue) }
    }

    /// Whether lines also go to standard error (default on). Sinks are unaffected.
    public static var isConsoleEnabled: Bool {
        get { switchState(\.isConsoleEnabled) }
        set { setSwitch(\.isConsoleEnabled, newValue) }
    }

    /// Whether sensitive values are masked (default on). Turning it off logs a warning to
    /// every destination, whatever the tags; only do it while debugging.
    public static var isSensitiveValueMasked: Bool {
        get { state.withLock { $0.isSensitiveValueMasked } }
        set {
            let wasMasked = state.withLock { state in
                defer { state.isSensitiveValueMasked = newValue }
                return state.isSensitiveValueMasked
            }
            if wasMasked && !newValue {
                emitUnsecuredWarning("********** SENSITIVE VALUE IS UNMASKED **********")
                emitUnsecuredWarning("********** HaapiLogger.isSensitiveValueMasked must be set to true in `release` mode. **********")
            }
        }
    }

    /// Sets the lowest level logged (Curity UI kit's `setLogType`): `.debug` logs every level,
    /// `.info` all but debug, `.warning` warnings and errors, `.error` errors only. It sets
    /// ``isDebugEnabled``, ``isInfoEnabled``, ``isWarningEnabled`` and ``isErrorEnabled``.
    public static func setLogType(_ logType: LogType) {
        state.withLock { state in
            state.isDebugEnabled = logType == .debug
            state.isInfoEnabled = logType == .debug || logType == .info
            state.isWarningEnabled = logType != .error
            state.isErrorEnabled = true
        }
    }

    /// Adds a destination for log lines.
    public static func appendLogSink(_ sink: any LogSink) {
        state.withLock { $0.sinks.append(sink) }
    }

    /// Removes every added sink.
    public static func removeAllLogSinks() {
        state.withLock { $0.sinks.removeAll() }
    }

    /// Whether values are masked where this runs: ``isSensitiveValueMasked``, or the setting of
    /// the ``withScope(_:_:)`` it runs in.
    public static var masksSensitiveValues: Bool { scoped?.isSensitiveValueMasked ?? isSensitiveValueMasked }

    /// Masks a value as the logger would: ``maskText`` while masking is on (``masksSensitiveValues``),
    /// the value otherwise.
    public static func mask(_ value: String) -> String {
        masksSensitiveValues ? maskText : value
    }

    /// Logs a debug line.
    public static func debug(_ tag: some FollowUpTag, _ message: @autoclosure () -> LogMessage, file: String = #fileID, line: Int = #line) {
        log(.debug, tag, message, file: file, line: line)
    }

    /// Logs an info line.
    public static func info(_ tag: some FollowUpTag, _ message: @autoclosure () -> LogMessage, file: String = #fileID, line: Int = #line) {
        log(.info, tag, message, file: file, line: line)
    }

    /// Logs a warning line.
    public static func warning(_ tag: some FollowUpTag, _ message: @autoclosure () -> LogMessage, file: String = #fileID, line: Int = #line)
    {
        log(.warning, tag, message, file: file, line: line)
    }

    /// Logs an error line.
    public static func error(_ tag: some FollowUpTag, _ message: @autoclosure () -> LogMessage, file: String = #fileID, line: Int = #line) {
        log(.error, tag, message, file: file, line: line)
    }

    /// Logs a line of any level. The message is only built when the line will be written.
    public static func log(
        _ type: LogType, _ tag: some FollowUpTag, _ message: () -> LogMessage, file: String = #fileID, line: Int = #line
    ) {
        let snapshot = scoped ?? state.withLock { $0 }
        guard snapshot.tagNames.contains(tag.tagName) else { return }
        switch type {
        case .debug: guard snapshot.isDebugEnabled else { return }
        case .info: guard snapshot.isInfoEnabled else { return }
        case .warning: guard snapshot.isWarningEnabled else { return }
        case .error: guard snapshot.isErrorEnabled else { return }
        }
        let built = message()
        if !snapshot.isSensitiveValueMasked && built.hasSensitiveParts {
            emitUnsecuredWarning("********** SENSITIVE VALUE IS UNMASKED **********", snapshot: snapshot)
        }
        let text = built.rendered(masked: snapshot.isSensitiveValueMasked)
        if snapshot.isConsoleEnabled {
            ConsoleLogSink().writeLog(logType: type, followUpTag: tag, message: text, file: file, line: line)
        }
        for sink in snapshot.sinks {
            sink.writeLog(logType: type, followUpTag: tag, message: text, file: file, line: line)
        }
    }

    private static func emitUnsecuredWarning(_ text: String, snapshot: HaapiLoggerScope? = nil) {
        let snapshot = snapshot ?? state.withLock { $0 }
        let tag = UnsecuredTag()
        if snapshot.isConsoleEnabled {
            ConsoleLogSink().writeLog(logType: .warning, followUpTag: tag, message: text, file: #fileID, line: #line)
        }
        for sink in snapshot.sinks {
            sink.writeLog(logType: .warning, followUpTag: tag, message: text, file: #fileID, line: #line)
        }
    }
}

/// The tag of the masking warnings, which are written whatever ``HaapiLogger/followUpTags`` holds.
package struct UnsecuredTag: FollowUpTag {
    /// `UNSECURED`.
    package var subsystem: String { "UNSECURED" }
    /// `UNSECURED`.
    package var tagName: String { "UNSECURED" }
    /// The tag; it has no state.
    package init() {}
}

/// Logger settings: the global ones, and those of a ``HaapiLogger/withScope(_:_:)``, whose
/// defaults are the global defaults but for the console.
public struct HaapiLoggerScope: Sendable {
    /// The tags whose lines are logged; of two tags of one name, the first is kept.
    public var followUpTags: [any FollowUpTag] {
        get { tags }
        set { (tags, tagNames) = Self.unique(newValue) }
    }
    /// Whether debug lines are logged.
    public var isDebugEnabled: Bool
    /// Whether info lines are logged.
    public var isInfoEnabled: Bool
    /// Whether warning lines are logged.
    public var isWarningEnabled: Bool
    /// Whether error lines are logged.
    public var isErrorEnabled: Bool
    /// Whether sensitive values are masked.
    public var isSensitiveValueMasked: Bool
    /// Whether lines also go to standard error.
    public var isConsoleEnabled: Bool
    /// The destinations of the lines.
    public var sinks: [any LogSink]

    private var tags: [any FollowUpTag]
    /// The names of ``followUpTags``: a line is logged when its tag's name is one of them.
    private(set) var tagNames: Set<String>

    /// Makes settings.
    public init(
        followUpTags: [any FollowUpTag], sinks: [any LogSink], isDebugEnabled: Bool = _isDebugAssertConfiguration(),
        isInfoEnabled: Bool = true, isWarningEnabled: Bool = true, isErrorEnabled: Bool = true,
        isSensitiveValueMasked: Bool = true, isConsoleEnabled: Bool = false
    ) {
        (tags, tagNames) = Self.unique(followUpTags)
        self.sinks = sinks
        self.isDebugEnabled = isDebugEnabled
        self.isInfoEnabled = isInfoEnabled
        self.isWarningEnabled = isWarningEnabled
        self.isErrorEnabled = isErrorEnabled
        self.isSensitiveValueMasked = isSensitiveValueMasked
        self.isConsoleEnabled = isConsoleEnabled
    }

    private static func unique(_ tags: [any FollowUpTag]) -> ([any FollowUpTag], Set<String>) {
        var names = Set<String>()
        return (tags.filter { names.insert($0.tagName).inserted }, names)
    }
}
