import ArgumentParser
import Foundation
import OAuthCore

/// A failure the user sees as one line on standard error; the process exits with 1.
/// (or with `exitCode`: 4 when a login is needed, as `gh auth status` does).
/// The message is ``PrintableText``: a provider's `error_description` in it cannot act on the terminal.
package struct CLIFailure: Error, CustomStringConvertible {
    /// What went wrong, and what to do, as the command prints it.
    package let message: PrintableText
    let exitCode: Int32
    package init(_ message: PrintableText, exitCode: Int32 = ExitCodes.failure) {
        self.message = message
        self.exitCode = exitCode
    }
    package var description: String { message.description }

    /// The user stopped the command (Ctrl-C): reported without "error:", exit 130.
    package static func cancelled(_ message: PrintableText) -> CLIFailure { CLIFailure(message, exitCode: ExitCodes.interrupted) }
}

/// The exit codes of `haapi`: 0 success, 1 a user-facing failure, 2 a usage error, 4 a login
/// is needed (no profile, no tokens, or tokens that can no longer be renewed), 130 interrupted.
package enum ExitCodes {
    package static let success: Int32 = 0
    package static let failure: Int32 = 1
    package static let usage: Int32 = 2
    package static let loginNeeded: Int32 = 4
    package static let interrupted: Int32 = 130

    /// Writes `error` the way `haapi` reports it and returns the exit code.
    package static func report(
        _ error: any Error, command: (any ParsableCommand.Type), arguments: [String] = Array(CommandLine.arguments.dropFirst())
    ) -> Int32 {
        if let failure = error as? CLIFailure {
            Stderr.line(
                failure.exitCode == ExitCodes.interrupted ? "haapi: " + failure.message : Texts.line(.commandError, failure.message))
            return failure.exitCode
        }
        let code = command.exitCode(for: error)
        let message = command.fullMessage(for: error)
        if code == .success {
            // --help and --version: what ArgumentParser makes of our own command definitions.
            if !message.isEmpty { Stdout.line(PrintableText(own: message)) }
            return ExitCodes.success
        }
        if code == .validationFailure {
            Stderr.line(Texts.line(.commandError, PrintableText(usageLine(message, arguments: arguments, root: command))))
            return ExitCodes.usage
        }
        if !message.isEmpty {
            let oneLine = message.split(whereSeparator: \.isNewline).joined(separator: " ")
            Stderr.line(oneLine.hasPrefix("haapi:") ? PrintableText(oneLine) : Texts.line(.commandError, PrintableText(oneLine)))
        }
        return code.rawValue == 0 ? ExitCodes.failure : code.rawValue
    }

    /// A usage error as one line: the parser's reason, a "did you mean" for a mistyped command,
    /// and where the help is.
    static func usageLine(_ message: String, arguments: [String], root: any ParsableCommand.Type) -> String {
        let lines = message.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
        var reason = lines.first.map { $0.hasPrefix("Error: ") ? String($0.dropFirst(7)) : $0 } ?? "invalid arguments"
        let subcommands = root.configuration.subcommands.map { $0._commandName } + ["help"]
        let command = arguments.first.flatMap { $0.hasPrefix("-") ? nil : $0 }
        if let command, !subcommands.contains(command) {
            reason = "unknown command \"\(command)\""
            if let nearest = NearestName.to(command, among: subcommands) { reason += "; did you mean `haapi \(nearest)`?" }
            return reason + " (`haapi --help` lists the commands)"
        }
        let help = (command.map { subcommands.contains($0) } ?? false) ? "haapi \(command!) --help" : "haapi --help"
        return reason + " (see `\(help)`)"
    }
}
