import ArgumentParser
import Foundation
import HaapiCLICore
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

    /// Runs the command line with `CommandLine.arguments`, as ``CommandRunner`` does (a script's
    /// `haapi token` as the installed `haapi` runs it).
    @MainActor static func main() async {
        let arguments = Array(CommandLine.arguments.dropFirst())
        if let work = TokenCommands.quickToken(arguments) { await CommandRunner.finish(work, cancelledByCtrlC: true) }
        if let unknown = unknownHelpTopic(arguments) {
            Stderr.line("haapi: error: \(unknown) (`haapi --help` lists the commands)")
            Foundation.exit(ExitCodes.usage)
        }
        await CommandRunner.run(Self.self, arguments: arguments)
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
}

/// The whole `haapi` command line, for the `haapi` executable: what `swift run haapi` runs, and
/// what an installed `haapi` hands every command but those on a profile's tokens (installed as
/// `haapi-full`).
public enum HaapiCommandLine {
    /// Runs the command line with `CommandLine.arguments`.
    @MainActor public static func main() async { await Haapi.main() }
}
