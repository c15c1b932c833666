import ArgumentParser
import Foundation
import OAuthCore
import OIDCClient

/// `haapi status`: who the profile is logged in as, with what, until when; its exit code says
/// whether it can be used (0) or needs a login (4), as `gh auth status` does.
package struct StatusCommand: AsyncParsableCommand {
    package init() {}

    package static let configuration = CommandConfiguration(
        commandName: "status",
        abstract:
            "Show the profile's login: its state, subject, scopes, expiry and token binding. Exit 0 when usable, 4 when a login is needed.",
        discussion: helpText(
            """
            The state is `logged in`, `expired, refreshable` (the next command renews it), `login needed` \
            (the token expired and there is no refresh token), `logged out` (no tokens), `no such profile` \
            or `broken` (its files cannot be read; exit 1). The text goes to standard error; --json \
            prints a JSON object (with --all, an array) on standard output instead, with the same keys in \
            every state (README: "haapi status --json"). No token is shown.
            """,
            examples:
                "haapi status",
            "haapi status --all",
            "HAAPI_PROFILE=ci haapi status --json"))

    @OptionGroup package var profile: ProfileOption
    @Flag(help: "Report every profile (exit 1 when any is broken, else 4 when any needs a login).") var all = false
    @Flag(help: "Print JSON on standard output.") package var json = false

    package func run() async throws {
        let names = all ? Profile.names() : [profile.name]
        var reports: [ProfileReport] = []
        for name in names { reports.append(await ProfileReport.read(name)) }
        if json {
            let value: JSONValue = all ? .array(reports.map(\.json)) : (reports.first?.json ?? .null)
            Stdout.json(value)
        } else if all && names.isEmpty {
            Stderr.line("No profiles yet: log in with `haapi login --issuer URL --client-id ID`")
        } else {
            // The report is the command's output (`haapi status | grep expires` finds it).
            Stdout.line(PrintableText.joined(reports.map(\.text), separator: "\n"))
        }
        if reports.contains(where: { $0.state == .broken }) { throw ExitCode(ExitCodes.failure) }
        if names.isEmpty || reports.contains(where: { !$0.state.isUsable }) { throw ExitCode(ExitCodes.loginNeeded) }
    }
}
