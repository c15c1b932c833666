import ArgumentParser
import Foundation
import OAuthCore
import OIDCClient

/// `haapi revoke`: revokes the profile's tokens at the server.
package struct RevokeCommand: AsyncParsableCommand {
    package init() {}

    package static let configuration = CommandConfiguration(
        commandName: "revoke",
        abstract: "Revoke the profile's tokens at the server (RFC 7009) and forget what was revoked.",
        discussion: helpText(
            """
            all (the default) revokes the refresh token and the access token and removes them from the profile; \
            refresh revokes the refresh token only (the access token is kept until it expires, though many servers revoke it with its grant); access revokes the \
            access token only (the next `haapi token` refreshes).
            """,
            examples:
                "haapi revoke",
            "haapi revoke access   # the next `haapi token` refreshes"))

    @OptionGroup package var profile: ProfileOption
    @Argument(help: "What to revoke: all, refresh or access.") package var which: Which = .all
    @OptionGroup package var log: LogOptions

    /// The argument's words.
    package enum Which: String, CaseIterable, ExpressibleByArgument {
        case all, refresh, access

        package var revocation: TokenSession.Revocation {
            switch self {
            case .all: return .all
            case .refresh: return .refreshToken
            case .access: return .accessToken
            }
        }
    }

    package func run() async throws {
        log.apply()
        let (store, _, session) = try Profile.openSession(profile.name)
        _ = try await store.loggedIn(session)
        let revoked = try await store.reportingFailures(of: "the revocation") { try await session.revoke(which.revocation) }
        Stderr.line("Revoked the \(Self.describe(revoked)) of profile \(profile.name)")
    }

    package static func describe(_ revoked: [TokenRevocationClient.TokenTypeHint]) -> String {
        revoked.isEmpty
            ? "nothing (no such token)" : revoked.map { $0 == .refreshToken ? "refresh token" : "access token" }.joined(separator: " and ")
    }
}
