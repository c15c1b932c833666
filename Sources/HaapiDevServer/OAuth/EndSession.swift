import Foundation
import Hummingbird
import OAuthCore

/// `GET /oauth/end-session` (OpenID Connect RP-Initiated Logout 1.0): with a valid, unexpired
/// `id_token_hint`, the grant it came from ends and the browser goes to a `post_logout_redirect_uri`
/// registered for its client (with `state`), or to a "signed out" page. Without such a hint
/// (none, or an expired one, which only identifies) nothing ends until the user confirms on a
/// page of this server, whose form carries a single-use token: a link alone signs nobody out.
enum EndSessionEndpoint {
    static let path = "/oauth/end-session"
    static let confirmationKind = "end-session-confirmation"

    /// What a confirmation page stands for.
    struct Pending: Codable {
        var clientID: String?
        var family: String?
        var redirect: String?
        var state: String?
    }

    static func handle(_ request: Request, state: ServerState) async -> Response {
        var parameters = request.query
        if request.method == .post, let form = try? await OAuthSupport.form(request) {
            parameters.merge(form) { query, _ in query }
        }
        // The confirmation page's answer.
        if request.method == .post, let token = parameters["confirm"] {
            guard let pending = try? await state.store.take(Pending.self, kind: confirmationKind, id: token) else {
                return page("Sign-out failed", "This sign-out page has expired or was used; start again.", status: .badRequest)
            }
            if let family = pending.family { try? await state.revokeGrantFamily(family) }
            return finish(pending)
        }
        var pending = Pending(clientID: parameters["client_id"], family: nil, redirect: nil, state: parameters["state"])
        var confirmed = false
        if let hint = parameters["id_token_hint"] {
            guard let claims = IDToken.verifyHint(hint, state: state), let audience = claims.audience?.first else {
                return page("Sign-out failed", "The id_token_hint is not an ID token of this server.", status: .badRequest)
            }
            if let clientID = pending.clientID, clientID != audience {
                return page("Sign-out failed", "client_id does not match the id_token_hint.", status: .badRequest)
            }
            pending.clientID = audience
            pending.family = claims[string: "sid"]  // the ID token names its grant
            // A current ID token stands for the user's session; an expired one only says whom it was about.
            confirmed = claims.expiresAt.map { $0 > Date() } ?? false
        }
        if let redirect = parameters["post_logout_redirect_uri"] {
            guard let clientID = pending.clientID, let client = try? await state.store.get(ClientRecord.self, kind: "client", id: clientID),
                client.accepts(postLogoutRedirectUri: redirect)
            else {
                return page("Sign-out failed", "The post_logout_redirect_uri is not registered for the client.", status: .badRequest)
            }
            pending.redirect = redirect
        }
        if confirmed {
            if let family = pending.family { try? await state.revokeGrantFamily(family) }
            return finish(pending)
        }
        let token = SeedData.randomToken()
        do {
            try await state.store.put(pending, kind: confirmationKind, id: token, expiresAt: Date().addingTimeInterval(300))
        } catch {
            return page("Sign-out failed", "The sign-out could not be prepared.", status: .internalServerError)
        }
        return HTMLPages.page(
            "Sign out?",
            """
            <p>\(markup: HTMLPages.sentence("%@ asks to sign you out.", [pending.clientID.map { "\(text: $0)" } ?? HTMLPages.t("An application")]))</p>
            <form method="post" action="\(link: .path(path))">
            \(markup: HTMLPages.hidden([("confirm", token)]))
            <button type="submit">\(markup: HTMLPages.t("Sign out"))</button>
            </form>
            """)
    }

    private static func finish(_ pending: Pending) -> Response {
        guard let redirect = pending.redirect, var components = URLComponents(string: redirect) else {
            return page("Signed out", "You are signed out.")
        }
        if let value = pending.state {
            components.queryItems = (components.queryItems ?? []) + [URLQueryItem(name: "state", value: value)]
        }
        return Reply.redirect(components.string ?? redirect)
    }

    private static func page(_ title: String, _ message: String, status: HTTPResponse.Status = .ok) -> Response {
        HTMLPages.page(title, "<p>\(markup: HTMLPages.t(message))</p>", status: status)
    }
}
