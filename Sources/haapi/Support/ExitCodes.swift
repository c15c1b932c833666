import ArgumentParser
import Foundation

/// A failure the user sees as one line on standard error; the process exits with 1.
/// (or with `exitCode`: 4 when a login is needed, as `gh auth status` does).
struct CLIFailure: Error, CustomStringConvertible {
    let message: String
    let exitCode: Int32
    init(_ message: String, exitCode: Int32 = ExitCodes.failure) {
        self.message = message
        self.exitCode = exitCode
    }
    var description: String { message }
}

/// The exit codes of `haapi`: 0 success, 1 a user-facing failure, 2 a usage error, 4 a login
/// is needed (no profile, no tokens, or tokens that can no longer be renewed), 130 interrupted.
enum ExitCodes {
    static let success: Int32 = 0
    static let failure: Int32 = 1
    static let usage: Int32 = 2
    static let loginNeeded: Int32 = 4
    static let interrupted: Int32 = 130

    /// Writes `error` the way `haapi` reports it and returns the exit code.
    static func report(_ error: any Error, command: (any ParsableCommand.Type)) -> Int32 {
        if let failure = error as? CLIFailure {
            Stderr.line("haapi: error: \(failure.message)")
            return failure.exitCode
        }
        let code = command.exitCode(for: error)
        let message = command.fullMessage(for: error)
        if code == .success {
            if !message.isEmpty { print(message) }
            return ExitCodes.success
        }
        if code == .validationFailure {
            if !message.isEmpty { Stderr.line(message) }
            return ExitCodes.usage
        }
        if !message.isEmpty {
            let oneLine = message.split(whereSeparator: \.isNewline).joined(separator: " ")
            Stderr.line(oneLine.hasPrefix("Error:") || oneLine.hasPrefix("haapi:") ? oneLine : "haapi: error: \(oneLine)")
        }
        return code.rawValue == 0 ? ExitCodes.failure : code.rawValue
    }
}

/// Standard error, unbuffered.
enum Stderr {
    static func write(_ text: String) { FileHandle.standardError.write(Data(text.utf8)) }
    static func line(_ text: String) { write(text + "\n") }
}
