import Foundation
import HaapiDriver
import HaapiSDK
import HaapiServerTesting
import HaapiTesting
import HaapiUI
import OAuthCore
import Testing

/// Where the response documents are: the captured Curity responses and the SDK's own fixtures.
enum Documents {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let captured = packageRoot.appendingPathComponent("Tests/Fixtures/curity-captured", isDirectory: true)
    static let fixtures = packageRoot.appendingPathComponent("Tests/HaapiSDKTests/Fixtures", isDirectory: true)

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

let factory = KitDataMapper(appRedirect: "app://cb", baseURL: URL(string: "https://idsvr.example")!)

extension KitDataMapper {
    /// The model of `step` (a test's step always maps).
    func model(_ step: any HaapiRepresentation) throws -> any UIInteractionModel {
        try mapHaapiRepresentationToInteraction(haapiRepresentation: step)
    }
}

/// The elements of every form a model shows, the images of its step, and its selectors' options.
@MainActor func shown(_ model: any UIModel) -> (items: [any InteractionItemModel], options: Int) {
    switch model {
    case let selector as KitSelectorModel: return (selector.cancelItems, selector.selectorItems.count)
    case let generic as KitGenericModel: return (generic.formModel?.interactionItems ?? [], generic.selectorModel?.selectorItems.count ?? 0)
    default: return (HaapiFlowViewModel.interactionItems(of: model) + model.kitButtons, 0)
    }
}

/// Checks what every UI model must keep: every message and link of the step, a field for each
/// field the user fills in, secrets hidden.
@MainActor func checkInvariants(_ step: any HaapiRepresentation, _ model: any UIModel) {
    let context = (model as? any KitStepModel)?.context
    #expect((context?.messageItems.count ?? 0) >= step.messages.count)
    #expect((context?.linkItems.count ?? 0) + (context?.images.count ?? 0) == step.links.count)
    for field in shown(model).items.compactMap({ $0 as? KitInputTextItem }) where field.inputConfiguration.contentType == .password {
        #expect(field.inputConfiguration.isSecure)
    }
}

@Suite(
    "UI models of the captured Curity responses")
@MainActor struct CapturedMappingTests {
    @Test(
        "Every captured step maps to a UI model, every captured problem to a problem model",
        arguments: Documents.files(in: Documents.captured))
    func everyCapturedResponseMaps(_ name: String) throws {
        switch try Documents.load(Documents.captured, name) {
        case .representation(let step):
            checkInvariants(step, try factory.model(step))
        case .problem(let problem):
            let model = try #require(try factory.mapHaapiResultToUIModel(haapiResult: .problem(problem)) as? KitProblemModel)
            #expect(!(model.title ?? "").isEmpty)
            #expect(model.messageItems.count == problem.messages.count)
        }
    }

    @Test func modelKinds() throws {
        func model(_ name: String) throws -> any UIInteractionModel { try factory.model(try Documents.step(Documents.captured, name)) }
        let form = try #require(try model("usernamePassword.json") as? KitFormModel)
        let login = try #require(form.button(kind: .login))
        #expect((login.fields.first { $0.key == "userName" } as? KitInputTextItem)?.inputConfiguration.contentType == .username)
        #expect((login.fields.first { $0.key == "password" } as? KitInputTextItem)?.inputConfiguration.isSecure == true)
        let selector = try #require(try model("selectAuthentication.json") as? KitSelectorModel)
        #expect(selector.options.count == 40)
        #expect(selector.options.allSatisfy { $0.type != nil && $0.formActionModel != nil })
        let polling = try #require(try model("pollingStep.json") as? KitPollingModel)
        #expect(polling.status == .pending)
        #expect(polling.cancelAction != nil)
        #expect((try model("pollingStepDone.json") as? KitPollingModel)?.status == .done)
        let bankID = try #require(try model("bankIdSameDeviceClientOperation.json") as? KitBankIdModel)
        #expect(bankID.autoStartURL?.absoluteString.contains("autostarttoken=04b7c1bd-6d7b-46c0-b8ed-00f5cf39688c") == true)
        #expect(bankID.polling == nil)
        // Its continue action (under the app button), "another device" and cancel.
        #expect(bankID.otherItems.compactMap { ($0 as? KitButtonItem)?.kind.rawValue } == ["redirect", "bankid-other-device", "cancel"])
        let continued = try #require(try model("continueSameStep.json") as? KitContinueSameModel)
        #expect(continued.messageItems.first?.messageStyleAttribute == .info)
        let response = try #require(try model("oauthAuthorizationResponse.json") as? KitAuthorizationRequestModel)
        #expect(response.code == "OZxymZHVjkEhf9fajYz0jNPOaJaQpXTg")
        // The legacy launch template is an external-browser operation with its continue action.
        let launch = try #require(try model("launchExternalBrowser.json") as? KitExternalBrowserModel)
        #expect(launch.href.contains("_launch_nonce="))
        #expect(launch.formActionModel.field("_resume_nonce") is ContextFormField)
        // Duo: the device selector is the step's model; devices hold their factors' forms.
        let duo = try #require(try model("duo.json") as? KitSelectorModel)
        #expect(duo.options.map(\.nestedOptions.count) == [4, 4])
        #expect(duo.options.allSatisfy { $0.formActionModel == nil })
    }

    @Test func qrCodeImageLinksAreImagesWithTheirBytes() throws {
        let model = try #require(
            try factory.model(try Documents.step(Documents.captured, "messagesWithTextAndImageLinks.json")) as? KitFormModel)
        let qr = try #require(model.context.images.first { $0.rel == "activation" })
        #expect(qr.isQRCode)
        let bytes = try #require(qr.link.imageData)
        #expect(bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]))  // PNG
        let devicetype = try #require(model.interactionItems.first { $0.key == "devicetype" } as? KitSelectItem)
        #expect(!devicetype.options.isEmpty)
    }

    @Test func formErrorsAttachToTheirFields() throws {
        let step = try Documents.step(Documents.captured, "usernamePassword.json")
        let problem = KitProblemModel(try Documents.problem(Documents.captured, "usernamePasswordFormErrors.json"))
        let model = try #require(try factory.model(step) as? KitFormModel)
        let fields = model.interactionItems.compactMap { $0 as? KitInputTextItem }
        for field in fields { field.value = field.key == "userName" ? "alice" : "secret" }
        HaapiFlowViewModel.mark(model, with: problem)
        #expect(fields.first { $0.key == "userName" }?.error == "You have to enter your username")
        #expect(fields.first { $0.key == "password" }?.error?.isEmpty == false)
        #expect(fields.first { $0.key == "userName" }?.value == "alice")
        #expect(fields.first { $0.key == "password" }?.value == "")  // a password is never kept
        #expect(problem.title == "Form Errors")
        #expect(problem.isCorrectable)
        let incorrect = KitProblemModel(try Documents.problem(Documents.captured, "incorrectCredentialsProblemWithMessages.json"))
        #expect(incorrect.messageItems.count == 2)
        #expect(incorrect.isCorrectable)
    }
}

@Suite("UI models of the SDK fixtures")
@MainActor struct FixtureMappingTests {
    @Test("Every fixture maps", arguments: Documents.files(in: Documents.fixtures).filter { $0 != "unknown-step-type.json" })
    func everyFixtureMaps(_ name: String) throws {
        switch try Documents.load(Documents.fixtures, name) {
        case .representation(let step):
            checkInvariants(step, try factory.model(step))
        case .problem(let problem):
            let model = KitProblemModel(problem)
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
        let polling = try #require(try factory.model(step) as? KitPollingModel)
        #expect(polling.recipient == "+46 70 *** ** 58")
        #expect(polling.maxWaitRemainingTime == 143)
        #expect(polling.maxWaitTime == 180)
        #expect(polling.pollInterval == 2.5)  // the server's interval wins
        #expect(polling.context.images.first?.link.imageData != nil)
        let off = KitDataMapper(autoPollingDuration: 0, appRedirect: "app://cb", baseURL: URL(string: "https://x.example")!)
        let manual = try #require(try off.model(step) as? KitPollingModel)
        #expect(manual.pollInterval == nil)
        #expect(!manual.isAutomatic)
        let failed = try Documents.step(Documents.fixtures, "polling-failed.json")
        #expect((try factory.model(failed) as? KitPollingModel)?.status == .failed)
    }

    @Test func clientOperations() throws {
        let browser = try Documents.step(Documents.fixtures, "external-browser-flow.json")
        let operation = try #require(try factory.model(browser) as? KitExternalBrowserModel)
        let url = try #require(operation.url)
        #expect(Browser.query(url.absoluteString)["redirect_uri"] == "app://cb")
        #expect(operation.formActionModel.fields.contains { $0.name == "_resume_nonce" && $0 is ContextFormField })
        #expect(!operation.prefersDefaultBrowser)
        #expect(try operation.buildParameters(URL(string: "app://cb?_resume_nonce=n-1")!)["_resume_nonce"] as? String == "n-1")

        let encap = try #require(
            try factory.model(try Documents.step(Documents.fixtures, "encap-auto-activation.json")) as? KitGenericOperationModel)
        #expect(encap.actionModel.argument("activationCode") != nil)
        let registration = try #require(
            try factory.model(try Documents.step(Documents.fixtures, "webauthn-registration.json")) as? KitWebAuthnModel)
        #expect(registration.isRegistration)
        // Options for any authenticator: both choices, each registering with those options.
        #expect(registration.kinds == [.platform, .crossPlatform])
        #expect(registration.optionsKind(for: .crossPlatform) == .any && registration.optionsKind(for: .platform) == .any)
        let authentication = try #require(
            try factory.model(try Documents.step(Documents.fixtures, "webauthn-authentication.json")) as? KitWebAuthnModel)
        #expect(!authentication.isRegistration)
        let generic = try #require(
            try factory.model(try Documents.step(Documents.fixtures, "unknown-client-operation.json")) as? KitGenericOperationModel)
        #expect(!generic.actionModel.name.rawValue.isEmpty)
    }

    @Test func consentSteps() throws {
        for name in ["user-consent-step.json", "consentor-step.json"] {
            let consent = try #require(try factory.model(try Documents.step(Documents.fixtures, name)) as? KitFormModel, "\(name)")
            #expect(consent.buttons.contains { !$0.isCancel }, "\(name)")
        }
        let consent = try #require(try factory.model(try Documents.step(Documents.fixtures, "user-consent-step.json")) as? KitFormModel)
        #expect(consent.interactionItems.contains { $0 is KitCheckboxItem })
    }

    @Test func formFieldKinds() throws {
        let model = try #require(try factory.model(try Documents.step(Documents.fixtures, "form-fields.json")) as? KitFormModel)
        let items = model.interactionItems
        // The hidden field is sent as the server gave it: it is not an element of the screen.
        #expect(!items.contains { $0.key == "flow" })
        #expect(items.contains { ($0 as? KitInputTextItem)?.inputConfiguration.isSecure == false })
        #expect(items.contains { $0 is KitCheckboxItem })
        #expect(items.contains { ($0 as? KitSelectItem)?.selectedPosition != nil })
        for box in items.compactMap({ $0 as? KitCheckboxItem }) { #expect(!box.value.isEmpty) }
        // A button submits its form with the values of its fields.
        let button = try #require(model.buttons.first)
        #expect(Set(button.fields.map(\.key)) == Set(items.filter { !($0 is KitButtonItem) }.map(\.key)))
    }

    @Test func problemsWithInvalidFields() throws {
        let problem = try Documents.problem(Documents.fixtures, "problem-invalid-input.json")
        #expect(!KitProblemModel(problem).invalidFields.isEmpty)
        let authorization = try Documents.problem(Documents.fixtures, "problem-error-authorization-response.json")
        let oauth = KitOAuthErrorModel(try #require(authorization as? AuthorizationProblem))
        #expect(!oauth.error.isEmpty)
        #expect(oauth.source == .authorizationResponse)
        for name in ["problem-unexpected.json", "problem-generic-user-error.json", "problem-unknown-type.json"] {
            #expect(!KitProblemModel(try Documents.problem(Documents.fixtures, name)).isCorrectable, "\(name)")
        }
    }
}

@Suite("Messages, links, configuration")
struct SmallModelTests {
    @Test func messageClassesMapToStyles() {
        let cases: [([String], MessageStyleAttribute)] = [
            (["heading"], .heading), (["info"], .info), (["warning"], .warn), (["error"], .error), (["is-error"], .error),
            (["userName"], .username), (["recipient"], .recipientofcommunication), (["userCode"], .usercode),
            (["activationCode", "warning"], .warn),
            ([], .content),
        ]
        for (classList, style) in cases { #expect(MessageStyleAttribute(classList: classList) == style, "\(classList)") }
        #expect(MessageStyleAttribute(knownClassList: ["activationCode"]) == nil)
    }

    @Test func pollingIntervalRules() {
        #expect(KitPollingModel.interval(serverMilliseconds: nil, autoPollingDuration: 3) == 3)
        #expect(KitPollingModel.interval(serverMilliseconds: 500, autoPollingDuration: 3) == 0.5)
        #expect(KitPollingModel.interval(serverMilliseconds: 500, autoPollingDuration: 0) == nil)
        #expect(KitPollingModel.interval(serverMilliseconds: nil, autoPollingDuration: 0.25) == 0.25)
        // Issue 28, item 6: a server's absurd interval is cut to five minutes.
        #expect(
            KitPollingModel.interval(serverMilliseconds: 9_000_000_000_000_000, autoPollingDuration: 3)
                == KitPollingModel.longestServerInterval)
        #expect(KitPollingModel.longestServerInterval == 300)
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
        let dcr = DCRConfiguration(
            templateClientId: "t", clientRegistrationEndpointUrl: base.appendingPathComponent("register"), storage: InMemoryStorage())
        let custom = HaapiUIKitConfigurationBuilder(
            clientId: "c", baseUrl: base, tokenEndpointUrl: base.appendingPathComponent("token"),
            authorizationEndpointUrl: base.appendingPathComponent("authorize"), appRedirect: "app://cb"
        )
        .setAutoPollingDuration(duration: 0).setShouldAutoHandleFlowErrorFeedback(value: false).setShouldConfirmInterruptionFlow(
            value: false
        )
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

    /// Curity's other builder settings land where the SDK and the flow read them.
    @Test func curitysBuilderSettingsReachTheConfiguration() throws {
        let risk = RiskAssessmentConfiguration(
            operatingSystemName: "iOS", operatingSystemVersion: "17.4", deviceModelName: "iPhone15,2", applicatonIdentifier: "se.bank")
        let configuration = HaapiUIKitConfigurationBuilder(
            clientId: "c", baseUrl: URL(string: "https://idsvr.example")!, tokenEndpointUrl: URL(string: "https://idsvr.example/token")!,
            authorizationEndpointUrl: URL(string: "https://idsvr.example/authorize")!, appRedirect: "app:/cb"
        )
        .setUsePasskeysBrowserFallback(false).setKeyStoreAlias(alias: "se.bank.haapi").setIsAutoRedirect(value: false)
        .setRiskAssessmentConfiguration(risk).setShouldClearExistingDCRClient(value: true)
        .setAttestationConfiguration(configuration: AttestationConfiguration(useAttestation: false, attestationMaxRetries: 1))
        .build()
        #expect(!configuration.usePasskeysBrowserFallback && configuration.shouldClearExistingDCRClient)
        #expect(configuration.haapiConfiguration.name == "se.bank.haapi")
        #expect(!configuration.haapiConfiguration.isAutoRedirect)
        #expect(configuration.haapiConfiguration.riskAssessmentConfiguration == risk)
        #expect(configuration.haapiConfiguration.attestationConfiguration.attestationMaxRetries == 1)
        // A bundle without an identifier cannot name the app to a risk-assessment service.
        let empty = FileManager.default.temporaryDirectory.appendingPathComponent("bundle-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: empty) }
        let bundle = try #require(Bundle(path: empty.path))
        #expect(throws: HaapiError.self) { try RiskAssessmentConfiguration(bundle) }
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
@MainActor struct UIKitExampleMappingTests {
    nonisolated static let directory = Recorded.uiKit

    /// Steps that legitimately offer nothing by themselves: the flow's end, and continue-same-steps
    /// (their actions are the submitted form's continue actions, which HaapiManager adds).
    static func endsOrContinues(_ step: any HaapiRepresentation) -> Bool {
        step is OAuthAuthorizationResponseStep || step is ContinueSameStep
    }

    @Test("Every ui-kit example decodes and maps", arguments: Documents.files(in: directory))
    func everyExampleMaps(_ name: String) throws {
        switch try Documents.load(Self.directory, name) {
        case .representation(let step):
            let model = try factory.model(step)
            checkInvariants(step, model)
            if !Self.endsOrContinues(step) { #expect(HaapiFlowViewModel.offersAction(model, on: step), "\(name) offers nothing: \(model)") }
        case .problem(let problem):
            let model = KitProblemModel(problem)
            #expect(!(model.title ?? "").isEmpty && !model.messageItems.isEmpty)
            #expect(model.handling == .authorizationError || !(problem is AuthorizationProblem))
        }
    }

    @Test func theExamplesAreAllThere() {
        #expect(Documents.files(in: Self.directory).count >= 40)
    }

    /// Shapes beyond the basic ones: nested selectors, a selector of continue forms, polling's
    /// BankID operation, WebAuthn's options.
    @Test func shapes() throws {
        func model(_ name: String) throws -> any UIInteractionModel {
            try factory.model(try Documents.step(Self.directory, name + ".json"))
        }
        let duo = try #require(try model("duo-select-device-nested-selector") as? KitSelectorModel)
        #expect(duo.options.allSatisfy { $0.formActionModel == nil && $0.nestedOptions.count == 4 })
        let actions = try #require(try model("authentication-action-selector") as? KitSelectorModel)
        #expect(actions.options.allSatisfy { $0.option.kind == .continue && $0.formActionModel != nil })
        let polling = try #require(try model("bankid-polling-pending") as? KitBankIdModel)
        #expect(polling.polling != nil)
        let webAuthn = try #require(try model("webauthn-registration-any-device-client-operation") as? KitWebAuthnModel)
        #expect(Set(webAuthn.kinds) == [.platform, .crossPlatform])
        let consent = try #require(try model("user-consent") as? KitFormModel)
        #expect(consent.step is UserConsentStep)
    }
}
