import Foundation
import HTTPTypes
import Hummingbird
import Logging

/// The authorization endpoint and the authentication service: HAAPI representations for
/// `Accept: application/vnd.auth+json`, HTML pages otherwise.
enum HaapiRoutes {
    static let logger = ServerLog(label: "haapi-server.flow")

    static func add(to router: Router<DevServerRequestContext>, state: ServerState) {
        router.get(RouterPath(HaapiPaths.authorize)) { request, _ in
            await guarded(request) { try await AuthorizeEndpoint.handle(request, state: state) }
        }

        // The entry into the authentication service, and each authenticator's first step.
        flow(router, .get, HaapiPaths.authenticate, state) { request in try await entry(&request, state: state) }
        for name in Steps.authenticators.keys {
            flow(router, .get, HaapiPaths.authenticator(name), state) { request in try await select(name, &request, state: state) }
        }

        // Username and password, account creation, password reset.
        flow(router, .post, HaapiPaths.usernamePassword, state) { request in
            try offered(UsernamePasswordAuthenticator.name, request)
            return try await UsernamePasswordAuthenticator.login(&request, state: state)
        }
        flow(router, .get, HaapiPaths.register, state) { request in UsernamePasswordAuthenticator.registrationForm(request) }
        flow(router, .post, HaapiPaths.register, state) { request in
            try await UsernamePasswordAuthenticator.register(&request, state: state)
        }
        flow(router, .post, HaapiPaths.registerConfirm, state) { request in
            try await UsernamePasswordAuthenticator.confirmRegistration(&request, state: state)
        }
        flow(router, .get, HaapiPaths.forgotPassword, state) { request in UsernamePasswordAuthenticator.resetForm(request) }
        flow(router, .post, HaapiPaths.forgotPassword, state) { request in
            try await UsernamePasswordAuthenticator.resetPassword(&request, state: state)
        }
        flow(router, .post, HaapiPaths.forgotPasswordConfirm, state) { request in
            try await UsernamePasswordAuthenticator.confirmReset(&request, state: state)
        }

        // The authenticators' own HAAPI steps, each refused unless its authenticator is the flow's.
        // Polling's status and move-on follow a start that was checked.
        typealias Step = @Sendable (inout FlowRequest, ServerState) async throws -> Response
        let offeredSteps: [(HTTPRequest.Method, String, authenticator: String, Step)] = [
            (.post, HaapiPaths.otpSend, OTPAuthenticator.name, OTPAuthenticator.send),
            (.post, HaapiPaths.otpVerify, OTPAuthenticator.name, OTPAuthenticator.verify),
            (.post, HaapiPaths.pollingStart, PollingAuthenticator.name, PollingAuthenticator.start),
            // Duo: the user's devices, then a factor of one.
            (.post, HaapiPaths.duoDevices, DuoAuthenticator.name, DuoAuthenticator.devices),
            (.post, HaapiPaths.duoSelectDevice, DuoAuthenticator.name, DuoAuthenticator.selectDevice),
            // BankID: an order, then its polling.
            (.post, HaapiPaths.bankIDStart, BankIDAuthenticator.name, BankIDAuthenticator.start),
            (.get, HaapiPaths.bankIDPoll, BankIDAuthenticator.name, BankIDAuthenticator.poll),
            // Passkeys: the user, their password before a first registration, then the credential.
            (.post, HaapiPaths.webAuthnStart, WebAuthnAuthenticator.name, WebAuthnAuthenticator.start),
            (.post, HaapiPaths.webAuthnConfirm, WebAuthnAuthenticator.name, WebAuthnAuthenticator.confirm),
            (.post, HaapiPaths.webAuthnRegister, WebAuthnAuthenticator.name, WebAuthnAuthenticator.register),
            (.post, HaapiPaths.webAuthnAuthenticate, WebAuthnAuthenticator.name, WebAuthnAuthenticator.authenticate),
        ]
        for (method, path, authenticator, step) in offeredSteps {
            flow(router, method, path, state, haapiOnly: true) { request in
                try offered(authenticator, request)
                return try await step(&request, state)
            }
        }
        flow(router, .get, HaapiPaths.pollingPoll, state, haapiOnly: true) { request in
            try await PollingAuthenticator.poll(&request, state: state)
        }
        flow(router, .post, HaapiPaths.pollingPoll, state, haapiOnly: true) { request in
            try await PollingAuthenticator.moveOn(&request, state: state)
        }

        // External browser: the HTML page the browser opens, and the app's continue form.
        router.get(RouterPath(HaapiPaths.externalLaunch)) { request, _ in
            await guarded(request) { try await ExternalBrowserAuthenticator.page(request, state: state) }
        }
        router.post(RouterPath(HaapiPaths.externalLaunch)) { request, _ in
            await guarded(request) { try await ExternalBrowserAuthenticator.login(request, state: state) }
        }
        flow(router, .post, HaapiPaths.externalResume, state, haapiOnly: true) { request in
            try offered(
                request.flow.authenticator == ExternalBrowserAuthenticator.legacyName
                    ? ExternalBrowserAuthenticator.legacyName : ExternalBrowserAuthenticator.name, request)
            return try await ExternalBrowserAuthenticator.resume(&request, state: state)
        }

        // The approvals the waiting authenticators wait for: the "phone" side, opened from a link.
        router.get(RouterPath(HaapiPaths.approve)) { request, _ in
            await guarded(request) { try await Approvals.page(request, state: state) }
        }
        router.post(RouterPath(HaapiPaths.approve)) { request, _ in
            await guarded(request) { try await Approvals.decide(request, state: state) }
        }

        // Consent and cancel.
        flow(router, .post, HaapiPaths.consent, state) { request in try await FlowCompletion.consent(&request, state: state) }
        flow(router, .post, HaapiPaths.cancel, state) { request in try await FlowCompletion.cancel(request, state: state) }
    }

    /// A route of the authentication service: loads the flow (checking the HAAPI token, the
    /// DPoP proof and the session), runs `handler`, and answers faults with `unexpected`.
    static func flow(
        _ router: Router<DevServerRequestContext>, _ method: HTTPRequest.Method, _ path: String, _ state: ServerState,
        haapiOnly: Bool = false,
        _ handler: @escaping @Sendable (inout FlowRequest) async throws -> Response
    ) {
        router.on(RouterPath(path), method: method) { request, context in
            await guarded(request) {
                var flowRequest = try await FlowRequest.load(request, source: context.source, state: state)
                if haapiOnly && !flowRequest.isHaapi {
                    return HTMLPages.error("This step is only available to apps (HAAPI).", status: .notAcceptable)
                }
                return try await ServerLanguage.$current.withValue(flowRequest.flow.language ?? ServerLanguage.current) {
                    try await handler(&flowRequest)
                }
            }
        }
    }

    /// Runs a handler; a ``HaapiRefusal`` becomes its response, any other error the problem
    /// `unexpected` (HAAPI) or an error page (browser).
    static func guarded(_ request: Request, _ body: () async throws -> Response) async -> Response {
        do {
            return try await body()
        } catch let refusal as HaapiRefusal {
            return refusal.reply
        } catch  where Reply.isTooLarge(error) {
            return HaapiAccess.isHaapi(request)
                ? Reply.payloadTooLarge() : HTMLPages.error("The request is too large.", status: .contentTooLarge)
        } catch {
            logger.error("\(request.method) \(request.uri.path) failed: \(error)")
            return HaapiAccess.isHaapi(request)
                ? Problems.unexpected() : HTMLPages.error("An unexpected error happened.", status: .internalServerError)
        }
    }

    /// Refuses an authenticator the flow's client does not offer.
    static func offered(_ name: String, _ request: FlowRequest) throws {
        guard request.client.authenticators.contains(name) else {
            throw HaapiRefusal(
                reply: request.isHaapi
                    ? Problems.genericUserError("This authenticator is not offered to the client")
                    : HTMLPages.error("This authenticator is not offered to the client", status: .badRequest))
        }
    }

    /// `GET /authn/authenticate`: the only authenticator's first step, or the selector.
    static func entry(_ request: inout FlowRequest, state: ServerState) async throws -> Response {
        let names = request.client.authenticators.filter { Steps.authenticators[$0] != nil }
        guard request.isHaapi else { return UsernamePasswordAuthenticator.show(request) }
        if names.count == 1 { return try await select(names[0], &request, state: state) }
        guard !names.isEmpty else { throw FlowError("the client \(request.client.clientId) offers no authenticator") }
        return Wire.reply(Steps.selector(names))
    }

    /// An authenticator's first step.
    static func select(_ name: String, _ request: inout FlowRequest, state: ServerState) async throws -> Response {
        try offered(name, request)
        guard request.isHaapi || name == UsernamePasswordAuthenticator.name else {
            return HTMLPages.error("This authenticator is only available to apps (HAAPI).", status: .notAcceptable)
        }
        request.flow.choose(name)
        if name == ExternalBrowserAuthenticator.name || name == ExternalBrowserAuthenticator.legacyName {
            return try await ExternalBrowserAuthenticator.show(
                &request, state: state, legacy: name == ExternalBrowserAuthenticator.legacyName)
        }
        try await state.saveFlow(request.flow, id: request.sessionID)
        switch name {
        case DuoAuthenticator.name: return DuoAuthenticator.show(request)
        case BankIDAuthenticator.name: return BankIDAuthenticator.show(request)
        case WebAuthnAuthenticator.name: return WebAuthnAuthenticator.show(request)
        case OTPAuthenticator.name: return OTPAuthenticator.show(request)
        case PollingAuthenticator.name: return PollingAuthenticator.show(request)
        default: return UsernamePasswordAuthenticator.show(request)
        }
    }
}
