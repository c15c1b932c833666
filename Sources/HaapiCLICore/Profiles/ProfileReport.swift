import ArgumentParser
import Foundation
import OAuthCore
import OIDCClient

/// What `haapi status` and `haapi profiles` report of one profile. Its JSON has the same keys in
/// every state (`null` where a state has no value), so that scripts need not test for them.
package struct ProfileReport {
    /// Whether a profile can be used now; the JSON's `state`.
    package enum State: String, CaseIterable {
        case loggedIn, refreshable, loginNeeded, loggedOut, missing, broken

        /// How the text output says it.
        package var text: PrintableText {
            switch self {
            case .loggedIn: return Texts.line(.stateLoggedIn)
            case .refreshable: return Texts.line(.stateRefreshable)
            case .loginNeeded: return Texts.line(.stateLoginNeeded)
            case .loggedOut: return Texts.line(.stateLoggedOut)
            case .missing: return Texts.line(.stateMissing)
            case .broken: return Texts.line(.stateBroken)
            }
        }

        /// Whether a command can use the profile without a new login.
        var isUsable: Bool { self == .loggedIn || self == .refreshable }
    }

    /// The keys of ``json``, in every state.
    package static let keys = [
        "profile", "isDefault", "state", "issuer", "clientId", "subject", "scope", "tokenType", "binding", "expiresAt", "expiresIn",
        "expired",
        "refreshToken", "secretStore", "problem",
    ]

    package let profile: String
    package var state: State
    package var members: [String: JSONValue] = [:]
    /// Why the profile is broken, or what the user can do next.
    package var problem: String?

    package var json: JSONValue {
        var object = Dictionary(uniqueKeysWithValues: Self.keys.map { ($0, JSONValue.null) })
        object.merge(members) { _, given in given }
        object["profile"] = .string(profile)
        object["isDefault"] = .bool(profile == ProfileOption.defaultName())
        object["state"] = .string(state.rawValue)
        object["refreshToken"] = members["refreshToken"] ?? .bool(false)
        object["problem"] = problem.map(JSONValue.string) ?? .null
        return .object(object)
    }

    /// The report of the profile `name`; reading it never throws: a damaged profile is `broken`.
    package static func read(_ name: String, now: Date = Date()) async -> ProfileReport {
        guard Profile.exists(name) else {
            return ProfileReport(profile: name, state: .missing, problem: "`haapi login --profile \(name) --issuer URL --client-id ID`")
        }
        do {
            let (store, configuration, session) = try Profile.openSession(name)
            var report = ProfileReport(profile: name, state: .loggedOut)
            report.members["clientId"] = .string(configuration.clientID)
            report.members["secretStore"] = .string(configuration.secrets.rawValue)
            report.members["issuer"] = (configuration.issuer ?? configuration.baseURL).map(JSONValue.string)
            guard let tokens = try await store.reportingFailures(of: "reading the tokens", { try await session.authState }) else {
                report.problem = "`haapi login --profile \(name)`"
                return report
            }
            report.members.merge(try tokenMembers(tokens, profile: name, now: now)) { _, new in new }
            switch tokens.usability(at: now) {
            case .usable: report.state = .loggedIn
            case .refreshable: report.state = .refreshable
            case .loginNeeded: report.state = .loginNeeded
            }
            if report.state == .loginNeeded {
                report.problem = "the token expired and there is no refresh token; `haapi login --profile \(name)`"
            }
            return report
        } catch {
            return ProfileReport(
                profile: name, state: .broken, problem: (error as? CLIFailure)?.message.description ?? Profile.describe(error))
        }
    }

    /// What the profile's tokens say; no token appears in it.
    package static func tokenMembers(_ tokens: AuthState, profile: String, now: Date) throws -> [String: JSONValue] {
        var members: [String: JSONValue] = ["tokenType": .string(tokens.tokenType), "refreshToken": .bool(tokens.refreshToken != nil)]
        members["subject"] = tokens.subject.map(JSONValue.string)
        members["scope"] = (tokens.scope ?? JWTClaims.unverifiedPayload(tokens.accessToken)?["scope"]?.stringValue).map(JSONValue.string)
        if let expiry = tokens.accessTokenExpiresAt {
            let seconds = OutsideNumber.wholeSeconds(expiry.timeIntervalSince(now).rounded(.down))
            members["expiresAt"] = .string(expiry.formatted(Date.ISO8601FormatStyle()))
            members["expiresIn"] = .integer(seconds)
            members["expired"] = .bool(seconds <= 0)
        }
        if tokens.isDPoPBound {
            guard let key = tokens.dpopKey, let thumbprint = try? Dpop(privateJWK: key).thumbprint else {
                throw CLIFailure(
                    "the tokens are DPoP-bound but the profile's key is missing or unusable: run `haapi login --profile \(profile)`")
            }
            members["binding"] = .object(["type": "DPoP", "jkt": .string(thumbprint)])
        } else {
            members["binding"] = .object(["type": "Bearer"])
        }
        return members
    }

    /// `date` in the local time zone, to the minute (`2026-11-26 21:40`).
    package static func localMinute(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = .current
        formatter.dateFormat = "yyyy-MM-dd HH:mm"
        return formatter.string(from: date)
    }

    /// A time left as a person reads it: `45 s`, `14 min`, `2 h 5 min`.
    package static func duration(_ seconds: Int) -> String {
        if seconds < 60 { return "\(seconds) s" }
        if seconds < 3600 { return "\(seconds / 60) min" }
        let minutes = seconds % 3600 / 60
        return "\(seconds / 3600) h" + (minutes > 0 ? " \(minutes) min" : "")
    }

    /// The report as `haapi status` prints it.
    /// The report for a person; a server's `sub` or `scope` in it cannot act on the terminal.
    package var text: PrintableText {
        let subject = members["subject"]?.stringValue.map { Texts.line(.statusAs, PrintableText($0)) } ?? ""
        let problem: PrintableText = self.problem.map { " (\($0))" } ?? ""
        let heading = Texts.line(.statusLine, PrintableText(profile), state.text, subject + problem)
        switch state {
        case .missing, .loggedOut, .broken:
            return heading
        case .loggedIn, .refreshable, .loginNeeded:
            func text(_ key: String) -> PrintableText { PrintableText(members[key]?.stringValue ?? "?") }
            var lines = [heading, Texts.line(.statusIssuer, text("issuer"), text("clientId"))]
            lines.append(Texts.line(.statusScope, members["scope"]?.stringValue.map { PrintableText($0) } ?? Texts.line(.statusScopeNone)))
            if let seconds = members["expiresIn"]?.intValue {
                // For a person: local time to the minute, and how long is left; --json keeps ISO 8601 (UTC) and seconds.
                let at = PrintableText(
                    members["expiresAt"]?.stringValue.flatMap { try? Date($0, strategy: .iso8601) }.map(Self.localMinute) ?? "")
                lines.append(
                    Texts.line(
                        .statusExpires,
                        seconds > 0
                            ? Texts.line(.statusExpiresIn, at, PrintableText(Self.duration(seconds))) : Texts.line(.statusExpired, at)))
            } else {
                lines.append(Texts.line(.statusExpires, Texts.line(.statusExpiresUnknown)))
            }
            let binding =
                members["binding"]?["jkt"]?.stringValue.map { Texts.line(.statusBindingDpop, PrintableText($0)) }
                ?? Texts.line(.statusBindingBearer)
            lines.append(Texts.line(.statusBinding, binding))
            lines.append(
                Texts.line(.statusRefresh, Texts.line(members["refreshToken"]?.boolValue == true ? .statusRefreshKept : .statusRefreshNone))
            )
            if let store = members["secretStore"]?.stringValue.flatMap(SecretStore.init(rawValue:)) {
                lines.append(Texts.line(.statusSecrets, store.described))
            }
            return PrintableText.joined(lines, separator: "\n")
        }
    }
}
