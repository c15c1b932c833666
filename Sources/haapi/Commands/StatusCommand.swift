import ArgumentParser
import Foundation
import OAuthCore
import OIDCClient

/// `haapi status`: who the profile is logged in as, with what, until when.
struct StatusCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Show the profile's login: subject, scopes, expiry and token binding (exit 1 when not logged in).",
        discussion: "The text goes to standard error; --json prints a JSON object on standard output instead. No token is shown.")

    @OptionGroup var profile: ProfileOption
    @Flag(help: "Print a JSON object on standard output.") var json = false

    func run() async throws {
        let (store, configuration, session) = try Profile.openSession(profile.profile)
        let report = try Self.report(try await store.loggedIn(session), profile: store.name, configuration: configuration)
        if json {
            print(String(decoding: JSONValue.object(report).serialized(pretty: true), as: UTF8.self))
            return
        }
        var lines = ["Profile \(profile.profile): logged in" + (report["subject"]?.stringValue.map { " as \($0)" } ?? "")]
        lines.append("  issuer:   \(report["issuer"]?.stringValue ?? "?")  (client \(configuration.clientID))")
        lines.append("  scope:    \(report["scope"]?.stringValue ?? "(not given)")")
        if let seconds = report["expiresIn"]?.intValue {
            lines.append("  expires:  \(report["expiresAt"]?.stringValue ?? "")" + (seconds > 0 ? " (in \(seconds) s)" : " (expired)"))
        } else {
            lines.append("  expires:  unknown")
        }
        let binding = report["binding"]?["jkt"]?.stringValue.map { "DPoP, key thumbprint \($0)" } ?? "none (Bearer)"
        lines.append("  binding:  \(binding)")
        lines.append("  refresh:  \(report["refreshToken"]?.boolValue == true ? "a refresh token is kept" : "no refresh token")")
        Stderr.line(lines.joined(separator: "\n"))
    }

    /// The status as JSON members; no token appears in it.
    static func report(_ tokens: AuthState, profile: String, configuration: ProfileConfiguration, now: Date = Date()) throws -> [String: JSONValue] {
        var report: [String: JSONValue] = [
            "profile": .string(profile), "clientId": .string(configuration.clientID),
            "tokenType": .string(tokens.tokenType), "refreshToken": .bool(tokens.refreshToken != nil),
        ]
        report["issuer"] = (configuration.issuer ?? configuration.baseURL).map(JSONValue.string)
        report["subject"] = tokens.subject.map(JSONValue.string)
        report["scope"] = (tokens.scope ?? JWTText.claims(tokens.accessToken)?["scope"]?.stringValue).map(JSONValue.string)
        if let expiry = tokens.accessTokenExpiresAt {
            let seconds = Int(expiry.timeIntervalSince(now).rounded(.down))
            report["expiresAt"] = .string(ISO8601DateFormatter().string(from: expiry))
            report["expiresIn"] = .integer(seconds)
            report["expired"] = .bool(seconds <= 0)
        }
        if tokens.isDPoPBound {
            guard let key = tokens.dpopKey, let thumbprint = try? Dpop(privateJWK: key).thumbprint else {
                throw CLIFailure("the tokens are DPoP-bound but the profile's key is missing or unusable: run `haapi login --profile \(profile)`")
            }
            report["binding"] = .object(["type": "DPoP", "jkt": .string(thumbprint)])
        } else {
            report["binding"] = .object(["type": "Bearer"])
        }
        return report
    }
}
