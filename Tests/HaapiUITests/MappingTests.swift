import DevServerTestSupport
import Foundation
import HaapiDriver
import HaapiSDK
import HaapiUI
import OAuthCore
import Testing

/// Where the response documents are: the captured Curity responses (optional, outside the
/// package) and the SDK's own fixtures.
enum Documents {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let captured = packageRoot.appendingPathComponent("../shared/conformance/haapi/captured", isDirectory: true).standardizedFileURL
    static let fixtures = packageRoot.appendingPathComponent("Tests/HaapiSDKTests/Fixtures", isDirectory: true)

    static var isCapturedAvailable: Bool { FileManager.default.fileExists(atPath: captured.appendingPathComponent("MANIFEST.tsv").path) }

    static func files(in directory: URL) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).filter { $0.hasSuffix(".json") }.sorted()
    }

    static func load(_ directory: URL, _ name: String) throws -> HaapiDocument {
        try HaapiModel.response(from: try Data(contentsOf: directory.appendingPathComponent(name)))
    }

    static func step(_ directory: URL, _ name: String) throws -> any HaapiRepresentation {
        guard case .representation(let step) = try load(directory, name) else { throw CancellationError() }
        return step
    }

    static func problem(_ directory: URL, _ name: String) throws -> any ProblemRepresentation {
        guard case .problem(let problem) = try load(directory, name) else { throw CancellationError() }
        return problem
    }
}

let factory = UIModelFactory(appRedirect: "app://cb", baseURL: URL(string: "https://idsvr.example")!)

/// Checks what every UI model must keep: every message, link and form of the step.
func checkInvariants(_ step: any HaapiRepresentation, _ model: UIModel) {
    #expect(model.messages.count >= step.messages.count)
    #expect(model.links.count + model.images.count == step.links.count)
    #expect(model.forms.count == step.allActions.filter { $0.form != nil }.count)
    #expect(model.selectors.count == step.allActions.filter { $0.selector != nil }.count)
    for form in model.forms {
        #expect(form.fields.count == form.form.fields.count)
        for field in form.fields where field.kind == .password { #expect(field.isSecure) }
    }
}

@Suite(
    "UI models of the captured Curity responses",
    .enabled(if: Documents.isCapturedAvailable, "../shared/conformance/haapi/captured is absent: the captured responses are optional"))
struct CapturedMappingTests {
    @Test("Every captured step maps to a UI model, every captured problem to a problem model", arguments: Documents.files(in: Documents.captured))
    func everyCapturedResponseMaps(_ name: String) throws {
        switch try Documents.load(Documents.captured, name) {
        case .representation(let step):
            checkInvariants(step, factory.makeUIModel(step))
        case .problem(let problem):
            let model = ProblemModel(problem)
            #expect(!model.title.isEmpty)
            #expect(model.messages.count == problem.messages.count)
        }
    }

    @Test func contentKinds() throws {
        func content(_ name: String) throws -> UIModel.Content { factory.makeUIModel(try Documents.step(Documents.captured, name)).content }
        guard case .form(let forms) = try content("usernamePassword.json") else { Issue.record("form"); return }
        let login = try #require(forms.first { $0.kind == .login })
        #expect(login.field("userName")?.kind == .username)
        #expect(login.field("password")?.isSecure == true)
        guard case .selector(let selector) = try content("selectAuthentication.json") else { Issue.record("selector"); return }
        #expect(selector.options.count == 40)
        #expect(selector.options.allSatisfy { $0.authenticatorType != nil && $0.form != nil })
        guard case .polling(let polling) = try content("pollingStep.json") else { Issue.record("polling"); return }
        #expect(polling.status == .pending)
        #expect(polling.cancel != nil)
        guard case .polling(let done) = try content("pollingStepDone.json") else { Issue.record("polling done"); return }
        #expect(done.status == .done)
        guard case .clientOperation(.bankID(let bankID)) = try content("bankIdSameDeviceClientOperation.json") else { Issue.record("bankid"); return }
        #expect(bankID.autoStartToken == "04b7c1bd-6d7b-46c0-b8ed-00f5cf39688c")
        #expect(bankID.actions.continueActions.count == 1)
        #expect(bankID.actions.errorActions.count == 1)
        guard case .continueSameStep = try content("continueSameStep.json") else { Issue.record("continue-same-step"); return }
        let continued = factory.makeUIModel(try Documents.step(Documents.captured, "continueSameStep.json"))
        #expect(continued.messages.first?.style == .info)
        guard case .authorizationResponse(let response) = try content("oauthAuthorizationResponse.json") else { Issue.record("response"); return }
        #expect(response.code == "OZxymZHVjkEhf9fajYz0jNPOaJaQpXTg")
        // The legacy launch template is an external-browser operation with its continue action.
        guard case .clientOperation(.externalBrowser(let launch)) = try content("launchExternalBrowser.json") else { Issue.record("legacy launch"); return }
        #expect(launch.href?.contains("_launch_nonce=") == true)
        #expect(launch.continueAction?.field("_resume_nonce")?.kind == .context)
        // Duo: the device selector is the step's content; devices hold their factors' forms.
        guard case .selector(let duo) = try content("duo.json") else { Issue.record("duo"); return }
        #expect(duo.options.map(\.options.count) == [4, 4])
        #expect(duo.options.allSatisfy { $0.form == nil })
    }

    @Test func qrCodeImageLinksAreImagesWithTheirBytes() throws {
        let model = factory.makeUIModel(try Documents.step(Documents.captured, "messagesWithTextAndImageLinks.json"))
        let qr = try #require(model.images.first { $0.rel == "activation" })
        #expect(qr.isQRCode)
        let bytes = try #require(qr.imageData)
        #expect(bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]))  // PNG
        let devicetype = try #require(model.forms.first?.field("devicetype"))
        #expect(devicetype.kind == .select)
        #expect(!devicetype.options.isEmpty)
    }

    @Test func formErrorsAttachToTheirFields() throws {
        let step = try Documents.step(Documents.captured, "usernamePassword.json")
        let problem = try Documents.problem(Documents.captured, "usernamePasswordFormErrors.json")
        let model = factory.makeUIModel(step, problem: problem, enteredValues: ["userName": "alice", "password": "secret"])
        let login = try #require(model.form(kind: .login))
        #expect(login.field("userName")?.error?.reason == "invalidValue")
        #expect(login.field("password")?.error?.reason == "invalidValue")
        #expect(login.field("userName")?.value == "alice")
        #expect(login.field("password")?.value == nil)  // a password is never kept
        #expect(model.problem?.title == "Form Errors")
        #expect(model.problem?.isCorrectable == true)
        let incorrect = ProblemModel(try Documents.problem(Documents.captured, "incorrectCredentialsProblemWithMessages.json"))
        #expect(incorrect.messages.count == 2)
        #expect(incorrect.isCorrectable)
    }
}

@Suite("UI models of the SDK fixtures")
struct FixtureMappingTests {
    @Test("Every fixture maps", arguments: Documents.files(in: Documents.fixtures).filter { $0 != "unknown-step-type.json" })
    func everyFixtureMaps(_ name: String) throws {
        switch try Documents.load(Documents.fixtures, name) {
        case .representation(let step):
            checkInvariants(step, factory.makeUIModel(step))
        case .problem(let problem):
            let model = ProblemModel(problem)
            #expect(model.problem.type == problem.type && model.type == HandleableProblemType(problem.type))
            // The user corrects only what can be corrected; too many attempts or a failed
            // authentication end the attempt, though the server would take the step again.
            #expect(model.isCorrectable == [ProblemType.invalidInputProblem, .incorrectCredentialsProblem].contains(problem.type))
        }
    }

    @Test func fixtureFiles() {
        #expect(Documents.files(in: Documents.fixtures).count >= 20)
    }

    @Test func pollingPending() throws {
        let step = try Documents.step(Documents.fixtures, "polling-pending.json")
        guard case .polling(let polling) = factory.makeUIModel(step).content else { Issue.record("polling"); return }
        #expect(polling.recipient == "+46 70 *** ** 58")
        #expect(polling.remainingTime == 143)
        #expect(polling.maxWaitTime == 180)
        #expect(polling.serverInterval == 2500)
        #expect(polling.interval == .milliseconds(2500))  // the server's interval wins
        let model = factory.makeUIModel(step)
        #expect(model.images.first?.imageData != nil)
        let off = UIModelFactory(autoPollingDuration: 0, appRedirect: "app://cb", baseURL: URL(string: "https://x.example")!)
        guard case .polling(let manual) = off.makeUIModel(step).content else { Issue.record("polling"); return }
        #expect(manual.interval == nil)
        #expect(!manual.isAutomatic)
        let failed = try Documents.step(Documents.fixtures, "polling-failed.json")
        guard case .polling(let failure) = factory.makeUIModel(failed).content else { Issue.record("polling"); return }
        #expect(failure.status == .failed)
    }

    @Test func clientOperations() throws {
        let browser = try Documents.step(Documents.fixtures, "external-browser-flow.json")
        guard case .clientOperation(.externalBrowser(let operation)) = factory.makeUIModel(browser).content else { Issue.record("browser"); return }
        let url = try #require(operation.launchURL)
        #expect(Browser.query(url.absoluteString)["redirect_uri"] == "app://cb")
        #expect(operation.continueAction?.fields.contains { $0.name == "_resume_nonce" && $0.kind == .context } == true)
        #expect(!operation.prefersDefaultBrowser)

        guard case .clientOperation(.encap(let encap)) = factory.makeUIModel(try Documents.step(Documents.fixtures, "encap-auto-activation.json")).content
        else { Issue.record("encap"); return }
        #expect(encap.activationCode != nil)
        guard case .clientOperation(.webAuthn(let registration)) = factory.makeUIModel(try Documents.step(Documents.fixtures, "webauthn-registration.json")).content
        else { Issue.record("webauthn registration"); return }
        #expect(registration.isRegistration)
        #expect(!registration.arguments.isEmpty)
        guard case .clientOperation(.webAuthn(let authentication)) = factory.makeUIModel(try Documents.step(Documents.fixtures, "webauthn-authentication.json")).content
        else { Issue.record("webauthn authentication"); return }
        #expect(!authentication.isRegistration)
        guard case .clientOperation(.generic(let generic)) = factory.makeUIModel(try Documents.step(Documents.fixtures, "unknown-client-operation.json")).content
        else { Issue.record("generic"); return }
        #expect(!generic.name.rawValue.isEmpty)
    }

    @Test func consentSteps() throws {
        for name in ["user-consent-step.json", "consentor-step.json"] {
            guard case .consent(let consent) = factory.makeUIModel(try Documents.step(Documents.fixtures, name)).content else {
                Issue.record("\(name): consent"); continue
            }
            #expect(consent.consent != nil, "\(name)")
        }
        guard case .consent(let consent) = factory.makeUIModel(try Documents.step(Documents.fixtures, "user-consent-step.json")).content else { return }
        #expect(!consent.checkboxes.isEmpty)
    }

    @Test func formFieldKinds() throws {
        let model = factory.makeUIModel(try Documents.step(Documents.fixtures, "form-fields.json"))
        let fields = model.forms.flatMap(\.fields)
        #expect(fields.contains { $0.kind == .hidden && !$0.isUserInput })
        #expect(fields.contains { if case .text = $0.kind { return !$0.isSecure } else { return false } })
        #expect(fields.contains { $0.kind == .checkbox })
        #expect(fields.contains { $0.kind == .select && $0.options.contains(where: \.isSelected) })
        for field in fields where field.kind == .checkbox { #expect(field.value != nil) }
    }

    @Test func problemsWithInvalidFields() throws {
        let problem = try Documents.problem(Documents.fixtures, "problem-invalid-input.json")
        let model = ProblemModel(problem)
        #expect(!model.invalidFields.isEmpty)
        let authorization = try Documents.problem(Documents.fixtures, "problem-error-authorization-response.json")
        let oauth = OAuthErrorModel(try #require(authorization as? AuthorizationProblem))
        #expect(!oauth.error.isEmpty)
        #expect(oauth.source == .authorizationResponse)
        for name in ["problem-unexpected.json", "problem-generic-user-error.json", "problem-unknown-type.json"] {
            #expect(!ProblemModel(try Documents.problem(Documents.fixtures, name)).isCorrectable, "\(name)")
        }
    }
}

@Suite("Messages, links, configuration")
struct SmallModelTests {
    @Test func messageClassesMapToStyles() {
        let cases: [(String, MessageStyle)] = [
            ("heading", .heading), ("info", .info), ("warning", .warning), ("error", .error), ("is-error", .error),
            ("userName", .username), ("recipient", .recipient), ("userCode", .other("userCode")),
        ]
        for (name, style) in cases { #expect(MessageStyle(className: name) == style) }
        let message = MessageModel(text: "Hi", classList: ["activationCode", "warning"])
        #expect(message.style == .warning)
        #expect(message.styles == [.other("activationCode"), .warning])
        #expect(MessageModel(text: "plain", classList: []).style == .info)
    }

    @Test func pollingIntervalRules() {
        #expect(PollingModel.interval(serverMilliseconds: nil, autoPollingDuration: 3) == .seconds(3))
        #expect(PollingModel.interval(serverMilliseconds: 500, autoPollingDuration: 3) == .milliseconds(500))
        #expect(PollingModel.interval(serverMilliseconds: 500, autoPollingDuration: 0) == nil)
        #expect(PollingModel.interval(serverMilliseconds: nil, autoPollingDuration: 0.25) == .milliseconds(250))
        // Issue 28, item 6: a server's absurd interval is cut to five minutes.
        #expect(PollingModel.interval(serverMilliseconds: 9_000_000_000_000_000, autoPollingDuration: 3) == PollingModel.longestServerInterval)
        #expect(PollingModel.longestServerInterval == .seconds(300))
    }

    @Test func builderDefaultsAndOptions() {
        let base = URL(string: "https://idsvr.example")!
        let defaults = HaapiUIKitConfigurationBuilder(
            clientId: "c", baseUrl: base, tokenEndpointUrl: base.appendingPathComponent("token"),
            authorizationEndpointUrl: base.appendingPathComponent("authorize"), appRedirect: "app://cb"
        ).build()
        #expect(defaults.autoPollingDuration == 3)
        #expect(defaults.shouldAutoHandleFlowErrorFeedback)
        #expect(defaults.shouldConfirmFlowInterruption)
        #expect(defaults.authenticationSelectionPresentation == .list)
        #expect(!defaults.useDefaultExternalBrowser)
        #expect(!defaults.isTokenBound)
        let dcr = DCRConfiguration(templateClientId: "t", clientRegistrationEndpointUrl: base.appendingPathComponent("register"), storage: InMemoryStorage())
        let custom = HaapiUIKitConfigurationBuilder(
            clientId: "c", baseUrl: base, tokenEndpointUrl: base.appendingPathComponent("token"),
            authorizationEndpointUrl: base.appendingPathComponent("authorize"), appRedirect: "app://cb"
        )
        .setAutoPollingDuration(duration: 0).setShouldAutoHandleFlowErrorFeedback(value: false).setShouldConfirmInterruptionFlow(value: false)
        .setAuthenticationSelectionPresentation(presentation: .tabs).setUseDefaultExternalBrowser(value: true)
        .setTokenBoundConfiguration(configuration: BoundedTokenConfiguration())
        .setClientAuthenticationMethod(method: ClientAuthenticationMethodSecret("s"))
        .setDCRConfiguration(configuration: dcr)
        .build()
        #expect(custom.autoPollingDuration == 0)
        #expect(!custom.shouldAutoHandleFlowErrorFeedback)
        #expect(!custom.shouldConfirmFlowInterruption)
        #expect(custom.authenticationSelectionPresentation == .tabs)
        #expect(custom.useDefaultExternalBrowser)
        #expect(custom.isTokenBound)
        #expect(custom.haapiConfiguration.clientAuthenticationMethod is ClientAuthenticationMethodSecret)
        #expect(custom.accessorOptions.dcrConfiguration?.templateClientId == "t")
    }

    /// One builder set from many tasks at once (it is `Sendable`, its settings behind a lock),
    /// and the accessor options of the UI configuration reach the accessor it builds.
    @Test func theBuilderIsSharedAcrossTasksAndItsAccessorOptionsReachTheAccessor() async throws {
        let storage = InMemoryStorage()
        let builder = HaapiUIKitConfigurationBuilder(
            clientId: "c", baseUrl: URL(string: "https://idsvr.example")!, tokenEndpointUrl: URL(string: "https://idsvr.example/token")!,
            authorizationEndpointUrl: URL(string: "https://idsvr.example/authorize")!, appRedirect: "app:/cb")
        await withTaskGroup(of: Void.self) { group in
            for seconds in 1...50 { group.addTask { builder.setMinTokenTtl(value: TimeInterval(seconds)) } }
            group.addTask { builder.setStorage(storage).setAccessStrategy(.clientCredentials) }
            group.addTask { builder.setClientAuthenticationMethod(method: ClientAuthenticationMethodSecret("s")) }
        }
        let configuration = builder.build()
        #expect((1...50).contains(Int(configuration.haapiConfiguration.minTokenTtl)))
        let accessor: any OAuthAccessor = try await configuration.makeAccessorBuilder().setHaapiAccessorOption(option: .oauth).build()
        #expect(accessor.oAuthTokenManager.storage as? InMemoryStorage === storage)
    }
}

/// The examples of Curity's curityio/ui-kit (Fixtures/ui-kit, see its README): each decodes and
/// maps, and every step a user meets offers a way on.
@Suite("UI models of the curityio/ui-kit examples")
struct UIKitExampleMappingTests {
    static let directory = Recorded.uiKit

    /// Steps that legitimately offer nothing by themselves: the flow's end, and continue-same-steps
    /// (their actions are the submitted form's continue actions, which HaapiManager adds).
    static func endsOrContinues(_ step: any HaapiRepresentation) -> Bool {
        step is OAuthAuthorizationResponseStep || step is ContinueSameStep
    }

    @Test("Every ui-kit example decodes and maps", arguments: Documents.files(in: directory))
    func everyExampleMaps(_ name: String) throws {
        switch try Documents.load(Self.directory, name) {
        case .representation(let step):
            let model = factory.makeUIModel(step)
            checkInvariants(step, model)
            if !Self.endsOrContinues(step) { #expect(model.offersAction, "\(name) offers nothing: \(model.content)") }
        case .problem(let problem):
            let model = ProblemModel(problem)
            #expect(!model.title.isEmpty && !model.messages.isEmpty)
            #expect(model.handling == .authorizationError || !(problem is AuthorizationProblem))
        }
    }

    @Test func theExamplesAreAllThere() {
        #expect(Documents.files(in: Self.directory).count >= 40)
    }

    /// Shapes beyond the basic ones: nested selectors, a selector of continue forms, polling's
    /// BankID operation, WebAuthn's options.
    @Test func shapes() throws {
        func content(_ name: String) throws -> UIModel.Content { factory.makeUIModel(try Documents.step(Self.directory, name + ".json")).content }
        guard case .selector(let duo) = try content("duo-select-device-nested-selector") else { Issue.record("duo"); return }
        #expect(duo.options.allSatisfy { $0.form == nil && $0.options.count == 4 })
        guard case .selector(let actions) = try content("authentication-action-selector") else { Issue.record("action selector"); return }
        #expect(actions.options.allSatisfy { $0.form?.kind == .continue })
        guard case .polling(let polling) = try content("bankid-polling-pending"), case .bankID? = polling.clientOperation else {
            Issue.record("bankid polling"); return
        }
        guard case .clientOperation(.webAuthn(let webAuthn)) = try content("webauthn-registration-any-device-client-operation") else {
            Issue.record("webauthn"); return
        }
        #expect(Set(webAuthn.creationOptions.keys) == [.platform, .crossPlatform])
        guard case .consent(let consent) = try content("user-consent") else { Issue.record("consent"); return }
        #expect(consent.consent != nil)
    }
}
