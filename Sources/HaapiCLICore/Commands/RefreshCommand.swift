import ArgumentParser
import Foundation
import OAuthCore
import OIDCClient

/// `haapi refresh`: renews the profile's tokens now.
package struct RefreshCommand: AsyncParsableCommand {
    package init() {}

    package static let configuration = CommandConfiguration(
        commandName: "refresh",
        abstract: "Refresh the profile's tokens now (the new ones are kept; nothing is printed on standard output).",
        discussion: helpText(examples: "haapi refresh", "haapi refresh --profile ci"))

    @OptionGroup package var profile: ProfileOption
    @OptionGroup package var log: LogOptions

    package func run() async throws {
        log.apply()
        let (store, _, session) = try Profile.openSession(profile.name)
        let before = try await store.loggedIn(session)
        let after = try await store.reportingFailures(of: "the refresh") { try await session.refresh() }
        var parts: [PrintableText] = [Texts.line(.refreshed, PrintableText(profile.name)), Self.tokenAndExpiry(after)]
        if let refreshToken = after.refreshToken {
            parts.append(Texts.line(refreshToken == before.refreshToken ? .refreshSameToken : .refreshRotated))
        }
        Stderr.line(PrintableText.joined(parts, separator: "; "))
    }

    /// `DPoP token, expires in 899 s`, in the user's language.
    package static func tokenAndExpiry(_ tokens: AuthState) -> PrintableText {
        let token = Texts.line(.summaryToken, PrintableText(tokens.tokenType))
        guard let expiry = tokens.accessTokenExpiresAt else { return token }
        return Texts.line(
            .summaryExpiresIn, token, PrintableText(String(OutsideNumber.wholeSeconds(expiry.timeIntervalSinceNow.rounded()))))
    }
}
