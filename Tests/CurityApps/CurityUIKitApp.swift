import IdsvrHaapiUIKit
import UIKit
import SwiftUI
import Combine

// Example Bank signs its users in with the HAAPI UI kit's public interface, customising it the way
// real apps do: its own login screen, a themed BankID screen, an "approve on your other device"
// polling screen, its own token model and a generic client operation (a card scan).

enum BankEnvironment {
    static let baseURL = URL(string: "https://login.examplebank.se")!
    static let clientId = "examplebank-ios"
    static let tokenEndpointURL = URL(string: "/oauth/v2/oauth-token", relativeTo: baseURL)!
    static let authorizationEndpointURL = URL(string: "/oauth/v2/oauth-authorize", relativeTo: baseURL)!
    static let appRedirect = "app:start"
    static let pollingSeconds: TimeInterval = 3
    static let approvalViewName = "authenticator/approval/wait"
    static var isVerbose: Bool { ProcessInfo.processInfo.environment["HAAPI_VERBOSE"] != nil }
}

@MainActor
enum HaapiSetup {
    /// How devices without key attestation prove themselves when registering a dynamic client.
    static func fallbackAuthentication(bundle: Bundle = .main) -> any ClientAuthenticationMethod {
        let pin = KeyPinning(hostname: "login.examplebank.se", publicKeyHash: "Q2hhbmdlIG1lIHBsZWFzZQ==")
        if let signed = try? ClientAuthenticationMethodJWTAsymmetric(pemFilename: "dcr-key", signatureAlgorithm: .es256, bundle: bundle) { return signed }
        if let pinned = try? ClientAuthenticationMethodMTLS(pkcs12Filename: "dcr-client", pkcs12Passphrase: "changeit",
                                                            serverKeyPinnings: [pin], bundle: bundle) { return pinned }
        if let mtls = try? ClientAuthenticationMethodMTLS(pkcs12Filename: "dcr-client", pkcs12Passphrase: "changeit",
                                                          serverPEMFilename: "server", isValidatingHostname: true) { return mtls }
        if let key = bundle.object(forInfoDictionaryKey: "DCRSharedKey") as? String {
            return ClientAuthenticationMethodJWTSymmetric(signatureAlgorithm: .hs256, secretKey: key)
        }
        if let secret = bundle.object(forInfoDictionaryKey: "DCRSecret") as? String { return ClientAuthenticationMethodSecret(secret: secret) }
        return ClientAuthenticationMethodNone()
    }

    /// Every option the configuration builder offers, set the way the bank wants it.
    static func makeConfiguration() -> HaapiUIKitConfiguration {
        let appVersion = Bundle.main.object(forInfoDictionaryKey: "CFBundleShortVersionString") as? String ?? "0"
        // Risk assessment (BankID) reads device details from the bundle; explicit values otherwise.
        let risk = (try? RiskAssessmentConfiguration(.main))
            ?? RiskAssessmentConfiguration(operatingSystemName: UIDevice.current.systemName,
                                           operatingSystemVersion: UIDevice.current.systemVersion,
                                           deviceModelName: UIDevice.current.model,
                                           applicatonIdentifier: Bundle.main.bundleIdentifier ?? "se.examplebank.app")
        return HaapiUIKitConfigurationBuilder(clientId: BankEnvironment.clientId, baseUrl: BankEnvironment.baseURL,
                                              tokenEndpointUrl: BankEnvironment.tokenEndpointURL,
                                              authorizationEndpointUrl: BankEnvironment.authorizationEndpointURL,
                                              appRedirect: BankEnvironment.appRedirect)
            .setAutoPollingDuration(duration: BankEnvironment.pollingSeconds)
            .setPresentationMode(mode: .modal)
            .setAuthenticationSelectionPresentation(presentation: .tabs)
            .setShouldAutoHandleFlowErrorFeedback(value: false)   // the app shows its own error screen
            .setShouldConfirmInterruptionFlow(value: true)
            .setUseDefaultExternalBrowser(value: false)
            .setUsePasskeysBrowserFallback(false)                  // passkeys only on the device
            .setKeyStoreAlias(alias: "se.examplebank.haapi")
            .setOauthAuthorizationParamsProvider {
                OAuthAuthorizationParameters(scopes: ["openid", "accounts", "payments"],
                                             acrValues: ["urn:se:curity:authentication:bankid:bankid"],
                                             extraRequestParameters: ["ui_locales": Locale.preferredLanguages.first ?? "sv"])
            }
            .setHttpHeadersProvider { ["X-App-Version": appVersion] }
            .setIsAutoRedirect(value: true)
            .setURLSession(session: URLSession(configuration: .haapi))
            .setRiskAssessmentConfiguration(risk)
            .setMinTokenTtl(value: 30)
            .setRevocationEndpointUrl(endpoint: URL(string: "/oauth/v2/oauth-revoke", relativeTo: BankEnvironment.baseURL)!)
            .setDCRConfiguration(configuration: DCRConfiguration(templateClientId: "examplebank-dcr-template",
                                                                 clientRegistrationEndpointUrl: URL(string: "/oauth/v2/oauth-registration", relativeTo: BankEnvironment.baseURL)!))
            .setShouldClearExistingDCRClient(value: false)
            .setClientAuthenticationMethod(method: fallbackAuthentication())
            .setTokenBoundConfiguration(configuration: BoundedTokenConfiguration(keyPairType: .secureEnclave))
            .setAttestationConfiguration(configuration: AttestationConfiguration(useAttestation: true, attestationMaxRetries: 2))
            .build()
    }

    static func makeApplication(configuration: HaapiUIKitConfiguration, recorder: FlowRecorder) throws -> any HaapiUIKitApplication {
        if BankEnvironment.isVerbose {
            HaapiLogger.setLogType(.debug)
            HaapiLogger.isSensitiveValueMasked = true
            HaapiLogger.followUpTags = [UIKitFollowUpTag.flow, UIKitFollowUpTag.mapping, SdkFollowUpTag.http]
        }
        return try HaapiUIKitApplicationBuilder(haapiUIKitConfiguration: configuration)
            .setThemingPlistFileName("ExampleBankTheme", and: .main)
            .setDataMapper(recorder)
            .setOAuthDataMapper(recorder)
            .setGenericClientOperationHandler(CardScanOperationHandler())
            .setViewControllerFactoryRegistry(registry: BankScreens.makeRegistry())
            .buildOrThrow()
    }
}

struct BankInfoMessage: InfoMessageModel {
    let key: String?, reason: String?, text: String?
    let messageStyleAttribute: MessageStyleAttribute
}

/// The kit's own form model for a step, with the bank's greeting and the step's facts the screen needs.
struct BrandedFormModel: FormModel {
    let base: any FormModel
    let submitsCredentials: Bool, authenticatorType: String?

    init(base: any FormModel, step: InteractiveFormStep) {
        self.base = base
        submitsCredentials = step.actions.flatMap { $0.model.fields }.contains { $0 is PasswordFormField }
        authenticatorType = step.actions.first?.properties?.authenticatorType
    }

    var messageItems: [any InfoMessageModel] {
        [BankInfoMessage(key: "bank.greeting", reason: nil, text: "Welcome to Example Bank", messageStyleAttribute: .heading)]
            + base.messageItems
    }
    var interactionItems: [any InteractionItemModel] { base.interactionItems }
    var linkItems: [any LinkItemModel] { base.linkItems }
    var templateArea: String? { base.templateArea }
    var viewName: String? { base.viewName }
    var representationType: String? { base.representationType }
}

/// "Approve the login on your other device": a polling step shown on the bank's own screen.
struct ApprovalPollingModel: PollingModel {
    let messageItems: [any InfoMessageModel]
    let linkItems: [any LinkItemModel]
    let mainAction: any InteractionItemModel
    let cancelAction: (any InteractionItemModel)?
    let status: PollingStatus
    let autoPollingDuration: TimeInterval
    let maxWaitTime: TimeInterval?, maxWaitRemainingTime: TimeInterval?
    let templateArea: String?, viewName: String?, recipient: String?

    /// `stock` is the kit's own model for the same step; its buttons and links are reused as they are.
    init?(step: PollingStep, stock: (any PollingModel)?) {
        guard let stock = stock else { return nil }
        let properties = step.pollingProperties
        (recipient, status) = (properties.recipientOfCommunication, properties.status)
        maxWaitTime = properties.maxWaitTime.flatMap(TimeInterval.init)
        maxWaitRemainingTime = properties.maxWaitRemainingTime.flatMap(TimeInterval.init)
        autoPollingDuration = properties.interval.flatMap(TimeInterval.init) ?? BankEnvironment.pollingSeconds
        mainAction = stock.mainAction
        cancelAction = step.cancelAction == nil ? nil : stock.cancelAction
        messageItems = step.messages.map {
            BankInfoMessage(key: $0.text.key, reason: nil, text: $0.text.literal,
                            messageStyleAttribute: $0.classList.contains("error") ? .error : .info)
        }
        linkItems = stock.linkItems
        (templateArea, viewName) = (step.metadata?.templateArea, step.metadata?.viewName)
    }
    func isEqualTo(_ other: any PollingModel) -> Bool {
        guard let other = other as? ApprovalPollingModel else { return false }
        return other.status == status && other.maxWaitRemainingTime == maxWaitRemainingTime
    }
}

/// The app's token model: the kit's fields plus the moment they arrived, for expiry checks.
struct BankTokenModel: OAuthTokenModel {
    let accessToken: String, tokenType: String?, scope: String?, expiresIn: Int
    let refreshToken: String?, idToken: String?
    let receivedAt: Date
    var expiresAt: Date { receivedAt.addingTimeInterval(TimeInterval(expiresIn)) }
}

enum BankMappers {
    static func expect<T>(_ response: Any, as type: T.Type) throws -> T {
        if let typed = response as? T { return typed }
        throw HaapiUIKitError.unsupportedMap(objName: "\(Swift.type(of: response))", expectedObjName: "\(T.self)")
    }

    static func makeDataMapper() -> any DataMapper {
        // The stock mapping, kept for everything the bank does not change.
        let stock = DataMapperBuilder(redirectTo: BankEnvironment.appRedirect, autoPollingDuration: BankEnvironment.pollingSeconds,
                                      authSelectionPresentation: .tabs).build()
        return DataMapperBuilder(redirectTo: BankEnvironment.appRedirect, autoPollingDuration: BankEnvironment.pollingSeconds,
                                 authSelectionPresentation: .tabs)
            .customize(modelType: InteractiveFormStep.self) { response in
                let step = try expect(response, as: InteractiveFormStep.self)
                let mapped = try stock.mapHaapiRepresentationToInteraction(haapiRepresentation: step)
                guard let form = mapped as? any FormModel else { return mapped }
                return BrandedFormModel(base: form, step: step)
            }
            .customize(modelType: PollingStep.self) { response in
                // Only the approval wait gets the bank's screen; BankID and the rest stay stock.
                let step = try expect(response, as: PollingStep.self)
                let mapped = try stock.mapHaapiRepresentationToInteraction(haapiRepresentation: step)
                guard step.metadata?.viewName == BankEnvironment.approvalViewName,
                      let approval = ApprovalPollingModel(step: step, stock: mapped as? any PollingModel) else { return mapped }
                return approval
            }
            .build()
    }

    static func makeOAuthDataMapper() -> any OAuthDataMapper {
        OAuthDataMapperBuilder()
            .customize(modelType: SuccessfulTokenResponse.self) { response in
                let tokens = try expect(response, as: SuccessfulTokenResponse.self)
                return BankTokenModel(accessToken: tokens.accessToken, tokenType: tokens.tokenType, scope: tokens.scope,
                                      expiresIn: tokens.expiresIn, refreshToken: tokens.refreshToken,
                                      idToken: tokens.idToken, receivedAt: Date())
            }
            .build()
    }
}

/// Hand-written mappers that delegate to the built ones and remember what the flow last showed,
/// so the headless driver (UI tests, "quick login") knows which form to submit next.
final class FlowRecorder: DataMapper, OAuthDataMapper, @unchecked Sendable {
    private let dataMapper: any DataMapper
    private let oAuthDataMapper: any OAuthDataMapper
    private let lock = NSLock()
    private var formAction: FormActionModel?, authorizationCode: String?
    private var representation: (any HaapiRepresentation)?, problem: (any ProblemRepresentation)?

    init(dataMapper: any DataMapper = BankMappers.makeDataMapper(),
         oAuthDataMapper: any OAuthDataMapper = BankMappers.makeOAuthDataMapper()) {
        (self.dataMapper, self.oAuthDataMapper) = (dataMapper, oAuthDataMapper)
    }

    var lastFormAction: FormActionModel? { lock.lock(); defer { lock.unlock() }; return formAction }
    var lastAuthorizationCode: String? { lock.lock(); defer { lock.unlock() }; return authorizationCode }
    var lastRepresentation: (any HaapiRepresentation)? { lock.lock(); defer { lock.unlock() }; return representation }
    var lastProblem: (any ProblemRepresentation)? { lock.lock(); defer { lock.unlock() }; return problem }

    func mapHaapiResultToUIModel(haapiResult: HaapiResult) throws -> any UIModel {
        lock.lock()
        switch haapiResult {
        case .representation(let step):
            representation = step
            problem = nil
            if let form = step as? InteractiveFormStep {
                formAction = form.actions.first?.model
            } else if let response = step as? OAuthAuthorizationResponseStep {
                authorizationCode = response.oauthAuthorizationResponseProperties.code
            }
        case .problem(let rejected): problem = rejected
        case .error: formAction = nil
        }
        lock.unlock()
        return try dataMapper.mapHaapiResultToUIModel(haapiResult: haapiResult)
    }

    func mapRepresentationActionModelToUIInteractionModel(representationActionModel: any RepresentationActionModel) throws -> any UIInteractionModel {
        try dataMapper.mapRepresentationActionModelToUIInteractionModel(representationActionModel: representationActionModel)
    }
    func mapHaapiRepresentationToInteraction(haapiRepresentation: any HaapiRepresentation) throws -> any UIInteractionModel {
        try dataMapper.mapHaapiRepresentationToInteraction(haapiRepresentation: haapiRepresentation)
    }
    func mapTokenResponseToOAuthModel(tokenResponse: TokenResponse) throws -> any OAuthModel {
        try oAuthDataMapper.mapTokenResponseToOAuthModel(tokenResponse: tokenResponse)
    }
}

@MainActor
enum BankScreens {
    /// The kit hands polling factories a polling style, so the BankID style is decoded from the bank's theme file.
    static let bankIdStyle: BankIdViewControllerStyle? = Bundle.main.url(forResource: "BankIdStyle", withExtension: "json")
        .flatMap { try? Data(contentsOf: $0) }
        .flatMap { try? JSONDecoder().decode(BankIdViewControllerStyle.self, from: $0) }

    static func makeRegistry() -> ViewControllerFactoryRegistry {
        ViewControllerFactoryRegistry()
            .registerViewControllerFactoryFormModel { model, style, commonStyle in
                model is BrandedFormModel
                    ? LoginFormViewController(model, style: style, commonStyle: commonStyle)
                    : FormViewController(model, style: style, commonStyle: commonStyle)
            }
            .registerViewControllerFactorySelectorModel { SelectorViewController($0, style: $1, commonStyle: $2) }
            .registerViewControllerFactoryProblemModel { ProblemViewController($0, style: $1, commonStyle: $2) }
            .registerViewControllerFactoryPollingModel { model, style, commonStyle in
                if let bankId = model as? any BankIdModel, let bankIdStyle = bankIdStyle {
                    return BrandedBankIdViewController(bankId, style: bankIdStyle, commonStyle: commonStyle)
                }
                return PollingViewController(model, style: style, commonStyle: commonStyle)
            }
            .registerViewControllerFactoryWebAuthnOperationModel { WebAuthnViewController($0, style: $1, commonStyle: $2) }
            .registerViewControllerFactoryGenericModel { GenericViewController($0, style: $1, commonStyle: $2) }
            .registerViewControllerFactory(modelType: ApprovalPollingModel.self) {
                (model: ApprovalPollingModel, style: PollingViewControllerStyle, commonStyle: HaapiUIViewControllerStyle) in
                ApprovalViewController(model, style: style, commonStyle: commonStyle)
            }
    }
}

/// The bank's own login form: a native control per interaction item, submitted through the flow.
final class LoginFormViewController: BaseViewController<any FormModel, FormViewControllerStyle> {
    private let formStack = UIStackView()
    private let spinner = UIActivityIndicatorView(style: .medium)
    /// Per field name, how to read what the user entered.
    private var readers: [String: () -> String?] = [:]
    private var buttons: [(UIButton, any InteractionItemButtonModel)] = []

    override func viewDidLoad() {
        super.viewDidLoad()
        (formStack.axis, formStack.spacing) = (.vertical, 12)
        model.interactionItems.forEach { formStack.addArrangedSubview(makeControl(for: $0)) }
        formStack.addArrangedSubview(spinner)
        let logo = UIImageView(image: UIImage(named: "BankLogo"))
        if !insertView(logo, aboveView: messagesStackView) { mainView?.addSubview(logo) }
        if !insertView(formStack, belowView: messagesStackView) { mainView?.addSubview(formStack) }
        handleInfoMessageModels(model.messageItems)
        handleLinkItemModels(model.linkItems)
    }

    private func makeControl(for item: any InteractionItemModel) -> UIView {
        switch item {
        case let input as any InteractionItemInputTextModel:
            let field = UITextField()
            (field.placeholder, field.text) = (input.placeholder ?? input.label, input.value)
            field.isSecureTextEntry = input.key.lowercased().contains("password")
            readers[input.key] = { field.text }
            return field
        case let checkbox as any InteractionItemCheckboxModel:
            let toggle = UISwitch()
            (toggle.isOn, toggle.isEnabled) = (checkbox.isChecked, !checkbox.isReadOnly)
            readers[checkbox.key] = { toggle.isOn ? checkbox.value : nil }
            return row(checkbox.label, toggle)
        case let select as any InteractionItemSelectModel:
            let control = UISegmentedControl(items: select.options.map { $0.0 })
            control.selectedSegmentIndex = select.selectedPosition ?? UISegmentedControl.noSegment
            readers[select.key] = { select.options.indices.contains(control.selectedSegmentIndex) ? select.options[control.selectedSegmentIndex].1 : nil }
            return row(select.label, control)
        case let button as any InteractionItemButtonModel:
            let view = UIButton(type: .system)
            view.setTitle(button.label, for: .normal)
            switch button.type {
            case .primary: view.backgroundColor = .systemBlue; view.setTitleColor(.white, for: .normal)
            case .secondary: view.layer.borderWidth = 1
            case .text, .link: break
            @unknown default: break
            }
            if let image = button.imageResourceName { view.setImage(UIImage(systemName: image), for: .normal) }
            view.addTarget(self, action: #selector(buttonTapped(_:)), for: .touchUpInside)
            buttons.append((view, button))
            return view
        case let section as any InteractionItemSectionModel: return label(section.label, font: .preferredFont(forTextStyle: .headline))
        case let text as any InteractionItemTextContentModel: return label(text.label)
        default: return UIView()
        }
    }

    private func label(_ text: String?, font: UIFont = .preferredFont(forTextStyle: .body)) -> UILabel {
        let label = UILabel(); (label.text, label.font, label.numberOfLines) = (text, font, 0); return label
    }
    private func row(_ title: String, _ control: UIView) -> UIView { UIStackView(arrangedSubviews: [label(title), control]) }

    private func collectParameters() -> [String: any Sendable] { readers.compactMapValues { $0() } }

    @objc private func buttonTapped(_ sender: UIButton) {
        guard let button = buttons.first(where: { $0.0 === sender })?.1 else { return }
        spinner.startAnimating()
        preSubmit(interactionActionModel: button, parameters: collectParameters()) { [weak self] proceed, parameters in
            guard proceed else { self?.stopLoading(); return }
            self?.haapiFlowViewControllerDelegate?.submit(interactionActionModel: button, parameters: parameters)
        }
    }

    override func preSubmit(interactionActionModel: any InteractionActionModel, parameters: [String: any Sendable],
                            closure: @escaping (Bool, [String: any Sendable]) -> Void) {
        // A credentials form (password or html-form authenticator) is never sent without a username.
        let branded = model as? BrandedFormModel
        if branded?.submitsCredentials == true || branded?.authenticatorType == "html-form", (parameters["username"] as? String)?.isEmpty ?? true {
            handleInfoMessageModels([BankInfoMessage(key: nil, reason: "empty", text: "Enter your personal number",
                                                     messageStyleAttribute: .error)])
            return closure(false, parameters)
        }
        guard interactionActionModel.action is FormActionModel else {
            haapiFlowViewControllerDelegate?.interruptHaapiFlowForError(HaapiUIKitError.unsupported(cause: "login action is not a form"),
                                                                        title: "Sign-in unavailable", message: "Please update the app.")
            return closure(false, parameters)
        }
        closure(true, parameters.merging(["device_name": UIDevice.current.name]) { server, _ in server })
    }
    override func preSelect(selectorItemModel: any SelectorItemInteractionActionModel, closure: @escaping (Bool) -> Void) {
        print("authenticator chosen: \(selectorItemModel.title) \(selectorItemModel.type ?? "") \(selectorItemModel.icon ?? "")")
        closure(true)
    }
    override func preFollow(linkItemModel: any LinkItemModel, closure: @escaping (Bool) -> Void) {
        // Help opens the bank's own support page instead of continuing the flow.
        guard linkItemModel.rel == "help", let url = URL(string: "https://examplebank.se/help"),
              haapiFlowViewControllerDelegate?.canOpenURL(url) == true else { return closure(true) }
        haapiFlowViewControllerDelegate?.openURL(url)
        closure(false)
    }

    override func handleProblemModel(_ problemModel: any ProblemModel) -> Bool {
        switch problemModel.type {
        case .invalidInputProblem?, .incorrectCredentialsProblem?:
            stopLoading()
            // Mark every text field; the kit's input models are shared with the flow.
            for case var input as any InteractionItemInputTextModel in model.interactionItems { input.error = problemModel.message }
            handleInfoMessageModels(problemModel.messageItems)
            handleLinkItemModels(problemModel.linkItems)
            return true
        case .tooManyAttemptsProblem?: haapiFlowViewControllerDelegate?.handleUIProblem(problemModel); return true
        default: return super.handleProblemModel(problemModel)
        }
    }
    override func handleFormModel(_ formModel: any FormModel) -> Bool {
        // The same form again (e.g. "code resent"): refresh in place instead of pushing a new screen.
        guard formModel.viewName == model.viewName else { return false }
        stopLoading()
        handleInfoMessageModels(formModel.messageItems)
        return true
    }

    override func handleInfoMessageModels(_ infoMessageModels: [any InfoMessageModel]) {
        messagesStackView.arrangedSubviews.forEach { $0.removeFromSuperview() }
        for message in infoMessageModels {
            let view = label(message.text ?? message.key)
            switch message.messageStyleAttribute {
            case .heading: view.font = .preferredFont(forTextStyle: .title2)
            case .error: view.textColor = .systemRed
            case .warn: view.textColor = .systemOrange
            case .recipientofcommunication, .username, .usercode: view.font = .monospacedSystemFont(ofSize: 17, weight: .semibold)
            case .info, .content: break
            @unknown default: break
            }
            messagesStackView.addArrangedSubview(view)
        }
    }

    override func handleLinkItemModels(_ linkItemModels: [any LinkItemModel]) {
        linksStackView.arrangedSubviews.forEach { $0.removeFromSuperview() }
        for item in linkItemModels {
            let button = UIButton(type: .system, primaryAction: UIAction(title: item.text ?? item.link.title?.literal ?? item.href) { [weak self] _ in
                self?.preFollow(linkItemModel: item) { if $0 { self?.haapiFlowViewControllerDelegate?.follow(linkItemModel: item) } }
            })
            button.accessibilityHint = item.type
            linksStackView.addArrangedSubview(button)
        }
    }

    override func stopLoading() { spinner.stopAnimating(); buttons.forEach { $0.0.isEnabled = true } }
    override func hasLoading() -> Bool { true }
    override func preRender(uiModel: any FormModel) {
        super.preRender(uiModel: uiModel)
        title = uiModel.messageItems.first { $0.messageStyleAttribute == .heading }?.text
    }
}

/// The approval-wait screen; the kit pushes each new polling model into it.
final class ApprovalViewController: BaseViewController<ApprovalPollingModel, PollingViewControllerStyle>, PollingModelUpdatable {
    private let statusLabel = UILabel()
    private var pollTask: Task<Void, Never>?

    override func viewDidLoad() {
        super.viewDidLoad()
        statusLabel.numberOfLines = 0
        if !insertView(statusLabel, belowView: messagesStackView) { mainView?.addSubview(statusLabel) }
        update(model: model)
    }

    func update(model: any PollingModel) {
        guard let approval = model as? ApprovalPollingModel else { return }
        pollTask?.cancel()
        switch approval.status {
        case .pending:
            let remaining = approval.maxWaitRemainingTime.map { " (\(Int($0)) s left)" } ?? ""
            statusLabel.text = "Approve the login on \(approval.recipient ?? "your other device")\(remaining)"
            guard let poll = approval.mainAction as? any InteractionActionModel else { return }
            let delay = UInt64(approval.autoPollingDuration * 1_000_000_000)
            pollTask = Task { [weak self] in
                guard (try? await Task.sleep(nanoseconds: delay)) != nil else { return }  // cancelled
                self?.haapiFlowViewControllerDelegate?.submit(interactionActionModel: poll, parameters: [:])
            }
        case .done: statusLabel.text = "Approved"
        case .failed: statusLabel.text = "The approval failed or timed out"
        @unknown default: break
        }
    }

    override func stopLoading() { pollTask?.cancel() }
    override func hasLoading() -> Bool { false }
}

/// The stock BankID screen in the bank's colours.
final class BrandedBankIdViewController: BankIdViewController {
    override func viewDidLoad() {
        super.viewDidLoad()
        (bankIdImageView.tintColor, progressBar.progressTintColor) = (.systemIndigo, .systemIndigo)
        countLabel.font = .monospacedDigitSystemFont(ofSize: 15, weight: .regular)
        bankIdStackView.spacing = 16
        orLabel.text = "or"
        cancelButton.setTitleColor(.systemRed, for: .normal)
        expandableView.isHidden = false
    }

    override func handleLinkItemModels(_ linkItemModels: [any LinkItemModel]) {
        // The BankID download link lives in the app's own footer.
        super.handleLinkItemModels(linkItemModels.filter { $0.rel != "bankid-download" })
    }
}

/// Handles the server's "card-scan" client operation with the app's own scanner.
@MainActor
final class CardScanOperationHandler: GenericClientOperationHandler {
    func handleGenericClientOperation(actionModel: GenericClientOperationActionModel,
                                      viewControllerProvider: ((UIViewController) -> Void)?,
                                      onSuccess: @escaping (any RepresentationActionModel, [String: any Sendable]) -> Void,
                                      onError: @escaping () -> Void) {
        guard actionModel.name == .unknown(value: "card-scan"),
              let next = actionModel.continueActions.compactMap({ $0 as? FormAction }).first,
              let present = viewControllerProvider else { return onError() }
        let nonce = actionModel.arguments["nonce"] as? String ?? ""
        let alert = UIAlertController(title: "Scan your card", message: "Hold the card to the phone", preferredStyle: .alert)
        alert.addAction(UIAlertAction(title: "Done", style: .default) { _ in onSuccess(next.model, ["scan": "ok", "nonce": nonce]) })
        alert.addAction(UIAlertAction(title: "Cancel", style: .cancel) { _ in onError() })
        present(alert)
    }
}

enum LoginAdvice: Equatable {
    case retryNow, retryWhenActive, restartLogin, contactSupport(String)

    static func advice(for error: any Error) -> LoginAdvice {
        if let kitError = error as? HaapiUIKitError {
            switch kitError {
            case .illegalState(let reason): return .contactSupport(reason)
            case let .unsupportedMap(objName, expected): return .contactSupport("\(objName) is not \(expected)")
            case .unsupported(let cause): return .contactSupport(cause)
            case .other(let inner): return advice(for: inner)
            @unknown default: return .contactSupport(kitError.failureReason)
            }
        }
        if let haapiError = error as? HaapiError {
            if case .invalidConfiguration(let reason) = haapiError { return .contactSupport(reason) }
            return advice(for: haapiError.recoverySuggestion, reason: haapiError.failureReason)
        }
        if let idsvrError = error as? any IdsvrError {
            return advice(for: idsvrError.recoverySuggestion, reason: idsvrError.errorDescription ?? idsvrError.error)
        }
        return .restartLogin
    }

    private static func advice(for handling: IdsvrErrorHandling, reason: String) -> LoginAdvice {
        switch handling {
        case .retryable(condition: .now): return .retryNow
        case .retryable(condition: .whenAppInForeground): return .retryWhenActive
        case .newHaapiFlow: return .restartLogin
        case .unrecoverable(action: .modifyConfiguration(let why)): return .contactSupport(why)
        case .unrecoverable(action: .introspectCause), .unrecoverable(action: .invalidPlatform): return .contactSupport(reason)
        @unknown default: return .restartLogin
        }
    }
}

/// Holds the tokens; renews and revokes them through the kit's OAuth lifecycle.
@MainActor
final class SessionStore: ObservableObject, HaapiFlowResult {
    @Published private(set) var tokens: BankTokenModel?
    @Published private(set) var advice: LoginAdvice?
    @Published var isPresentingLogin = false
    let application: any HaapiUIKitApplication

    init(application: any HaapiUIKitApplication) { self.application = application }
    func didReceiveOAuthModel(_ oAuthModel: any OAuthModel) {
        isPresentingLogin = false
        switch oAuthModel {
        case let bank as BankTokenModel: tokens = bank
        case let token as any OAuthTokenModel:
            tokens = BankTokenModel(accessToken: token.accessToken, tokenType: token.tokenType, scope: token.scope,
                                    expiresIn: token.expiresIn, refreshToken: token.refreshToken,
                                    idToken: token.idToken, receivedAt: Date())
        case let failure as any OAuthErrorModel:
            tokens = nil
            advice = failure.error == "invalid_grant" ? .restartLogin
                : .contactSupport([failure.errorDescription, failure.errorUri].compactMap { $0 }.joined(separator: " "))
        default: advice = .contactSupport("unexpected result \(oAuthModel.description)")
        }
    }

    func didReceiveError(_ error: any Error) { isPresentingLogin = false; advice = LoginAdvice.advice(for: error) }

    func refreshIfNeeded() async {
        guard let current = tokens, let refreshToken = current.refreshToken, current.expiresAt.timeIntervalSinceNow < 60 else { return }
        do {
            didReceiveOAuthModel(try await OAuthLifecycle.refreshToken(refreshToken, haapiUIKitApplication: application,
                                                                       additionalParameters: ["resource": "https://api.examplebank.se"]))
        } catch { didReceiveError(error) }
    }
    /// The widget extension still uses the listener-based refresh.
    func refreshWithListener() {
        guard let refreshToken = tokens?.refreshToken else { return }
        OAuthLifecycle.refreshToken(refreshToken: refreshToken, haapiUIKitApplication: application, lifecycleResultListener: self)
    }
    func signOut() async {
        let configuration = application.haapiUIKitConfiguration
        if let refresh = tokens?.refreshToken { try? await OAuthLifecycle.revokeRefreshToken(refresh, haapiUIKitConfiguration: configuration) }
        if let access = tokens?.accessToken { try? await OAuthLifecycle.revokeAccessToken(access, haapiUIKitConfiguration: configuration) }
        tokens = nil
    }
}

/// UIKit entry point: the accounts screen starts the login and receives its result.
final class AccountsViewController: UIViewController, HaapiFlowResultViewController {
    private let session: SessionStore
    init(session: SessionStore) { self.session = session; super.init(nibName: nil, bundle: nil) }
    required init?(coder: NSCoder) { nil }

    func signIn() {
        do { try HaapiFlow.start(from: self, haapiUIKitApplication: session.application, haapiDeepLinkManageable: HaapiDeepLinkManager.shared) }
        catch { didReceiveError(error) }
    }

    func didReceiveOAuthModel(_ oAuthModel: any OAuthModel) { session.didReceiveOAuthModel(oAuthModel) }
    func didReceiveError(_ error: any Error) {
        session.didReceiveError(error)
        let alert = UIAlertController(title: "Sign-in failed", message: error.localizedDescription, preferredStyle: .alert)
        alert.addAction(UIAlertAction(title: "OK", style: .default))
        present(alert, animated: true)
    }
}

struct SignInView: View {
    @ObservedObject var session: SessionStore
    @State private var isShowingStackFlow = false

    var body: some View {
        NavigationView {
            VStack(spacing: 16) {
                if let tokens = session.tokens {
                    Text("Signed in until \(tokens.expiresAt.formatted(date: .omitted, time: .shortened))")
                    Button("Sign out") { Task { await session.signOut() } }
                } else {
                    Button("Sign in") { session.isPresentingLogin = true }
                    // Stack presentation: the flow view is created only once the link is activated.
                    NavigationLink(isActive: $isShowingStackFlow) {
                        HaapiFlow.start(session, haapiUIKitApplication: session.application,
                                        haapiDeepLinkManageable: HaapiDeepLinkManager.shared)
                    } label: { Text("Sign in (full screen)") }
                }
                if case .contactSupport(let reason)? = session.advice { Text(reason).foregroundColor(.red) }
            }
        }
        .navigationViewStyle(.stack)
        .sheet(isPresented: $session.isPresentingLogin) {
            HaapiFlowViewControllerRepresentable(haapiFlowResult: session, haapiUIKitApplication: session.application,
                                                 haapiDeepLinkManageable: HaapiDeepLinkManager.shared,
                                                 nibName: "HaapiFlowViewController", bundle: Bundle(for: HaapiFlowViewController.self))
        }
        // Universal links and app-scheme callbacks (BankID, external browser) go back into the running flow.
        .onOpenURL { url in
            Task { if await HaapiDeepLinkManager.shared.canHandleUrl(url) { await HaapiDeepLinkManager.shared.handleUrl(url) } }
        }
        .task { await session.refreshIfNeeded() }
    }
}

/// Drives a username/password login without the kit's screens (UI tests and "quick login").
@MainActor
final class HeadlessLogin {
    private let viewModel: HaapiFlowViewModel
    private let recorder: FlowRecorder
    private var observers: [AnyCancellable] = []
    private(set) var changes = 0

    /// Either the app's configured application, or (tests) a bare configuration with the recorder as mapper.
    init(application: (any HaapiUIKitApplication)?, configuration: HaapiUIKitConfiguration, recorder: FlowRecorder) throws {
        viewModel = try application.map { try HaapiFlowViewModel(haapiUIKitApplication: $0) }
            ?? HaapiFlowViewModel(haapiUIKitConfiguration: configuration, dataMapper: recorder, oAuthDataMapper: recorder)
        self.recorder = recorder
        // The view model publishes no typed state, only that something changed.
        observers.append(viewModel.objectWillChange.sink { [weak self] _ in self?.changes += 1 })
        observers.append(viewModel.objectWillChange.dropFirstAndSink { _ in print("flow state changed") })
    }

    func signIn(username: String, password: String) async -> Bool {
        await viewModel.start()
        guard let form = recorder.lastFormAction else { return false }
        await viewModel.submit(form: form, parameters: Self.parameters(for: form, username: username, password: password))
        guard let code = recorder.lastAuthorizationCode else { return false }
        await viewModel.fetchAccessToken(authorizationCode: code, additionalParameters: nil)
        return true
    }
    func openHelp() async {
        // Links come from the last step, or from the problem when the server rejected the input.
        let links = recorder.lastProblem?.links ?? recorder.lastRepresentation?.links ?? []
        if let help = links.first(where: { $0.rel == "help" }) { await viewModel.followLink(help) }
    }
    func renew(refreshToken: String) async {
        await viewModel.refreshAccessToken(refreshToken: refreshToken, additionalParameters: ["scope": "accounts"])
    }

    static func parameters(for form: FormActionModel, username: String, password: String) -> [String: any Sendable] {
        var parameters: [String: any Sendable] = [:]
        for field in form.fields {
            switch field {
            case let user as UsernameFormField: parameters[user.name] = String(username.prefix(user.maxLength ?? 256))
            case let secret as PasswordFormField: parameters[secret.name] = password
            case let hidden as HiddenFormField: parameters[hidden.name] = hidden.value
            case let box as CheckboxFormField where box.checked || box.readonly: parameters[box.name] = box.value ?? "on"
            case let select as SelectFormField: parameters[select.name] = select.options.first { $0.selected }?.value ?? select.value
            case let text as TextFormField where text.kind == .email: parameters[text.name] = username
            default: if field.isRequired { parameters[field.name] = "" }
            }
        }
        return parameters
    }
}
