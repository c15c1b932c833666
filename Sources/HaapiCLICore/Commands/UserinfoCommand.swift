import ArgumentParser
import Foundation
import OAuthCore
import OIDCClient

/// `haapi userinfo`: the OpenID Connect UserInfo response for the profile's login.
package struct UserinfoCommand: AsyncParsableCommand {
    package init() {}

    package static let configuration = CommandConfiguration(
        commandName: "userinfo",
        abstract: "Print the UserInfo response (JSON, standard output) for the profile's access token.",
        discussion: helpText(
            """
            The token is refreshed first when it is about to expire, and once more if the server answers 401. \
            A response about another user than the logged-in one (its sub is not the ID token's) is refused.
            """,
            examples: "haapi userinfo", "haapi userinfo --profile ci | jq .email"))

    @OptionGroup package var profile: ProfileOption
    @OptionGroup package var log: LogOptions

    package func run() async throws {
        log.apply()
        let (store, _, session) = try Profile.openSession(profile.name)
        _ = try await store.loggedIn(session)
        let info = try await store.reportingFailures(of: "the UserInfo request") { try await session.userInfo() }
        Stdout.json(.object(info.claims))
    }
}
