import Foundation
import HTTPTypes
import Hummingbird
import OAuthCore

/// `GET|POST /oauth/userinfo`: `Authorization: DPoP <token>` with a proof for bound tokens,
/// `Bearer <token>` for unbound ones; a bad, expired or revoked token gets 401
/// `WWW-Authenticate: DPoP error="invalid_token"`.
enum UserInfoEndpoint {
    static let path = "/oauth/userinfo"

    /// The user's claims the scope grants.
    static func claims(of user: UserRecord, scope: [String]) -> [String: JSONValue] {
        var claims: [String: JSONValue] = [:]
        if scope.contains("profile") {
            claims["name"] = .string(user.name)
            claims["preferred_username"] = .string(user.username)
        }
        if scope.contains("email") {
            claims["email"] = .string(user.email)
            claims["email_verified"] = true
        }
        return claims
    }

    static func handle(_ request: Request, state: ServerState) async -> Response {
        let nonceHeaders = await OAuthSupport.nonceHeaders(state)
        func challenge(_ error: String, _ description: String, status: HTTPResponse.Status = .unauthorized, scheme: String = "DPoP")
            -> Response
        {
            var headers = nonceHeaders
            var value = "\(scheme) error=\"\(error)\", error_description=\"\(description.replacingOccurrences(of: "\"", with: "'"))\""
            if scheme == "DPoP" { value += ", algs=\"ES256 ES384 ES512 EdDSA RS256 PS256\"" }
            headers[.wwwAuthenticate] = value
            return Reply.json(["error": .string(error), "error_description": .string(description)], status: status, headers: headers)
        }
        guard let (scheme, token) = OAuthSupport.accessToken(request) else {
            var headers = nonceHeaders
            headers[.wwwAuthenticate] = "DPoP algs=\"ES256 ES384 ES512 EdDSA RS256 PS256\""
            headers.append(HTTPField(name: .wwwAuthenticate, value: "Bearer realm=\"haapi-dev-server\""))
            return Reply.json(
                ["error": "invalid_request", "error_description": "no access token"], status: .unauthorized, headers: headers)
        }
        let challengeScheme = scheme == "bearer" ? "Bearer" : "DPoP"
        do {
            guard let claims = try await state.verifyAccessToken(token) else {
                return challenge("invalid_token", "the access token is invalid, expired or revoked", scheme: challengeScheme)
            }
            if let jkt = claims.jkt {
                guard scheme == "dpop" else {
                    return challenge("invalid_token", "a DPoP-bound access token must be sent with the DPoP scheme")
                }
                let proofs = request.headers[values: .dpop]
                guard proofs.count == 1 else { return challenge("invalid_dpop_proof", "exactly one DPoP proof is required") }
                do {
                    _ = try await state.checkDPoP(
                        proofs[0], method: request.method.rawValue, path: path, accessToken: token, boundThumbprint: jkt)
                } catch let failure as DPoPProofVerifier.Failure {
                    return challenge(failure.error, failure.reason)
                }
            } else if scheme == "dpop" {
                return challenge("invalid_token", "the access token is not DPoP-bound; send it with the Bearer scheme")
            }
            guard claims.scope.contains("openid") else {
                return challenge("insufficient_scope", "the access token has no openid scope", status: .forbidden, scheme: challengeScheme)
            }
            guard let subject = claims.subject, let user = try await state.store.get(UserRecord.self, kind: "user", id: subject) else {
                return challenge("invalid_token", "the access token's subject is not a user", scheme: challengeScheme)
            }
            var body = Self.claims(of: user, scope: claims.scope)
            body["sub"] = .string(user.username)
            return Reply.json(.object(body), headers: nonceHeaders)
        } catch {
            HaapiRoutes.logger.error("userinfo failed: \(error)")
            return Reply.oauthError("server_error", "userinfo failed", status: .internalServerError)
        }
    }
}
