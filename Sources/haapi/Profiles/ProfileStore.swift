import Foundation
import HaapiUI
import OAuthCore

/// The connection settings of a profile: seed 002's config.json (issuer, clientID,
/// redirectUri, scope) plus what this tool needs (secret, strategy, endpoints).
struct ProfileConfiguration: Codable, Sendable, Equatable {
    var issuer: String?
    var clientID: String
    var redirectUri: String
    var postLogoutRedirectUri: String?
    var scope: String?
    var clientSecret: String?
    /// `secret`, `attestation` or `none`.
    var strategy: String?
    /// `software` for the insecure software attestation (development server only).
    var attestation: String?
    var baseURL: String?
    var authorizationEndpoint: String?
    var tokenEndpoint: String?
    var userinfoEndpoint: String?
    var revocationEndpoint: String?
    /// Whether tokens are bound to a DPoP key (default true).
    var dpop: Bool?

    var scopes: [String] { (scope ?? "openid").split(separator: " ").map(String.init) }
}

/// Tokens as the profile keeps them.
struct StoredTokens: Codable, Sendable {
    var accessToken: String
    var tokenType: String
    var expiresAt: Date?
    var refreshToken: String?
    var idToken: String?
    var scope: String?
    var receivedAt: Date

    init(_ model: OAuthTokenModel) {
        accessToken = model.accessToken
        tokenType = model.tokenType
        expiresAt = model.response.expiresAt
        refreshToken = model.refreshToken
        idToken = model.idToken
        scope = model.scope
        receivedAt = model.response.receivedAt
    }
}

/// `$HAAPI_HOME/profiles/<name>/`: config.json, tokens.json and dpop-key.json, written
/// atomically by OAuthCore's FileStorage (directory 0700, files 0600).
struct Profile {
    static let configKey = "config.json"
    static let tokensKey = "tokens.json"
    static let dpopKeyKey = "dpop-key.json"

    let name: String
    let directory: URL
    let storage: FileStorage

    /// `$HAAPI_HOME`, else `$XDG_CONFIG_HOME/swift-haapi`, else `~/.config/swift-haapi`.
    static func home(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        if let home = environment["HAAPI_HOME"], !home.isEmpty { return URL(fileURLWithPath: home) }
        let config = environment["XDG_CONFIG_HOME"].flatMap { $0.isEmpty ? nil : URL(fileURLWithPath: $0) }
            ?? FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".config")
        return config.appendingPathComponent("swift-haapi")
    }

    /// Opens (creating it) the profile `name`.
    static func open(_ name: String) throws -> Profile {
        guard !name.isEmpty, !name.hasPrefix("."), name.unicodeScalars.allSatisfy({
            $0.isASCII && (CharacterSet.alphanumerics.contains($0) || "._-".unicodeScalars.contains($0))
        }) else {
            throw CLIFailure("invalid profile name \"\(name)\" (use letters, digits, '.', '_' and '-')")
        }
        let profiles = home().appendingPathComponent("profiles")
        try makeDirectory(home())
        try makeDirectory(profiles)
        let directory = profiles.appendingPathComponent(name)
        do {
            return Profile(name: name, directory: directory, storage: try FileStorage(directory: directory))
        } catch {
            throw CLIFailure("cannot open the profile directory \(directory.path): \(error)")
        }
    }

    private static func makeDirectory(_ url: URL) throws {
        do {
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw CLIFailure("cannot create \(url.path): \(error.localizedDescription)")
        }
    }

    func readConfiguration() throws -> ProfileConfiguration? {
        guard let data = try storage.read(key: Self.configKey) else { return nil }
        do { return try JSONDecoder().decode(ProfileConfiguration.self, from: data) } catch {
            throw CLIFailure("the profile's \(Self.configKey) is not valid: \(error)")
        }
    }

    func writeConfiguration(_ configuration: ProfileConfiguration) throws {
        try storage.write(key: Self.configKey, data: try Self.encoder.encode(configuration))
    }

    func readTokens() throws -> StoredTokens? {
        guard let data = try storage.read(key: Self.tokensKey) else { return nil }
        return try Self.decoder.decode(StoredTokens.self, from: data)
    }

    func writeTokens(_ tokens: StoredTokens) throws {
        try storage.write(key: Self.tokensKey, data: try Self.encoder.encode(tokens))
    }

    func writeDPoPKey(_ key: JWK?) throws {
        if let key {
            try storage.write(key: Self.dpopKeyKey, data: try Self.encoder.encode(key))
        } else {
            try storage.delete(key: Self.dpopKeyKey)
        }
    }

    func readDPoPKey() throws -> JWK? {
        guard let data = try storage.read(key: Self.dpopKeyKey) else { return nil }
        return try JWK(json: data)
    }

    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        return encoder
    }()

    static let decoder: JSONDecoder = {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }()
}
