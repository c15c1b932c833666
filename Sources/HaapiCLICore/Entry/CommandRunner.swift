import ArgumentParser
import Foundation
import OAuthCore

/// Runs a command tree's command with `haapi`'s exit codes: 0 success, 1 a failure (one line on
/// standard error), 2 a usage error, 4 a login is needed, 130 cancelled with Ctrl-C. Both
/// executables run their trees with it: `haapi` (``TokenCommands``) and `haapi-full`.
package enum CommandRunner {
    /// Parses `arguments` with `root` and runs the command they name, then exits.
    @MainActor package static func run(_ root: any ParsableCommand.Type, arguments: [String]) async -> Never {
        let command: any ParsableCommand
        do { command = try root.parseAsRoot(arguments) } catch { Foundation.exit(ExitCodes.report(error, command: root)) }
        let ownsSignals = command is any HandlesItsOwnSignals
        // The command is used by this task alone from here on.
        nonisolated(unsafe) let parsed = command
        await finish(Task { await execute(parsed, root: root) }, cancelledByCtrlC: !ownsSignals)
    }

    /// Waits for the command's `work` (which Ctrl-C cancels, unless the command handles its
    /// signals itself) and exits with its code, or as cancelled.
    package static func finish(_ work: Task<Int32, Never>, cancelledByCtrlC: Bool) async -> Never {
        if cancelledByCtrlC { Interrupts.install(cancelling: work) }
        let code = await work.value
        if Interrupts.cancelledCommand { Interrupts.exitCancelled() }
        Foundation.exit(code)
    }

    private static func execute(_ command: any ParsableCommand, root: any ParsableCommand.Type) async -> Int32 {
        var command = command
        do {
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
            return ExitCodes.success
        } catch {
            return exitCode(after: error, root: root)
        }
    }

    /// Reports a command's failure as `haapi` does; its exit code.
    static func exitCode(after error: any Error, root: any ParsableCommand.Type) -> Int32 {
        // A cancelled command's error is the cancellation itself: the runner says "cancelled".
        if Interrupts.cancelledCommand { return ExitCodes.interrupted }
        return ExitCodes.report(error, command: root)
    }
}

/// A command that stops on SIGINT and SIGTERM by itself (a server's graceful shutdown), so
/// Ctrl-C does not cancel its task.
package protocol HandlesItsOwnSignals {}
