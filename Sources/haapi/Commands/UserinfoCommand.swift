import ArgumentParser
import Foundation
import OAuthCore

/// `haapi userinfo`: the OpenID Connect UserInfo response for the profile's login.
struct UserinfoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "userinfo",
        abstract: "Print the UserInfo response (JSON, standard output) for the profile's access token.",
        discussion: "The token is refreshed first when it is about to expire, and once more if the server answers 401 invalid_token.")

    @OptionGroup var profile: ProfileOption
    @OptionGroup var log: LogOptions

    func run() async throws {
        log.apply()
        let keeper = try ProfileTokens.open(profile.profile)
        guard let endpoint = keeper.configuration.userinfoEndpoint.flatMap(URL.init(string:)) else {
            throw CLIFailure("the profile \"\(profile.profile)\" knows no userinfo endpoint (the server's discovery document has none)")
        }
        let response = try await keeper.send { TransportRequest(url: endpoint, headers: ["Accept": "application/json"]) }
        guard response.status == 200 else {
            let challenge = response.headers["WWW-Authenticate"].map { " (\($0))" } ?? ""
            throw CLIFailure("the userinfo endpoint answered HTTP \(response.status)\(challenge)")
        }
        guard let document = try? JSONValue(parsing: response.body) else {
            throw CLIFailure("the userinfo endpoint answered with \(response.mediaType ?? "no content type"), not JSON (a signed userinfo JWT is not supported)")
        }
        print(String(decoding: document.serialized(pretty: true), as: UTF8.self))
    }
}
