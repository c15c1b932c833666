import ArgumentParser
import Foundation
import OAuthCore

/// The commands `haapi` runs itself: those on a profile's tokens, and the small tools. Every
/// other command line (`login`, `demo`, `server`, `preview`, `inspect`, `completion`, `help`,
/// `--help`, `--version`) is handed, as it was typed, to `haapi-full`, the executable beside it
/// that has the kit, the SDK and the development server, so that a script's `haapi token` maps
/// and starts only what it needs.
package struct TokenCommands: AsyncParsableCommand {
    package static let configuration = CommandConfiguration(
        commandName: "haapi",
        subcommands: [
            TokenCommand.self, ApiCommand.self, StatusCommand.self, ProfilesCommand.self, RefreshCommand.self, RevokeCommand.self,
            UserinfoCommand.self, PKCECommand.self, ThumbprintCommand.self, DPoPProofCommand.self,
        ])

    package init() {}

    /// The executable that runs the other commands, beside this one.
    private static let fullExecutableName = "haapi-full"

    /// Runs `haapi` with `CommandLine.arguments`: the command itself when it is one of
    /// ``configuration``'s, else `haapi-full` in this process's place.
    ///
    /// Synchronous on purpose: an `async` main ends by `dispatch_main`, whose exit of the main
    /// thread unwinds its stack (loading libgcc_s and reading the binary's unwind tables, a tenth
    /// of a cached `haapi token`'s page faults). A script's `haapi token` that needs the session
    /// runs on a task while the main thread waits, and the task ends the process; the other
    /// commands run on the main actor as before.
    package static func main() -> Never {
        let arguments = Array(CommandLine.arguments.dropFirst())
        if let work = quickToken(arguments) {
            Task.detached { await CommandRunner.finish(work, cancelledByCtrlC: true) }
            DispatchSemaphore(value: 0).wait()
        }
        guard let name = arguments.first, configuration.subcommands.contains(where: { $0._commandName == name }) else {
            handOff()
        }
        Task { @MainActor in await CommandRunner.run(Self.self, arguments: arguments) }
        dispatchMain()
    }

    /// A script's `haapi token` (``TokenCommand/quickArguments(_:)``), as both executables run it:
    /// a stored token with the time asked left is printed at once, on this thread, and the
    /// process ends; else the work that asks the token session, to finish. `nil` for other
    /// arguments, which the parser reads.
    package static func quickToken(_ arguments: [String]) -> Task<Int32, Never>? {
        guard let quick = TokenCommand.quickArguments(arguments) else { return nil }
        LogOptions.applyDefault()
        let profile = quick.profile ?? ProfileOption.defaultName()
        let minimumLifetime = TimeInterval(OutsideNumber.seconds(quick.minimumLifetime))
        if let token = TokenCommand.storedAccessToken(profile: profile, minimumLifetime: minimumLifetime) {
            TokenCommand.printAccessToken(token)
            Foundation.exit(ExitCodes.success)
        }
        return Task.detached {
            do {
                try await TokenCommand.printToken(profile: profile, minimumLifetime: minimumLifetime)
                return ExitCodes.success
            } catch {
                return CommandRunner.exitCode(after: error, root: Self.self)
            }
        }
    }

    /// Replaces this process with `haapi-full`, with the same arguments and environment; when it
    /// cannot, says why and exits 1.
    private static func handOff() -> Never {
        let path = fullExecutablePath()
        execv(path, CommandLine.unsafeArgv)
        let reason = String(cString: strerror(errno))
        Stderr.line(
            Texts.line(
                .commandError,
                PrintableText(
                    "this command is run by \(path), which could not be started (\(reason)): install it beside haapi "
                        + "(Scripts/build-cli.sh installs both)")))
        Foundation.exit(ExitCodes.failure)
    }

    /// `haapi-full` in the folder of this executable (links resolved).
    static func fullExecutablePath() -> String {
        #if os(Linux)
            var buffer = [CChar](repeating: 0, count: 4097)
            let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
            let own =
                count > 0 ? String(decoding: buffer.prefix(count).map { UInt8(bitPattern: $0) }, as: UTF8.self) : CommandLine.arguments[0]
        #else
            let own = Bundle.main.executablePath ?? CommandLine.arguments[0]
        #endif
        return URL(fileURLWithPath: own).deletingLastPathComponent().appendingPathComponent(fullExecutableName).path
    }
}

/// The entry of the `haapi-tokens` executable, which Scripts/build-cli.sh installs as `haapi`.
public enum TokenCommandLine {
    /// Runs `haapi` with `CommandLine.arguments` (see ``TokenCommands``), and exits.
    public static func main() -> Never { TokenCommands.main() }
}
