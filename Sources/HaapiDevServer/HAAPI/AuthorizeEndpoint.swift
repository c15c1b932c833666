import Foundation
import HTTPTypes
import Hummingbird
import OAuthCore

/// `GET /oauth/authorize`: checks the authorization request, creates the flow session and
/// sends the client into the authentication service (a redirection step with `Set-Session-Id`
/// for HAAPI, a redirect for a browser).
enum AuthorizeEndpoint {
    static func handle(_ request: Request, state: ServerState) async throws -> Response {
        let isHaapi = HaapiAccess.isHaapi(request)
        let caller = isHaapi ? try await HaapiAccess.authenticate(request, state: state) : nil
        let query = request.query
        func refuse(_ error: String, _ description: String) -> Response {
            isHaapi ? Reply.oauthError(error, description) : HTMLPages.error("\(error): \(description)", status: .badRequest)
        }
        if let tooLong = InputBounds.tooLong(query).first { return refuse("invalid_request", tooLong.description) }
        guard let clientId = query["client_id"], let client = try await state.client(clientId) else {
            return refuse("invalid_client", "unknown client_id")
        }
        if let caller, caller.claims.clientId != clientId {
            return refuse("unauthorized_client", "the HAAPI access token was issued to another client")
        }
        let redirectUri = query["redirect_uri"] ?? (client.redirectUris.count == 1 ? client.redirectUris[0] : nil)
        guard let redirectUri, client.accepts(redirectUri: redirectUri) else {
            return refuse("invalid_request", "redirect_uri is missing or not registered for the client")
        }
        // From here on, errors go back to the client through its redirect URI.
        let stateParameter = query["state"]
        func redirectError(_ error: String, _ description: String) -> Response {
            FlowCompletion.oauthError(
                error, description, redirectUri: redirectUri, stateParameter: stateParameter, isHaapi: isHaapi, state: state)
        }
        guard query["response_type"] == "code" else { return redirectError("unsupported_response_type", "response_type must be code") }
        if !isHaapi && !client.mayUseBrowserFlow {
            // A HAAPI client's flow runs with attestation and a bound code; the browser flow would skip both.
            return redirectError("unauthorized_client", "the client is registered for HAAPI and may not use the browser flow")
        }
        let scope = (query["scope"] ?? "").split(separator: " ").map(String.init)
        guard Set(scope).isSubset(of: Set(client.scope)) else {
            return redirectError(
                "invalid_scope", "the client may not ask for \(Set(scope).subtracting(client.scope).sorted().joined(separator: " "))")
        }
        let challenge = query["code_challenge"]
        let method = query["code_challenge_method"]
        if challenge != nil || method != nil {
            guard let challenge, challenge.count >= 43, challenge.count <= 128, (method ?? "plain") == "S256" else {
                return redirectError("invalid_request", "PKCE needs a code_challenge with code_challenge_method S256")
            }
        } else if !isHaapi && !client.isConfidential {
            // RFC 9700 §2.1.1: a public client's code is bound to it by PKCE. (A HAAPI flow's client
            // proved itself for its HAAPI token, and the flow is bound to that token's session.)
            return redirectError("invalid_request", "a public client must send a code_challenge (PKCE, S256)")
        }
        let requestedJkt = query["dpop_jkt"]
        if let requestedJkt, let caller, client.issueTokenBoundAuthorizationCode, requestedJkt != caller.thumbprint {
            return redirectError("invalid_request", "dpop_jkt is not the key of the HAAPI session")
        }
        let flow = FlowSession(
            clientId: clientId, redirectUri: redirectUri, scope: scope, state: stateParameter, nonce: query["nonce"],
            acrValues: query["acr_values"], codeChallenge: challenge, codeChallengeMethod: challenge == nil ? nil : "S256",
            requestedDPoPJkt: requestedJkt, isHaapi: isHaapi, sessionJkt: caller?.thumbprint,
            language: ServerLanguage.requested(uiLocales: query["ui_locales"]))
        guard
            try await state.store.count(kind: FlowSession.kind, where: "$.clientId", equals: clientId)
                < state.configuration.maxFlowSessionsPerClient
        else { return redirectError("temporarily_unavailable", "too many flows of this client are under way") }
        let sessionID = SeedData.randomToken(24)
        try await state.saveFlow(flow, id: sessionID)
        if isHaapi {
            return Wire.reply(Steps.redirection(to: HaapiPaths.authenticate), headers: [.setSessionID: sessionID])
        }
        return Reply.redirect(HaapiPaths.authenticate + "?session=" + FormURLEncoding.escape(sessionID))
    }
}
