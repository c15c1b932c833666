import Foundation
import HTTPTypes
import Hummingbird
import OAuthCore

/// `POST /oauth/register` (RFC 7591, templatized): an initial access token of scope `dcr`
/// (single use) and `software_id` naming a DCR template client give a new client copying the
/// template, with its own id and secret.
enum RegistrationEndpoint {
    static let path = "/oauth/register"

    static func handle(_ request: Request, state: ServerState) async -> Response {
        func unauthorized(_ description: String) -> Response {
            Reply.json(
                ["error": "invalid_token", "error_description": .string(description)], status: .unauthorized,
                headers: [.wwwAuthenticate: "Bearer error=\"invalid_token\""])
        }
        do {
            guard let (scheme, token) = OAuthSupport.accessToken(request) else {
                return unauthorized("an initial access token is required")
            }
            guard let claims = try await state.verifyAccessToken(token), claims.scope.contains("dcr") else {
                return unauthorized("the initial access token is invalid, expired, used, or lacks the scope dcr")
            }
            if let jkt = claims.jkt {
                guard scheme == "dpop", let proof = request.headers[values: .dpop].first else {
                    return unauthorized("the initial access token is DPoP-bound: send it with a DPoP proof")
                }
                do {
                    _ = try await state.checkDPoP(proof, method: "POST", path: path, accessToken: token, boundThumbprint: jkt)
                } catch let failure as DPoPProofVerifier.Failure {
                    return Reply.oauthError(
                        failure.error, failure.reason, status: .unauthorized, headers: await OAuthSupport.nonceHeaders(state))
                }
            }
            let body: ByteBuffer
            do { body = try await request.body.collect(upTo: 64 * 1024) } catch  where Reply.isTooLarge(error) {
                return Reply.payloadTooLarge()
            }
            guard let metadata = try? JSONValue(parsing: Data(buffer: body)), metadata.objectValue != nil else {
                return Reply.oauthError("invalid_client_metadata", "the body must be a JSON object")
            }
            guard let softwareID = metadata["software_id"]?.stringValue else {
                return Reply.oauthError("invalid_client_metadata", "software_id (the template client) is required")
            }
            guard let template = try await state.store.get(ClientRecord.self, kind: "client", id: softwareID), template.strategy == .dcr
            else {
                return Reply.oauthError("invalid_software_statement", "software_id \"\(softwareID)\" is not a DCR template client")
            }
            guard claims.clientId == template.clientId else {
                return Reply.oauthError("invalid_client_metadata", "the initial access token was issued to another template client")
            }
            // The initial access token is single use: claimed in one statement, so two registrations
            // racing with it cannot both pass (a check, then a revocation, would let both through).
            guard
                try await state.store.insertIfAbsent(
                    kind: "used-initial-access-token", id: claims.jti, expiresAt: claims.expiresAt.addingTimeInterval(60))
            else { return unauthorized("the initial access token is invalid, expired, used, or lacks the scope dcr") }
            try await state.revokeAccessToken(jti: claims.jti, expiresAt: claims.expiresAt)
            let client = ClientRecord(
                clientId: "dcr-" + SeedData.randomToken(12), clientSecret: SeedData.randomToken(), strategy: .registered,
                redirectUris: template.redirectUris, scope: template.scope.filter { $0 != "dcr" },
                issueTokenBoundAuthorizationCode: template.issueTokenBoundAuthorizationCode, authenticators: template.authenticators,
                templateClientId: template.clientId)
            try await state.store.put(client, kind: "client", id: client.clientId)
            return Reply.json(
                [
                    "client_id": .string(client.clientId), "client_secret": .string(client.clientSecret ?? ""),
                    "client_id_issued_at": .integer(OutsideNumber.wholeSeconds(Date().timeIntervalSince1970)),
                    "client_secret_expires_at": 0,
                    "redirect_uris": .array(client.redirectUris.map { .string($0) }), "scope": .string(client.scope.joined(separator: " ")),
                    "token_endpoint_auth_method": "client_secret_basic", "software_id": .string(template.clientId),
                    "grant_types": ["authorization_code", "refresh_token", "client_credentials"], "response_types": ["code"],
                ], status: .created)
        } catch {
            // The detail is for the server's log; the client learns nothing of the internals.
            HaapiRoutes.logger.error("POST \(path) failed: \(error)")
            return Reply.oauthError("server_error", "the registration failed", status: .internalServerError)
        }
    }
}
