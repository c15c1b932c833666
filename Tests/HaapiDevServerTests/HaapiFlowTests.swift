import Foundation
import HaapiDevServer
import HaapiDriver
import HaapiSDK
import HaapiServerTesting
import HaapiTesting
import OAuthCore
import OAuthTransportNIO
import Testing

// MARK: - Test support

/// The code the server "sent" in the flow `manager` runs (its test hook).
func sentCode(_ server: RunningServer, _ manager: HaapiManager) async throws -> String {
    let session = try #require(await manager.currentSessionID)
    return try #require(try await server.state.store.get(String.self, kind: "otp-test-hook", id: session))
}

/// A HAAPI client of the running server: a DPoP key, a HAAPI token bound to it, and a HaapiManager.
struct HaapiTestClient {
    let server: RunningServer
    let clientId: String
    let dpop: Dpop
    let token: String
    let manager: HaapiManager

    static let appRedirect = "haapi://callback"

    init(
        _ server: RunningServer, clientId: String = "haapi-attested", tokenClientId: String? = nil, scopes: [String] = ["openid"],
        state: String? = "st-123", autoRedirect: Bool = true, dpop: Dpop? = nil
    ) throws {
        self.server = server
        self.clientId = clientId
        let dpop = try dpop ?? Dpop()
        self.dpop = dpop
        token = try server.state.issueAccessToken(
            clientId: tokenClientId ?? clientId, subject: nil, scope: [SeedData.haapiScope], jkt: dpop.thumbprint, lifetime: 600)
        let issuer = server.issuer
        let configuration = HaapiConfiguration(
            name: "test-\(clientId)", clientId: clientId, baseURL: issuer, tokenEndpointURL: issuer.appendingPathComponent("oauth/token"),
            authorizationEndpointURL: issuer.appendingPathComponent("oauth/authorize"), appRedirect: Self.appRedirect,
            authorizationParametersProvider: { OAuthAuthorizationParameters(scopes: scopes, nonce: "n-1", state: state) },
            isAutoRedirect: autoRedirect)
        manager = HaapiManager(haapiConfiguration: configuration, transport: try Self.transport(token: token, dpop: dpop))
    }

    static func transport(token: String, dpop: Dpop) throws -> any HTTPTransport {
        // `Authorization: DPoP <token>` on every request; under it, OAuthCore's DPoPTransport
        // adds the proof (with `ath` for that token).
        InterceptingTransport(DPoPTransport(base: try AsyncHTTPClientTransport(), dpop: dpop)) { request in
            request.headers["Authorization"] = "DPoP \(token)"
            return nil
        }
    }

    /// A raw HAAPI request through this client's token and key.
    func send(_ method: String = "GET", _ path: String, sessionID: String? = nil, form: [(String, String)]? = nil) async throws
        -> TransportResponse
    {
        var headers: HeaderFields = ["Accept": "application/vnd.auth+json"]
        if let sessionID { headers["Session-Id"] = sessionID }
        var body: Data?
        if let form {
            headers["Content-Type"] = "application/x-www-form-urlencoded"
            body = Data(FormURLEncoding.encode(form).utf8)
        }
        let url = URL(string: server.issuer.absoluteString + path)!
        return try await Self.transport(token: token, dpop: dpop).send(
            TransportRequest(method: method, url: url, headers: headers, body: body))
    }
}

/// The lines a server wrote to its ``DevServerConfiguration/requestLog``, collected from any thread.
final class LogLines: @unchecked Sendable {
    private let lock = NSLock()
    private var collected: [String] = []

    /// The log to give the server.
    var log: @Sendable (String) -> Void { { [self] line in lock.withLock { collected.append(line) } } }

    /// Every line so far, in order.
    var lines: [String] { lock.withLock { collected } }
}

/// Expects a step of type `T`.
func expectStep<T>(_ result: HaapiResult, _ type: T.Type, sourceLocation: SourceLocation = #_sourceLocation) throws -> T {
    let step = try #require(result.representation as? T, "expected \(T.self), got \(describe(result))", sourceLocation: sourceLocation)
    return step
}

/// Expects a problem of `type`.
@discardableResult
func expectProblem(_ result: HaapiResult, _ type: ProblemType, sourceLocation: SourceLocation = #_sourceLocation) throws
    -> any ProblemRepresentation
{
    let problem = try #require(result.problem, "expected a problem, got \(describe(result))", sourceLocation: sourceLocation)
    #expect(problem.type == type, sourceLocation: sourceLocation)
    return problem
}

func describe(_ result: HaapiResult) -> String {
    switch result {
    case .representation(let step): return "\(Swift.type(of: step)) \(String(decoding: step.rawJSON.serialized(), as: UTF8.self))"
    case .problem(let problem): return "problem \(String(decoding: problem.rawJSON.serialized(), as: UTF8.self))"
    case .error(let error): return "error \(error)"
    }
}

extension InteractiveFormStep {
    func form(kind: ActionKind) throws -> FormActionModel { try #require(actions.first { $0.kind == kind }?.form) }
}

extension AuthenticatorSelectorStep {
    func option(_ type: String) throws -> FormAction { try #require(authenticators.first { $0.type == type }?.action) }
}

/// Starts a flow and logs in with username and password (the client offers only that authenticator).
func login(_ client: HaapiTestClient, username: String = "demo", password: String = "Password1") async throws -> HaapiResult {
    let step = try expectStep(await client.manager.start(), InteractiveFormStep.self)
    return await client.manager.submitForm(try step.form(kind: .login), parameters: ["userName": username, "password": password])
}

// MARK: - Flows

@Suite("HAAPI flows against the development server")
struct HaapiFlowTests {
    @Test func usernamePasswordLoginIssuesATokenBoundCode() async throws {
        try await RunningServer.with { server in
            let client = try HaapiTestClient(server)
            let step = try expectStep(await client.manager.start(), InteractiveFormStep.self)
            #expect(await client.manager.currentSessionID != nil)
            let form = try step.form(kind: .login)
            #expect(form.fields.map(\.name) == ["userName", "password"])
            #expect(form.fields.map(\.type) == [.username, .password])
            #expect(step.metadata?.viewName != nil)
            let result = await client.manager.submitForm(form, parameters: ["userName": "demo", "password": "Password1"])
            let response = try expectStep(result, OAuthAuthorizationResponseStep.self)
            let properties = response.oauthAuthorizationResponseProperties
            let code = try #require(properties.code)
            #expect(properties.state == "st-123")
            #expect(properties.iss == server.issuer.absoluteString)
            let link = try #require(response.authorizationResponseLink?.href)
            #expect(link.hasPrefix("haapi://callback?"))
            #expect(Browser.query(link)["code"] == code)
            #expect(Browser.query(link)["state"] == "st-123")
            #expect(Browser.query(link)["iss"] == server.issuer.absoluteString)

            let record = try #require(
                try await server.state.store.get(AuthorizationCodeRecord.self, kind: AuthorizationCodeRecord.kind, id: code))
            #expect(record.clientId == "haapi-attested")
            #expect(record.redirectUri == "haapi://callback")
            #expect(record.scope == ["openid"])
            #expect(record.username == "demo")
            #expect(record.nonce == "n-1")
            #expect(record.dpopJkt == client.dpop.thumbprint)
            #expect(abs(record.authTime.timeIntervalSinceNow) < 60)
            // The flow is over: its session is gone.
            let again = await client.manager.submitForm(form, parameters: ["userName": "demo", "password": "Password1"])
            try expectProblem(again, .genericUserProblem)
        }
    }

    @Test func secretClientChoosesUsernamePasswordAndGetsAnUnboundCode() async throws {
        try await RunningServer.with { server in
            let client = try HaapiTestClient(server, clientId: "haapi-secret")
            let selector = try expectStep(await client.manager.start(), AuthenticatorSelectorStep.self)
            #expect(
                Set(selector.authenticators.compactMap(\.type)) == [
                    "html-form", "sms", "polling", "external-browser", "duo", "bankid", "webauthn",
                ])
            let login = try expectStep(await client.manager.submit(try selector.option("html-form")), InteractiveFormStep.self)
            let result = await client.manager.submitForm(
                try login.form(kind: .login), parameters: ["userName": "demo", "password": "Password1"])
            let code = try #require(try expectStep(result, OAuthAuthorizationResponseStep.self).oauthAuthorizationResponseProperties.code)
            let record = try #require(
                try await server.state.store.get(AuthorizationCodeRecord.self, kind: AuthorizationCodeRecord.kind, id: code))
            #expect(record.clientId == "haapi-secret")
            #expect(record.dpopJkt == nil)
        }
    }

    @Test func wrongPasswordMissingFieldsAndLockout() async throws {
        try await RunningServer.with(DevServerConfiguration(lockoutAfterFailures: 2)) { server in
            let client = try HaapiTestClient(server)
            let step = try expectStep(await client.manager.start(), InteractiveFormStep.self)
            let form = try step.form(kind: .login)

            let missing = try expectProblem(await client.manager.submitForm(form), .invalidInputProblem)
            let invalid = try #require(missing as? InvalidInputProblem)
            #expect(invalid.invalidFields.map(\.name).sorted() == ["password", "userName"])
            #expect(invalid.invalidField(named: "password")?.reason == "missing")
            #expect(invalid.invalidField(named: "userName")?.detail.literal.isEmpty == false)

            for _ in 0..<2 {
                try expectProblem(
                    await client.manager.submitForm(form, parameters: ["userName": "demo", "password": "wrong"]),
                    .incorrectCredentialsProblem)
            }
            // Locked: even the right password is refused now.
            let locked = await client.manager.submitForm(form, parameters: ["userName": "demo", "password": "Password1"])
            try expectProblem(locked, .tooManyAttemptsProblem)
            #expect(locked.problem?.type.isRetryableOnSameStep == true)
        }
    }

    @Test func otpWithContinueSameStepAndTheCodeFromTheTestHookAndTheRequestLog() async throws {
        let log = LogLines()
        try await RunningServer.with(DevServerConfiguration(requestLog: log.log)) { server in
            let client = try HaapiTestClient(server, clientId: "haapi-secret")
            let selector = try expectStep(await client.manager.start(), AuthenticatorSelectorStep.self)
            let otp = try expectStep(await client.manager.submit(try selector.option("sms")), InteractiveFormStep.self)
            let send = try otp.form(kind: .login)
            #expect(send.continueActions.count == 1)
            let sent = try expectStep(await client.manager.submitForm(send, parameters: ["userName": "demo"]), ContinueSameStep.self)
            #expect(sent.messages.first?.text.literal.contains("+XX XXX XXX 000") == true)
            let enter = try #require(sent.continueActions.first?.form)
            #expect(enter.field("otp") != nil)

            let sessionID = try #require(await client.manager.currentSessionID)
            let code = try #require(try await server.state.store.get(String.self, kind: "otp-test-hook", id: sessionID))
            #expect(code.count == 6)
            #expect(log.lines.filter { $0.hasPrefix("otp: ") } == ["otp: \(code) for demo"])
            let wrong = code == "000000" ? "111111" : "000000"
            try expectProblem(await client.manager.submitForm(enter, parameters: ["otp": wrong]), .incorrectCredentialsProblem)
            let result = await client.manager.submitForm(enter, parameters: ["otp": code])
            #expect(try expectStep(result, OAuthAuthorizationResponseStep.self).oauthAuthorizationResponseProperties.code != nil)
        }
    }

    @Test func pollingPendingThenDone() async throws {
        try await RunningServer.with { server in
            let client = try HaapiTestClient(server, clientId: "haapi-secret")
            let selector = try expectStep(await client.manager.start(), AuthenticatorSelectorStep.self)
            let start = try expectStep(await client.manager.submit(try selector.option("polling")), InteractiveFormStep.self)
            var step = try expectStep(
                await client.manager.submitForm(try start.form(kind: .login), parameters: ["userName": "demo"]), PollingStep.self)
            #expect(step.pollingProperties.status == .pending)
            #expect(step.pollingProperties.recipientOfCommunication == "+XX XXX XXX 000")
            #expect(step.pollingProperties.intervalMilliseconds == 2000)
            #expect(step.cancelAction != nil)
            // Pending until the user approves on the page of the link the server sent.
            for _ in 0..<2 {
                step = try expectStep(await client.manager.poll(step), PollingStep.self)
                #expect(step.pollingProperties.status == .pending)
            }
            try await server.answerApproval()
            step = try expectStep(await client.manager.poll(step), PollingStep.self)
            #expect(step.pollingProperties.status == .done)
            #expect(step.mainAction.kind == .redirect)
            #expect(step.mainAction.form?.method == "POST")
            let result = await client.manager.poll(step)
            #expect(try expectStep(result, OAuthAuthorizationResponseStep.self).oauthAuthorizationResponseProperties.code != nil)
        }
    }

    @Test func cancelEndsTheFlowWithAnErrorAuthorizationResponse() async throws {
        try await RunningServer.with { server in
            let client = try HaapiTestClient(server, clientId: "haapi-secret")
            let selector = try expectStep(await client.manager.start(), AuthenticatorSelectorStep.self)
            let start = try expectStep(await client.manager.submit(try selector.option("polling")), InteractiveFormStep.self)
            let step = try expectStep(
                await client.manager.submitForm(try start.form(kind: .login), parameters: ["userName": "demo"]), PollingStep.self)
            let result = await client.manager.submit(try #require(step.cancelAction))
            let problem = try #require(try expectProblem(result, .errorAuthorizationResponseProblem) as? AuthorizationProblem)
            #expect(problem.error == "access_denied")
            #expect(problem.errorDescription?.isEmpty == false)
            #expect(problem.iss == server.issuer.absoluteString)
            let link = try #require(problem.links.first { $0.rel == "authorization-response" }?.href)
            #expect(Browser.query(link)["error"] == "access_denied")
            #expect(Browser.query(link)["state"] == "st-123")
        }
    }

    @Test func externalBrowserLoginComesBackWithTheResumeNonce() async throws {
        try await RunningServer.with { server in
            let client = try HaapiTestClient(server, clientId: "haapi-secret")
            let selector = try expectStep(await client.manager.start(), AuthenticatorSelectorStep.self)
            let operation = try expectStep(
                await client.manager.submit(try selector.option("external-browser")), ExternalBrowserClientOperationStep.self)
            let href = operation.actionModel.href
            let continueForm = try #require(operation.continueActions.first?.form)
            #expect(continueForm.field("_resume_nonce")?.type == .context)

            // The browser: the page, its login form, the redirect back to the app.
            let pageURL = try #require(URL(string: href + "&redirect_uri=" + FormURLEncoding.escape(HaapiTestClient.appRedirect)))
            let page = try await Browser.get(pageURL)
            #expect(page.status == 200)
            #expect(page.mediaType == "text/html")
            let form = try Browser.firstForm(page.bodyText)
            let action = try #require(URL(string: form.action, relativeTo: server.issuer)?.absoluteURL)
            let refused = try await Browser.post(action, form.hidden + [("userName", "demo"), ("password", "nope")])
            #expect(refused.status == 400)
            let answer = try await Browser.post(action, form.hidden + [("userName", "demo"), ("password", "Password1")])
            #expect(answer.status == 303)
            let location = try #require(answer.headers["Location"])
            #expect(location.hasPrefix("haapi://callback?"))
            let nonce = try #require(Browser.query(location)["_resume_nonce"])

            try expectProblem(await client.manager.submitForm(continueForm, parameters: ["_resume_nonce": "forged"]), .invalidInputProblem)
            let result = await client.manager.submitForm(continueForm, parameters: ["_resume_nonce": nonce])
            #expect(try expectStep(result, OAuthAuthorizationResponseStep.self).oauthAuthorizationResponseProperties.code != nil)
        }
    }

    @Test func externalBrowserPageRefusesAnUnregisteredRedirect() async throws {
        try await RunningServer.with { server in
            let client = try HaapiTestClient(server, clientId: "haapi-secret")
            let selector = try expectStep(await client.manager.start(), AuthenticatorSelectorStep.self)
            let operation = try expectStep(
                await client.manager.submit(try selector.option("external-browser")), ExternalBrowserClientOperationStep.self)
            let href = operation.actionModel.href
            let evil = try #require(URL(string: href + "&redirect_uri=https%3A%2F%2Fevil.example%2F"))
            let page = try await Browser.get(evil)
            #expect(page.status == 400)
        }
    }

    @Test func consentStepOnceForExtraScopes() async throws {
        try await RunningServer.with { server in
            let client = try HaapiTestClient(server, scopes: ["openid", "profile", "email"])
            let consent = try expectStep(try await login(client), UserConsentStep.self)
            let form = try #require(consent.actions.first { $0.kind == .userConsent }?.form)
            #expect(form.fields.map(\.type) == [.checkbox, .checkbox])
            #expect(consent.actions.contains { $0.kind == .cancel })
            // Uncheck email: only openid and profile are granted.
            let emailField = try #require(form.fields.first { $0.value == "email" })
            let result = await client.manager.submitForm(form, parameters: [emailField.name: ""])
            let code = try #require(try expectStep(result, OAuthAuthorizationResponseStep.self).oauthAuthorizationResponseProperties.code)
            let record = try #require(
                try await server.state.store.get(AuthorizationCodeRecord.self, kind: AuthorizationCodeRecord.kind, id: code))
            #expect(record.scope == ["openid", "profile"])

            // Consent is remembered for this user and client.
            let second = try HaapiTestClient(server, scopes: ["openid", "profile"])
            _ = try expectStep(try await login(second), OAuthAuthorizationResponseStep.self)
        }
    }

    @Test func createAccountAndResetPasswordLinksWork() async throws {
        try await RunningServer.with { server in
            let client = try HaapiTestClient(server)
            let step = try expectStep(await client.manager.start(), InteractiveFormStep.self)
            let registration = try expectStep(
                await client.manager.followLink(try #require(step.link(rel: "register-create"))), InteractiveFormStep.self)
            #expect(registration.type == .registrationStep)
            let create = try registration.form(kind: .userRegister)
            try expectProblem(
                await client.manager.submitForm(create, parameters: ["userName": "demo", "password": "x"]), .invalidInputProblem)
            let sent = try expectStep(
                await client.manager.submitForm(
                    create, parameters: ["userName": "alice", "password": "Secret-1", "name": "Alice", "phone": "+46 70 123 45 67"]),
                ContinueSameStep.self)
            #expect(sent.messages.map(\.text) == ["A message was sent to +XX XXX XXX 567: enter the code it gives to create the account"])
            #expect(try await server.state.store.get(UserRecord.self, kind: "user", id: "alice") == nil, "no account before the code")
            let created = try expectStep(
                await client.manager.submitForm(
                    try #require(sent.continueActions.first?.form), parameters: ["code": try await sentCode(server, client.manager)]),
                InteractiveFormStep.self)
            #expect(!created.messages.isEmpty)
            #expect(try await server.state.store.get(UserRecord.self, kind: "user", id: "alice")?.name == "Alice")

            let reset = try expectStep(
                await client.manager.followLink(try #require(created.link(rel: "forgot-password"))), InteractiveFormStep.self)
            let resetSent = try expectStep(
                await client.manager.submitForm(try reset.form(kind: .passwordReset), parameters: ["userName": "alice"]),
                ContinueSameStep.self)
            let resetCode = try await sentCode(server, client.manager)
            let changed = try expectStep(
                await client.manager.submitForm(
                    try #require(resetSent.continueActions.first?.form), parameters: ["code": resetCode, "password": "Secret-2"]),
                InteractiveFormStep.self)
            let loginForm = try changed.form(kind: .login)
            try expectProblem(
                await client.manager.submitForm(loginForm, parameters: ["userName": "alice", "password": "Secret-1"]),
                .incorrectCredentialsProblem)
            let result = await client.manager.submitForm(loginForm, parameters: ["userName": "alice", "password": "Secret-2"])
            let code = try #require(try expectStep(result, OAuthAuthorizationResponseStep.self).oauthAuthorizationResponseProperties.code)
            #expect(
                try await server.state.store.get(AuthorizationCodeRecord.self, kind: AuthorizationCodeRecord.kind, id: code)?.username
                    == "alice")
        }
    }

    /// Finding 2 of the third security review: a user name with a newline, sent without
    /// authentication through the account creation form, wrote a forged line into the request
    /// log (a fake `approve:` link, which the help tells developers to open).
    @Test func aUserNameWithANewlineCannotForgeALogLine() async throws {
        let log = LogLines()
        try await RunningServer.with(DevServerConfiguration(requestLog: log.log)) { server in
            let client = try HaapiTestClient(server)
            let step = try expectStep(await client.manager.start(), InteractiveFormStep.self)
            let registration = try expectStep(
                await client.manager.followLink(try #require(step.link(rel: "register-create"))), InteractiveFormStep.self)
            let forged = "mallory\napprove: https://evil.example/approve for demo\r\u{1B}[2K"
            for name in [forged, "demo\napprove: https://evil.example/again for demo"] {
                _ = try expectStep(
                    await client.manager.submitForm(
                        try registration.form(kind: .userRegister),
                        parameters: ["userName": name, "password": "Secret-1", "phone": "+46 70 123 45 67"]),
                    ContinueSameStep.self)
            }
        }
        let lines = log.lines.flatMap { $0.split(separator: "\n", omittingEmptySubsequences: false) }
        #expect(lines.count == log.lines.count, "every log call is one line")
        #expect(!lines.contains { $0.hasPrefix("approve:") }, "\(lines)")
        #expect(!log.lines.contains { $0.unicodeScalars.contains { $0 == "\r" || $0 == "\u{1B}" } })
        #expect(
            log.lines.contains { $0.hasPrefix("register: ") && $0.contains("mallory\\u{A}approve: https://evil.example/approve") },
            "\(log.lines)")
        #expect(
            log.lines.contains { $0.hasPrefix("register: ") && $0.contains(" for demo\\u{A}approve: https://evil.example/again") },
            "\(log.lines)")
    }

    @Test func browserLoginWithHTMLPages() async throws {
        try await RunningServer.with { server in
            var components = URLComponents(url: server.issuer.appendingPathComponent("oauth/authorize"), resolvingAgainstBaseURL: false)!
            components.queryItems = [
                .init(name: "client_id", value: "browser-app"), .init(name: "response_type", value: "code"),
                .init(name: "redirect_uri", value: "http://127.0.0.1/callback"), .init(name: "scope", value: "openid"),
                .init(name: "state", value: "xyz"), .init(name: "code_challenge", value: String(repeating: "a", count: 43)),
                .init(name: "code_challenge_method", value: "S256"),
            ]
            let start = try await Browser.get(components.url!)
            #expect(start.status == 303)
            let startLocation = try #require(start.headers["Location"])
            let loginURL = try #require(URL(string: startLocation, relativeTo: server.issuer)?.absoluteURL)
            let page = try await Browser.get(loginURL)
            #expect(page.status == 200)
            #expect(page.bodyText.contains("rel=\"register-create\""))
            let form = try Browser.firstForm(page.bodyText)
            let action = try #require(URL(string: form.action, relativeTo: server.issuer)?.absoluteURL)
            let wrong = try await Browser.post(action, form.hidden + [("userName", "demo"), ("password", "nope")])
            #expect(wrong.status == 400)
            #expect(wrong.bodyText.contains("Incorrect"))
            let done = try await Browser.post(action, form.hidden + [("userName", "demo"), ("password", "Password1")])
            #expect(done.status == 303)
            let location = try #require(done.headers["Location"])
            #expect(location.hasPrefix("http://127.0.0.1/callback?"))
            let query = Browser.query(location)
            #expect(query["state"] == "xyz")
            #expect(query["iss"] == server.issuer.absoluteString)
            let code = try #require(query["code"])
            let record = try #require(
                try await server.state.store.get(AuthorizationCodeRecord.self, kind: AuthorizationCodeRecord.kind, id: code))
            #expect(record.clientId == "browser-app")
            #expect(record.codeChallenge == String(repeating: "a", count: 43))
            #expect(record.codeChallengeMethod == "S256")
            #expect(record.dpopJkt == nil)
        }
    }

    @Test func browserLoginWithConsentPage() async throws {
        try await RunningServer.with { server in
            let authorize =
                server.issuer.absoluteString
                + "/oauth/authorize?client_id=browser-app&response_type=code&redirect_uri=http%3A%2F%2F127.0.0.1%2Fcallback&scope=openid%20profile"
                + "&code_challenge=\(PKCE().challenge)&code_challenge_method=S256"
            let start = try await Browser.get(URL(string: authorize)!)
            let startLocation = try #require(start.headers["Location"])
            let page = try await Browser.get(try #require(URL(string: startLocation, relativeTo: server.issuer)?.absoluteURL))
            let login = try Browser.firstForm(page.bodyText)
            let consent = try await Browser.post(
                try #require(URL(string: login.action, relativeTo: server.issuer)?.absoluteURL),
                login.hidden + [("userName", "demo"), ("password", "Password1")])
            #expect(consent.status == 200)
            #expect(consent.bodyText.contains("type=\"checkbox\" name=\"consent_profile\""))
            let form = try Browser.firstForm(consent.bodyText)
            let done = try await Browser.post(
                try #require(URL(string: form.action, relativeTo: server.issuer)?.absoluteURL),
                form.hidden + [("consent_profile", "profile")])
            #expect(done.status == 303)
            let doneLocation = try #require(done.headers["Location"])
            let code = try #require(Browser.query(doneLocation)["code"])
            let record = try await server.state.store.get(AuthorizationCodeRecord.self, kind: AuthorizationCodeRecord.kind, id: code)
            #expect(record?.scope == ["openid", "profile"])
            // A HAAPI request cannot take over a browser flow, nor a browser a HAAPI flow.
            let client = try HaapiTestClient(server)
            _ = try expectStep(await client.manager.start(), InteractiveFormStep.self)
            let sessionID = try #require(await client.manager.currentSessionID)
            let hijack = try await Browser.get(
                URL(string: server.issuer.absoluteString + "/authn/authenticate?session=" + FormURLEncoding.escape(sessionID))!)
            #expect(hijack.status == 400)
        }
    }

    @Test func aFlowSurvivesARestart() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("haapi-flow-\(UUID().uuidString).sqlite").path
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        // One HaapiManager across the restart: its Session-Id, token and DPoP key carry over.
        let (client, form) = try await RunningServer.with(DevServerConfiguration(databasePath: path)) { server in
            let client = try HaapiTestClient(server)
            let step = try expectStep(await client.manager.start(), InteractiveFormStep.self)
            return (client, try step.form(kind: .login))
        }
        let port = try #require(client.server.issuer.port)
        try await RunningServer.with(DevServerConfiguration(port: port, databasePath: path)) { server in
            #expect(server.issuer == client.server.issuer)
            let result = await client.manager.submitForm(form, parameters: ["userName": "demo", "password": "Password1"])
            let code = try #require(try expectStep(result, OAuthAuthorizationResponseStep.self).oauthAuthorizationResponseProperties.code)
            let record = try await server.state.store.get(AuthorizationCodeRecord.self, kind: AuthorizationCodeRecord.kind, id: code)
            #expect(record?.dpopJkt == client.dpop.thumbprint)
        }
    }

    @Test func loginWithDPoPNoncesRequired() async throws {
        try await RunningServer.with(DevServerConfiguration(requiresDPoPNonce: true)) { server in
            let client = try HaapiTestClient(server)
            // The first request is answered 401 use_dpop_nonce with DPoP-Nonce; DPoPTransport retries once.
            let result = try await login(client)
            #expect(try expectStep(result, OAuthAuthorizationResponseStep.self).oauthAuthorizationResponseProperties.code != nil)
            let nonce = try await server.state.currentNonce()
            let url = URL(string: server.issuer.absoluteString + HaapiRefusalTests.authorizePath())!
            let stale = try client.dpop.proof(method: "GET", url: url, accessToken: client.token, nonce: .given("stale"))
            let refused = try await AsyncHTTPClientTransport().send(
                TransportRequest(
                    url: url, headers: ["Accept": "application/vnd.auth+json", "Authorization": "DPoP \(client.token)", "DPoP": stale]))
            #expect(refused.status == 401)
            #expect(refused.headers["WWW-Authenticate"]?.contains("use_dpop_nonce") == true)
            #expect(refused.headers["DPoP-Nonce"] == nonce)
        }
    }

    @Test func unexpectedProblemForAServerFault() async throws {
        try await RunningServer.with { server in
            let client = try HaapiTestClient(server)
            let step = try expectStep(await client.manager.start(), InteractiveFormStep.self)
            // The flow's client disappears from under it: an internal fault.
            try await server.state.store.delete(kind: "client", id: "haapi-attested")
            let result = await client.manager.submitForm(
                try step.form(kind: .login), parameters: ["userName": "demo", "password": "Password1"])
            try expectProblem(result, .unexpectedProblem)
        }
    }
}

// MARK: - Refused requests

@Suite("HAAPI requests that are refused")
struct HaapiRefusalTests {
    static func authorizePath(_ clientId: String = "haapi-attested") -> String {
        "/oauth/authorize?client_id=\(clientId)&response_type=code&redirect_uri=haapi%3A%2F%2Fcallback&scope=openid"
    }

    @Test func requestWithoutTokenIsRefused() async throws {
        try await RunningServer.with { server in
            let url = URL(string: server.issuer.absoluteString + Self.authorizePath())!
            let dpop = try Dpop()
            let response = try await DPoPTransport(base: try AsyncHTTPClientTransport(), dpop: dpop).send(
                TransportRequest(url: url, headers: ["Accept": "application/vnd.auth+json"]))
            #expect(response.status == 401)
            #expect(response.headers["WWW-Authenticate"]?.contains("invalid_token") == true)
        }
    }

    @Test func expiredOrForeignTokensAreRefused() async throws {
        try await RunningServer.with { server in
            let dpop = try Dpop()
            let url = URL(string: server.issuer.absoluteString + Self.authorizePath())!
            let expired = try server.state.issueAccessToken(
                clientId: "haapi-attested", subject: nil, scope: [SeedData.haapiScope], jkt: dpop.thumbprint, lifetime: -30)
            let unscoped = try server.state.issueAccessToken(
                clientId: "haapi-attested", subject: nil, scope: ["openid"], jkt: dpop.thumbprint, lifetime: 60)
            for token in [expired, "not-a-token"] {
                let response = try await HaapiTestClient.transport(token: token, dpop: dpop).send(
                    TransportRequest(url: url, headers: ["Accept": "application/vnd.auth+json"]))
                #expect(response.status == 401)
                #expect(response.headers["WWW-Authenticate"]?.contains("error=\"invalid_token\"") == true)
            }
            let response = try await HaapiTestClient.transport(token: unscoped, dpop: dpop).send(
                TransportRequest(url: url, headers: ["Accept": "application/vnd.auth+json"]))
            #expect(response.status == 403)
        }
    }

    @Test func forgedProofIsRefused() async throws {
        try await RunningServer.with { server in
            // The token is bound to one key; the proofs come from another.
            let bound = try Dpop()
            let token = try server.state.issueAccessToken(
                clientId: "haapi-attested", subject: nil, scope: [SeedData.haapiScope], jkt: bound.thumbprint, lifetime: 60)
            let url = URL(string: server.issuer.absoluteString + Self.authorizePath())!
            let response = try await HaapiTestClient.transport(token: token, dpop: try Dpop()).send(
                TransportRequest(url: url, headers: ["Accept": "application/vnd.auth+json"]))
            #expect(response.status == 401)
            #expect(response.headers["WWW-Authenticate"]?.contains("invalid_dpop_proof") == true)
            // A proof for another URL (wrong htu) is refused too.
            let wrongHTU = try bound.proof(method: "GET", url: server.issuer.appendingPathComponent("oauth/token"), accessToken: token)
            let second = try await AsyncHTTPClientTransport().send(
                TransportRequest(
                    url: url, headers: ["Accept": "application/vnd.auth+json", "Authorization": "DPoP \(token)", "DPoP": wrongHTU]))
            #expect(second.status == 401)
        }
    }

    @Test func replayedProofIsRefused() async throws {
        try await RunningServer.with { server in
            let dpop = try Dpop()
            let token = try server.state.issueAccessToken(
                clientId: "haapi-attested", subject: nil, scope: [SeedData.haapiScope], jkt: dpop.thumbprint, lifetime: 60)
            let url = URL(string: server.issuer.absoluteString + Self.authorizePath())!
            let proof = try dpop.proof(method: "GET", url: url, accessToken: token)
            let request = TransportRequest(
                url: url, headers: ["Accept": "application/vnd.auth+json", "Authorization": "DPoP \(token)", "DPoP": proof])
            let first = try await AsyncHTTPClientTransport().send(request)
            #expect(first.status == 200)
            #expect(first.headers["Set-Session-Id"] != nil)
            let replay = try await AsyncHTTPClientTransport().send(request)
            #expect(replay.status == 401)
            #expect(replay.headers["WWW-Authenticate"]?.contains("invalid_dpop_proof") == true)
        }
    }

    @Test func tokenOfAnotherClientIsRefused() async throws {
        try await RunningServer.with { server in
            let client = try HaapiTestClient(server, clientId: "haapi-attested", tokenClientId: "haapi-secret")
            let result = await client.manager.start()
            let error = try #require(result.error as? HaapiError, "expected an error, got \(describe(result))")
            guard case .serverError(let code, _, let status) = error else {
                Issue.record("expected a server error, got \(error)")
                return
            }
            #expect(code == "unauthorized_client")
            #expect(status == 400)
        }
    }

    @Test func sessionOfAnotherClientsFlowIsAMismatch() async throws {
        try await RunningServer.with { server in
            let attested = try HaapiTestClient(server)
            _ = try expectStep(await attested.manager.start(), InteractiveFormStep.self)
            let sessionID = try #require(await attested.manager.currentSessionID)
            let other = try HaapiTestClient(server, clientId: "haapi-secret")
            let response = try await other.send("GET", "/authn/authenticate", sessionID: sessionID)
            #expect(response.status == 400)
            #expect(response.headers["Content-Type"] == "application/problem+json")
            guard case .problem(let problem) = try HaapiModel.response(from: response.body, contentType: response.headers["Content-Type"])
            else {
                Issue.record("expected a problem")
                return
            }
            #expect(problem.type == .sessionAndAccessTokenMismatchProblem)
        }
    }

    @Test func badAuthorizationRequests() async throws {
        try await RunningServer.with { server in
            let client = try HaapiTestClient(server)
            // An unregistered redirect URI: an OAuth error, no redirect.
            let badRedirect = try await client.send(
                "GET", "/oauth/authorize?client_id=haapi-attested&response_type=code&redirect_uri=https%3A%2F%2Fevil.example")
            #expect(badRedirect.status == 400)
            #expect(try JSONValue(parsing: badRedirect.body)["error"] == "invalid_request")
            // A scope the client may not have: error-authorization-response.
            let badScope = try await client.send("GET", Self.authorizePath() + "%20dcr")
            guard
                case .problem(let problem as AuthorizationProblem) = try HaapiModel.response(
                    from: badScope.body, contentType: badScope.headers["Content-Type"])
            else {
                Issue.record("expected an error-authorization-response, got \(badScope.bodyText)")
                return
            }
            #expect(problem.error == "invalid_scope")
        }
    }
}
