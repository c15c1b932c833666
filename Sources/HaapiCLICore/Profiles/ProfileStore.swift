import ArgumentParser
import Foundation
import OAuthCore
import OAuthTransportNIO
import OIDCClient

/// The connection settings of a profile: seed 002's config.json (issuer, clientID, which our
/// own files spell clientId, redirectUri, scope) plus what this tool needs (secret, strategy,
/// endpoints).
///
/// Package access: the fuzz harnesses read `config.json` files with it.
package struct ProfileConfiguration: Encodable, Sendable, Equatable {
    /// The provider, the client and where it is sent back (after a login, after a logout).
    package var issuer: String?
    package var clientID: String
    package var redirectUri: String
    package var postLogoutRedirectUri: String?
    /// The scopes asked for, space-separated, and the client's secret (`nil` in the file when
    /// the keyring holds it).
    package var scope, clientSecret: String?
    /// How the client proves itself; `nil`: what the other settings imply (``effectiveStrategy``).
    package var strategy: ClientStrategy?
    /// The attestation made for the ``ClientStrategy/attestation`` strategy.
    package var attestation: AttestationKind?
    /// Where HAAPI resolves relative links, and the endpoints (from discovery or given).
    package var baseURL: String?
    package var authorizationEndpoint, tokenEndpoint, userinfoEndpoint, revocationEndpoint: String?
    /// Whether tokens are bound to a DPoP key (default true).
    package var dpop: Bool?
    /// How tokens are got besides a HAAPI flow (`nil`: a HAAPI login).
    var login: LoginMethod?
    /// Origins besides the provider's that `haapi api` may send the tokens to (`haapi login --api-origin`).
    package var apiOrigins: [String]?
    /// A PEM file of CA certificates trusted besides the system's (`haapi login --cacert`).
    var caFile: String?
    /// ``SecretStore/keyring`` when the tokens and the client secret are in the system's keyring
    /// (the file then holds no secret); files otherwise.
    package var secretStore: SecretStore?

    /// Where the profile's secrets are.
    package var secrets: SecretStore { secretStore ?? .file }

    /// The file's keys: the same spelling as `haapi status --json` and `haapi server --print-config`.
    package enum CodingKeys: String, CodingKey {
        case issuer, clientID = "clientId", redirectUri, postLogoutRedirectUri, scope, clientSecret, strategy, attestation
        case baseURL = "baseUrl"
        case authorizationEndpoint, tokenEndpoint, userinfoEndpoint, revocationEndpoint, dpop, login, apiOrigins,
            caFile
        case secretStore
    }

    /// Whether the tokens come from OIDCClient (a browser or a device login), not a HAAPI flow.
    package var isBrowserLogin: Bool { login != nil }
    /// Whether the login is done with a code entered on another device.
    package var isDeviceLogin: Bool { login == .device }

    package var scopes: [String] { (scope ?? "openid").split(separator: " ").map(String.init) }

    /// `strategy`, or what the other settings imply: `secret` with a secret, `attestation`
    /// with an attestation, else `none`.
    package var effectiveStrategy: ClientStrategy {
        strategy ?? (clientSecret != nil ? .secret : attestation != nil ? .attestation : .dynamicRegistration)
    }

    /// How the client authenticates at the token and revocation endpoints: with its secret,
    /// or by `client_id` only (attested and public clients; their tokens are DPoP-bound).
    /// - Parameter storedSecret: reads the secret kept apart from the settings (in the keyring),
    ///   when they hold none; called only when the secret is needed.
    package func clientAuthentication(storedSecret: (() throws -> String?)? = nil) throws -> ClientAuthentication {
        guard effectiveStrategy == .secret else { return .none(clientID: clientID) }
        guard let secret = try clientSecret ?? storedSecret?() else {
            throw CLIFailure("the strategy \"secret\" needs a client secret (--client-secret)")
        }
        return .clientSecretBasic(clientID: clientID, secret: secret)
    }

    /// The origins `haapi api` sends these settings' tokens to: the provider's (issuer, base URL,
    /// token and userinfo endpoints), ``apiOrigins``, and `extra` (`--allow-origin`); a token
    /// sent anywhere else could be replayed there.
    package func apiOrigins(adding extra: [String]) -> Set<String> {
        let provider = [issuer, baseURL, tokenEndpoint, userinfoEndpoint].compactMap { $0 }
        return Set((provider + (apiOrigins ?? []) + extra).compactMap { URL(string: $0)?.origin })
    }

    /// Refuses, before anything is sent, a request to `url` whose origin is not one of
    /// ``apiOrigins(adding:)``, and plain `http` to another machine unless `allowInsecureHttp`.
    /// - Throws: `ValidationError` naming the origin and the flags that allow it.
    func checkAPITarget(_ url: URL, extra: [String], allowInsecureHttp: Bool) throws {
        guard let origin = url.origin, apiOrigins(adding: extra).contains(origin) else {
            // As a person writes it: without the scheme's default port.
            var shown = url.origin ?? url.absoluteString
            for (scheme, port) in [("https://", ":443"), ("http://", ":80")] where shown.hasPrefix(scheme) && shown.hasSuffix(port) {
                shown.removeLast(port.count)
            }
            throw ValidationError(
                "\(PrintableText(shown)) is not the provider's origin: the profile's token is sent only there "
                    + "(give --allow-origin \(PrintableText(shown)) for this call, or `haapi login --api-origin ORIGIN` to keep it in the profile)"
            )
        }
        try ConnectionOptions.checkTransportSecurity(url, option: "the URL", allowInsecureHttp: allowInsecureHttp)
    }
    /// The provider: discovered at the issuer (the endpoints saved at login win over the
    /// discovered ones), or, for settings without an issuer, described by the saved endpoints.
    package func provider(transport: any HTTPTransport) throws -> OpenIDProvider {
        func url(_ text: String?) -> URL? { text.flatMap(URL.init(string:)) }
        let endpoints = ProviderEndpoints(
            authorization: url(authorizationEndpoint), token: url(tokenEndpoint), userInfo: url(userinfoEndpoint),
            revocation: url(revocationEndpoint))
        do {
            return try OpenIDProvider(issuer: url(issuer), endpoints: endpoints, standInIssuer: baseURL, transport: transport)
        } catch is OIDCError {
            throw CLIFailure("the connection settings have neither an issuer nor token and authorization endpoints")
        }
    }

    /// The session of these settings' tokens in `storage`, over the commands' transport. The
    /// client's credentials are read when a request needs them (a cached token needs none).
    package func tokenSession(
        storage: any Storage, storageKey: String, lockTimeout: TimeInterval = 60, storedSecret: (@Sendable () throws -> String?)? = nil
    ) throws -> TokenSession {
        let settings = self
        return TokenSession(
            clientID: clientID, provider: try provider(transport: try AnnouncedTransport.make(for: self)), storage: storage,
            storageKey: storageKey,
            options: TokenSession.Options(lockTimeout: lockTimeout),
            clientAuthentication: { try settings.clientAuthentication(storedSecret: storedSecret) })
    }
}

extension ProfileConfiguration {
    /// The settings of a client `clientID` redirected to `redirectUri`, at `issuer`, asking for
    /// `scope`; the others are unset (the memberwise initializer sets them all).
    package init(issuer: String? = nil, clientID: String, redirectUri: String, scope: String? = nil) {
        self.init(issuer: issuer, clientID: clientID, redirectUri: redirectUri, postLogoutRedirectUri: nil, scope: scope)
    }
}

extension ProfileConfiguration {
    /// What a member of `config.json` holds.
    enum FileValue {
        case string, bool, strings
        /// One of these words.
        case oneOf([String])

        /// As an error says it: `"scope" must be a string`.
        var described: String {
            switch self {
            case .string: return "a string"
            case .bool: return "true or false"
            case .strings: return "an array of strings"
            case .oneOf(let words): return "one of " + words.map { "\"\($0)\"" }.joined(separator: ", ")
            }
        }
    }

    /// The words of a setting that is one of `Word`'s cases.
    private static func words<Word: CaseIterable & RawRepresentable<String>>(_: Word.Type) -> FileValue {
        .oneOf(Word.allCases.map(\.rawValue))
    }

    /// The keys a `config.json` (or `--config` file) may hold, and what each holds.
    static let fileKeys: [(name: String, value: FileValue)] = [
        ("issuer", .string), ("clientId", .string), ("redirectUri", .string), ("postLogoutRedirectUri", .string), ("scope", .string),
        ("clientSecret", .string), ("strategy", words(ClientStrategy.self)), ("attestation", words(AttestationKind.self)),
        ("baseUrl", .string),
        ("authorizationEndpoint", .string), ("tokenEndpoint", .string), ("userinfoEndpoint", .string), ("revocationEndpoint", .string),
        ("dpop", .bool), ("login", words(LoginMethod.self)), ("apiOrigins", .strings), ("caFile", .string),
        ("secretStore", words(SecretStore.self)),
    ]

    /// Other spellings of keys, each ours to read as it is, silently: the AppAuth example's
    /// `config.json` (seed 002) writes `clientID`, earlier versions wrote `baseURL`. A profile's
    /// file is written with today's spelling at the next save.
    static let otherSpellings = ["clientID": "clientId", "baseURL": "baseUrl"]

    /// `members` with each other spelling renamed to today's (today's wins when both are there).
    static func respelled(_ members: [String: JSONValue]) -> [String: JSONValue] {
        var members = members
        for (former, current) in otherSpellings {
            guard let value = members.removeValue(forKey: former) else { continue }
            if members[current, default: .null] == .null { members[current] = value }
        }
        return members
    }

    /// A member of a `config.json` that is missing or is not what it must be.
    struct MemberError: Error {
        let name: String
        /// What the member must be (`a string`...); `nil`: it is missing.
        let wanted: String?
    }

    /// The settings of a parsed `config.json` (members that are `null` count as absent). Read by
    /// hand, as ``AuthState`` is: `JSONDecoder` cost each start of `haapi token` more than the
    /// rest of reading the profile.
    /// - Throws: ``MemberError`` for the first member missing (`clientId`, `redirectUri`) or of the wrong type.
    init(json: JSONValue) throws(MemberError) {
        guard case .object(let written) = json else { throw MemberError(name: "", wanted: "a JSON object") }
        let members = Self.respelled(written)
        var strings: [String: String] = [:]
        var flags: [String: Bool] = [:]
        var lists: [String: [String]] = [:]
        for (name, kind) in Self.fileKeys {
            guard let member = members[name], member != .null else { continue }
            switch (member, kind) {
            case (.string(let text), .string): strings[name] = text
            case (.string(let text), .oneOf(let words)) where words.contains(text): strings[name] = text
            case (.bool(let flag), .bool): flags[name] = flag
            case (.array(let items), .strings) where items.allSatisfy({ $0.stringValue != nil }):
                lists[name] = items.compactMap(\.stringValue)
            default:
                throw MemberError(name: name, wanted: kind.described)
            }
        }
        guard let clientID = strings["clientId"] else { throw MemberError(name: "clientId", wanted: nil) }
        guard let redirectUri = strings["redirectUri"] else { throw MemberError(name: "redirectUri", wanted: nil) }
        self.init(
            issuer: strings["issuer"], clientID: clientID, redirectUri: redirectUri,
            postLogoutRedirectUri: strings["postLogoutRedirectUri"],
            scope: strings["scope"], clientSecret: strings["clientSecret"],
            strategy: strings["strategy"].flatMap(ClientStrategy.init(rawValue:)),
            attestation: strings["attestation"].flatMap(AttestationKind.init(rawValue:)),
            baseURL: strings["baseUrl"], authorizationEndpoint: strings["authorizationEndpoint"], tokenEndpoint: strings["tokenEndpoint"],
            userinfoEndpoint: strings["userinfoEndpoint"], revocationEndpoint: strings["revocationEndpoint"], dpop: flags["dpop"],
            login: strings["login"].flatMap(LoginMethod.init(rawValue:)), apiOrigins: lists["apiOrigins"], caFile: strings["caFile"],
            secretStore: strings["secretStore"].flatMap(SecretStore.init(rawValue:)))
    }

    /// The redirect URI of a HAAPI login when none is given.
    static let defaultRedirectURI = "haapi://callback"

    /// Reads a `--config` file (seed 002's config.json: issuer, clientId, redirectUri, scope,
    /// and the other settings a profile keeps). What is wrong is said in the file's terms: the
    /// key, what it must be, the nearest known key for a misspelt one. `redirectUri` defaults
    /// to `haapi://callback`; `clientId` (`--client-id`) stands in for a file without one.
    package static func read(configFile path: String, clientID: String? = nil) throws -> ProfileConfiguration {
        try read(configData: InputFiles.read(path, "the configuration", limit: InputFiles.Limit.small), path: path, clientID: clientID)
    }

    /// The settings in `data`, the contents of the `--config` file `path`, as
    /// ``read(configFile:clientID:)`` reads them.
    /// - Throws: a ``CLIFailure`` saying what is wrong, in the file's terms.
    package static func read(configData data: Data, path: String, clientID: String? = nil) throws(CLIFailure) -> ProfileConfiguration {
        guard let value = try? JSONValue(parsing: data), case .object(var members) = value else {
            throw CLIFailure("\(path) is not a JSON object such as {\"issuer\": \"https://op.example\", \"clientId\": \"my-app\"}")
        }
        let names = fileKeys.map(\.name)
        for key in members.keys.sorted() {
            guard !names.contains(key), otherSpellings[key] == nil else { continue }
            let suggestion =
                names.first { $0.caseInsensitiveCompare(key) == .orderedSame }
                ?? names.first { $0.lowercased() == key.lowercased().replacingOccurrences(of: "_", with: "") }
                ?? NearestName.to(key, among: names)
            throw CLIFailure(
                "\(path): unknown key \"\(PrintableText(key))\""
                    + (suggestion.map { "; did you mean \"\($0)\"?" } ?? " (the keys: \(names.joined(separator: ", ")))"))
        }
        members = respelled(members)
        if members["clientId", default: .null] == .null, let clientID { members["clientId"] = .string(clientID) }
        if members["redirectUri", default: .null] == .null { members["redirectUri"] = .string(defaultRedirectURI) }
        do { return try ProfileConfiguration(json: .object(members)) } catch {
            guard let wanted = error.wanted else {
                throw CLIFailure("\(path): \"\(error.name)\" is missing (the client id registered at the server; or give --client-id)")
            }
            throw CLIFailure("\(path): \"\(error.name)\" must be \(wanted)")
        }
    }
}

/// How a client proves itself to the HAAPI server (`strategy` in `config.json`).
package enum ClientStrategy: String, Sendable, Encodable, CaseIterable {
    /// With its client secret (client credentials).
    case secret
    /// With a client attestation (``AttestationKind``).
    case attestation
    /// With neither (`none`): dynamic client registration with what the device can attest, if
    /// anything. Not named `none`, which `Optional` has too.
    case dynamicRegistration = "none"
}

/// The attestation the command line makes for the ``ClientStrategy/attestation`` strategy.
package enum AttestationKind: String, Sendable, Encodable, CaseIterable, ExpressibleByArgument {
    /// The insecure software attestation, which only development servers accept.
    case software
}

/// How a profile gets its tokens besides a HAAPI flow (`login` in `config.json`).
enum LoginMethod: String, Sendable, Encodable, CaseIterable {
    /// A browser login (`haapi login --browser`).
    case browser
    /// A code entered on another device (`haapi login --device`).
    case device
}

/// `$HAAPI_HOME/profiles/<name>/`: `config.json`, and `tokens.json`, the profile's
/// ``TokenSession`` (tokens and DPoP key in one atomic write, refreshed under the lock file
/// `.lock-tokens.json` next to them), written by OAuthCore's FileStorage (directory 0700, files 0600).
package struct Profile {
    static let configKey = "config.json"
    package static let tokensKey = "tokens.json"
    /// The keyring item of the client secret, when the profile's secrets are in the keyring.
    static let clientSecretKey = "client-secret"

    package let name: String
    package let directory: URL
    package let storage: FileStorage

    /// `$HAAPI_HOME`, else `$XDG_CONFIG_HOME/swift-haapi`, else `~/.config/swift-haapi`.
    package static func home(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        if let home = environment["HAAPI_HOME"], !home.isEmpty { return URL(fileURLWithPath: home) }
        return XDGDirectory.config(environment: environment)
    }

    /// Checks that `name` can name a profile directory.
    package static func validate(_ name: String) throws {
        // The characters a storage key keeps as its file's name, as the profile's folder's name.
        guard !name.isEmpty, !name.hasPrefix("."), name.utf8.allSatisfy(FileStorage.isPlainNameByte) else {
            throw CLIFailure("invalid profile name \"\(name)\" (use letters, digits, '.', '_' and '-')")
        }
    }

    /// The profiles' folder.
    package static var folder: URL { home().appendingPathComponent("profiles") }

    /// Whether the profile `name` has been saved (a login kept its settings).
    package static func exists(_ name: String) -> Bool {
        FileManager.default.fileExists(atPath: folder.appendingPathComponent(name).appendingPathComponent(configKey).path)
    }

    /// The names of the saved profiles, sorted.
    package static func names() -> [String] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return entries.filter { (try? validate($0)) != nil && exists($0) }.sorted()
    }

    /// Opens the profile `name`, creating its folder: for a login, which saves it.
    package static func open(_ name: String) throws -> Profile {
        try validate(name)
        let profiles = folder
        try makeDirectory(home())
        try makeDirectory(profiles)
        return try storage(of: name, in: profiles)
    }

    /// The profile `name` in the folder `profiles`, its own folder made if missing.
    private static func storage(of name: String, in profiles: URL) throws -> Profile {
        let directory = profiles.appendingPathComponent(name)
        do {
            return Profile(name: name, directory: directory, storage: try FileStorage(directory: directory))
        } catch {
            throw CLIFailure("cannot open the profile directory \(directory.path): \(Profile.describe(error))")
        }
    }

    /// Opens a saved profile without creating anything.
    /// - Throws: a ``CLIFailure`` with exit code 4 (login needed) when there is no such profile.
    static func openSaved(_ name: String) throws -> Profile {
        try validate(name)
        guard exists(name) else {
            let known = names()
            let listed: PrintableText = known.isEmpty ? "" : " (\(PrintableText(known.joined(separator: ", "))))"
            throw CLIFailure(Texts.line(.noSuchProfile, PrintableText(name), listed), exitCode: ExitCodes.loginNeeded)
        }
        // Its folders exist: nothing to make (a cached `haapi token` is a few file reads).
        return try storage(of: name, in: folder)
    }

    private static func makeDirectory(_ url: URL) throws {
        do {
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw CLIFailure("cannot create \(url.path): \(error.localizedDescription)")
        }
    }

    /// The saved settings; `nil` when there are none. `withClientSecret`: with the client secret
    /// the keyring keeps (for a login, which needs it at once).
    /// - Throws: a ``CLIFailure`` naming the file when it cannot be read.
    package func readConfiguration(withClientSecret: Bool = false) throws -> ProfileConfiguration? {
        let path = directory.appendingPathComponent(Self.configKey).path
        let data: Data?
        do { data = try storage.read(key: Self.configKey) } catch {
            throw CLIFailure("cannot read \(path): \(Profile.describe(error))")
        }
        guard let data else { return nil }
        var settings = try ProfileConfiguration(storedData: data, path: path, profile: name)
        if withClientSecret && settings.secrets == .keyring && settings.clientSecret == nil {
            settings.clientSecret = try storedSecretReader(settings)?()
        }
        return settings
    }

    /// Saves `configuration`; its client secret goes to the keyring when its secrets are kept
    /// there, and the secrets of the other store (a login that moved them) are removed.
    package func writeConfiguration(_ configuration: ProfileConfiguration, replacing previous: SecretStore? = nil) throws {
        var file = configuration
        if configuration.secrets == .keyring {
            let keyring = Keyring.storage(for: directory)
            do {
                if let secret = configuration.clientSecret {
                    try keyring.write(key: Self.clientSecretKey, data: Data(secret.utf8))
                } else {
                    try keyring.delete(key: Self.clientSecretKey)
                }
            } catch {
                throw CLIFailure("cannot keep the client secret in \(Keyring.name): \(Profile.describe(error))")
            }
            // Said outright: without its secret in the file, the strategy could no longer be inferred.
            file.strategy = configuration.effectiveStrategy
            file.clientSecret = nil
        }
        try storage.write(key: Self.configKey, data: try file.storedData())
        if let previous, previous != configuration.secrets { try? removeSecrets(from: previous) }
    }

    /// Removes the tokens and client secret kept in `store` (the keyring's items, or the tokens file).
    package func removeSecrets(from store: SecretStore) throws {
        switch store {
        case .keyring:
            let keyring = Keyring.storage(for: directory)
            try keyring.delete(key: Self.tokensKey)
            try keyring.delete(key: Self.clientSecretKey)
        case .file:
            try storage.delete(key: Self.tokensKey)
        }
    }

    /// Where the session of `configuration` keeps its tokens: the keyring (with the folder's
    /// lock) or the folder's files.
    func secretStorage(_ configuration: ProfileConfiguration) -> any LockingStorage {
        configuration.secrets == .keyring ? KeyringTokenStorage(files: storage, keyring: Keyring.storage(for: directory)) : storage
    }

    /// Reads the client secret from the keyring, for settings that keep it there.
    private func storedSecretReader(_ configuration: ProfileConfiguration) -> (@Sendable () throws -> String?)? {
        guard configuration.secrets == .keyring else { return nil }
        let keyring = Keyring.storage(for: directory)
        return {
            do {
                return try keyring.read(key: Self.clientSecretKey).map { String(decoding: $0, as: UTF8.self) }
            } catch {
                throw CLIFailure("cannot read the client secret from \(Keyring.name): \(Profile.describe(error))")
            }
        }
    }

    /// Where a login with `configuration` keeps the tokens it gets: for the keyring, a
    /// ``LoginTokenStorage`` that falls back to the folder's files when the keyring refuses them.
    package func loginStorage(_ configuration: ProfileConfiguration) -> any LockingStorage {
        configuration.secrets == .keyring
            ? LoginTokenStorage(KeyringTokenStorage(files: storage, keyring: Keyring.storage(for: directory))) : storage
    }

    /// The profile's token session, for its saved settings (kept in `storage`, else where the
    /// settings say).
    package func session(_ configuration: ProfileConfiguration, storage: (any LockingStorage)? = nil) throws -> TokenSession {
        try configuration.tokenSession(
            storage: storage ?? secretStorage(configuration), storageKey: Self.tokensKey, storedSecret: storedSecretReader(configuration))
    }

    /// Opens the saved profile `name` with its settings and session; creates nothing.
    package static func openSession(_ name: String) throws -> (profile: Profile, configuration: ProfileConfiguration, session: TokenSession)
    {
        let profile = try Profile.openSaved(name)
        guard let configuration = try profile.readConfiguration() else {
            throw CLIFailure("the profile \"\(name)\" has no connection settings: run `haapi login --profile \(name)` first")
        }
        return (profile, configuration, try profile.session(configuration))
    }
}

extension ProfileConfiguration {
    /// The settings as a profile's `config.json` holds them.
    package func storedData() throws -> Data { try JSONValue.encodeSorted(self, pretty: true) }

    /// The settings of a profile's `config.json`: `data`, read from `path`, of the profile `profile`.
    /// - Throws: a ``CLIFailure`` naming the file when `data` is not the JSON haapi writes.
    package init(storedData data: Data, path: String, profile: String) throws(CLIFailure) {
        guard let value = try? JSONValue(parsing: data), let settings = try? ProfileConfiguration(json: value) else {
            throw CLIFailure(
                "the profile's settings file \(path) is damaged (not the JSON haapi writes); "
                    + "`haapi login --profile \(profile) --issuer URL --client-id ID` replaces it")
        }
        self = settings
    }
}
