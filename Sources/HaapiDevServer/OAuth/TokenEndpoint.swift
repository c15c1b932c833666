import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import OAuthCore

/// `POST /oauth/token`: client_credentials (HAAPI tokens, DCR initial tokens), authorization_code
/// (PKCE S256, token-bound codes, replay revocation) and refresh_token (rotation, reuse detection).
struct TokenEndpoint: Sendable {
    static let path = "/oauth/token"
    let state: ServerState

    func handle(_ request: Request) async -> Response {
        let extra = await OAuthSupport.nonceHeaders(state)
        do {
            return try await process(request, extraHeaders: extra)
        } catch let failure as OAuthFailure {
            return failure.response(adding: extra)
        } catch {
            HaapiRoutes.logger.error("token request failed: \(error)")
            return Reply.oauthError("server_error", "the token request failed", status: .internalServerError, headers: extra)
        }
    }

    private func process(_ request: Request, extraHeaders: HTTPFields) async throws -> Response {
        let parameters = try await OAuthSupport.form(request)
        guard let grantType = parameters["grant_type"], !grantType.isEmpty else {
            throw OAuthFailure.invalidRequest("grant_type is missing")
        }
        guard ["client_credentials", "authorization_code", "refresh_token", TokenGrant.deviceCodeGrantType].contains(grantType) else {
            throw OAuthFailure("unsupported_grant_type", "the grant type \"\(grantType)\" is not supported")
        }
        // The proof comes first: a use_dpop_nonce answer must leave single-use values (codes, CATs) unused.
        let proofKey = try await OAuthSupport.tokenEndpointProof(request, path: Self.path, state: state)
        let client = try await ClientAuthenticator.authenticate(
            request: request, parameters: parameters, state: state, path: Self.path,
            allowsPublicAttestationClient: grantType != "client_credentials")
        if client.method == .attestation && grantType != "client_credentials" {
            throw OAuthFailure.unauthorizedClient("a client attestation token is only good for a HAAPI token")
        }
        let body: JSONValue
        switch grantType {
        case "client_credentials":
            body = try await clientCredentials(parameters, client: client, proofKey: proofKey)
        case "authorization_code":
            body = try await authorizationCode(parameters, client: client.client, proofKey: proofKey)
        case TokenGrant.deviceCodeGrantType:
            body = try await deviceCode(parameters, client: client.client, proofKey: proofKey)
        default:
            body = try await refreshToken(parameters, client: client.client, proofKey: proofKey)
        }
        return Reply.json(body, headers: extraHeaders)
    }

    // MARK: client_credentials

    private func clientCredentials(_ parameters: [String: String], client authenticated: AuthenticatedClient, proofKey: String?)
        async throws -> JSONValue
    {
        let client = authenticated.client
        let scope = OAuthSupport.scopes(parameters["scope"])
        switch client.strategy {
        case .browser:
            throw OAuthFailure.unauthorizedClient("public clients cannot use client_credentials")
        case .attestation where authenticated.method != .attestation:
            throw OAuthFailure.invalidClient("attestation clients authenticate with a client attestation token")
        default: break
        }
        if authenticated.method == .attestation && scope != [SeedData.haapiScope] {
            throw OAuthFailure.invalidScope("a client attestation token is only good for the scope \(SeedData.haapiScope)")
        }
        if let unknown = scope.first(where: { !client.scope.contains($0) }) {
            throw OAuthFailure.invalidScope("the client may not ask for the scope \"\(unknown)\"")
        }
        let lifetime: Int
        if scope.contains("dcr") {
            guard client.strategy == .dcr else { throw OAuthFailure.invalidScope("only a DCR template client may ask for the scope dcr") }
            guard scope == ["dcr"] else { throw OAuthFailure.invalidScope("the scope dcr is asked for alone") }
            lifetime = OAuthSupport.initialAccessTokenLifetime
        } else if scope.contains(SeedData.haapiScope) {
            guard proofKey != nil else { throw OAuthFailure.invalidDPoPProof("Missing DPoP Proof Token") }
            lifetime = state.configuration.haapiTokenLifetime
        } else {
            lifetime = OAuthSupport.clientTokenLifetime
        }
        let token = try state.issueAccessToken(clientId: client.clientId, subject: nil, scope: scope, jkt: proofKey, lifetime: lifetime)
        var body: [String: JSONValue] = [
            "access_token": .string(token), "token_type": proofKey == nil ? "Bearer" : "DPoP", "expires_in": .integer(lifetime),
        ]
        if !scope.isEmpty { body["scope"] = .string(scope.joined(separator: " ")) }
        return .object(body)
    }

    // MARK: authorization_code

    private func authorizationCode(_ parameters: [String: String], client: ClientRecord, proofKey: String?) async throws -> JSONValue {
        guard let code = parameters["code"], !code.isEmpty else { throw OAuthFailure.invalidRequest("code is missing") }
        guard let record = try await state.store.take(AuthorizationCodeRecord.self, kind: AuthorizationCodeRecord.kind, id: code) else {
            let codeID = OAuthSupport.tokenID(code)
            if let family = try await state.store.get(String.self, kind: "used-code", id: codeID) {
                // RFC 6749 §4.1.2: a code used twice revokes what it gave.
                try await state.revokeGrantFamily(family)
                throw OAuthFailure.invalidGrant("the authorization code was already used; the tokens issued from it are revoked")
            }
            throw OAuthFailure.invalidGrant("the authorization code is unknown or expired")
        }
        guard record.clientId == client.clientId else {
            throw OAuthFailure.invalidGrant("the authorization code was issued to another client")
        }
        guard parameters["redirect_uri"] == record.redirectUri else {
            throw OAuthFailure.invalidGrant("redirect_uri does not match the authorization request")
        }
        if let challenge = record.codeChallenge {
            guard let verifier = parameters["code_verifier"], !verifier.isEmpty else {
                throw OAuthFailure.invalidGrant("code_verifier is required: the authorization request had a code_challenge")
            }
            guard (record.codeChallengeMethod ?? "S256") == "S256", PKCE.challenge(for: verifier) == challenge else {
                throw OAuthFailure.invalidGrant("the code_verifier does not match the code_challenge")
            }
        } else if parameters["code_verifier"] != nil {
            throw OAuthFailure.invalidGrant("a code_verifier was sent but the authorization request had no code_challenge")
        }
        if let bound = record.dpopJkt {
            guard let proofKey else { throw OAuthFailure.invalidDPoPProof("Missing DPoP Proof Token") }
            guard proofKey == bound else { throw OAuthFailure.invalidDPoPProof("the DPoP proof's key is not the key the code is bound to") }
        }
        let family = SeedData.randomToken(16)
        try await state.store.put(
            GrantFamilyRecord(clientId: client.clientId, revoked: false, accessTokens: [:]), kind: GrantFamilyRecord.kind, id: family,
            expiresAt: Date().addingTimeInterval(OAuthSupport.refreshTokenLifetime))
        try await state.store.put(
            family, kind: "used-code", id: OAuthSupport.tokenID(code),
            expiresAt: Date().addingTimeInterval(OAuthSupport.refreshTokenLifetime))
        let refresh = RefreshTokenRecord(
            clientId: client.clientId, username: record.username, scope: record.scope, jkt: proofKey, family: family,
            nonce: record.nonce, authTime: record.authTime, used: false, usedAt: nil, successor: nil, expiresAt: Date())
        return try await issueUserTokens(
            refresh, proofKey: proofKey, scope: record.scope, withRefreshToken: record.refreshTokenDeclined != true)
    }

    // MARK: device_code

    private func deviceCode(_ parameters: [String: String], client: ClientRecord, proofKey: String?) async throws -> JSONValue {
        let record = try await DeviceAuthorizationEndpoint.grant(parameters, client: client, state: state)
        guard let username = record.approvedUsername else { throw OAuthFailure.invalidGrant("the device login was not approved") }
        let family = SeedData.randomToken(16)
        try await state.store.put(
            GrantFamilyRecord(clientId: client.clientId, revoked: false, accessTokens: [:]), kind: GrantFamilyRecord.kind, id: family,
            expiresAt: Date().addingTimeInterval(OAuthSupport.refreshTokenLifetime))
        let refresh = RefreshTokenRecord(
            clientId: client.clientId, username: username, scope: record.scope, jkt: proofKey, family: family,
            nonce: nil, authTime: record.authTime, used: false, usedAt: nil, successor: nil, expiresAt: Date())
        return try await issueUserTokens(refresh, proofKey: proofKey, scope: record.scope)
    }

    // MARK: refresh_token

    private func refreshToken(_ parameters: [String: String], client: ClientRecord, proofKey: String?) async throws -> JSONValue {
        guard let token = parameters["refresh_token"], !token.isEmpty else { throw OAuthFailure.invalidRequest("refresh_token is missing") }
        let id = OAuthSupport.tokenID(token)
        // take, then put back: two requests racing with one token cannot both rotate it.
        guard let record = try await state.store.take(RefreshTokenRecord.self, kind: RefreshTokenRecord.kind, id: id) else {
            throw OAuthFailure.invalidGrant("the refresh token is unknown, expired or revoked")
        }
        let store = state.store
        func putBack(used: Bool, successor: String? = nil, answer: String? = nil) async throws {
            var stored = record
            stored.used = record.used || used
            if let successor {
                stored.usedAt = Date()
                stored.successor = successor
                stored.rotationAnswer = answer
            }
            try await store.put(stored, kind: RefreshTokenRecord.kind, id: id, expiresAt: record.expiresAt)
        }
        func revokeAsReused() async throws -> Never {
            try await putBack(used: true)
            try await state.revokeGrantFamily(record.family)
            throw OAuthFailure.invalidGrant("the refresh token was already used; every token of the grant is revoked")
        }
        guard record.clientId == client.clientId else {
            try await putBack(used: false)
            throw OAuthFailure.invalidGrant("the refresh token was issued to another client")
        }
        guard let family = try await state.store.get(GrantFamilyRecord.self, kind: GrantFamilyRecord.kind, id: record.family),
            !family.revoked
        else {
            throw OAuthFailure.invalidGrant("the refresh token is revoked")
        }
        if record.used {
            // A retry of a rotation whose answer was lost gets that same answer; anything else is reuse (RFC 9700 §4.14.2).
            guard try await mayRetry(record, proofKey: proofKey), let answer = RetryAnswer.open(record.rotationAnswer, with: token) else {
                try await revokeAsReused()
            }
            try await putBack(used: true)
            return answer
        }
        if let bound = record.jkt {
            guard let proofKey else {
                try await putBack(used: false)
                throw OAuthFailure.invalidDPoPProof("Missing DPoP Proof Token")
            }
            guard proofKey == bound else {
                try await putBack(used: false)
                throw OAuthFailure.invalidDPoPProof("the DPoP proof's key is not the key the refresh token is bound to")
            }
        }
        var scope = record.scope  // the grant's: a narrower scope asked now applies to this access token only (RFC 6749 §6)
        if let asked = parameters["scope"] {
            let narrowed = OAuthSupport.scopes(asked)
            if let extra = narrowed.first(where: { !record.scope.contains($0) }) {
                try await putBack(used: false)
                throw OAuthFailure.invalidScope("the scope \"\(extra)\" was not granted")
            }
            scope = narrowed
        }
        let next = SeedData.randomToken()
        let answer = try await issueUserTokens(record, refreshToken: next, proofKey: proofKey, scope: scope)
        try await putBack(used: true, successor: OAuthSupport.tokenID(next), answer: RetryAnswer.seal(answer, with: token))
        return answer
    }

    /// Whether a used refresh token, presented again, is a retry of a request whose answer was lost
    /// (a client stopped after the server rotated the token but before it kept the new one): within
    /// ``DevServerConfiguration/refreshTokenRetryGrace`` of the rotation, with the key the token is
    /// bound to, while the successor was never used. Anything else is reuse.
    private func mayRetry(_ record: RefreshTokenRecord, proofKey: String?) async throws -> Bool {
        guard let usedAt = record.usedAt, let successor = record.successor,
            Date().timeIntervalSince(usedAt) < state.configuration.refreshTokenRetryGrace, proofKey == record.jkt,
            let next = try await state.store.get(RefreshTokenRecord.self, kind: RefreshTokenRecord.kind, id: successor)
        else { return false }
        return !next.used
    }

    /// An access token (bound to the proof's key when there is one), a new refresh token of
    /// `refresh` (keeping its binding) unless `withRefreshToken` is false (the user declined
    /// `offline_access`), and an ID token when the scope has openid.
    private func issueUserTokens(
        _ refresh: RefreshTokenRecord, refreshToken: String = SeedData.randomToken(), proofKey: String?, scope: [String],
        withRefreshToken: Bool = true
    ) async throws -> JSONValue {
        let accessToken = try state.issueAccessToken(
            clientId: refresh.clientId, subject: refresh.username, scope: scope, jkt: proofKey,
            lifetime: OAuthSupport.userAccessTokenLifetime)
        try await state.addToGrantFamily(refresh.family, accessToken: accessToken)
        var stored = refresh
        stored.used = false
        stored.rotationAnswer = nil
        stored.usedAt = nil
        stored.successor = nil
        stored.expiresAt = Date().addingTimeInterval(OAuthSupport.refreshTokenLifetime)
        var body: [String: JSONValue] = [
            "access_token": .string(accessToken), "token_type": proofKey == nil ? "Bearer" : "DPoP",
            "expires_in": .integer(OAuthSupport.userAccessTokenLifetime), "scope": .string(scope.joined(separator: " ")),
        ]
        if withRefreshToken {
            try await state.store.put(
                stored, kind: RefreshTokenRecord.kind, id: OAuthSupport.tokenID(refreshToken), expiresAt: stored.expiresAt)
            body["refresh_token"] = .string(refreshToken)
        }
        if scope.contains("openid") {
            body["id_token"] = .string(try await IDToken.issue(state: state, refresh: refresh, scope: scope))
        }
        return .object(body)
    }
}

/// A rotation's answer kept for a lost-answer retry: AES-GCM with a key derived from the refresh
/// token that was rotated, which the server does not keep (it stores only the token's hash).
enum RetryAnswer {
    private static func key(_ token: String) -> SymmetricKey {
        HKDF<SHA256>.deriveKey(
            inputKeyMaterial: SymmetricKey(data: Data(token.utf8)), info: Data("haapi-server refresh retry".utf8), outputByteCount: 32)
    }

    static func seal(_ answer: JSONValue, with token: String) -> String? {
        (try? AES.GCM.seal(answer.serialized(), using: key(token)).combined).map { Base64URL.encode($0) }
    }

    static func open(_ sealed: String?, with token: String) -> JSONValue? {
        guard let data = sealed.flatMap(Base64URL.decode), let box = try? AES.GCM.SealedBox(combined: data),
            let plain = try? AES.GCM.open(box, using: key(token))
        else { return nil }
        return try? JSONValue(parsing: plain)
    }
}
