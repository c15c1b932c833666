import ArgumentParser
import Foundation
import OAuthCore

/// The `haapi` command: sign in to OAuth 2.0 / OpenID Connect servers from a terminal.
///
/// `login` keeps tokens in a named profile, which `token`, `status`, `refresh`, `revoke`,
/// `logout` and `userinfo` use; `demo` and `server` run the development server.
struct Haapi: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "haapi",
        abstract: "Sign in to OAuth 2.0 / OpenID Connect servers from a terminal (HAAPI or browser login).",
        version: "0.1.0",
        subcommands: [
            LoginCommand.self, TokenCommand.self, ApiCommand.self, StatusCommand.self, ProfilesCommand.self, RefreshCommand.self,
            RevokeCommand.self, LogoutCommand.self,
            UserinfoCommand.self, DemoCommand.self, PKCECommand.self, ThumbprintCommand.self, DPoPProofCommand.self, InspectCommand.self,
            PreviewCommand.self, ServerCommand.self, CompletionCommand.self,
        ])

    /// Runs the command with `haapi`'s exit codes: 0 success, 1 a failure (one line on
    /// standard error), 2 a usage error, 4 a login is needed, 130 cancelled with Ctrl-C.
    @MainActor static func main() async {
        if let quick = TokenCommand.quickArguments(Array(CommandLine.arguments.dropFirst())) {
            LogOptions.applyDefault()
            let profile = quick.profile ?? ProfileOption.defaultName()
            await finish(Task { await printToken(profile: profile, minimumLifetime: quick.minimumLifetime) }, cancelledByCtrlC: true)
        }
        let command: any ParsableCommand
        if let unknown = unknownHelpTopic(Array(CommandLine.arguments.dropFirst())) {
            Stderr.line("haapi: error: \(unknown) (`haapi --help` lists the commands)")
            Foundation.exit(ExitCodes.usage)
        }
        do { command = try parseAsRoot() } catch { Foundation.exit(ExitCodes.report(error, command: Self.self)) }
        let ownsSignals = command is any HandlesItsOwnSignals
        // The command is used by this task alone from here on.
        nonisolated(unsafe) let parsed = command
        await finish(Task { await execute(parsed) }, cancelledByCtrlC: !ownsSignals)
    }

    /// Waits for the command's `work` (which Ctrl-C cancels, unless the command handles its
    /// signals itself) and exits with its code, or as cancelled.
    private static func finish(_ work: Task<Int32, Never>, cancelledByCtrlC: Bool) async -> Never {
        if cancelledByCtrlC { Interrupts.install(cancelling: work) }
        let code = await work.value
        if Interrupts.cancelledCommand { Interrupts.exitCancelled() }
        Foundation.exit(code)
    }

    /// For `haapi help WORD...` naming no command (which the parser answers with the main help and
    /// exit 0): the usage error to report instead.
    static func unknownHelpTopic(_ arguments: [String]) -> String? {
        guard arguments.first == "help" else { return nil }
        var commands: [any ParsableCommand.Type] = configuration.subcommands
        for word in arguments.dropFirst() where !word.hasPrefix("-") {
            guard let next = commands.first(where: { $0._commandName == word }) else {
                let nearest = NearestName.to(word, among: commands.map { $0._commandName })
                let parents = arguments.dropFirst().prefix { $0 != word }.filter { !$0.hasPrefix("-") }
                return "unknown command \"\(word)\""
                    + (nearest.map { "; did you mean `haapi help \((parents + [$0]).joined(separator: " "))`?" } ?? "")
            }
            commands = next.configuration.subcommands
        }
        return nil
    }

    private static func execute(_ command: any ParsableCommand) async -> Int32 {
        var command = command
        do {
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
            return ExitCodes.success
        } catch {
            return exitCode(after: error)
        }
    }

    /// `haapi token` from ``TokenCommand/quickArguments(_:)``.
    private static func printToken(profile: String, minimumLifetime: Int) async -> Int32 {
        do {
            try await TokenCommand.printToken(profile: profile, minimumLifetime: TimeInterval(OutsideNumber.seconds(minimumLifetime)))
            return ExitCodes.success
        } catch {
            return exitCode(after: error)
        }
    }

    /// Reports a command's failure as `haapi` does; its exit code.
    private static func exitCode(after error: any Error) -> Int32 {
        // A cancelled command's error is the cancellation itself: `main` says "cancelled".
        if Interrupts.cancelledCommand { return ExitCodes.interrupted }
        return ExitCodes.report(error, command: Self.self)
    }
}

/// A command that stops on SIGINT and SIGTERM by itself (a server's graceful shutdown), so
/// Ctrl-C does not cancel its task.
protocol HandlesItsOwnSignals {}

/// The `haapi` command line, for the `haapi` executable: runs the command that the process's
/// arguments name and exits with its code.
public enum HaapiCommandLine {
    /// Runs `haapi` with `CommandLine.arguments`.
    @MainActor public static func main() async { await Haapi.main() }
}
