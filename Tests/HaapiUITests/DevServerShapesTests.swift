import Foundation
import HaapiDevServer
import HaapiSDK
import HaapiServerTesting
import HaapiTesting
import HaapiUI
import OAuthCore
import Testing

/// The Curity shapes the development server serves (Duo's nested selector, BankID on this
/// device and another, the legacy launch step, authentication-failed), walked by the view model.
@Suite("HaapiFlowViewModel through the development server's Curity shapes")
@MainActor struct DevServerShapesTests {
    static func harness(_ server: RunningServer) async throws -> FlowHarness {
        try await FlowHarness.make(server, client: .secret, bound: false, stripsPollingInterval: true) {
            $0.setAutoPollingDuration(duration: 0.05)
        }
    }

    /// Picks the option titled `title` of the selector shown.
    static func pick(_ flow: FlowHarness, _ title: String, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        guard let selector = try flow.requireModel(sourceLocation: sourceLocation) as? KitSelectorModel else {
            Issue.record("expected a selector, got \(String(describing: flow.model))", sourceLocation: sourceLocation)
            throw CancellationError()
        }
        await flow.viewModel.select(try #require(selector.options.first { $0.title == title }, sourceLocation: sourceLocation))
    }

    @Test func duoPasscode() async throws {
        try await RunningServer.with { server in
            let flow = try await Self.harness(server)
            await flow.viewModel.start()
            try await flow.choose("duo")
            await flow.viewModel.submit(
                interactionActionModel: try #require(try flow.requireModel().button(kind: .login)), parameters: ["userName": "demo"])
            try await Self.pick(flow, "Phone (+XX XXX XXX 000)")
            try await Self.pick(flow, "Enter a passcode")
            let form = try #require(try flow.requireModel().button(kind: .login))
            #expect(form.fields.map(\.key) == ["passcode"])
            await flow.viewModel.submit(interactionActionModel: form, parameters: ["passcode": try await flow.otpCode()])
            #expect(try await flow.outcome().tokens != nil)
            await flow.close()
        }
    }

    @Test func duoPush() async throws {
        try await RunningServer.with { server in
            let flow = try await Self.harness(server)
            await flow.viewModel.start()
            try await flow.choose("duo")
            await flow.viewModel.submit(
                interactionActionModel: try #require(try flow.requireModel().button(kind: .login)), parameters: ["userName": "demo"])
            try await Self.pick(flow, "Tablet")
            try await Self.pick(flow, "Send push notification")
            try await server.answerApproval()  // on the tablet
            #expect(try await flow.outcome().tokens != nil)
            await flow.close()
        }
    }

    /// BankID on another device: polling with the operation's QR data, which follows BankID's
    /// animated-QR format, to the end.
    @Test func bankIDOnAnotherDevice() async throws {
        try await RunningServer.with { server in
            let flow = try await Self.harness(server)
            await flow.viewModel.start()
            try await flow.choose("bankid")
            let other = try #require(try flow.requireModel().button(kind: ActionKind(rawValue: "bankid-other-device")))
            await flow.viewModel.submit(interactionActionModel: other, parameters: ["personalnumber": SeedData.personalNumber])
            let model = try await waitFor(timeout: .seconds(45)) { () -> KitBankIdModel? in
                guard let bankID = flow.model as? KitBankIdModel, bankID.polling != nil else { return nil }
                return bankID
            }
            let qr = try #require(model.qrData)
            #expect(qr.wholeMatch(of: /bankid\.[0-9a-f-]{36}\.[0-9]+\.[0-9a-f]{64}/) != nil, "\(qr)")
            #expect(model.autoStartURL?.scheme == "bankid")
            try await server.answerApproval()  // signed in BankID
            #expect(try await flow.outcome().tokens != nil)
            await flow.close()
        }
    }

    /// BankID on this device: the operation's autostart URL; its continue action polls to the end.
    @Test func bankIDOnThisDevice() async throws {
        try await RunningServer.with { server in
            let flow = try await Self.harness(server)
            await flow.viewModel.start()
            try await flow.choose("bankid")
            let same = try #require(try flow.requireModel().button(kind: ActionKind(rawValue: "bankid-same-device")))
            await flow.viewModel.submit(interactionActionModel: same, parameters: ["personalnumber": SeedData.personalNumber])
            let model = try flow.requireModel()
            guard let bankID = model as? KitBankIdModel, bankID.polling == nil else {
                Issue.record("expected BankID, got \(model)")
                return
            }
            let url = try #require(bankID.autoStartURL)
            // BankID comes back to the app: the app's redirect, encoded once.
            #expect(
                url.absoluteString.hasPrefix("bankid:///?autostarttoken=")
                    && url.absoluteString.hasSuffix("&redirect=haapi%3A%2F%2Fcallback"), "\(url)")
            #expect(bankID.kitButtons.map(\.kind.rawValue).contains("bankid-other-device"))
            #expect(bankID.button(kind: .cancel) != nil)
            let step = try #require(flow.viewModel.shownStep as? BankIdClientOperationStep)
            #expect(step.errorActions.map(\.kind.rawValue) == ["bankid-other-device"])
            await flow.viewModel.submit(form: try #require(step.continueActions.first?.form), parameters: [:])
            try await server.answerApproval()  // signed in BankID
            #expect(try await flow.outcome().tokens != nil)
            await flow.close()
        }
    }

    /// An order nobody signs (a number nobody has: no link is sent) ends the attempt, once its
    /// time is up, with authentication-failed and the server's message.
    @Test func anUnsignedBankIDOrderFailsTheAttempt() async throws {
        try await RunningServer.with(DevServerConfiguration(approvalTimeout: .seconds(1))) { server in
            let flow = try await Self.harness(server)
            await flow.viewModel.start()
            try await flow.choose("bankid")
            let other = try #require(try flow.requireModel().button(kind: ActionKind(rawValue: "bankid-other-device")))
            await flow.viewModel.submit(interactionActionModel: other, parameters: ["personalnumber": "200001011234"])
            let error = try await waitFor(timeout: .seconds(45)) { flow.viewModel.error }
            #expect(error.problem?.type == .authenticationFailedProblem)
            #expect(error.problem?.handling == .endAttempt)
            #expect(error.problem?.messageItems.first?.text == "The BankID order was not signed in time")
            await flow.close()
        }
    }

    /// The legacy `launch` step: an external-browser launch; the browser's return resumes it.
    @Test func legacyLaunchStep() async throws {
        try await RunningServer.with { server in
            let flow = try await Self.harness(server)
            await flow.viewModel.start()
            guard let selector = try flow.requireModel() as? KitSelectorModel else {
                Issue.record("expected a selector")
                return
            }
            await flow.viewModel.select(try #require(selector.options.first { $0.title.contains("legacy launch") }))
            let model = try flow.requireModel()
            #expect(flow.viewModel.shownStep?.allActions.first?.template == .launch)
            guard let operation = model as? KitExternalBrowserModel else {
                Issue.record("expected a launch, got \(model)")
                return
            }
            await flow.viewModel.resumeExternalBrowser(url: try await FlowViewModelTests.browserReturn(operation, server: server))
            #expect(try await flow.outcome().tokens != nil)
            await flow.close()
        }
    }
}

/// soft-webauthn's software authenticator (Scripts/webauthn, installed by Scripts/test.sh): one
/// passkey kept in a state file, made and used as a platform authenticator would.
struct SoftAuthenticator {
    static let program = ProcessInfo.processInfo.environment["HAAPI_TEST_SOFT_AUTHENTICATOR"]
    let state: URL
    let origin: String

    /// Runs `create` or `get` on `options` (WebAuthn's JSON form) and reads the credential it prints.
    func run(_ command: String, _ options: JSONValue) throws -> WebAuthnCredential {
        let run = try Subprocess.run(try #require(Self.program), [command, state.path, origin], input: options.serialized())
        #expect(run.status == 0, "\(run.errors)")
        let json = try JSONValue(parsing: run.stdout)
        func bytes(_ name: String) throws -> Data {
            try #require(json["response"]?[name]?.stringValue.flatMap(Base64URL.decode), "\(name)")
        }
        let id = try #require(json["id"]?.stringValue.flatMap(Base64URL.decode))
        if command == "create" {
            return .registration(id: id, clientDataJSON: try bytes("clientDataJSON"), attestationObject: try bytes("attestationObject"))
        }
        return .assertion(
            id: id, clientDataJSON: try bytes("clientDataJSON"), authenticatorData: try bytes("authenticatorData"),
            signature: try bytes("signature"),
            userHandle: try bytes("userHandle"))
    }
}

@Suite(
    "Passkeys against the development server, with a software authenticator",
    .enabled(
        if: SoftAuthenticator.program != nil,
        "needs Scripts/webauthn/install.sh and HAAPI_TEST_SOFT_AUTHENTICATOR (Scripts/test.sh sets it)"))
@MainActor struct PasskeyFlowTests {
    /// Starts a flow of the `webauthn` authenticator as `demo`, up to its client operation
    /// (confirming the password first when `password` is given).
    static func operation(_ server: RunningServer, password: String? = nil) async throws -> (FlowHarness, KitWebAuthnModel) {
        let flow = try await DevServerShapesTests.harness(server)
        await flow.viewModel.start()
        try await flow.choose("webauthn")
        await flow.viewModel.submit(
            interactionActionModel: try #require(try flow.requireModel().button(kind: .login)), parameters: ["userName": "demo"])
        if let password {
            let confirm = try #require(try flow.requireModel().button(kind: .login))
            #expect(confirm.fields.map(\.key) == ["password"])
            await flow.viewModel.submit(interactionActionModel: confirm, parameters: ["password": password])
        }
        guard let operation = try flow.requireModel() as? KitWebAuthnModel else {
            Issue.record("expected a WebAuthn operation, got \(String(describing: flow.model))")
            throw CancellationError()
        }
        return (flow, operation)
    }

    static func authenticator(_ server: RunningServer) -> SoftAuthenticator {
        var origin = "\(server.issuer.scheme!)://\(server.issuer.host!)"
        if let port = server.issuer.port { origin += ":\(port)" }
        return SoftAuthenticator(
            state: FileManager.default.temporaryDirectory.appendingPathComponent("passkey-\(UUID().uuidString).json"), origin: origin)
    }

    /// A first passkey after the password, then a login with it; the browser fallback is offered each time.
    @Test func registerAPasskeyThenLogInWithIt() async throws {
        try await RunningServer.with { server in
            let passkey = Self.authenticator(server)
            defer { try? FileManager.default.removeItem(at: passkey.state) }

            let (registering, registration) = try await Self.operation(server, password: "Password1")
            #expect(registration.isRegistration && registration.browserFallback != nil)
            let options = try #require((registration.actionModel as? WebAuthnRegistrationClientOperationActionModel)?.creationOptions[.any])
            #expect(options.relyingPartyID == server.issuer.host && options.userName == "demo" && options.algorithms == [-7])
            await registering.viewModel.completeWebAuthn(
                try passkey.run("create", try #require(registration.operation?.argumentsJSON["credentialCreationOptions"])))
            #expect(try await registering.outcome().tokens != nil)
            await registering.close()

            // The user has a passkey now: no password, an assertion of it.
            let (loggingIn, authentication) = try await Self.operation(server)
            let request = try #require((authentication.actionModel as? WebAuthnAuthenticationClientOperationActionModel)?.requestOptions)
            #expect(request.allowedCredentials.count == 1)
            await loggingIn.viewModel.completeWebAuthn(
                try passkey.run("get", try #require(authentication.operation?.argumentsJSON["credentialRequestOptions"])))
            #expect(try await loggingIn.outcome().tokens != nil)
            await loggingIn.close()
        }
    }

    /// A forged signature, and a challenge answered twice, are refused.
    @Test func aForgedOrReplayedAssertionIsRefused() async throws {
        try await RunningServer.with { server in
            let passkey = Self.authenticator(server)
            defer { try? FileManager.default.removeItem(at: passkey.state) }
            let (registering, registration) = try await Self.operation(server, password: "Password1")
            await registering.viewModel.completeWebAuthn(
                try passkey.run("create", try #require(registration.operation?.argumentsJSON["credentialCreationOptions"])))
            _ = try await registering.outcome()
            await registering.close()

            let (flow, authentication) = try await Self.operation(server)
            let genuine = try passkey.run("get", try #require(authentication.operation?.argumentsJSON["credentialRequestOptions"]))
            var signature = try #require(genuine.signature)
            signature[signature.count - 1] ^= 0x01
            let forged = WebAuthnCredential.assertion(
                id: genuine.id, clientDataJSON: genuine.clientDataJSON, authenticatorData: try #require(genuine.authenticatorData),
                signature: signature,
                userHandle: genuine.userHandle)
            await flow.viewModel.completeWebAuthn(forged)
            let refused = try #require(flow.viewModel.error?.problem)
            #expect(refused.type == .authenticationFailedProblem)
            #expect(refused.messageItems.first?.text?.contains("not accepted") == true)
            await flow.close()

            // The genuine assertion, to a flow whose challenge was used up by the forged one.
            let (again, _) = try await Self.operation(server)
            await again.viewModel.completeWebAuthn(genuine)
            #expect(again.viewModel.error?.problem?.type == .authenticationFailedProblem)
            await again.close()
        }
    }

    /// The browser fallback: the error action leads to the external-browser authenticator.
    @Test func theBrowserFallbackLeadsToTheExternalBrowser() async throws {
        try await RunningServer.with { server in
            let (flow, registration) = try await Self.operation(server, password: "Password1")
            await flow.viewModel.submit(form: try #require(registration.browserFallback), parameters: [:])
            guard try flow.requireModel() is KitExternalBrowserModel else {
                Issue.record("expected the external browser, got \(String(describing: flow.model))")
                return
            }
            await flow.close()
        }
    }
}
