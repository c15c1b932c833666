import Crypto
import Foundation
import OAuthCore

/// Settings of a development server.
public struct DevServerConfiguration: Sendable {
    /// The address to bind (default loopback).
    public var host: String
    /// The port (0 picks a free one).
    public var port: Int
    /// The URL the server names itself by (its issuer, and every URL it advertises), when
    /// clients reach it by another address than the one it binds: a phone on the LAN, a proxy.
    /// `nil`: the bound address and port.
    public var publicURL: URL?
    /// The SQLite database file; `nil` keeps everything in memory.
    public var databasePath: String?
    /// Whether DPoP nonces are required.
    public var requiresDPoPNonce: Bool
    /// Failed logins before an account is locked.
    public var lockoutAfterFailures: Int
    /// How long the waiting authenticators (polling, Duo push, BankID) wait for the user to
    /// open the approval link they "send" (see ``ServerState/pendingApprovalLinks()``).
    public var approvalTimeout: Duration
    /// Lifetime of HAAPI access tokens, in seconds (Curity's default: 600).
    public var haapiTokenLifetime: Int
    /// How long after a refresh token was rotated it may be presented again, in seconds, as a
    /// retry of a request whose answer was lost (while its successor is unused); later, the
    /// reuse revokes the grant.
    public var refreshTokenRetryGrace: TimeInterval
    /// Receives one line per answered request (`request: POST /oauth/token grant_type=refresh_token 200`)
    /// one per one-time code the OTP authenticator "sends" (`otp: 123456 for demo`) and one per
    /// approval link (`approve: URL for demo`); `nil` logs nothing. Each line is one line: what
    /// came from a request in it (a user name, a path) has its control characters neutralised.
    public var requestLog: (@Sendable (String) -> Void)?

    /// Writes `line` to ``requestLog``: the server's only way to it (``PrintableText`` only).
    func log(_ line: PrintableText) { requestLog?(line.description) }
    /// Unanswered attestation challenges a client may hold at once (they are handed out without
    /// authentication, so each costs a row until it expires).
    public var maxPendingChallengesPerClient = 100
    /// Approval links (polling, Duo push, BankID) a user may have outstanding at once; a login
    /// past them waits without a link being sent, so nobody can flood a user's phone (push bombing).
    public var maxPendingApprovalsPerUser = 3
    /// Flows a client may have under way at once.
    public var maxFlowSessionsPerClient = 1000
    /// How often expired records (codes, challenges, flows, DPoP `jti`s, revoked tokens) are deleted.
    public var purgeInterval: Duration = .seconds(60)
    /// How long the first request's head may take to arrive on a new connection (a kept-alive
    /// connection waits for the next one for ``idleTimeout``).
    public var headerReadTimeout: Duration = .seconds(10)
    /// How long a request's body may take to arrive, from its head to its last byte.
    public var bodyReadTimeout: Duration = .seconds(30)
    /// How long a keep-alive connection may stay idle.
    public var idleTimeout: Duration = .seconds(60)
    /// Device logins a client may have stored at once (each is kept until an hour after its
    /// codes expire); the next `/oauth/device_authorization` gets `temporarily_unavailable` (429).
    public var maxDeviceCodesPerClient = 1000
    /// Codes the `/device` page takes from one source address in a fixed one-minute window
    /// (RFC 8628 §5.1: user codes are short enough to guess); then 429 for that address only.
    public var deviceCodeTriesPerMinute = 20
    /// Sign-in tries one device code takes in a fixed one-minute window, whoever makes them.
    public var deviceCodeTriesPerCode = 10
    /// The fixed window in which `/device` counts tries per source and per code
    /// (``deviceCodeTriesPerMinute``, ``deviceCodeTriesPerCode``): a minute.
    public var deviceCodeTryWindow: Duration = .seconds(60)
    /// Seconds a device must wait between polls of a device login (RFC 8628 `interval`).
    public var deviceCodeInterval = 5
    /// How long a device login's codes live, in seconds (RFC 8628 `expires_in`).
    public var deviceCodeLifetime = 600
    /// How stored passwords are hashed (default ``PasswordHashing/standard``).
    /// ``PasswordHashing/insecureForBenchmarks`` is refused unless the server binds loopback, and
    /// a database seeded with it is refused by a server that hashes as it should.
    public var passwordHashing: PasswordHashing = .standard
    /// Receives what the server "sends" a user out of band (a one-time code by text message, a
    /// link that approves a push), so that a program embedding the server (`haapi demo`) shows it
    /// to its user; `nil`: the server's log says it.
    public var userMessages: (@Sendable (OutOfBandMessage) -> Void)?
    /// Draws the gallery at `/preview` (``StepGallery``): every step and problem the server can
    /// send, as an app's screens show them; `nil` (the default) serves no gallery.
    package var preview: (any PreviewRenderer)?
    /// The style sheet of the server's browser pages (login, consent, `/device`, approvals).
    /// The command line gives the UI kit's default look; the default is a plain one, so the
    /// server needs nothing of the kit.
    package var pageStyle: Markup = HTMLPages.plainStyle
    /// The certificate for https (the issuer is then `https://HOST:PORT`); `nil`: plain http.
    public var tls: DevServerTLS?

    /// Makes settings.
    public init(
        host: String = "127.0.0.1", port: Int = 0, databasePath: String? = nil, requiresDPoPNonce: Bool = false,
        lockoutAfterFailures: Int = 5, approvalTimeout: Duration = .seconds(120), haapiTokenLifetime: Int = 600,
        refreshTokenRetryGrace: TimeInterval = 30, requestLog: (@Sendable (String) -> Void)? = nil
    ) {
        self.host = host
        self.port = port
        self.databasePath = databasePath
        self.requiresDPoPNonce = requiresDPoPNonce
        self.lockoutAfterFailures = lockoutAfterFailures
        self.approvalTimeout = approvalTimeout
        self.haapiTokenLifetime = haapiTokenLifetime
        self.refreshTokenRetryGrace = refreshTokenRetryGrace
        self.requestLog = requestLog
    }
}

/// What the development server "sends" a user outside the flow.
public enum OutOfBandMessage: Sendable, Hashable {
    /// A one-time code, by `channel` (`otp`, `sms`...) to the user's masked `recipient`.
    case oneTimeCode(channel: String, username: String, recipient: String, code: String)
    /// A link that approves (or denies) a waiting login (polling, Duo push, BankID).
    case approvalLink(username: String, purpose: String, link: URL)
}

/// What every route shares: the store, the issuer URL, the signing key, the settings.
public final class ServerState: Sendable {
    /// The store.
    public let store: RecordStore
    /// The settings.
    public let configuration: DevServerConfiguration
    /// The key ID tokens and access tokens are signed with.
    public let signingKey: JWSSigningKey
    /// The public half of ``signingKey``, made once: every HAAPI request verifies a token with it.
    let verificationKey: JWSVerificationKey
    private let issuerBox: LockedValue<URL>
    private let decoyRoundsBox: LockedValue<Int>

    init(store: RecordStore, configuration: DevServerConfiguration, signingKey: JWSSigningKey, issuer: URL, storedRounds: Int = 0) throws {
        guard let publicJWK = signingKey.publicJWK else {
            throw JOSEError(.invalidKey, "the server's signing key has no public key")
        }
        self.verificationKey = try JWSVerificationKey(jwk: publicJWK)
        self.store = store
        self.configuration = configuration
        self.signingKey = signingKey
        self.issuerBox = LockedValue(issuer)
        self.decoyRoundsBox = LockedValue(max(configuration.passwordHashing.rounds, storedRounds))
    }

    /// The PBKDF2 rounds an unknown user's password check costs (``PasswordHash/decoy(rounds:)``):
    /// those of the costliest stored hash, or the configured ones if more. A benchmark server
    /// over real hashes, or with accounts created since it started, checks a known user's
    /// password with the stored hash's rounds, and an unknown name must cost as much.
    var decoyRounds: Int { decoyRoundsBox.withLock { $0 } }

    /// Keeps ``decoyRounds`` at least the rounds of `passwordHash`, a hash just stored.
    func raiseDecoyRounds(toThoseOf passwordHash: String) {
        guard let rounds = PasswordHash.rounds(of: passwordHash), rounds <= PasswordHash.maximumRounds else { return }
        decoyRoundsBox.withLock { $0 = max($0, rounds) }
    }

    /// The issuer: `http://HOST:PORT`, with the real port once the server is listening.
    public var issuer: URL {
        issuerBox.withLock { $0 }
    }

    func setIssuer(_ url: URL) { issuerBox.withLock { $0 = url } }

    /// The URL of `path` on this server.
    public func url(_ path: String) -> URL { issuer.appendingPathComponent(path) }

    /// Opens the store, creates the signing key and the seed data on first start.
    public static func open(configuration: DevServerConfiguration) async throws -> ServerState {
        let store = try await RecordStore.open(path: configuration.databasePath)
        let signingKey: JWSSigningKey
        if let stored = try await store.get(JWK.self, kind: "signing-key", id: "current") {
            signingKey = try JWSSigningKey(jwk: stored)
        } else {
            signingKey = .es256(P256.Signing.PrivateKey(), keyID: "dev-es256-\(UUID().uuidString.prefix(8))")
            try await store.put(signingKey.privateJWK, kind: "signing-key", id: "current")
        }
        if configuration.passwordHashing.isInsecure && !Loopback.isHost(configuration.host) {
            try? await store.close()
            throw DevServerError(.insecurePasswordHashing, host: configuration.host, port: configuration.port)
        }
        try await SeedData.install(in: store, hashing: configuration.passwordHashing)
        var storedRounds = 0
        for (_, user) in try await store.all(UserRecord.self, kind: "user") {
            let rounds = PasswordHash.rounds(of: user.passwordHash) ?? .max
            if rounds < configuration.passwordHashing.rounds {
                try? await store.close()
                throw DevServerError(.weaklyHashedDatabase, host: configuration.host, port: configuration.port)
            }
            // A hash past the maximum matches nothing and costs nothing: it sets no decoy.
            if rounds <= PasswordHash.maximumRounds { storedRounds = max(storedRounds, rounds) }
        }
        // Users stored by earlier versions kept their password in clear: reading hashes it, writing keeps only the hash.
        for (id, stored) in try await store.all(JSONValue.self, kind: "user") where stored["passwordHash"] == nil {
            if let user = try await store.get(UserRecord.self, kind: "user", id: id) { try await store.put(user, kind: "user", id: id) }
        }
        let issuer =
            try await store.get(String.self, kind: "server", id: "issuer").flatMap(URL.init(string:))
            ?? URL(string: "http://\(configuration.host):\(configuration.port)")!
        do {
            return try ServerState(
                store: store, configuration: configuration, signingKey: signingKey, issuer: issuer, storedRounds: storedRounds)
        } catch {
            try? await store.close()
            throw error
        }
    }

    /// Signs a JWT with the server's key.
    public func signJWT(_ claims: JSONValue, type: String = "JWT") throws -> String {
        try CompactJWS.sign(payload: claims.serialized(), header: JOSEHeader(algorithm: .es256, typ: type), key: signingKey)
    }
}
