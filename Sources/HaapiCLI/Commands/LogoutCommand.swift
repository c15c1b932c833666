import ArgumentParser
import Foundation
import HaapiCLICore
import OAuthCore
import OIDCClient

/// `haapi logout`: revokes the tokens and deletes them from the profile.
struct LogoutCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "logout",
        abstract: "Revoke the profile's tokens and delete them and their DPoP key; the connection settings stay.",
        discussion: helpText(
            """
            The tokens are deleted even when the server cannot be reached; the command then exits with 1 and says so. \
            --end-session also ends the provider's browser session (RP-initiated logout) after a browser login. \
            `haapi profiles delete NAME` also removes the settings.
            """,
            examples:
                "haapi logout",
            "haapi logout --all           # every profile",
            "haapi logout --end-session   # after a browser login: the provider ends its session too"))

    @OptionGroup var profile: ProfileOption
    @Flag(help: "Log out of every profile (each is reported; exit 1 when any failed).") var all = false
    @Flag(
        help:
            "After a browser login: send the browser to the provider's end_session_endpoint (with the ID token) and wait for it to come back."
    )
    var endSession = false
    @Option(help: "The program that opens the end-session URL (run with the URL as its last argument); default $BROWSER, xdg-open, open.")
    var browserCommand: String?
    @OptionGroup var log: LogOptions

    func validate() throws {
        if all && endSession { throw ValidationError("--end-session opens a browser per profile: give it without --all") }
        if all && profile.given != nil { throw ValidationError("give --all or --profile, not both") }
    }

    func run() async throws {
        log.apply()
        guard all else {
            try await logout(profile.name)
            return
        }
        let names = Profile.names()
        if names.isEmpty { Stderr.line("No profiles: nothing to do") }
        var failed = false
        for name in names {
            do { try await logout(name) } catch let failure as CLIFailure {
                // Each failure names its profile: --all reports several.
                Stderr.line("haapi: error: profile \(PrintableText(name)): \(failure.message)")
                failed = true
            }
        }
        if failed { throw ExitCode(ExitCodes.failure) }
    }

    private func logout(_ name: String) async throws {
        let (store, configuration, session) = try Profile.openSession(name)
        guard let tokens = try await store.reportingFailures(of: "reading the tokens", { try await session.authState }) else {
            Stderr.line("The profile \(name) is not logged in; nothing to do")
            return
        }
        var endSessionFailure: CLIFailure?
        if endSession {
            guard configuration.isBrowserLogin else {
                throw CLIFailure("--end-session is for a browser login (`haapi login --browser`); this profile holds a HAAPI login")
            }
            // Before the revocation, while the ID token still serves as id_token_hint; a failure
            // here does not stop the tokens from being revoked and deleted.
            do {
                try await BrowserLogin(configuration: configuration, browserCommand: browserCommand).endSession(tokens)
            } catch let failure as CLIFailure {
                endSessionFailure = failure
            }
        }
        do {
            // The session is removed first, whatever the server answers.
            _ = try await store.reportingFailures(of: "the revocation") { try await session.revoke(.all) }
        } catch let failure as CLIFailure {
            throw CLIFailure("the tokens of profile \(name) were deleted here, but \(failure.message)")
        }
        if let endSessionFailure {
            throw CLIFailure("the tokens of profile \(name) are revoked and deleted, but \(endSessionFailure.message)")
        }
        Stderr.line(
            "Logged out of profile \(name): the tokens are revoked and deleted" + (endSession ? ", and the provider ended its session" : "")
        )
    }
}
