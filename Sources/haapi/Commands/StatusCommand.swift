import ArgumentParser
import Foundation
import OAuthCore
import OIDCClient

/// `haapi status`: who the profile is logged in as, with what, until when; its exit code says
/// whether it can be used (0) or needs a login (4), as `gh auth status` does.
struct StatusCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Show the profile's login: its state, subject, scopes, expiry and token binding. Exit 0 when usable, 4 when a login is needed.",
        discussion: """
            The state is `logged in`, `expired, refreshable` (the next command renews it) or `login needed` \
            (no tokens, or an expired token with no refresh token). The text goes to standard error; --json \
            prints a JSON object (with --all, an array) on standard output instead. No token is shown.

            Examples:
              haapi status
              haapi status --all
              HAAPI_PROFILE=ci haapi status --json
            """)

    @OptionGroup var profile: ProfileOption
    @Flag(help: "Report every profile (exit 4 when any needs a login).") var all = false
    @Flag(help: "Print JSON on standard output.") var json = false

    func run() async throws {
        let names = all ? Profile.names() : [profile.name]
        var reports: [[String: JSONValue]] = []
        var lines: [String] = []
        for name in names {
            let (report, text) = try await Self.status(of: name)
            reports.append(report)
            lines.append(text)
        }
        if json {
            let value: JSONValue = all ? .array(reports.map(JSONValue.object)) : .object(reports.first ?? [:])
            print(String(decoding: value.serialized(pretty: true), as: UTF8.self))
        } else {
            Stderr.line(all && names.isEmpty ? "No profiles yet: log in with `haapi login --issuer URL --client-id ID`" : lines.joined(separator: "\n"))
        }
        if names.isEmpty || reports.contains(where: { $0["state"]?.stringValue == State.loginNeeded.rawValue }) {
            throw ExitCode(ExitCodes.loginNeeded)
        }
    }

    /// Whether a profile can be used now.
    enum State: String {
        case loggedIn = "logged in"
        case refreshable = "expired, refreshable"
        case loginNeeded = "login needed"
    }

    /// One profile's report and its text.
    static func status(of name: String) async throws -> (report: [String: JSONValue], text: String) {
        guard Profile.exists(name) else {
            return (["profile": .string(name), "state": .string(State.loginNeeded.rawValue)],
                    "Profile \(name): login needed (no such profile; `haapi login --profile \(name) --issuer URL --client-id ID`)")
        }
        let (store, configuration, session) = try Profile.openSession(name)
        guard let tokens = try await store.reportingFailures(of: "reading the tokens", { try await session.authState }) else {
            return (["profile": .string(name), "clientId": .string(configuration.clientID), "state": .string(State.loginNeeded.rawValue)],
                    "Profile \(name): login needed (no tokens; `haapi login --profile \(name)`)")
        }
        var report = try Self.report(tokens, profile: name, configuration: configuration)
        let state: State = tokens.isAccessTokenValid() ? .loggedIn : (tokens.refreshToken != nil ? .refreshable : .loginNeeded)
        report["state"] = .string(state.rawValue)
        var lines = ["Profile \(name): \(state.rawValue)" + (report["subject"]?.stringValue.map { " as \($0)" } ?? "")
            + (state == .loginNeeded ? " (the token expired and there is no refresh token; `haapi login --profile \(name)`)" : "")]
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
        return (report, lines.joined(separator: "\n"))
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
            report["expiresAt"] = .string(expiry.formatted(Date.ISO8601FormatStyle()))
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

/// `haapi profiles`: the saved profiles, one line each, with their state.
struct ProfilesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "profiles",
        abstract: "List the saved profiles (standard output: name, state, subject, issuer); `*` marks the one used by default.",
        discussion: """
            The profile commands use comes from --profile, else $HAAPI_PROFILE, else `default`.

            Examples:
              haapi profiles
              HAAPI_PROFILE=ci haapi token
            """)

    func run() async throws {
        let current = ProfileOption.fromEnvironment()
        let names = Profile.names()
        guard !names.isEmpty else {
            Stderr.line("No profiles yet: log in with `haapi login --issuer URL --client-id ID`")
            return
        }
        for name in names {
            let report: [String: JSONValue]
            do { report = try await StatusCommand.status(of: name).report } catch let failure as CLIFailure {
                print("\(name == current ? "*" : " ") \(name)\tunreadable: \(failure.message)")
                continue
            }
            let columns = [
                report["state"]?.stringValue ?? "?", report["subject"]?.stringValue ?? "-", report["issuer"]?.stringValue ?? "-",
            ]
            print("\(name == current ? "*" : " ") \(name)\t" + columns.joined(separator: "\t"))
        }
    }
}
