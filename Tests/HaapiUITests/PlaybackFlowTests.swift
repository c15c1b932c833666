import Foundation
import HaapiDriver
import HaapiSDK
import HaapiTesting
import HaapiUI
import OAuthCore
import OAuthTransportNIO
import Testing

/// Recorded HAAPI responses nobody here wrote: Curity's captured responses (optional, outside
/// the package) and the examples of Curity's curityio/ui-kit (in the package, Fixtures/ui-kit).
enum Recorded {
    static let uiKit = Documents.packageRoot.appendingPathComponent("Tests/HaapiUITests/Fixtures/ui-kit", isDirectory: true)

    static func captured(_ name: String) throws -> String {
        try String(contentsOf: Documents.captured.appendingPathComponent(name + ".json"), encoding: .utf8)
    }

    static func uiKit(_ name: String) throws -> String {
        try String(contentsOf: uiKit.appendingPathComponent(name + ".json"), encoding: .utf8)
    }

    /// The ui-kit examples' absolute origin, rewritten to the playback server like the captured ones.
    static let uiKitHosts = ["https://localhost:8443"]
}

/// A view model whose flow runs against a ``PlaybackServer``.
@MainActor struct PlaybackHarness {
    let playback: PlaybackServer
    let viewModel: HaapiFlowViewModel

    static let appRedirect = "haapi://callback"

    static func make(_ playback: PlaybackServer, configure: (HaapiUIKitConfigurationBuilder) -> Void = { _ in }) throws -> PlaybackHarness {
        let base = URL(string: playback.url)!
        let configuration = HaapiConfiguration(
            name: "playback-\(UUID().uuidString)", clientId: "playback-client", baseURL: base,
            tokenEndpointURL: base.appendingPathComponent("oauth/token"),
            authorizationEndpointURL: base.appendingPathComponent("oauth/authorize"),
            appRedirect: appRedirect, authorizationParametersProvider: { OAuthAuthorizationParameters(scopes: ["openid"]) })
        let builder = HaapiUIKitConfigurationBuilder(haapiConfiguration: configuration)
            .setTransport(try AsyncHTTPClientTransport()).setStorage(InMemoryStorage())
            .setTokenBoundConfiguration(configuration: UnboundedTokenConfiguration())
            .setClientAuthenticationMethod(method: ClientAuthenticationMethodSecret("playback-secret")).setAccessStrategy(
                .clientCredentials
            )
            .setAutoPollingDuration(duration: 0.05)
        configure(builder)
        return PlaybackHarness(playback: playback, viewModel: try HaapiFlowViewModel(haapiUIKitConfiguration: builder.build()))
    }

    /// Plays `scenes` to `body`, then stops the flow and the server.
    static func with(
        _ scenes: [PlaybackServer.Scene], hosts: [String] = [], configure: (HaapiUIKitConfigurationBuilder) -> Void = { _ in },
        _ body: (PlaybackHarness) async throws -> Void
    ) async throws {
        let playback = try await PlaybackServer.start(scenes, hosts: hosts)
        let harness: PlaybackHarness
        do { harness = try make(playback, configure: configure) } catch {
            await playback.stop()
            throw error
        }
        do {
            try await body(harness)
        } catch {
            await harness.close()
            await playback.stop()
            throw error
        }
        #expect(playback.refusals.isEmpty, "the client took a turn the recorded flow does not: \(playback.refusals)")
        await harness.close()
        await playback.stop()
    }

    func model(sourceLocation: SourceLocation = #_sourceLocation) throws -> any UIModel {
        if let error = viewModel.error {
            Issue.record("flow error: \(error.title) \(String(describing: error.underlyingError))", sourceLocation: sourceLocation)
        }
        return try #require(viewModel.uiModel, sourceLocation: sourceLocation)
    }

    /// The selector the flow shows.
    func selector(sourceLocation: SourceLocation = #_sourceLocation) throws -> KitSelectorModel {
        guard let selector = try model(sourceLocation: sourceLocation) as? KitSelectorModel else {
            Issue.record("expected a selector, got \(String(describing: viewModel.uiModel))", sourceLocation: sourceLocation)
            throw CancellationError()
        }
        return selector
    }

    /// The option titled `title` of the selector shown.
    func option(_ title: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> KitSelectorItem {
        try #require(try selector(sourceLocation: sourceLocation).options.first { $0.title == title }, sourceLocation: sourceLocation)
    }

    func tokens(sourceLocation: SourceLocation = #_sourceLocation) async throws -> any OAuthTokenModel {
        // A ceiling for a loaded CI machine (every suite runs at once on 2 cores), not a timing claim.
        let outcome = try await waitFor(timeout: .seconds(45)) { () -> (any OAuthModel)? in
            viewModel.oAuthModel
                ?? (viewModel.error != nil
                    ? KitOAuthErrorModel(error: "flow_error", errorDescription: viewModel.error?.title, source: .client) : nil)
        }
        return try #require(
            outcome.tokens, "the flow ended with \(outcome) \(viewModel.error.map(\.title) ?? "")", sourceLocation: sourceLocation)
    }

    func close() async {
        viewModel.stop()
        await viewModel.haapiUIKitApplication.close()
    }
}

typealias Scene = PlaybackServer.Scene

@Suite("HaapiFlowViewModel through recorded Curity flows (curityio/ui-kit examples)")
@MainActor struct UIKitPlaybackFlowTests {
    static let duoPath = "/authentication/authenticate/duo/select-device"

    /// Duo: a device selector whose options are selectors whose options are forms. The passcode
    /// form's visible field is asked for; its hidden fields go as the server gave them.
    @Test func duoPasscodeAsksForThePasscodeAndSendsTheHiddenFields() async throws {
        let scenes = [
            Scene(try Recorded.uiKit("duo-select-device-nested-selector")),
            Scene(
                try Recorded.uiKit("oauth-authorization-response"), expecting: ("POST", Self.duoPath),
                requiring: ["device": "DPL9ZB1RC5I7DI4ANGW4", "factor": "passcode", "passcode": "424242"]),
        ]
        try await PlaybackHarness.with(scenes, hosts: Recorded.uiKitHosts) { flow in
            await flow.viewModel.start()
            await flow.viewModel.select(try flow.option("Phone 1 (+XX XXX XXX 204)"))
            // Choosing the device sent nothing: its factors are the next choice.
            #expect(flow.playback.flowRequests.count == 1)
            await flow.viewModel.select(try flow.option("Authenticate with passcode"))
            guard let model = try flow.model() as? KitFormModel, let form = model.buttons.first else {
                Issue.record("the passcode option did not become a form: \(String(describing: flow.viewModel.uiModel))")
                return
            }
            #expect(form.fields.map(\.key) == ["passcode"])
            #expect(flow.playback.flowRequests.count == 1)
            await flow.viewModel.submit(interactionActionModel: form, parameters: ["passcode": "424242"])
            #expect(try await flow.tokens().accessToken == "playback-access-token")
        }
    }

    /// Duo push: an option without visible fields is submitted at once.
    @Test func duoPushIsSubmittedAtOnce() async throws {
        let scenes = [
            Scene(try Recorded.uiKit("duo-select-device-nested-selector")),
            Scene(try Recorded.uiKit("oauth-authorization-response"), expecting: ("POST", Self.duoPath), requiring: ["factor": "push"]),
        ]
        try await PlaybackHarness.with(scenes, hosts: Recorded.uiKitHosts) { flow in
            await flow.viewModel.start()
            await flow.viewModel.select(try flow.option("Phone 2 (+XX XXX XXX 305)"))
            await flow.viewModel.select(try flow.option("Send push notification"))
            _ = try await flow.tokens()
        }
    }

    /// Going into an option and back shows the step as sent.
    @Test func returnToStepLeavesANestedChoice() async throws {
        try await PlaybackHarness.with([Scene(try Recorded.uiKit("duo-select-device-nested-selector"))], hosts: Recorded.uiKitHosts) {
            flow in
            await flow.viewModel.start()
            await flow.viewModel.select(try flow.option("Phone 1 (+XX XXX XXX 204)"))
            #expect(try flow.selector().options.count == 4)
            flow.viewModel.returnToStep()
            #expect(try flow.selector().options.map(\.title) == ["Phone 1 (+XX XXX XXX 204)", "Phone 2 (+XX XXX XXX 305)"])
        }
    }

    /// BankID while polling: the polling model carries the operation (start link, QR image);
    /// polling goes on to done and the flow ends with tokens.
    @Test func bankIDPollingCarriesTheOperationAndEnds() async throws {
        let scenes = [
            Scene(try Recorded.uiKit("bankid-polling-pending")),
            Scene(try Recorded.uiKit("bankid-polling-pending"), expecting: ("GET", "/poll")),
            Scene(try Recorded.uiKit("bankid-polling-done"), expecting: ("GET", "/poll")),
            Scene(try Recorded.uiKit("oauth-authorization-response"), expecting: ("GET", "/polldone")),
        ]
        try await PlaybackHarness.with(scenes, hosts: Recorded.uiKitHosts) { flow in
            await flow.viewModel.start()
            guard let bankID = try flow.model() as? KitBankIdModel, let polling = bankID.polling else {
                Issue.record("expected BankID while polling, got \(String(describing: flow.viewModel.uiModel))")
                return
            }
            // BankID comes back to the app: its redirect, not the server's.
            #expect(bankID.autoStartURL?.absoluteString == "bankid:///?autostarttoken=test-token&redirect=haapi%3A%2F%2Fcallback")
            #expect(bankID.qrCode?.rel == "qr-code")
            #expect(
                (flow.viewModel.shownStep as? PollingStep)?.allActions.compactMap {
                    ($0 as? ClientOperationAction)?.model.continueActions.count
                } == [1])
            #expect(polling.cancelAction != nil)
            _ = try await flow.tokens()
        }
    }

    /// Passkeys where no authenticator is at hand: the operation's options are decoded, and its
    /// browser fallback is the error action that forces the external-browser flow.
    @Test func webAuthnRegistrationOffersTheBrowserFallback() async throws {
        let scenes = [
            Scene(try Recorded.uiKit("webauthn-registration-passkey-client-operation")),
            Scene(
                try Recorded.uiKit("oauth-authorization-response"), expecting: ("GET", "/authentication/authenticate/webauthn"),
                requiring: ["_force_external_browser_flow": "true"]),
        ]
        try await PlaybackHarness.with(scenes, hosts: Recorded.uiKitHosts) { flow in
            await flow.viewModel.start()
            guard let webAuthn = try flow.model() as? KitWebAuthnModel else {
                Issue.record("expected a WebAuthn operation")
                return
            }
            #expect(webAuthn.isRegistration)
            await flow.viewModel.submit(form: try #require(webAuthn.browserFallback), parameters: [:])
            _ = try await flow.tokens()
        }
    }

    /// Passkey registration: the options decode as WebAuthn defines them, and the credential an
    /// authenticator made goes back in the continue action's `credential` field as JSON.
    @Test func webAuthnRegistrationOptionsDecodeAndTheCredentialIsSent() async throws {
        let continuePath = "/authentication/register/create/webauthn"
        let scenes = [
            Scene(try Recorded.uiKit("webauthn-registration-passkey-client-operation")),
            Scene(try Recorded.uiKit("oauth-authorization-response"), expecting: ("POST", continuePath)),
        ]
        try await PlaybackHarness.with(scenes, hosts: Recorded.uiKitHosts) { flow in
            await flow.viewModel.start()
            guard let webAuthn = try flow.model() as? KitWebAuthnModel else {
                Issue.record("expected a WebAuthn operation")
                return
            }
            let creation = try #require((webAuthn.actionModel as? WebAuthnRegistrationClientOperationActionModel)?.creationOptions)
            let options = try #require(creation[.any])
            #expect(creation.count == 1 && webAuthn.kinds == [.platform, .crossPlatform])
            #expect(!options.challenge.isEmpty && !options.userID.isEmpty && !options.userName.isEmpty)
            #expect(options.algorithms.first == -7)
            #expect(options.userVerification == "required")
            let credential = WebAuthnCredential.registration(
                id: Data([1, 2, 3, 4]), clientDataJSON: Data(#"{"type":"webauthn.create"}"#.utf8), attestationObject: Data([0xA3, 0x01]))
            await flow.viewModel.completeWebAuthn(credential)
            _ = try await flow.tokens()
            let last = try #require(flow.playback.flowRequests.last)
            let sent = try #require(PlaybackServer.fields(of: last)["credential"])
            let json = try #require(try JSONSerialization.jsonObject(with: Data(sent.utf8)) as? [String: Any])
            #expect(json["id"] as? String == "AQIDBA" && json["type"] as? String == "public-key")
            let response = try #require(json["response"] as? [String: Any])
            #expect(response["attestationObject"] as? String == "owE")
            #expect(Base64URL.decode(response["clientDataJSON"] as? String ?? "") == Data(#"{"type":"webauthn.create"}"#.utf8))
        }
    }

    /// "Any device": one set of options for this device and one for another, each with its field.
    @Test func webAuthnAnyDeviceOffersBothKinds() async throws {
        try await PlaybackHarness.with(
            [Scene(try Recorded.uiKit("webauthn-registration-any-device-client-operation"))], hosts: Recorded.uiKitHosts
        ) { flow in
            await flow.viewModel.start()
            guard let webAuthn = try flow.model() as? KitWebAuthnModel else {
                Issue.record("expected a WebAuthn operation")
                return
            }
            let creation = try #require((webAuthn.actionModel as? WebAuthnRegistrationClientOperationActionModel)?.creationOptions)
            let platform = try #require(creation[.platform])
            let crossPlatform = try #require(creation[.crossPlatform])
            #expect(platform.authenticatorAttachment == "platform" && crossPlatform.authenticatorAttachment == "cross-platform")
            #expect(platform.challenge != crossPlatform.challenge)
            #expect(webAuthn.continueAction(for: .crossPlatform)?.field("crossPlatformCredential") != nil)
        }
    }

    /// Each problem type, answering the username form: what the flow does about it.
    @Test(arguments: [
        ("problem-invalid-input", ProblemHandling.correctOnSameStep),
        ("problem-incorrect-credentials", .correctOnSameStep),
        ("problem-too-many-attempts", .endAttempt),
        ("problem-authentication-failed", .endAttempt),
        ("problem-unexpected", .stop),
        ("problem-generic-user-error", .stop),
    ])
    func eachProblemIsHandledByItsType(_ name: String, _ handling: ProblemHandling) async throws {
        let scenes = [
            Scene(try Recorded.uiKit("username-authentication-step")),
            Scene(try Recorded.uiKit(name), expecting: ("POST", "/auth/login")),
            Scene(try Recorded.uiKit("oauth-authorization-response"), expecting: ("POST", "/auth/login")),
        ]
        try await PlaybackHarness.with(scenes) { flow in
            await flow.viewModel.start()
            let form = try #require(try flow.model().button(kind: .login))
            await flow.viewModel.submit(interactionActionModel: form, parameters: ["username": "someone"])
            switch handling {
            case .correctOnSameStep:
                // The step stays, with the problem; the user corrects it and goes on.
                let shown = try flow.model()
                #expect(flow.viewModel.problemModel?.handling == .correctOnSameStep)
                #expect(flow.viewModel.error == nil)
                await flow.viewModel.submit(
                    interactionActionModel: try #require(shown.button(kind: .login)), parameters: ["username": "someone"])
                _ = try await flow.tokens()
            default:
                // The flow stops with the server's title and messages; nothing more is sent.
                let error = try #require(flow.viewModel.error)
                let problem = try #require(error.problem)
                #expect(problem.handling == handling)
                #expect(!error.isRetryable)
                #expect(!problem.messageItems.isEmpty)
                #expect(error.title == problem.title)
                #expect(flow.playback.played == 2)
            }
        }
    }

    /// `error-authorization-response`: the flow ends with the OAuth error it carries.
    @Test func anErrorAuthorizationResponseEndsTheFlowWithItsError() async throws {
        let scenes = [
            Scene(try Recorded.uiKit("username-authentication-step")),
            Scene(try Recorded.uiKit("problem-error-authorization-response"), expecting: ("POST", "/auth/login")),
        ]
        try await PlaybackHarness.with(scenes) { flow in
            await flow.viewModel.start()
            await flow.viewModel.submit(
                interactionActionModel: try #require(try flow.model().button(kind: .login)), parameters: ["username": "someone"])
            let outcome = try await waitFor { flow.viewModel.oAuthModel }
            let error = try #require(outcome as? KitOAuthErrorModel)
            #expect(!error.error.isEmpty && error.source != .client)
        }
    }

    /// A problem type nobody here knows: the flow stops, showing its title and messages, and
    /// the problem keeps its raw JSON (members this layer does not model included).
    @Test func anUnknownProblemTypeStopsTheFlowWithItsTitleAndMessages() async throws {
        let unknown =
            #"{"type":"https://example.com/problems/quota-exceeded","title":"Quota exceeded","retryAfter":60,"messages":[{"text":"Try tomorrow","classList":["warning"]}]}"#
        let scenes = [Scene(try Recorded.uiKit("username-authentication-step")), Scene(unknown, expecting: ("POST", "/auth/login"))]
        try await PlaybackHarness.with(scenes) { flow in
            await flow.viewModel.start()
            await flow.viewModel.submit(
                interactionActionModel: try #require(try flow.model().button(kind: .login)), parameters: ["username": "someone"])
            let problem = try #require(flow.viewModel.error?.problem)
            #expect(problem.handling == .stop && problem.title == "Quota exceeded")
            #expect(problem.messageItems.map(\.messageStyleAttribute) == [.warn])
            #expect(problem.problem.rawJSON["retryAfter"]?.intValue == 60)
        }
    }

    /// `mismatch-between-session-and-access-token`: the flow starts again, once.
    @Test func aSessionTokenMismatchRestartsTheFlowOnce() async throws {
        let mismatch = try Recorded.uiKit("problem-session-token-mismatch")
        let scenes = [
            Scene(try Recorded.uiKit("username-authentication-step")),
            Scene(mismatch, expecting: ("POST", "/auth/login")),
            Scene(try Recorded.uiKit("username-authentication-step"), expecting: ("GET", PlaybackServer.authorizePath)),
            Scene(mismatch, expecting: ("POST", "/auth/login")),
        ]
        try await PlaybackHarness.with(scenes) { flow in
            await flow.viewModel.start()
            await flow.viewModel.submit(
                interactionActionModel: try #require(try flow.model().button(kind: .login)), parameters: ["username": "someone"])
            // Restarted: the login form again, no error.
            #expect(flow.viewModel.error == nil)
            #expect(flow.playback.played == 3)
            await flow.viewModel.submit(
                interactionActionModel: try #require(try flow.model().button(kind: .login)), parameters: ["username": "someone"])
            // A second mismatch in the same flow is an error.
            #expect(flow.viewModel.error?.problem?.handling == .restartFlow)
            #expect(flow.playback.played == 4)
        }
    }

    /// A step that offers nothing ends with a typed error naming the step and its templates.
    @Test func aStepThatOffersNothingEndsWithATypedError() async throws {
        let deadEnd =
            #"{"type":"authentication-step","metadata":{"viewName":"custom/view"},"actions":[{"template":"hologram","kind":"login","model":{}}]}"#
        try await PlaybackHarness.with([Scene(deadEnd)]) { flow in
            await flow.viewModel.start()
            let error = try #require(flow.viewModel.error?.underlyingError as? UnsupportedStepError)
            #expect(error.stepType == .authenticationStep)
            #expect(error.templates == [ActionTemplate(rawValue: "hologram")])
            #expect(error.errorDescription?.contains("custom/view") == true && error.errorDescription?.contains("hologram") == true)
        }
    }
}

@Suite(
    "HaapiFlowViewModel through the captured Curity flows")
@MainActor struct CapturedPlaybackFlowTests {
    /// The captured legacy `launch` step: offered as an external-browser launch; the browser
    /// comes back with `_resume_nonce`, which the continue action carries.
    @Test func theLegacyLaunchStepResumesWithTheNonce() async throws {
        let scenes = [
            Scene(try Recorded.captured("launchExternalBrowser")),
            Scene(
                try Recorded.captured("oauthAuthorizationResponse"), expecting: ("GET", "/dev/authn/authenticate/username"),
                requiring: ["_resume_nonce": PlaybackServer.resumeNonce]),
        ]
        try await PlaybackHarness.with(scenes) { flow in
            await flow.viewModel.start()
            guard let browser = try flow.model() as? KitExternalBrowserModel else {
                Issue.record("the launch step is not an external-browser operation: \(String(describing: flow.viewModel.uiModel))")
                return
            }
            let launch = try #require(browser.url)
            #expect(launch.query?.contains("_launch_nonce=") == true && launch.query?.contains("redirect_uri=") == true)
            // The browser: the server sends it back to the app's redirect with the nonce.
            let back = try await Self.visit(launch)
            #expect(back.hasPrefix(PlaybackHarness.appRedirect))
            await flow.viewModel.resumeExternalBrowser(url: try #require(URL(string: back)))
            _ = try await flow.tokens()
        }
    }

    /// Duo's captured step: passcode, as with the ui-kit example, on Curity's own recording.
    @Test func duoPasscode() async throws {
        let scenes = [
            Scene(try Recorded.captured("duo")),
            Scene(
                try Recorded.captured("oauthAuthorizationResponse"), expecting: ("POST", "/dev/authn/authenticate/duo1/select-device"),
                requiring: ["device": "DP5N54VPVTYII32TIANH", "factor": "passcode", "passcode": "123456"]),
        ]
        try await PlaybackHarness.with(scenes) { flow in
            await flow.viewModel.start()
            await flow.viewModel.select(try flow.option("Fake (+XXX XXX XXX 789)"))
            await flow.viewModel.select(try flow.option("passcode"))
            let form = try #require(try flow.model().button(kind: .login))
            await flow.viewModel.submit(interactionActionModel: form, parameters: ["passcode": "123456"])
            _ = try await flow.tokens()
        }
    }

    /// Duo push: the device poller pending, then done, then the authorization response.
    @Test func duoPushPollsToDone() async throws {
        let scenes = [
            Scene(try Recorded.captured("duo")),
            Scene(
                try Recorded.captured("pollingStep"), expecting: ("POST", "/dev/authn/authenticate/duo1/select-device"),
                requiring: ["factor": "push"]),
            Scene(try Recorded.captured("pollingStep"), expecting: ("GET", "/dev/authn/authenticate/duo1/device-poller")),
            Scene(try Recorded.captured("pollingStepDone"), expecting: ("GET", "/dev/authn/authenticate/duo1/device-poller")),
            Scene(
                try Recorded.captured("oauthAuthorizationResponse"), expecting: ("POST", "/dev/authn/authenticate/duo1/device-poller"),
                requiring: ["moveOn": "true"]),
        ]
        try await PlaybackHarness.with(scenes) { flow in
            await flow.viewModel.start()
            await flow.viewModel.select(try flow.option("Galaxy (+XXX XXX XXX 815)"))
            await flow.viewModel.select(try flow.option("push"))
            _ = try await flow.tokens()
        }
    }

    /// BankID on this device: the client operation offers its start URL, its continue action
    /// (polling), its error action (another device) and the step's cancel.
    @Test func bankIDSameDeviceContinuesToPolling() async throws {
        let scenes = [
            Scene(try Recorded.captured("bankIdSelectSameOrOtherDevice")),
            Scene(
                try Recorded.captured("bankIdSameDeviceClientOperation"), expecting: ("POST", "/dev/authn/authenticate/bankid1/index"),
                requiring: ["usesamedevice": "true"]),
            Scene(try Recorded.captured("pollingStepDone"), expecting: ("GET", "/dev/authn/authenticate/bankid1/poller")),
            Scene(try Recorded.captured("oauthAuthorizationResponse"), expecting: ("POST", "/dev/authn/authenticate/duo1/device-poller")),
        ]
        try await PlaybackHarness.with(scenes) { flow in
            await flow.viewModel.start()
            await flow.viewModel.submit(
                interactionActionModel: try #require(try flow.model().button(kind: ActionKind(rawValue: "bankid-same-device"))),
                parameters: [:])
            let model = try flow.model()
            guard let bankID = model as? KitBankIdModel else {
                Issue.record("expected BankID, got \(model)")
                return
            }
            let step = try #require(flow.viewModel.shownStep as? BankIdClientOperationStep)
            // The server sent `redirect=null`: BankID comes back to the app instead.
            #expect(
                bankID.autoStartURL?.absoluteString
                    == "bankid:///?autostarttoken=04b7c1bd-6d7b-46c0-b8ed-00f5cf39688c&redirect=haapi%3A%2F%2Fcallback")
            #expect(step.errorActions.map(\.kind.rawValue) == ["bankid-other-device"])
            #expect(bankID.button(kind: .cancel) != nil)
            await flow.viewModel.submit(form: try #require(step.continueActions.first?.form), parameters: [:])
            _ = try await flow.tokens()
        }
    }

    /// Password, then the redirection step the server sends before the authorization response.
    @Test func passwordWithARedirectionStep() async throws {
        let scenes = [
            Scene(try Recorded.captured("selectAuthenticationWithLinks")),
            Scene(try Recorded.captured("usernamePassword"), expecting: ("GET", "/dev/authn/authenticate/username")),
            Scene(
                try Recorded.captured("redirectionStepRepresentation"), expecting: ("POST", "/dev/authn/authenticate/htmlSql"),
                requiring: ["userName": "demo", "password": "Password1"]),
            Scene(try Recorded.captured("oauthAuthorizationResponse"), expecting: ("GET", "/dev/authn/authenticate")),
        ]
        try await PlaybackHarness.with(scenes, hosts: ["https://785e77548e1e.ngrok.io"]) { flow in
            await flow.viewModel.start()
            guard let selector = try flow.model() as? KitSelectorModel else {
                Issue.record("expected the selector")
                return
            }
            await flow.viewModel.select(try #require(selector.options.first { $0.type == "username" } ?? selector.options.last))
            await flow.viewModel.submit(
                interactionActionModel: try #require(try flow.model().button(kind: .login)),
                parameters: ["userName": "demo", "password": "Password1"])
            // The redirection step is followed by HaapiManager (isAutoRedirect): the UI never sees it.
            _ = try await flow.tokens()
        }
    }

    /// BankID on another device, chosen from the client operation's error action, with the personal number.
    @Test func bankIDOtherDeviceFromTheClientOperation() async throws {
        let scenes = [
            Scene(try Recorded.captured("bankIdSelectSameOrOtherDevice")),
            Scene(try Recorded.captured("bankIdSameDeviceClientOperation"), expecting: ("POST", "/dev/authn/authenticate/bankid1/index")),
            Scene(
                try Recorded.captured("pollingStepDone"), expecting: ("POST", "/dev/authn/authenticate/bankid1/launch"),
                requiring: ["personalnumber": "199001011234", "usesamedevice": "false"]),
            Scene(try Recorded.captured("oauthAuthorizationResponse"), expecting: ("POST", "/dev/authn/authenticate/duo1/device-poller")),
        ]
        try await PlaybackHarness.with(scenes) { flow in
            await flow.viewModel.start()
            await flow.viewModel.submit(
                interactionActionModel: try #require(try flow.model().button(kind: ActionKind(rawValue: "bankid-same-device"))),
                parameters: [:])
            guard let bankID = try flow.model() as? KitBankIdModel else {
                Issue.record("expected BankID")
                return
            }
            await flow.viewModel.submit(
                interactionActionModel: try #require(bankID.button(kind: .bankIdOtherDevice)),
                parameters: ["personalnumber": "199001011234"])
            _ = try await flow.tokens()
        }
    }

    /// The browser's visit to a launch URL: the redirect it is sent to.
    static func visit(_ url: URL) async throws -> String {
        let response = try await AsyncHTTPClientTransport().send(TransportRequest(method: "GET", url: url, headers: [:], body: nil))
        return try #require(response.headers["Location"])
    }
}
