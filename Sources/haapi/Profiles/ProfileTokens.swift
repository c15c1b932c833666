import Foundation
import OAuthCore
import OIDCClient
import OAuthTransportNIO

/// A profile's tokens, kept usable: refreshed once however many callers want it, revoked,
/// and sent on API requests.
///
/// Every change of `tokens.json` is made under the profile's ``Profile/lock``, and a caller
/// that waited for the lock reads the tokens again before deciding to refresh: when another
/// process refreshed meanwhile, its result is used and no second request is made. A rotated
/// refresh token is written (atomically, by ``FileStorage``) before anything uses the new
/// access token, so a crash leaves either the old tokens or the new ones.
struct ProfileTokens {
    let profile: Profile
    let configuration: ProfileConfiguration
    /// How long to wait for another process's refresh.
    var lockTimeout: Duration = .seconds(60)
    var transport: any HTTPTransport

    init(profile: Profile, configuration: ProfileConfiguration, transport: (any HTTPTransport)? = nil) throws {
        self.profile = profile
        self.configuration = configuration
        self.transport = try transport ?? AsyncHTTPClientTransport()
    }

    /// Opens the named profile; it must have settings.
    static func open(_ name: String) throws -> ProfileTokens {
        let profile = try Profile.open(name)
        guard let configuration = try profile.readConfiguration() else {
            throw CLIFailure("the profile \"\(name)\" has no connection settings: run `haapi login --profile \(name)` first")
        }
        return try ProfileTokens(profile: profile, configuration: configuration)
    }

    /// The stored tokens.
    func current() throws -> AuthState {
        guard let tokens = try profile.readTokens() else {
            throw CLIFailure("not logged in: the profile \"\(profile.name)\" has no tokens; run `haapi login --profile \(profile.name)`")
        }
        return tokens
    }

    /// Tokens whose access token has at least `minimumLifetime` seconds left, refreshed first
    /// when it has less.
    func valid(minimumLifetime: TimeInterval) async throws -> AuthState {
        let tokens = try current()
        if tokens.isAccessTokenValid(for: minimumLifetime) { return tokens }
        return try await refreshed(unless: { $0.isAccessTokenValid(for: minimumLifetime) }, reason: "has less than \(Int(minimumLifetime)) s left")
    }

    /// New tokens now, whatever is left of the current ones.
    func refresh() async throws -> AuthState {
        try await refreshed(unless: { _ in false }, reason: "is to be renewed")
    }

    /// New tokens unless another caller already replaced the access token `stale`.
    func replacing(_ stale: AuthState) async throws -> AuthState {
        try await refreshed(unless: { $0.accessToken != stale.accessToken }, reason: "was refused by the server")
    }

    /// Refreshes under the lock, unless the tokens found there already satisfy `isGoodEnough`.
    private func refreshed(unless isGoodEnough: (AuthState) -> Bool, reason: String) async throws -> AuthState {
        try await withLock {
            let tokens = try current()
            if isGoodEnough(tokens) { return tokens }
            guard let refreshToken = tokens.refreshToken else {
                throw CLIFailure("the access token \(reason) and there is no refresh token: run `haapi login --profile \(profile.name)`")
            }
            if configuration.isBrowserLogin { return try await refreshedByOIDCClient(tokens) }
            let result: TokenEndpointResponse
            do {
                result = try await tokenEndpointClient(for: tokens).requestToken(.refreshToken(refreshToken)).result
            } catch let failure as CLIFailure {
                throw failure
            } catch {
                throw CLIFailure("the refresh failed: \(Self.describe(error))")
            }
            switch result {
            case .success(let response):
                // No OpenID validation on this path (HAAPI profiles): the response's ID token is kept as received.
                var renewed = tokens.updated(with: response, idToken: nil)
                renewed.idToken = response.idToken ?? tokens.idToken
                try profile.writeTokens(renewed)
                return renewed
            case .failure(let error) where error.error == "invalid_grant":
                // The grant is over (expired, revoked, or a reused refresh token): the stale tokens go.
                try profile.deleteTokens()
                throw CLIFailure(
                    "login required: the server refused the refresh token (invalid_grant: \(error.errorDescription)); "
                        + "the stale tokens were removed, run `haapi login --profile \(profile.name)`")
            case .failure(let error):
                throw CLIFailure("the refresh failed: \(error.error): \(error.errorDescription)")
            }
        }
    }

    /// A browser login's tokens are refreshed by OIDCClient, which validates the new ID token
    /// (OpenID Connect Core §12.2: same issuer, client and user) before they are kept.
    private func refreshedByOIDCClient(_ tokens: AuthState) async throws -> AuthState {
        let client = try await BrowserLogin(configuration: configuration, browserCommand: nil).client(holding: tokens)
        let renewed: AuthState
        do {
            renewed = try await client.refresh()
        } catch let error as OIDCError where error.code == .loginRequired {
            try profile.deleteTokens()
            throw CLIFailure(
                "login required: \(error.errorDescription); the stale tokens were removed, run `haapi login --profile \(profile.name)`")
        } catch {
            throw CLIFailure("the refresh failed: \(Self.describe(error))")
        }
        try profile.writeTokens(renewed)
        return renewed
    }

    /// What ``revoke(_:)`` revokes.
    enum Revocation: String, CaseIterable {
        case access, refresh, all
    }

    /// Revokes tokens at the server (RFC 7009), then forgets what was revoked: `all` and
    /// `refresh` forget the refresh token, `all` the access token and DPoP key too, and
    /// `access` marks the access token expired so that the next use refreshes.
    /// - Returns: what was revoked, for the summary.
    @discardableResult
    func revoke(_ which: Revocation) async throws -> [String] {
        guard let endpoint = configuration.revocationEndpoint.flatMap(URL.init(string:)) else {
            throw CLIFailure("the profile \"\(profile.name)\" knows no revocation endpoint (the server's discovery document has none)")
        }
        return try await withLock {
            var tokens = try current()
            let client = TokenRevocationClient(endpoint: endpoint, clientAuthentication: try configuration.clientAuthentication(), transport: transport)
            var revoked: [String] = []
            if which != .access, let refreshToken = tokens.refreshToken {
                try await Self.revoke(refreshToken, hint: .refreshToken, with: client)
                revoked.append("refresh token")
                tokens.refreshToken = nil
            }
            if which != .refresh {
                try await Self.revoke(tokens.accessToken, hint: .accessToken, with: client)
                revoked.append("access token")
                tokens.accessTokenExpiresAt = Date()
            }
            if which == .all || (tokens.refreshToken == nil && !tokens.isAccessTokenValid(for: 0)) {
                try profile.deleteTokens()
            } else {
                try profile.writeTokens(tokens)
            }
            return revoked
        }
    }

    private static func revoke(_ token: String, hint: TokenRevocationClient.TokenTypeHint, with client: TokenRevocationClient) async throws {
        do { try await client.revoke(token, hint: hint) } catch {
            throw CLIFailure("the server did not revoke the \(hint == .refreshToken ? "refresh" : "access") token: \(describe(error))")
        }
    }

    /// Sends an API request with the access token (a DPoP proof too for bound tokens). On a
    /// 401 `invalid_token` the tokens are refreshed once and the request is sent once more.
    func send(_ request: @escaping @Sendable () -> TransportRequest) async throws -> TransportResponse {
        var tokens = try await valid(minimumLifetime: 10)
        for attempt in 0..<2 {
            var authorized = request()
            authorized.headers["Authorization"] = "\(tokens.isDPoPBound ? "DPoP" : "Bearer") \(tokens.accessToken)"
            let sender: any HTTPTransport = tokens.isDPoPBound ? DPoPTransport(base: transport, dpop: try dpop(of: tokens)) : transport
            let response: TransportResponse
            do { response = try await sender.send(authorized) } catch {
                throw CLIFailure("the request to \(authorized.url.absoluteString) failed: \(Self.describe(error))")
            }
            let challenge = response.headers["WWW-Authenticate"] ?? ""
            guard attempt == 0, response.status == 401, challenge.contains("invalid_token") else { return response }
            tokens = try await replacing(tokens)
        }
        preconditionFailure("the loop returns on its second attempt")
    }

    // MARK: Parts

    private func withLock<T>(_ body: () async throws -> T) async throws -> T {
        do {
            return try await profile.lock.withLock(timeout: lockTimeout, body)
        } catch let error as StorageError where error.code == .lockTimeout {
            throw CLIFailure("another haapi process has been renewing the tokens of profile \"\(profile.name)\" for too long (\(error.message))")
        }
    }

    /// The key `tokens` are bound to.
    func dpop(of tokens: AuthState) throws -> Dpop {
        guard let jwk = tokens.dpopKey else {
            throw CLIFailure("the tokens are DPoP-bound but the profile's key is missing: run `haapi login --profile \(profile.name)`")
        }
        do { return try Dpop(privateJWK: jwk) } catch {
            throw CLIFailure("the profile's DPoP key is unusable (\(Self.describe(error))): run `haapi login --profile \(profile.name)`")
        }
    }

    private func tokenEndpointClient(for tokens: AuthState) throws -> TokenEndpointClient {
        guard let endpoint = configuration.tokenEndpoint.flatMap(URL.init(string:)) else {
            throw CLIFailure("the profile \"\(profile.name)\" has no token endpoint")
        }
        return TokenEndpointClient(
            endpoint: endpoint, clientAuthentication: try configuration.clientAuthentication(), transport: transport,
            dpop: tokens.isDPoPBound ? try dpop(of: tokens) : nil)
    }

    static func describe(_ error: any Error) -> String {
        (error as? any IdsvrError)?.errorDescription ?? String(describing: error)
    }
}
