import Foundation
import Hummingbird
import OAuthCore

/// `POST /oauth/revoke` (RFC 7009): a refresh token revokes its whole grant; an access token is
/// revoked by its jti. Unknown tokens, and tokens of other clients, are answered 200 too.
enum RevocationEndpoint {
    static let path = "/oauth/revoke"

    static func handle(_ request: Request, state: ServerState) async -> Response {
        do {
            let parameters = try await OAuthSupport.form(request)
            let authenticated = try await ClientAuthenticator.authenticate(
                request: request, parameters: parameters, state: state, path: path, allowsPublicAttestationClient: true)
            guard authenticated.method != .attestation else {
                throw OAuthFailure.unauthorizedClient("a client attestation token is only good for a HAAPI token")
            }
            let clientID = authenticated.client.clientId
            guard let token = parameters["token"], !token.isEmpty else { throw OAuthFailure.invalidRequest("token is missing") }
            let hint = parameters["token_type_hint"]
            if let hint, hint != "access_token", hint != "refresh_token" {
                throw OAuthFailure("unsupported_token_type", "token_type_hint \"\(hint)\" is not supported")
            }
            if hint == "access_token" {
                if try await !revokeAccessToken(token, clientID: clientID, state: state) {
                    try await revokeRefreshToken(token, clientID: clientID, state: state)
                }
            } else if try await !revokeRefreshToken(token, clientID: clientID, state: state) {
                try await revokeAccessToken(token, clientID: clientID, state: state)
            }
            return Response(status: .ok, headers: [.cacheControl: "no-store"])
        } catch let failure as OAuthFailure {
            return failure.response()
        } catch {
            HaapiRoutes.logger.error("revocation failed: \(error)")
            return Reply.oauthError("server_error", "the revocation failed", status: .internalServerError)
        }
    }

    /// Revokes a refresh token of the client and every token of its grant; `false` when it is not one.
    @discardableResult
    private static func revokeRefreshToken(_ token: String, clientID: String, state: ServerState) async throws -> Bool {
        let id = OAuthSupport.tokenID(token)
        guard let record = try await state.store.get(RefreshTokenRecord.self, kind: RefreshTokenRecord.kind, id: id) else { return false }
        guard record.clientId == clientID else { return true }
        try await state.store.delete(kind: RefreshTokenRecord.kind, id: id)
        try await state.revokeGrantFamily(record.family)
        return true
    }

    /// Revokes an access token of the client; `false` when it is not one.
    @discardableResult
    private static func revokeAccessToken(_ token: String, clientID: String, state: ServerState) async throws -> Bool {
        guard let claims = try await state.verifyAccessToken(token) else { return false }
        guard claims.clientId == clientID else { return true }
        try await state.revokeAccessToken(jti: claims.jti, expiresAt: claims.expiresAt)
        return true
    }
}
