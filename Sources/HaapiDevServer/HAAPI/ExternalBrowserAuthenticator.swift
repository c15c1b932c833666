import Foundation
import Hummingbird
import OAuthCore

/// The external-browser client operation: the app opens an HTML page of this server (with its
/// `redirect_uri` appended), the user logs in there, the browser comes back to the app with
/// `_resume_nonce`, and the app submits the continue form with it.
enum ExternalBrowserAuthenticator {
    static let name = "external-browser"
    /// The same authenticator sending Curity's legacy `launch` template.
    static let legacyName = "legacy-launch"
    static let launchLifetime: TimeInterval = 10 * 60

    /// The client-operation step (or, `legacy`, the `launch` step), with a new launch nonce.
    static func show(_ request: inout FlowRequest, state: ServerState, legacy: Bool = false) async throws -> Response {
        let launchNonce = SeedData.randomToken(24)
        request.flow.wait(for: .externalBrowser(.launched(nonce: launchNonce)))
        try await state.saveFlow(request.flow, id: request.sessionID)
        try await state.store.put(
            request.sessionID, kind: FlowSession.launchKind, id: launchNonce, expiresAt: Date().addingTimeInterval(launchLifetime))
        let href = Wire.appendingQuery(state.url(HaapiPaths.externalLaunch).absoluteString, [("_launch_nonce", launchNonce)])
        return Wire.reply(legacy ? Steps.legacyLaunch(href: href) : Steps.externalBrowser(href: href))
    }

    /// The browser side: the flow of a launch nonce, and the checked `redirect_uri`.
    static func launched(_ parameters: [String: String], state: ServerState) async throws -> (String, FlowSession, String)? {
        guard let nonce = parameters["_launch_nonce"],
            let sessionID = try await state.store.get(String.self, kind: FlowSession.launchKind, id: nonce),
            let flow = try await state.loadFlow(sessionID), flow.pending == .externalBrowser(.launched(nonce: nonce)),
            let client = try await state.client(flow.clientId),
            let redirectUri = parameters["redirect_uri"], client.accepts(redirectUri: redirectUri)
        else { return nil }
        return (sessionID, flow, redirectUri)
    }

    static let unknownLaunch = "This login link is unknown, expired, or has a redirect_uri the app did not register."

    /// `GET launch`: the HTML login page.
    static func page(_ request: Request, state: ServerState) async throws -> Response {
        let parameters = request.query
        guard let (_, _, redirectUri) = try await launched(parameters, state: state) else {
            return HTMLPages.error(unknownLaunch, status: .badRequest)
        }
        return HTMLPages.login(
            action: HaapiPaths.externalLaunch,
            hiddenFields: [("_launch_nonce", parameters["_launch_nonce"] ?? ""), ("redirect_uri", redirectUri)])
    }

    /// `POST launch`: checks the password, then sends the browser back to the app with `_resume_nonce`.
    static func login(_ request: Request, state: ServerState) async throws -> Response {
        let parameters = try await FlowRequest.allParameters(request)
        guard let (sessionID, flow, redirectUri) = try await launched(parameters, state: state) else {
            return HTMLPages.error(unknownLaunch, status: .badRequest)
        }
        let hidden = [("_launch_nonce", parameters["_launch_nonce"] ?? ""), ("redirect_uri", redirectUri)]
        let username = parameters["userName"]?.trimmingCharacters(in: .whitespaces) ?? ""
        let password = parameters["password"] ?? ""
        guard !username.isEmpty, !password.isEmpty else {
            return HTMLPages.login(
                action: HaapiPaths.externalLaunch, hiddenFields: hidden, error: "Enter your username and password", status: .badRequest)
        }
        switch try await Credentials.check(username: username, password: password, state: state) {
        case .locked:
            return HTMLPages.login(
                action: HaapiPaths.externalLaunch, hiddenFields: hidden, error: "Too many failed attempts: the account is locked",
                status: .badRequest)
        case .incorrect:
            return HTMLPages.login(
                action: HaapiPaths.externalLaunch, hiddenFields: hidden, error: "Incorrect username or password", status: .badRequest)
        case .success(let user):
            var flow = flow
            let resumeNonce = SeedData.randomToken(24)
            flow.wait(for: .externalBrowser(.returned(resumeNonce: resumeNonce, username: user.username)))
            try await state.saveFlow(flow, id: sessionID)
            try await state.store.delete(kind: FlowSession.launchKind, id: parameters["_launch_nonce"] ?? "")
            return Reply.redirect(Wire.appendingQuery(redirectUri, [("_resume_nonce", resumeNonce)]))
        }
    }

    /// The app's continue form: the right `_resume_nonce` continues the flow.
    static func resume(_ request: inout FlowRequest, state: ServerState) async throws -> Response {
        guard let nonce = request.value("_resume_nonce") else {
            return Problems.invalidInput([.missing("_resume_nonce", "The browser did not come back with a resume nonce")])
        }
        guard case .externalBrowser(.returned(let expected, let username)) = request.flow.pending, nonce == expected else {
            return Problems.invalidInput([.invalid("_resume_nonce", "The resume nonce is not the one the browser was given")])
        }
        return try await FlowCompletion.authenticated(&request, username: username, state: state)
    }
}
