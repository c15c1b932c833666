import Foundation
import Hummingbird
import OAuthCore

/// `GET /oauth/end-session` (OpenID Connect RP-Initiated Logout): with a valid `id_token_hint`
/// and a `post_logout_redirect_uri` registered for its client, 303 to that URI (with `state`);
/// otherwise a plain "signed out" page. The grant the ID token came from is revoked.
enum EndSessionEndpoint {
    static let path = "/oauth/end-session"

    static func handle(_ request: Request, state: ServerState) async -> Response {
        var parameters = request.query
        if request.method == .post, let form = try? await OAuthSupport.form(request) {
            parameters.merge(form) { query, _ in query }
        }
        var clientID = parameters["client_id"]
        if let hint = parameters["id_token_hint"] {
            guard let claims = IDToken.verifyHint(hint, state: state), let audience = claims.audience?.first else {
                return page("Sign-out failed", "The id_token_hint is not an ID token of this server.", status: .badRequest)
            }
            if let clientID, clientID != audience {
                return page("Sign-out failed", "client_id does not match the id_token_hint.", status: .badRequest)
            }
            clientID = audience
            // The ID token names its grant (`sid`): signing out ends it.
            if let family = claims[string: "sid"] { try? await state.revokeGrantFamily(family) }
        }
        guard let redirect = parameters["post_logout_redirect_uri"] else {
            return page("Signed out", "You are signed out.")
        }
        guard let clientID, let client = try? await state.store.get(ClientRecord.self, kind: "client", id: clientID),
            client.accepts(redirectUri: redirect), var components = URLComponents(string: redirect)
        else {
            return page("Sign-out failed", "The post_logout_redirect_uri is not registered for the client.", status: .badRequest)
        }
        if let value = parameters["state"] {
            components.queryItems = (components.queryItems ?? []) + [URLQueryItem(name: "state", value: value)]
        }
        return Reply.redirect(components.string ?? redirect)
    }

    private static func page(_ title: String, _ message: String, status: HTTPResponse.Status = .ok) -> Response {
        Reply.html("<!doctype html><html><head><title>\(title)</title></head><body><h1>\(title)</h1><p>\(message)</p></body></html>", status: status)
    }
}
