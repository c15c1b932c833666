import Foundation
import HaapiUI
import OAuthCore
import OIDCClient

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
    /// `browser` for a browser login (`haapi login --browser`); a HAAPI login otherwise.
    var login: String?

    var isBrowserLogin: Bool { login == "browser" }

    var scopes: [String] { (scope ?? "openid").split(separator: " ").map(String.init) }

    /// `strategy`, or what the other settings imply: `secret` with a secret, `attestation`
    /// with an attestation, else `none`.
    var effectiveStrategy: String { strategy ?? (clientSecret != nil ? "secret" : attestation != nil ? "attestation" : "none") }

    /// How the client authenticates at the token and revocation endpoints: with its secret,
    /// or by `client_id` only (attested and public clients; their tokens are DPoP-bound).
    func clientAuthentication() throws -> ClientAuthentication {
        guard effectiveStrategy == "secret" else { return .none(clientID: clientID) }
        guard let clientSecret else { throw CLIFailure("the strategy \"secret\" needs a client secret (--client-secret)") }
        return .clientSecretBasic(clientID: clientID, secret: clientSecret)
    }
}

/// `$HAAPI_HOME/profiles/<name>/`: config.json and tokens.json (with the DPoP key the tokens
/// are bound to, so that tokens and key change in one atomic write), written by OAuthCore's
/// FileStorage (directory 0700, files 0600).
struct Profile {
    static let configKey = "config.json"
    static let tokensKey = "tokens.json"

    let name: String
    let directory: URL
    let storage: FileStorage

    /// The lock every change of the profile's tokens is made under: `profiles/<name>.lock`,
    /// next to the profile, so that one process refreshes while the others wait for its result.
    var lock: FileLock { FileLock(url: directory.deletingLastPathComponent().appendingPathComponent("\(name).lock")) }

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

    func readTokens() throws -> AuthState? {
        guard let data = try storage.read(key: Self.tokensKey) else { return nil }
        do { return try Self.decoder.decode(AuthState.self, from: data) } catch {
            throw CLIFailure("the profile's \(Self.tokensKey) is not valid (\(error)): run `haapi login --profile \(name)` again")
        }
    }

    /// Forgets the tokens and the key they are bound to; the connection settings stay.
    func deleteTokens() throws {
        try storage.delete(key: Self.tokensKey)
    }

    func writeTokens(_ tokens: AuthState) throws {
        try storage.write(key: Self.tokensKey, data: try Self.encoder.encode(tokens))
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
