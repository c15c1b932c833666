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

    @OptionGroup var profile: ProfileOption
    @Flag(help: "Report every profile (exit 1 when any is broken, else 4 when any needs a login).") var all = false
    @Flag(help: "Print JSON on standard output.") var json = false

    func run() async throws {
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

/// What `haapi status` and `haapi profiles` report of one profile. Its JSON has the same keys in
/// every state (`null` where a state has no value), so that scripts need not test for them.
package struct ProfileReport {
    /// Whether a profile can be used now; the JSON's `state`.
    enum State: String, CaseIterable {
        case loggedIn, refreshable, loginNeeded, loggedOut, missing, broken

        /// How the text output says it.
        var text: PrintableText {
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
    static let keys = [
        "profile", "isDefault", "state", "issuer", "clientId", "subject", "scope", "tokenType", "binding", "expiresAt", "expiresIn", "expired",
        "refreshToken", "secretStore", "problem",
    ]

    let profile: String
    var state: State
    var members: [String: JSONValue] = [:]
    /// Why the profile is broken, or what the user can do next.
    var problem: String?

    var json: JSONValue {
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
    static func read(_ name: String, now: Date = Date()) async -> ProfileReport {
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
            if report.state == .loginNeeded { report.problem = "the token expired and there is no refresh token; `haapi login --profile \(name)`" }
            return report
        } catch {
            return ProfileReport(profile: name, state: .broken, problem: (error as? CLIFailure)?.message.description ?? Profile.describe(error))
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
                throw CLIFailure("the tokens are DPoP-bound but the profile's key is missing or unusable: run `haapi login --profile \(profile)`")
            }
            members["binding"] = .object(["type": "DPoP", "jkt": .string(thumbprint)])
        } else {
            members["binding"] = .object(["type": "Bearer"])
        }
        return members
    }

    /// `date` in the local time zone, to the minute (`2026-11-26 21:40`).
    static func localMinute(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = .current
        formatter.dateFormat = "yyyy-MM-dd HH:mm"
        return formatter.string(from: date)
    }

    /// A time left as a person reads it: `45 s`, `14 min`, `2 h 5 min`.
    static func duration(_ seconds: Int) -> String {
        if seconds < 60 { return "\(seconds) s" }
        if seconds < 3600 { return "\(seconds / 60) min" }
        let minutes = seconds % 3600 / 60
        return "\(seconds / 3600) h" + (minutes > 0 ? " \(minutes) min" : "")
    }

    /// The report as `haapi status` prints it.
    /// The report for a person; a server's `sub` or `scope` in it cannot act on the terminal.
    var text: PrintableText {
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
                let at = PrintableText(members["expiresAt"]?.stringValue.flatMap { try? Date($0, strategy: .iso8601) }.map(Self.localMinute) ?? "")
                lines.append(Texts.line(.statusExpires, seconds > 0 ? Texts.line(.statusExpiresIn, at, PrintableText(Self.duration(seconds))) : Texts.line(.statusExpired, at)))
            } else {
                lines.append(Texts.line(.statusExpires, Texts.line(.statusExpiresUnknown)))
            }
            let binding = members["binding"]?["jkt"]?.stringValue.map { Texts.line(.statusBindingDpop, PrintableText($0)) } ?? Texts.line(.statusBindingBearer)
            lines.append(Texts.line(.statusBinding, binding))
            lines.append(Texts.line(.statusRefresh, Texts.line(members["refreshToken"]?.boolValue == true ? .statusRefreshKept : .statusRefreshNone)))
            if let store = members["secretStore"]?.stringValue.flatMap(SecretStore.init(rawValue:)) {
                lines.append(Texts.line(.statusSecrets, store.described))
            }
            return PrintableText.joined(lines, separator: "\n")
        }
    }
}

/// `haapi profiles`: the saved profiles (list, the default one, deleting one).
struct ProfilesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "profiles",
        abstract: "List the saved profiles, choose the default one, or delete one.",
        discussion: helpText(
            """
            The profile a command uses comes from --profile, else $HAAPI_PROFILE, else the one \
            `haapi profiles use NAME` chose, else `default`.
            """,
            examples:
                "haapi profiles",
                "haapi profiles use work",
                "haapi profiles delete old",
                "haapi profiles --json"),
        subcommands: [ProfilesListCommand.self, ProfilesUseCommand.self, ProfilesDeleteCommand.self],
        defaultSubcommand: ProfilesListCommand.self)
}

/// `haapi profiles [list]`: one line per profile, or a JSON array.
struct ProfilesListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List the saved profiles (standard output: name, state, subject, issuer); `*` marks the one used by default.")

    @Flag(help: "Print a JSON array of `haapi status --json` objects on standard output.") var json = false

    func run() async throws {
        let current = ProfileOption.defaultName()
        let names = Profile.names()
        var reports: [ProfileReport] = []
        for name in names { reports.append(await ProfileReport.read(name)) }
        if json {
            Stdout.json(.array(reports.map(\.json)))
            return
        }
        guard !names.isEmpty else {
            Stderr.line("No profiles yet: log in with `haapi login --issuer URL --client-id ID`")
            return
        }
        for report in reports {
            let columns: [PrintableText] = report.state == .broken
                ? ["\(report.state.text): \(report.problem ?? "")"]
                : ["\(report.state.text)", "\(report.members["subject"]?.stringValue ?? "-")", "\(report.members["issuer"]?.stringValue ?? "-")"]
            Stdout.line("\(report.profile == current ? "*" : " ") \(report.profile)\t" + PrintableText.joined(columns, separator: "\t"))
        }
    }
}

/// `haapi profiles use NAME`: the profile commands use when neither --profile nor $HAAPI_PROFILE names one.
struct ProfilesUseCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "use", abstract: "Make NAME the profile commands use by default ($HAAPI_PROFILE and --profile still win).")

    @Argument(help: "A saved profile.", completion: .custom { _, _, _ in Profile.names() }) var name: String

    func run() throws {
        _ = try Profile.openSaved(name)
        try ProfileOption.setDefault(name)
        Stderr.line("Commands now use profile \(name) by default" + (ProfileOption.environmentName() != nil ? " (but HAAPI_PROFILE is set here, and wins)" : ""))
    }
}

/// `haapi profiles delete NAME`: logs out (best effort) and removes the profile's folder.
struct ProfilesDeleteCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "delete",
        abstract: "Delete a profile: its tokens are revoked when the server can be reached, then its settings, tokens and key are removed.")

    @Argument(help: "A saved profile.", completion: .custom { _, _, _ in Profile.names() }) var name: String
    @Flag(help: "Delete the profile even when the keyring cannot remove its items (they stay in the keyring; the command says so).")
    var force = false
    @OptionGroup var log: LogOptions

    func run() async throws {
        log.apply()
        let store = try Profile.openSaved(name)
        var note = ""
        let configuration = try? store.readConfiguration()
        if let configuration, let session = try? store.session(configuration), (try? await session.authState) != nil {
            do {
                _ = try await store.reportingFailures(of: "the revocation") { try await session.revoke(.all) }
            } catch let failure as CLIFailure {
                note = " (the server was not told: \(failure.message))"
            }
        }
        if configuration?.secrets == .keyring {
            do { try store.removeSecrets(from: .keyring) } catch where force {
                Texts.warn("the profile's items stay in \(Keyring.name), which cannot remove them (\(PrintableText(Profile.describe(error)))); remove them there (attribute profile \(PrintableText(store.directory.path)))")
            } catch {
                throw CLIFailure(
                    "cannot remove the profile's items from \(Keyring.name): \(Profile.describe(error)); the profile is kept "
                        + "(`haapi profiles delete \(name) --force` deletes it, leaving the items in the keyring)")
            }
        }
        do { try FileManager.default.removeItem(at: store.directory) } catch {
            throw CLIFailure("cannot delete \(store.directory.path): \(error.localizedDescription)")
        }
        if ProfileOption.savedDefault() == name { try ProfileOption.setDefault(nil) }
        Stderr.line("Deleted profile \(name)\(note)")
    }
}
