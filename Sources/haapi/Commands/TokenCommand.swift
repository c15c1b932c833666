import ArgumentParser
import Foundation
import OIDCClient

/// `haapi token`: prints a valid access token, for `curl -H "Authorization: Bearer $(haapi token)"`.
struct TokenCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "token",
        abstract: "Print the profile's access token on standard output, refreshed first when it has less than --min-ttl left.",
        discussion: """
            Many concurrent callers, in one process or in many, cause one refresh: the first takes \
            the profile's lock file and refreshes, the others wait and print its result (even when --min-ttl is \
            longer than the server's tokens live). A DPoP-bound token \
            needs a DPoP proof with each request: see `haapi dpop-proof`, or use `haapi userinfo`.
            """)

    @OptionGroup var profile: ProfileOption
    @Option(name: .customLong("min-ttl"), help: "Refresh first when the token has fewer seconds than this left.") var minTTL: Int = 30
    @OptionGroup var log: LogOptions

    func validate() throws {
        guard minTTL >= 0 else { throw ValidationError("--min-ttl must be 0 or more seconds") }
    }

    func run() async throws {
        log.apply()
        let (store, _, session) = try Profile.openSession(profile.profile)
        _ = try await store.loggedIn(session)
        let token = try await store.reportingFailures(of: "the refresh") {
            try await session.validAccessToken(minimumLifetime: TimeInterval(minTTL))
        }
        print(token.value)
    }
}

/// `haapi refresh`: renews the profile's tokens now.
struct RefreshCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "refresh", abstract: "Refresh the profile's tokens now (the new ones are kept; nothing is printed on standard output).")

    @OptionGroup var profile: ProfileOption
    @OptionGroup var log: LogOptions

    func run() async throws {
        log.apply()
        let (store, _, session) = try Profile.openSession(profile.profile)
        let before = try await store.loggedIn(session)
        let after = try await store.reportingFailures(of: "the refresh") { try await session.refresh() }
        var parts = ["Refreshed the tokens of profile \(profile.profile)", "\(after.tokenType) token" + Self.expiry(after)]
        if let refreshToken = after.refreshToken {
            parts.append(refreshToken == before.refreshToken ? "same refresh token" : "refresh token rotated")
        }
        Stderr.line(parts.joined(separator: "; "))
    }

    static func expiry(_ tokens: AuthState) -> String {
        tokens.accessTokenExpiresAt.map { ", expires in \(Int($0.timeIntervalSinceNow.rounded())) s" } ?? ""
    }
}
