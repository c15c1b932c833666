import Foundation
import HaapiDevServer
import HaapiDriver
import HaapiSDK
import HaapiServerTesting
import HaapiTesting
import HaapiUI
import OAuthCore
import OAuthTransportNIO
import Testing

/// The view model driving real flows against the development server, in-process.
@Suite("HaapiFlowViewModel against the development server")
@MainActor struct FlowViewModelTests {
    @Test func usernamePasswordEndsWithBoundTokensAndTheyRefresh() async throws {
        try await RunningServer.with { server in
            let flow = try await FlowHarness.make(server, client: .attested)
            await flow.viewModel.start()
            #expect(!flow.viewModel.isLoading)
            guard let form = try flow.requireModel() as? KitFormModel else {
                Issue.record("expected a form")
                return
            }
            let login = try #require(form.button(kind: .login))
            #expect(login.fields.map(\.key) == ["userName", "password"])
            #expect((login.fields.last as? KitInputTextItem)?.inputConfiguration.isSecure == true)
            try await flow.login()
            let tokens = try #require(try await flow.outcome().kitTokens)
            #expect(tokens.isBound)
            #expect(tokens.refreshToken != nil)
            let claims = try await server.state.verifyAccessToken(tokens.accessToken)
            #expect(claims?.subject == "demo")
            #expect(claims?.jkt == flow.dpop?.thumbprint)
            guard let response = flow.model as? KitAuthorizationRequestModel else {
                Issue.record("expected the response")
                return
            }
            #expect(response.properties.state == "ui-state")

            let refreshed = try await OAuthLifecycle.refreshToken(
                try #require(tokens.refreshToken), haapiUIKitApplication: flow.viewModel.haapiUIKitApplication)
            #expect(refreshed.kitTokens?.isBound == true)
            await flow.close()
        }
    }

    /// Curity's OAuthLifecycle revokes with the configuration alone: a revoked refresh token is
    /// refused, and the refresh with additional parameters sends them.
    @Test func lifecycleRevokesWithTheConfigurationAndRefreshesWithParameters() async throws {
        try await RunningServer.with { server in
            let flow = try await FlowHarness.make(server, client: .attested, scopes: ["openid", "profile"])
            await flow.viewModel.start()
            try await flow.login()
            // The profile scope is consented to, as the server asks.
            await flow.viewModel.submit(interactionActionModel: try #require(flow.model?.button(kind: .userConsent)), parameters: [:])
            let tokens = try #require(try await flow.outcome().kitTokens)
            #expect(tokens.scope == "openid profile")
            let application = flow.viewModel.haapiUIKitApplication
            // A narrower scope asked for on refresh (RFC 6749 section 6) is what the server grants.
            let narrowed = try await OAuthLifecycle.refreshToken(
                try #require(tokens.refreshToken), haapiUIKitApplication: application, additionalParameters: ["scope": "openid"])
            let renewed = try #require(narrowed.kitTokens)
            #expect(renewed.scope == "openid")

            try await OAuthLifecycle.revokeRefreshToken(
                try #require(renewed.refreshToken), haapiUIKitConfiguration: application.haapiUIKitConfiguration)
            let refused = try await OAuthLifecycle.refreshToken(try #require(renewed.refreshToken), haapiUIKitApplication: application)
            #expect(refused.kitError?.error == "invalid_grant")
            try await OAuthLifecycle.revokeAccessToken(renewed.accessToken, haapiUIKitConfiguration: application.haapiUIKitConfiguration)
            #expect(try await server.state.verifyAccessToken(renewed.accessToken) == nil)
            await flow.close()
        }
    }

    /// Curity's view-model calls: the flow's own code asked for again gives the same tokens (a
    /// code is spent once, and a second exchange would be refused); a refresh publishes new ones.
    @Test func fetchAccessTokenForTheFlowsCodeAndRefreshAccessTokenPublish() async throws {
        try await RunningServer.with { server in
            let flow = try await FlowHarness.make(server, client: .attested)
            await flow.viewModel.start()
            try await flow.login()
            let tokens = try #require(try await flow.outcome().kitTokens)
            let code = try #require(flow.model as? KitAuthorizationRequestModel).code
            await flow.viewModel.fetchAccessToken(authorizationCode: code, additionalParameters: nil)
            #expect(flow.viewModel.oAuthModel?.kitTokens?.accessToken == tokens.accessToken)
            #expect(flow.viewModel.error == nil)

            await flow.viewModel.refreshAccessToken(
                refreshToken: try #require(tokens.refreshToken), additionalParameters: ["scope": "openid"])
            let refreshed = try #require(flow.viewModel.oAuthModel?.kitTokens)
            #expect(refreshed.accessToken != tokens.accessToken)
            #expect(refreshed.isBound)
            // A code the flow did not exchange goes to the server, which refuses a made-up one.
            await flow.viewModel.fetchAccessToken(authorizationCode: "not-a-code")
            #expect(flow.viewModel.oAuthModel?.kitError?.error == "invalid_grant")
            await flow.close()
        }
    }

    /// Curity's `setShouldClearExistingDCRClient`: off, a second application finds the DCR client
    /// the first registered; on, it registers a new one.
    @Test func clearingTheExistingDCRClientRegistersAnew() async throws {
        try await RunningServer.with { server in
            let storage = InMemoryStorage()
            let secret = try #require(
                try await server.state.store.get(ClientRecord.self, kind: "client", id: "haapi-dcr-template")?.clientSecret)
            func clientOfAnApplication(clearing: Bool) async throws -> String? {
                let dcr = DCRConfiguration(
                    templateClientId: "haapi-dcr-template",
                    clientRegistrationEndpointUrl: server.issuer.appendingPathComponent("oauth/register"),
                    storage: storage)
                let configuration = HaapiUIKitConfigurationBuilder(
                    clientId: "haapi-dcr-template", baseUrl: server.issuer,
                    tokenEndpointUrl: server.issuer.appendingPathComponent("oauth/token"),
                    authorizationEndpointUrl: server.issuer.appendingPathComponent("oauth/authorize"), appRedirect: FlowHarness.appRedirect
                )
                .setTransport(try AsyncHTTPClientTransport()).setStorage(storage).setAccessStrategy(.dcr(dcr)).setDCRConfiguration(
                    configuration: dcr
                )
                .setClientAuthenticationMethod(method: ClientAuthenticationMethodSecret(secret))
                .setShouldClearExistingDCRClient(value: clearing).build()
                #expect(configuration.shouldClearExistingDCRClient == clearing)
                let application = try HaapiUIKitApplicationBuilder(haapiUIKitConfiguration: configuration).buildOrThrow()
                let accessor = try await application.haapiAccessor()
                let token = try await accessor.haapiTokenManager.accessToken()
                await application.close()
                return try await server.state.verifyAccessToken(token.value)?.clientId
            }
            let first = try #require(try await clientOfAnApplication(clearing: false))
            #expect(try await clientOfAnApplication(clearing: false) == first)
            let cleared = try #require(try await clientOfAnApplication(clearing: true))
            #expect(cleared != first)
            #expect(
                try await server.state.store.all(ClientRecord.self, kind: "client").filter { $0.value.strategy == .registered }.count == 2)
        }
    }

    /// OAuthLifecycle refreshes through the package's one token lifecycle: callers presenting the
    /// same refresh token at once share one request, so a rotated refresh token is spent once.
    @Test func fiftyConcurrentLifecycleRefreshesMakeOneRefreshRequest() async throws {
        try await RunningServer.with { server in
            let flow = try await FlowHarness.make(server, client: .attested)
            await flow.viewModel.start()
            try await flow.login()
            let refreshToken = try #require(try await flow.outcome().tokens?.refreshToken)
            let application = flow.viewModel.haapiUIKitApplication
            let refreshed = try await withThrowingTaskGroup(of: OAuthTokenModel?.self) { group in
                for _ in 0..<50 {
                    group.addTask { try await OAuthLifecycle.refreshToken(refreshToken, haapiUIKitApplication: application).tokens }
                }
                var tokens: [OAuthTokenModel] = []
                for try await model in group { if let model { tokens.append(model) } }
                return tokens
            }
            #expect(flow.refreshCount == 1)
            #expect(refreshed.count == 50)
            #expect(Set(refreshed.map(\.accessToken)).count == 1)
            #expect(refreshed.first?.refreshToken != refreshToken)
            await flow.close()
        }
    }

    @Test func invalidInputIsAttachedToTheFieldThenTheLoginSucceeds() async throws {
        try await RunningServer.with { server in
            let flow = try await FlowHarness.make(server, client: .attested)
            await flow.viewModel.start()
            let form = try #require(try flow.requireModel().button(kind: .login))
            await flow.viewModel.submit(interactionActionModel: form, parameters: ["userName": "demo"])
            let model = try flow.requireModel()
            #expect(flow.viewModel.problemModel?.type == .invalidInputProblem)
            let again = try #require(model.button(kind: .login))
            let fields = again.fields.compactMap { $0 as? KitInputTextItem }
            #expect(fields.first { $0.key == "password" }?.error?.isEmpty == false)
            #expect(fields.first { $0.key == "userName" }?.error == nil)
            #expect(fields.first { $0.key == "userName" }?.value == "demo")
            #expect(flow.viewModel.error == nil)

            await flow.viewModel.submit(interactionActionModel: again, parameters: ["userName": "demo", "password": "wrong"])
            #expect(flow.viewModel.problemModel?.type == .incorrectCredentialsProblem)
            #expect(flow.model?.button(kind: .login)?.fields.allSatisfy { ($0 as? KitInputTextItem)?.error == nil } == true)

            try await flow.login()
            #expect(try await flow.outcome().tokens != nil)
            await flow.close()
        }
    }

    /// Seed 000's `shouldAutoHandleFlowErrorFeedback`: an error that stops the flow reaches the
    /// HaapiFlowResult once the user has seen it (true) or at once (false); a problem the user
    /// can correct stays on its step either way.
    @Test(arguments: [true, false]) func anErrorThatStopsTheFlowReachesTheFlowResultAsDocumented(_ autoFeedback: Bool) async throws {
        try await RunningServer.with { server in
            let flow = try await FlowHarness.make(server, client: .attested) {
                $0.setShouldAutoHandleFlowErrorFeedback(value: autoFeedback)
            }
            let recorder = FlowResultRecorder()
            flow.viewModel.haapiFlowResult = recorder
            await flow.viewModel.start()
            try await flow.login(password: "wrong")
            #expect(flow.viewModel.problemModel?.type == .incorrectCredentialsProblem)
            #expect(flow.viewModel.error == nil && recorder.errors.isEmpty)

            flow.answerNextHaapiRequestWithPage(status: 404)
            try await flow.login()
            let error = try #require(flow.viewModel.error)
            #expect(!error.isRetryable)
            #expect(recorder.errors.count == (autoFeedback ? 0 : 1))
            flow.viewModel.acknowledgeError()
            #expect(recorder.errors.count == 1)
            let reported = try #require(recorder.errors.first as? HaapiFlowError)
            guard case .invalidURLResponse(_, _, let cause as UnexpectedResponseError)? = reported.underlyingError as? HaapiError else {
                Issue.record("got \(reported)")
                return
            }
            #expect(cause.statusCode == 404)
            #expect(recorder.models.isEmpty)
            await flow.close()
        }
    }

    @Test(arguments: [AuthenticatorSelectionPresentation.list, .tabs])
    func selectorPresentation(_ presentation: AuthenticatorSelectionPresentation) async throws {
        try await RunningServer.with { server in
            let flow = try await FlowHarness.make(server, client: .secret, bound: false) {
                $0.setAuthenticationSelectionPresentation(presentation: presentation)
            }
            await flow.viewModel.start()
            guard let selector = try flow.requireModel() as? KitSelectorModel else {
                Issue.record("expected a selector")
                return
            }
            #expect(selector.presentation == presentation)
            #expect(
                Set(selector.options.compactMap(\.type)) == [
                    "html-form", "sms", "polling", "external-browser", "duo", "bankid", "webauthn",
                ])
            #expect(selector.options.allSatisfy { !$0.title.isEmpty })
            try await flow.choose("html-form")
            try await flow.login()
            let tokens = try #require(try await flow.outcome().kitTokens)
            #expect(!tokens.isBound)
            await flow.close()
        }
    }

    /// Curity's pager: with tabs, choosing another tab selects it and keeps the tabs, with that
    /// option's elements under them; its own button then chooses it.
    @Test func aTabIsSelectedAndTheTabsStay() async throws {
        try await RunningServer.with { server in
            let flow = try await FlowHarness.make(server, client: .secret, bound: false) {
                $0.setAuthenticationSelectionPresentation(presentation: .tabs)
            }
            await flow.viewModel.start()
            guard let selector = try flow.requireModel() as? KitSelectorModel else {
                Issue.record("expected a selector")
                return
            }
            let options = selector.options
            let index = try #require(options.firstIndex { $0.type == "sms" })
            #expect(index != selector.selectedIndex, "SMS is not the first tab")
            await flow.viewModel.select(options[index])
            guard let tabbed = try flow.requireModel() as? KitSelectorModel else {
                Issue.record("the tabs went away")
                return
            }
            #expect(tabbed.selectedIndex == index)
            let screen = ScreenTests.english.screen(for: tabbed)
            #expect(screen.content.first == .tabs(titles: options.map(\.title), selected: index))
            #expect(screen.buttons.contains { $0.title == options[index].title }, "the SMS tab's own button is under the tabs")
            // Its own button chooses it: the SMS step follows.
            await flow.viewModel.select(options[index])
            #expect(!(try flow.requireModel() is KitSelectorModel), "choosing the selected tab's option moves on")
            await flow.close()
        }
    }

    /// A flow the app takes off screen before it ends (a SwiftUI sheet closed by the app) stops
    /// and tells the app, once: a cancel, with nothing sent to the server.
    @Test func aFlowTakenOffScreenStopsAndTellsTheAppOnce() async throws {
        try await RunningServer.with { server in
            let flow = try await FlowHarness.make(server, client: .secret, bound: false)
            let recorder = FlowResultRecorder()
            flow.viewModel.haapiFlowResult = recorder
            await flow.viewModel.start()
            _ = try flow.requireModel()
            let sent = flow.recorded.sent.count
            flow.viewModel.abandon()
            flow.viewModel.abandon()
            #expect(recorder.models.count == 1)
            #expect(recorder.models.first?.kitError?.error == "access_denied")
            #expect(flow.recorded.sent.count == sent, "nothing was sent to the server")
            await flow.close()
        }
    }

    @Test func otpWithContinueSameStep() async throws {
        try await RunningServer.with { server in
            let flow = try await FlowHarness.make(server, client: .secret, bound: false)
            await flow.viewModel.start()
            try await flow.choose("sms")
            let send = try #require(try flow.requireModel().button(kind: .login))
            await flow.viewModel.submit(interactionActionModel: send, parameters: ["userName": "demo"])
            let sent = try flow.requireModel()
            guard let continued = sent as? KitContinueSameModel else {
                Issue.record("expected continue-same-step")
                return
            }
            #expect(continued.messageItems.contains { $0.text?.contains("+XX XXX XXX 000") == true })
            let enter = try #require(continued.kitButtons.first { $0.fields.contains { $0.key == "otp" } })
            let code = try await flow.otpCode()
            await flow.viewModel.submit(interactionActionModel: enter, parameters: ["otp": code == "000000" ? "111111" : "000000"])
            let refused = try flow.requireModel()
            #expect(flow.viewModel.problemModel?.type == .incorrectCredentialsProblem)
            guard let still = refused as? KitContinueSameModel else {
                Issue.record("expected to stay on the step")
                return
            }
            await flow.viewModel.submit(
                interactionActionModel: try #require(still.kitButtons.first { $0.fields.contains { $0.key == "otp" } }),
                parameters: ["otp": code])
            #expect(try await flow.outcome().tokens != nil)
            await flow.close()
        }
    }

    @Test func pollingRunsByItselfWithASmallAutoPollingDuration() async throws {
        try await RunningServer.with { server in
            let flow = try await FlowHarness.make(server, client: .secret, bound: false, stripsPollingInterval: true) {
                $0.setAutoPollingDuration(duration: 0.05)
            }
            var pending = 0  // every change the $uiModel publisher sends
            let updates = flow.viewModel.$uiModel.sink { model in
                if let polling = model as? KitPollingModel, polling.status == .pending { pending += 1 }
            }
            await flow.viewModel.start()
            try await flow.choose("polling")
            await flow.viewModel.submit(
                interactionActionModel: try #require(try flow.requireModel().button(kind: .login)), parameters: ["userName": "demo"])
            guard let polling = try flow.requireModel() as? KitPollingModel else {
                Issue.record("expected polling")
                return
            }
            #expect(polling.recipient == "+XX XXX XXX 000")
            #expect(polling.pollInterval == 0.05)
            #expect(polling.cancelAction != nil)
            // The first answer and two pending polls, each shown; then the user approves. The
            // ceiling is for a loaded CI machine (every suite at once on 2 cores), not a timing claim.
            _ = try await waitFor(timeout: .seconds(30)) { pending >= 3 ? true : nil }
            try await server.answerApproval()
            #expect(try await flow.outcome().tokens != nil)
            updates.cancel()
            await flow.close()
        }
    }

    @Test func theServersIntervalWinsOverAutoPollingDuration() async throws {
        try await RunningServer.with { server in
            let flow = try await FlowHarness.make(server, client: .secret, bound: false) { $0.setAutoPollingDuration(duration: 0.01) }
            await flow.viewModel.start()
            try await flow.choose("polling")
            await flow.viewModel.submit(
                interactionActionModel: try #require(try flow.requireModel().button(kind: .login)), parameters: ["userName": "demo"])
            guard let polling = try flow.requireModel() as? KitPollingModel else {
                Issue.record("expected polling")
                return
            }
            #expect(polling.pollInterval == 2)
            try await server.answerApproval()  // the next poll would be done
            try await Task.sleep(for: .milliseconds(400))
            #expect(flow.viewModel.oAuthModel == nil)  // 0.01 s would have finished by now
            await flow.close()
        }
    }

    @Test func zeroTurnsAutomaticPollingOffAndManualPollingWorks() async throws {
        try await RunningServer.with { server in
            let flow = try await FlowHarness.make(server, client: .secret, bound: false, stripsPollingInterval: true) {
                $0.setAutoPollingDuration(duration: 0)
            }
            await flow.viewModel.start()
            try await flow.choose("polling")
            await flow.viewModel.submit(
                interactionActionModel: try #require(try flow.requireModel().button(kind: .login)), parameters: ["userName": "demo"])
            guard let polling = try flow.requireModel() as? KitPollingModel else {
                Issue.record("expected polling")
                return
            }
            #expect(!polling.isAutomatic)
            try await Task.sleep(for: .milliseconds(300))
            guard let still = try flow.requireModel() as? KitPollingModel else {
                Issue.record("expected polling")
                return
            }
            #expect(still.status == .pending)
            await flow.viewModel.poll()
            guard let polled = try flow.requireModel() as? KitPollingModel else {
                Issue.record("expected polling")
                return
            }
            #expect(polled.status == .pending)
            try await server.answerApproval()
            await flow.viewModel.poll()  // done: the view model moves on by itself
            #expect(flow.viewModel.oAuthModel?.tokens != nil)
            await flow.close()
        }
    }

    @Test func externalBrowserResumesWithTheNonce() async throws {
        try await RunningServer.with { server in
            let flow = try await FlowHarness.make(server, client: .secret, bound: false) { $0.setUseDefaultExternalBrowser(value: true) }
            await flow.viewModel.start()
            try await flow.choose("external-browser")
            guard let operation = try flow.requireModel() as? KitExternalBrowserModel else {
                Issue.record("expected an external browser operation")
                return
            }
            #expect(operation.prefersDefaultBrowser)
            let url = try #require(operation.url)
            #expect(Browser.query(url.absoluteString)["redirect_uri"] == FlowHarness.appRedirect)
            // The browser: the page, its login form, the redirect back to the app.
            let page = try await Browser.get(url)
            #expect(page.status == 200)
            let form = try Browser.firstForm(page.bodyText)
            let action = try #require(URL(string: form.action, relativeTo: server.issuer)?.absoluteURL)
            let answer = try await Browser.post(action, form.hidden + [("userName", "demo"), ("password", "Password1")])
            let location = try #require(answer.headers["Location"])
            await flow.viewModel.resumeExternalBrowser(url: try #require(URL(string: location)))
            #expect(try await flow.outcome().tokens != nil)
            await flow.close()
        }
    }

    /// Seed 000's HaapiDeepLinkManager: the app hands every URL it opens to the manager; the
    /// flow registered while its external browser is out takes the return, and only that. Every
    /// other URL is a typed error that leaves the flow waiting.
    @Test func theDeepLinkManagerHandsTheBrowsersReturnToTheFlow() async throws {
        try await RunningServer.with { server in
            let flow = try await FlowHarness.make(server, client: .secret, bound: false) { $0.setUseDefaultExternalBrowser(value: true) }
            let deepLinks = HaapiDeepLinkManager()
            flow.viewModel.deepLinkManager = deepLinks
            await flow.viewModel.start()
            try await expect(deepLinks, URL(string: "haapi://callback?_resume_nonce=early")!, toFailWith: .noPendingFlow)
            try await flow.choose("external-browser")
            guard let operation = try flow.requireModel() as? KitExternalBrowserModel else {
                Issue.record("expected an external browser operation")
                return
            }
            let returned = try await Self.browserReturn(operation, server: server)
            // Another app's link, or the right redirect without its nonce, is not the flow's.
            try await expect(deepLinks, URL(string: "otherapp://callback?_resume_nonce=x")!, toFailWith: .notTheAppRedirect)
            try await expect(deepLinks, URL(string: FlowHarness.appRedirect)!, toFailWith: .missingResumeNonce)
            #expect(await deepLinks.canHandleUrl(returned))
            try await deepLinks.resumeFlow(with: returned)
            #expect(try await flow.outcome().tokens != nil)
            // The same link again: handed over already.
            try await expect(deepLinks, returned, toFailWith: .alreadyDelivered)
            await flow.close()
        }
    }

    /// The user gives up while the external browser is out: the flow ends as cancelled, and the
    /// browser's late return finds nothing waiting.
    @Test func cancellingWhileTheBrowserIsOutEndsTheFlow() async throws {
        try await RunningServer.with { server in
            let flow = try await FlowHarness.make(server, client: .secret, bound: false) {
                $0.setUseDefaultExternalBrowser(value: true).setShouldConfirmInterruptionFlow(value: false)
            }
            let deepLinks = HaapiDeepLinkManager()
            flow.viewModel.deepLinkManager = deepLinks
            await flow.viewModel.start()
            try await flow.choose("external-browser")
            guard let operation = try flow.requireModel() as? KitExternalBrowserModel else {
                Issue.record("expected an external browser operation")
                return
            }
            let returned = try await Self.browserReturn(operation, server: server)
            await flow.viewModel.cancel()
            let ended = try #require(try await flow.outcome().kitError)
            #expect(ended.error == "access_denied")
            try await expect(deepLinks, returned, toFailWith: .noPendingFlow)
            await flow.close()
        }
    }

    /// The external browser: the page, its login form, and the redirect back to the app.
    static func browserReturn(_ operation: KitExternalBrowserModel, server: RunningServer) async throws -> URL {
        let page = try await Browser.get(try #require(operation.url))
        let form = try Browser.firstForm(page.bodyText)
        let action = try #require(URL(string: form.action, relativeTo: server.issuer)?.absoluteURL)
        let answer = try await Browser.post(action, form.hidden + [("userName", "demo"), ("password", "Password1")])
        let location = try #require(answer.headers["Location"])
        return try #require(URL(string: location))
    }

    func expect(
        _ deepLinks: HaapiDeepLinkManager, _ url: URL, toFailWith code: HaapiDeepLinkError.Code,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        #expect(!(await deepLinks.canHandleUrl(url)), sourceLocation: sourceLocation)
        do {
            try await deepLinks.resumeFlow(with: url)
            Issue.record("\(url) resumed the flow", sourceLocation: sourceLocation)
        } catch let error as HaapiDeepLinkError {
            #expect(error.code == code, "\(error)", sourceLocation: sourceLocation)
        }
    }

    @Test func consentWithCheckboxes() async throws {
        try await RunningServer.with { server in
            let flow = try await FlowHarness.make(server, client: .attested, scopes: ["openid", "profile", "email"])
            await flow.viewModel.start()
            try await flow.login()
            guard let consent = try flow.requireModel() as? KitFormModel, consent.step is UserConsentStep else {
                Issue.record("expected consent")
                return
            }
            let boxes = consent.interactionItems.compactMap { $0 as? KitCheckboxItem }
            #expect(boxes.count == 2)
            #expect(consent.button(kind: .cancel) != nil)
            let email = try #require(boxes.first { $0.value == "email" })
            await flow.viewModel.submit(
                interactionActionModel: try #require(consent.button(kind: .userConsent)), parameters: [email.key: ""])
            let tokens = try #require(try await flow.outcome().kitTokens)
            #expect(Set(tokens.scope?.split(separator: " ").map(String.init) ?? []) == ["openid", "profile"])
            await flow.close()
        }
    }

    @Test func cancelAsksForConfirmationFirst() async throws {
        try await RunningServer.with { server in
            let flow = try await FlowHarness.make(server, client: .secret, bound: false)
            #expect(flow.viewModel.configuration.shouldConfirmFlowInterruption)
            await flow.viewModel.start()
            try await flow.choose("polling")
            await flow.viewModel.submit(
                interactionActionModel: try #require(try flow.requireModel().button(kind: .login)), parameters: ["userName": "demo"])
            await flow.viewModel.cancel()
            #expect(flow.viewModel.isConfirmingInterruption)
            #expect(flow.viewModel.oAuthModel == nil)
            flow.viewModel.dismissCancel()
            #expect(!flow.viewModel.isConfirmingInterruption)
            await flow.viewModel.cancel()
            await flow.viewModel.confirmCancel()
            #expect(!flow.viewModel.isConfirmingInterruption)
            let outcome = try #require(try await flow.outcome().kitError)
            #expect(outcome.error == "access_denied")
            #expect(outcome.source == .authorizationResponse)
            await flow.close()
        }
    }

    @Test func cancelWithoutConfirmation() async throws {
        try await RunningServer.with { server in
            let flow = try await FlowHarness.make(server, client: .attested) { $0.setShouldConfirmInterruptionFlow(value: false) }
            await flow.viewModel.start()
            await flow.viewModel.cancel()
            #expect(!flow.viewModel.isConfirmingInterruption)
            let outcome = try #require(try await flow.outcome().kitError)
            #expect(outcome.error == "access_denied")
            await flow.close()
        }
    }

    @Test func retryAfterATransientFailure() async throws {
        try await RunningServer.with { server in
            let flow = try await FlowHarness.make(server, client: .attested)
            await flow.viewModel.start()
            flow.failNextHaapiRequest()
            let form = try #require(flow.model?.button(kind: .login))
            await flow.viewModel.submit(interactionActionModel: form, parameters: ["userName": "demo", "password": "Password1"])
            #expect(flow.injectedFailures == 1)
            let error = try #require(flow.viewModel.error)
            #expect(error.isRetryable)
            #expect(!flow.viewModel.isLoading)
            guard try #require(flow.model) is KitFormModel else {
                Issue.record("the step is still shown")
                return
            }
            await flow.viewModel.retry()
            #expect(flow.viewModel.error == nil)
            #expect(try await flow.outcome().tokens != nil)
            await flow.close()
        }
    }

    @Test func boundAndUnboundTokens() async throws {
        try await RunningServer.with { server in
            // A server that does not issue token-bound codes: binding is the client's choice.
            for bound in [false, true] {
                let flow = try await FlowHarness.make(server, client: .secret, bound: bound)
                await flow.viewModel.start()
                try await flow.choose("html-form")
                try await flow.login()
                let tokens = try #require(try await flow.outcome().kitTokens)
                #expect(tokens.isBound == bound)
                let claims = try await server.state.verifyAccessToken(tokens.accessToken)
                #expect(claims?.jkt == (bound ? flow.dpop?.thumbprint : nil))
                await flow.close()
            }
            // A server that issues token-bound codes refuses an unbound exchange.
            let flow = try await FlowHarness.make(server, client: .attested, bound: false)
            await flow.viewModel.start()
            try await flow.login()
            let refused = try #require(try await flow.outcome().kitError)
            #expect(refused.error == "invalid_dpop_proof")
            #expect(refused.source == .tokenEndpoint)
            await flow.close()
        }
    }

    @Test func aProblemTheUserCannotCorrectEndsTheFlowWithAnError() async throws {
        try await RunningServer.with { server in
            let flow = try await FlowHarness.make(server, client: .attested)
            var states: [Bool] = []  // every change the $isLoading publisher sends
            let watcher = flow.viewModel.$isLoading.sink { states.append($0) }
            await flow.viewModel.start()
            // The flow's client disappears from under it: an internal fault, an `unexpected` problem.
            try await server.state.store.delete(kind: "client", id: "haapi-attested")
            try await flow.login()
            let error = try #require(flow.viewModel.error)
            #expect(error.problem?.problem.type == .unexpectedProblem)
            #expect(!error.isRetryable)
            #expect(flow.viewModel.oAuthModel == nil)
            await flow.close()
            // Each request showed loading, then not.
            #expect(states == [false, true, false, true, false])
            watcher.cancel()
        }
    }
}

/// The deep-link manager with an app's own flow, written as Curity's protocol declares it (an
/// `async` `canHandleUrl`, no `checkUrl`), and as a flow itself.
@Suite("Deep links to an app's own flow")
@MainActor struct AppDeepLinkableTests {
    @MainActor final class AppFlow: HaapiFlowDeepLinkable {
        var handled: [URL] = []
        func canHandleUrl(_ url: URL) async -> Bool { url.scheme == "app" }
        func handleUrl(_ url: URL) async { handled.append(url) }
    }

    @Test func theManagerHandsAnAppsFlowOnlyItsReturnsAndEachOnce() async throws {
        let flow = AppFlow()
        let manager = HaapiDeepLinkManager()
        manager.registerHaapiFlowDeeplinkable(flow)
        let returned = try #require(URL(string: "app:/cb?_resume_nonce=n-1"))
        #expect(await Self.refusal(manager, "other:/cb") == .notTheAppRedirect)
        #expect(await manager.canHandleUrl(returned))
        await manager.handleUrl(returned)
        await manager.handleUrl(returned)
        #expect(flow.handled == [returned])
        #expect(!(await manager.canHandleUrl(returned)))
        // The manager is a flow to hand URLs to, as Curity declares it.
        let outer = HaapiDeepLinkManager()
        outer.registerHaapiFlowDeeplinkable(manager)
        let next = try #require(URL(string: "app:/cb?_resume_nonce=n-2"))
        try await outer.resumeFlow(with: next)
        #expect(flow.handled == [returned, next])
        manager.unregisterHaapiFlowDeeplinkable()
        #expect(await Self.refusal(outer, "app:/cb?_resume_nonce=n-3") == .noPendingFlow)
        #expect(await Self.refusal(outer, "app:/cb?_resume_nonce=n-2") == .alreadyDelivered)
    }

    /// Why `manager` does not resume its flow with `url`; `nil` when it does.
    static func refusal(_ manager: HaapiDeepLinkManager, _ url: String) async -> HaapiDeepLinkError.Code? {
        do {
            try await manager.resumeFlow(with: URL(string: url)!)
            return nil
        } catch {
            return (error as? HaapiDeepLinkError)?.code
        }
    }
}
