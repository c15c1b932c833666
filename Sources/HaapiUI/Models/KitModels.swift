import Foundation
import HaapiSDK
import OAuthCore

// The kit's own UI models, one per kind of screen: what ``KitDataMapper`` makes of each step.
// Each implements Curity's protocol and keeps what the kit's screens also use (the step, image
// links, the presentation) as members of its own.

extension UIModel {
    /// The kit's buttons of the model: its forms' (an operation's other ways on, a selector's
    /// cancels, a wait's poll and cancel included).
    public var kitButtons: [KitButtonItem] {
        let items: [any InteractionItemModel]
        switch self {
        case let selector as KitSelectorModel: items = selector.cancelItems
        case let polling as KitPollingModel: items = [polling.mainAction] + (polling.cancelAction.map { [$0] } ?? [])
        case let operation as any UIOperationModel: items = ((operation.interactionModel as Any) as? any FormModel)?.interactionItems ?? []
        default: items = HaapiFlowViewModel.interactionItems(of: self)
        }
        return items.compactMap { $0 as? KitButtonItem }
    }

    /// The kit's button of kind `kind`, if the model has one.
    public func button(kind: ActionKind) -> KitButtonItem? { kitButtons.first { $0.kind == kind } }
}

extension KitSelectorModel {
    /// The options, as the kit's items.
    public var options: [KitSelectorItem] { selectorItems.compactMap { $0 as? KitSelectorItem } }

    /// The option of `authenticatorType`.
    public func option(authenticatorType: String) -> KitSelectorItem? { options.first { $0.type == authenticatorType } }
}

/// What every model of a step keeps of it.
public struct StepContext: Sendable {
    /// The step as received.
    public let step: any HaapiRepresentation
    /// The messages, styled.
    public let messageItems: [any InfoMessageModel]
    /// The links that are not images.
    public let linkItems: [any LinkItemModel]
    /// The image links (QR codes).
    public let images: [KitLinkItem]

    /// The context of `step`, with `messages` in place of the step's own when given.
    public init(_ step: any HaapiRepresentation, messages: [any InfoMessageModel]? = nil) {
        self.step = step
        messageItems = messages ?? step.messages.map { KitInfoMessage($0) }
        let links = step.links.map(KitLinkItem.init)
        linkItems = links.filter { !$0.isImage }
        images = links.filter(\.isImage)
    }

    var templateArea: String? { step.metadata?.templateArea }
    var viewName: String? { step.metadata?.viewName }
    var representationType: String? { step.type.rawValue }
}

/// A model of a step, with its context.
public protocol KitStepModel: UIInteractionModel {
    /// The step it shows, its messages and links.
    var context: StepContext { get }
}

extension KitStepModel {
    /// The step's `metadata.templateArea`, if it has one.
    public var templateArea: String? { context.templateArea }
    /// The step's `metadata.viewName`, if it has one.
    public var viewName: String? { context.viewName }
    /// The step's type (`authentication-step`, ...).
    public var representationType: String? { context.representationType }
    /// The step it shows.
    public var step: any HaapiRepresentation { context.step }
}

/// Fields and buttons: login, registration, consent, continue steps.
public struct KitFormModel: FormModel, KitStepModel {
    /// The step, its messages and links.
    public let context: StepContext
    /// The fields and buttons, in the step's order.
    public let interactionItems: [any InteractionItemModel]
    /// The step's messages.
    public var messageItems: [any InfoMessageModel] { context.messageItems }
    /// The step's links that are not images.
    public var linkItems: [any LinkItemModel] { context.linkItems }

    /// A form model of `items` on `context`.
    public init(context: StepContext, interactionItems: [any InteractionItemModel]) {
        self.context = context
        self.interactionItems = interactionItems
    }

    /// The buttons, in order.
    public var buttons: [KitButtonItem] { interactionItems.compactMap { $0 as? KitButtonItem } }
    /// The button of kind `kind`.
    public func button(kind: ActionKind) -> KitButtonItem? { buttons.first { $0.kind == kind } }
}

/// A choice between options, presented as a list or as tabs.
public struct KitSelectorModel: SelectorModel, KitStepModel {
    /// The step, its messages and links.
    public let context: StepContext
    /// The selector's title, if it has one.
    public let title: String?
    /// The options, in the step's order.
    public let selectorItems: [any SelectorItemModel]
    /// How the options are presented.
    public let presentation: AuthenticatorSelectionPresentation
    /// The step's cancel forms, offered beside the options.
    public let cancelItems: [KitButtonItem]
    /// The option whose tab is selected (``AuthenticatorSelectionPresentation/tabs``): its
    /// elements show under the tabs, which stay (Curity's pager).
    public let selectedIndex: Int
    /// The step's messages.
    public var messageItems: [any InfoMessageModel] { context.messageItems }
    /// The step's links that are not images.
    public var linkItems: [any LinkItemModel] { context.linkItems }

    /// A selector on `context`, its first tab selected.
    public init(
        context: StepContext, title: String?, selectorItems: [any SelectorItemModel], presentation: AuthenticatorSelectionPresentation,
        cancelItems: [KitButtonItem] = []
    ) {
        (self.context, self.title, self.selectorItems, self.presentation, self.cancelItems) = (
            context, title, selectorItems, presentation, cancelItems
        )
        selectedIndex = 0
    }

    private init(_ model: KitSelectorModel, selectedIndex: Int) {
        (context, title, selectorItems, presentation, cancelItems) = (
            model.context, model.title, model.selectorItems, model.presentation, model.cancelItems
        )
        self.selectedIndex = selectedIndex
    }

    /// The same selector with the tab of the option titled as `option` selected; `nil` when the
    /// selector is not drawn as tabs or has no such option (the option is then chosen as any is).
    public func selectingTab(of option: any SelectorItemInteractionActionModel) -> KitSelectorModel? {
        let options = selectorItems.compactMap { $0 as? any SelectorItemInteractionActionModel }
        guard presentation == .tabs, let index = options.firstIndex(where: { $0.title == option.title }) else { return nil }
        return KitSelectorModel(self, selectedIndex: index)
    }
}

/// A wait for something outside the app: a spinner, who was contacted, the time left.
public struct KitPollingModel: PollingModel, KitStepModel {
    /// The step, its messages and links.
    public let context: StepContext
    /// The button that polls now.
    public let mainAction: any InteractionItemModel
    /// The button that stops waiting, when the step has one.
    public let cancelAction: (any InteractionItemModel)?
    /// Seconds between automatic polls when the server gives no interval (0: the UI polls).
    public let autoPollingDuration: TimeInterval
    /// Whether the wait goes on, is done or failed.
    public let status: PollingStatus
    /// The longest the server waits, in seconds, when it says.
    public let maxWaitTime: TimeInterval?
    /// The seconds left of that wait, when the server says.
    public let maxWaitRemainingTime: TimeInterval?
    /// Who was contacted (a phone number, a device name).
    public let recipient: String?
    /// Seconds between automatic polls: the server's interval when it gives one, else
    /// ``autoPollingDuration``; `nil` when the UI polls.
    public let pollInterval: TimeInterval?
    /// The step's messages.
    public var messageItems: [any InfoMessageModel] { context.messageItems }
    /// The step's links that are not images.
    public var linkItems: [any LinkItemModel] { context.linkItems }

    /// A polling model of `step`.
    public init(
        context: StepContext, properties: PollingProperties, mainAction: KitButtonItem, cancelAction: KitButtonItem?,
        autoPollingDuration: TimeInterval
    ) {
        (self.context, self.mainAction, self.cancelAction, self.autoPollingDuration) = (
            context, mainAction, cancelAction, autoPollingDuration
        )
        status = properties.status
        recipient = properties.recipientOfCommunication
        maxWaitTime = properties.maxWaitTimeSeconds.map(TimeInterval.init)
        maxWaitRemainingTime = properties.maxWaitRemainingTimeSeconds.map(TimeInterval.init)
        pollInterval = Self.interval(serverMilliseconds: properties.intervalMilliseconds, autoPollingDuration: autoPollingDuration)
    }

    /// Whether the view model polls by itself (otherwise the UI calls ``HaapiFlowViewModel/poll()``).
    public var isAutomatic: Bool { pollInterval != nil }

    /// Whether `other` shows the same wait: status, time left and view.
    public func isEqualTo(_ other: any PollingModel) -> Bool {
        other.status == status && other.maxWaitRemainingTime == maxWaitRemainingTime && other.viewName == viewName
    }

    /// The longest wait between automatic polls that a server's `interval` gives: five minutes.
    /// A wait far longer would be a broken server's (and past a clock's range).
    public static let longestServerInterval: TimeInterval = 300

    /// Seconds between automatic polls: `nil` when `autoPollingDuration` is 0 or less,
    /// otherwise the server's interval when it gives a positive one (at most
    /// ``longestServerInterval``), else `autoPollingDuration`.
    public static func interval(serverMilliseconds: Int?, autoPollingDuration: TimeInterval) -> TimeInterval? {
        guard autoPollingDuration > 0 else { return nil }
        if let serverMilliseconds, serverMilliseconds > 0 { return min(TimeInterval(serverMilliseconds) / 1000, longestServerInterval) }
        return autoPollingDuration
    }
}

/// BankID: start the app on this device, or scan its QR code with BankID on another; then,
/// when the step polls, the wait.
public struct KitBankIdModel: BankIdModel, KitStepModel {
    /// The step, its messages and links.
    public let context: StepContext
    /// The wait, when the step polls (a BankID client-operation step without polling waits for
    /// the app to come back instead).
    public let polling: KitPollingModel?
    /// The URL that starts BankID on this device.
    public let autoStartURL: URL?
    /// The text of the QR code for BankID on another device, for UIs that draw it themselves.
    public let qrData: String?
    /// The QR code image the server sent.
    public let qrCode: KitLinkItem?
    /// The step's other ways on, as elements (the continue action under the app button when the
    /// step does not poll, "on another device", cancel).
    public let otherItems: [any InteractionItemModel]

    /// Whether BankID runs on this device (the app is opened) rather than on another (its QR
    /// code is scanned): a step that carries a QR code is for another device.
    public var isOnThisDevice: Bool { qrData == nil && qrCode == nil }

    /// A BankID model.
    public init(
        context: StepContext, polling: KitPollingModel?, autoStartURL: URL?, qrData: String?, qrCode: KitLinkItem?,
        otherItems: [any InteractionItemModel]
    ) {
        (self.context, self.polling, self.autoStartURL, self.qrData, self.qrCode, self.otherItems) = (
            context, polling, autoStartURL, qrData, qrCode, otherItems
        )
    }

    /// The step's messages.
    public var messageItems: [any InfoMessageModel] { context.messageItems }
    /// The step's links that are not images.
    public var linkItems: [any LinkItemModel] { context.linkItems }
    /// The wait's poll button; without polling, the first button (continue when the app is back).
    public var mainAction: any InteractionItemModel {
        polling?.mainAction ?? otherItems.first { $0 is KitButtonItem } ?? KitTextItem(key: "bankid", label: "")
    }
    /// The wait's cancel button, when it polls and has one.
    public var cancelAction: (any InteractionItemModel)? { polling?.cancelAction }
    /// The wait's seconds between automatic polls; 0 without polling.
    public var autoPollingDuration: TimeInterval { polling?.autoPollingDuration ?? 0 }
    /// The wait's status; `pending` without polling.
    public var status: PollingStatus { polling?.status ?? .pending }
    /// The wait's longest time, when it polls and the server says.
    public var maxWaitTime: TimeInterval? { polling?.maxWaitTime }
    /// The wait's time left, when it polls and the server says.
    public var maxWaitRemainingTime: TimeInterval? { polling?.maxWaitRemainingTime }
    /// Whether `other` shows the same wait (never, when this step does not poll).
    public func isEqualTo(_ other: any PollingModel) -> Bool { polling?.isEqualTo(other) ?? false }
}

/// The answer to a form with continue actions: the new messages, and those actions as a form
/// (a form model itself, shown on the form screen).
public struct KitContinueSameModel: ContinueSameModel, FormModel, KitStepModel {
    /// The step, its messages and links.
    public let context: StepContext
    /// The continue actions as a form, when there are any.
    public let formModel: (any FormModel)?
    /// The answer's new messages.
    public var messageItems: [any InfoMessageModel] { context.messageItems }
    /// The form's fields and buttons; none without a form.
    public var interactionItems: [any InteractionItemModel] { formModel?.interactionItems ?? [] }
    /// The step's links, then the form's.
    public var linkItems: [any LinkItemModel] { context.linkItems + (formModel?.linkItems ?? []) }

    /// A continue-same model.
    public init(context: StepContext, formModel: KitFormModel?) { (self.context, self.formModel) = (context, formModel) }
}

/// A step no other model fits: its forms and its choices.
public struct KitGenericModel: GenericModel, KitStepModel {
    /// The step, its messages and links.
    public let context: StepContext
    /// The step's forms, when it has any.
    public let formModel: (any FormModel)?
    /// The step's choices, when it has any.
    public let selectorModel: (any SelectorModel)?

    /// A generic model.
    public init(context: StepContext, formModel: KitFormModel?, selectorModel: KitSelectorModel?) {
        (self.context, self.formModel, self.selectorModel) = (context, formModel, selectorModel)
    }
}

/// The flow reached the authorization response; the code is being exchanged.
public struct KitAuthorizationRequestModel: AuthorizationRequestModel, KitStepModel {
    /// The step, its messages and links.
    public let context: StepContext
    /// The authorization code; empty when the response has none.
    public let code: String
    /// The response's values.
    public let properties: OAuthAuthorizationResponseProperties

    /// The model of an authorization response.
    public init(context: StepContext, properties: OAuthAuthorizationResponseProperties) {
        (self.context, self.properties) = (context, properties)
        code = properties.code ?? ""
    }
}

/// A problem that stops an operation from being performed here.
public struct KitOperationProblem: UIProblemModel {
    /// The problem's title, if it has one.
    public let title: String?
    /// What went wrong, for the user.
    public let message: String
    /// Always `nil`: the problem is the kit's, not the server's.
    public var representationType: String? { nil }

    /// A problem.
    public init(title: String?, message: String) { (self.title, self.message) = (title, message) }
}

/// An external browser (`external-browser-flow`, and Curity's older `launch`): open ``url``,
/// then submit ``formActionModel`` with what the browser comes back with (``buildParameters``).
public struct KitExternalBrowserModel: FormOperationModel, GenericModel, KitStepModel {
    /// The step, its messages and links.
    public let context: StepContext
    /// The URL the browser opens: ``href`` with the redirect added; `nil` when it is not a URL.
    public let url: URL?
    /// The form to submit with what the browser comes back with.
    public let formActionModel: FormActionModel
    /// The parameters of that form from the URL the browser comes back to: the resume nonce.
    /// - Throws: ``HaapiDeepLinkError`` when the URL has no `_resume_nonce`.
    public let buildParameters: @Sendable (URL) throws -> [String: any Sendable]
    /// The step's other ways on (cancel, an error action).
    public let interactionModel: (any FormModel)?
    /// Always `nil`: an external browser has no error actions.
    public var errorInteractionModel: (any UIInteractionModel)? { nil }
    /// What to show when the browser cannot be opened.
    public let problem: any UIProblemModel
    /// The step's other ways on, for the generic screen.
    public var formModel: (any FormModel)? { interactionModel }
    /// Always `nil`: the step offers no choice.
    public var selectorModel: (any SelectorModel)? { nil }

    /// The URL that sends the browser to ``href`` and back to `redirect` (a terminal's loopback listener).
    public func url(redirectingTo redirect: String) -> URL? {
        ExternalBrowserClientOperationActionModel.urlToLaunch(href: href, redirectTo: redirect, relativeTo: baseURL)
    }

    /// Whether to open the default browser rather than an in-app session.
    public let prefersDefaultBrowser: Bool
    /// What the browser opens, as the server sent it.
    public let href: String
    /// The server's base URL, for a relative ``href``.
    public let baseURL: URL?

    /// An external-browser model: the browser opens `href` (relative to `baseURL`) with `redirectTo` added.
    public init(
        context: StepContext, href: String, redirectTo: String, baseURL: URL?, formActionModel: FormActionModel,
        interactionModel: KitFormModel?,
        prefersDefaultBrowser: Bool, problem: any UIProblemModel
    ) {
        (self.href, self.baseURL) = (href, baseURL)
        url = ExternalBrowserClientOperationActionModel.urlToLaunch(href: href, redirectTo: redirectTo, relativeTo: baseURL)
        (self.context, self.formActionModel, self.interactionModel) = (context, formActionModel, interactionModel)
        (self.prefersDefaultBrowser, self.problem) = (prefersDefaultBrowser, problem)
        let nonceField = formActionModel.fields.first { $0 is ContextFormField }?.name ?? ResumeNonce.parameter
        buildParameters = { url in
            guard let nonce = ResumeNonce.of(url) else {
                throw HaapiDeepLinkError(.missingResumeNonce, "the browser came back without a _resume_nonce")
            }
            return [nonceField: nonce]
        }
    }
}

/// A client operation the kit does not perform itself (Encap, an app's own): the app's
/// `GenericClientOperationHandler` (UIKit only) does, or the step's other ways on are offered.
public struct KitGenericOperationModel: GenericOperationModel, GenericModel, KitStepModel {
    /// The step, its messages and links.
    public let context: StepContext
    /// The operation as received.
    public let actionModel: GenericClientOperationActionModel
    /// The URL the operation names, when it names one.
    public let url: URL?
    /// The step's other ways on.
    public let interactionModel: (any FormModel)?
    /// Always `nil`: a generic operation has no error actions of its own.
    public var errorInteractionModel: (any UIInteractionModel)? { nil }
    /// What to show when no handler performs the operation.
    public let problem: any UIProblemModel
    /// The step's other ways on, for the generic screen.
    public var formModel: (any FormModel)? { interactionModel }
    /// Always `nil`: the step offers no choice.
    public var selectorModel: (any SelectorModel)? { nil }

    /// A generic operation model.
    public init(
        context: StepContext, actionModel: GenericClientOperationActionModel, url: URL?, interactionModel: KitFormModel?,
        problem: any UIProblemModel
    ) {
        (self.context, self.actionModel, self.url, self.interactionModel, self.problem) = (
            context, actionModel, url, interactionModel, problem
        )
    }
}

/// A passkey or security-key ceremony: one button per kind of authenticator the options allow,
/// the credential submitted with the continue action for that kind.
public struct KitWebAuthnModel: WebAuthnOperationModel, KitStepModel {
    /// The step, its messages and links.
    public let context: StepContext
    /// The WebAuthn operation (registration or authentication) as received.
    public let actionModel: any RepresentationActionModel
    /// The kinds of authenticator the screen offers, in order: this device's (a passkey) and a
    /// security key. Never ``/HaapiSDK/WebAuthnAuthenticatorKind/any``: options for any authenticator are
    /// offered as both choices (``optionsKind(for:)`` says whose options each uses).
    public let kinds: [WebAuthnAuthenticatorKind]
    /// The step's other ways on (the browser fallback, cancel), as a form.
    public let interactionModel: (any FormModel)?
    /// Always `nil`: failures show the ``browserFallback`` instead.
    public var errorInteractionModel: (any UIInteractionModel)? { nil }
    /// Always `nil`: a WebAuthn operation opens no URL.
    public var url: URL? { nil }
    /// What to show when the device cannot use passkeys.
    public let problem: any UIProblemModel
    /// The step's other ways on (``interactionModel``), when it has any.
    public var otherActions: [any UIInteractionModel] { interactionModel.map { [$0] } ?? [] }
    /// The parameters of the continue action for a ``WebAuthnCeremonyResult``: the credential's JSON under
    /// the field of its kind; none for any other value.
    public let buildParametersWrapper: @Sendable (any WebAuthnOperationParametersModel) -> [String: any Sendable]
    /// What the screen shows after the last ceremony failed (`nil`: none failed).
    public internal(set) var failure: PasskeyFailureOutcome?
    /// The kind of authenticator the last ceremony asked for (the one a retry asks for again).
    public internal(set) var lastKind: WebAuthnAuthenticatorKind?

    /// This step as shown after a ceremony with an authenticator of `kind` failed with
    /// `failure`, when the configuration does (`usesBrowserFallback`) or does not take the
    /// step's browser fallback: its ``failure`` says what follows.
    public func failed(_ failure: PasskeyFailure, kind: WebAuthnAuthenticatorKind, usesBrowserFallback: Bool) -> KitWebAuthnModel {
        failed(PasskeyFailureOutcome(failure, fallbackAllowed: usesBrowserFallback && browserFallback != nil), kind: kind)
    }

    /// This step as shown after a ceremony with an authenticator of `kind` ended in `outcome`.
    public func failed(_ outcome: PasskeyFailureOutcome, kind: WebAuthnAuthenticatorKind) -> KitWebAuthnModel {
        var shown = self
        (shown.failure, shown.lastKind) = (outcome, kind)
        return shown
    }

    /// A WebAuthn model.
    public init(
        context: StepContext, actionModel: any ClientOperationActionModelRepresentation, interactionModel: KitFormModel?,
        problem: any UIProblemModel
    ) {
        (self.context, self.actionModel, self.interactionModel, self.problem) = (context, actionModel, interactionModel, problem)
        kinds = Self.kinds(of: actionModel)
        let continueForms = actionModel.continueActions.compactMap(\.form)
        buildParametersWrapper = { parameters in
            guard let made = parameters as? WebAuthnCeremonyResult else { return [:] }
            let (credential, kind) = (made.credential, made.kind)
            let form = continueForms.first { $0.field(kind.credentialField) != nil } ?? continueForms.first
            let name =
                form?.field(kind.credentialField)?.name ?? form?.fields.first { $0 is ContextFormField }?.name ?? kind.credentialField
            return [name: credential.json]
        }
    }

    /// The kinds of authenticator `operation`'s options allow, as choices: this device's and a
    /// security key for options for any authenticator (creation options of `any`, or request
    /// options that decode), else each kind it sends creation options for.
    public static func kinds(of operation: any ClientOperationActionModelRepresentation) -> [WebAuthnAuthenticatorKind] {
        switch operation {
        case let registration as WebAuthnRegistrationClientOperationActionModel:
            if registration.creationOptions[.any] != nil { return [.platform, .crossPlatform] }
            return [.platform, .crossPlatform].filter { registration.creationOptions[$0] != nil }
        case let authentication as WebAuthnAuthenticationClientOperationActionModel:
            return authentication.requestOptions == nil ? [] : [.platform, .crossPlatform]
        default:
            return []
        }
    }

    /// Whose creation options a registration with an authenticator of `kind` uses: that kind's,
    /// else those for any authenticator (`nil`: neither, or not a registration). The credential
    /// goes back in that kind's field (``/HaapiSDK/WebAuthnAuthenticatorKind/credentialField``).
    public func optionsKind(for kind: WebAuthnAuthenticatorKind) -> WebAuthnAuthenticatorKind? {
        guard let registration = actionModel as? WebAuthnRegistrationClientOperationActionModel else { return nil }
        return [kind, .any].first { registration.creationOptions[$0] != nil }
    }

    /// Whether a credential is created (registration) rather than used.
    public var isRegistration: Bool { actionModel is WebAuthnRegistrationClientOperationActionModel }
    /// The operation's model, whatever its kind.
    public var operation: (any ClientOperationActionModelRepresentation)? { actionModel as? any ClientOperationActionModelRepresentation }

    /// The continue action that carries a credential made by `kind` (the form with that field,
    /// else the first continue action).
    public func continueAction(for kind: WebAuthnAuthenticatorKind) -> FormActionModel? {
        let forms = operation?.continueActions.compactMap(\.form) ?? []
        return forms.first { $0.field(kind.credentialField) != nil } ?? forms.first
    }

    /// The error action that continues the flow in a browser instead (Curity's passkeys
    /// browser fallback), when the step offers one.
    public var browserFallback: FormActionModel? {
        switch actionModel {
        case let registration as WebAuthnRegistrationClientOperationActionModel: return registration.fallbackActions.first?.form
        case let authentication as WebAuthnAuthenticationClientOperationActionModel: return authentication.fallbackActions.first?.form
        default: return nil
        }
    }
}

/// What a passkey or security key made, and which kind of authenticator made it: what
/// ``KitWebAuthnModel/buildParametersWrapper`` turns into the continue action's parameters.
public struct WebAuthnCeremonyResult: WebAuthnOperationParametersModel, Hashable {
    /// The credential.
    public let credential: WebAuthnCredential
    /// The kind of authenticator that made it (`any` when the options were for any kind).
    public let kind: WebAuthnAuthenticatorKind

    /// A result.
    public init(credential: WebAuthnCredential, kind: WebAuthnAuthenticatorKind) { (self.credential, self.kind) = (credential, kind) }
}

/// What a flow does about a problem, by type.
public enum ProblemHandling: Sendable, Hashable {
    /// `invalid-input`, `incorrect-credentials`: the step stays, the complaints shown at its fields.
    case correctOnSameStep
    /// `too-many-attempts`, `authentication-failed`: the attempt is over; the flow stops with
    /// the server's message.
    case endAttempt
    /// `mismatch-between-session-and-access-token`: the HAAPI token changed under the flow;
    /// the flow starts again (once).
    case restartFlow
    /// `error-authorization-response`: the flow ends with the OAuth error.
    case authorizationError
    /// `unexpected`, `generic-user-error` and every unknown type: the flow stops, showing the
    /// problem's title and messages.
    case stop

    /// The handling of a problem type.
    public init(_ type: ProblemType) {
        switch type {
        case .invalidInputProblem, .incorrectCredentialsProblem: self = .correctOnSameStep
        case .tooManyAttemptsProblem, .authenticationFailedProblem: self = .endAttempt
        case .sessionAndAccessTokenMismatchProblem: self = .restartFlow
        case .errorAuthorizationResponseProblem: self = .authorizationError
        default: self = .stop
        }
    }
}

/// A problem as the kit shows it: its title (the server's, else the kit's), its messages and links.
public struct KitProblemModel: ProblemModel {
    /// The problem as received.
    public let problem: any ProblemRepresentation
    /// The server's title, else the kit's.
    public let title: String?
    /// The problem's messages, styled.
    public let messageItems: [any InfoMessageModel]
    /// The problem's links.
    public let linkItems: [any LinkItemModel]

    /// The model of `problem`; `title` is the server's, else the kit's (`hui_dev_runtime_title`) from `strings`.
    public init(_ problem: any ProblemRepresentation, strings: LocalizableStrings = LocalizableStrings()) {
        self.problem = problem
        title = problem.title?.literal ?? strings.string(.developerRuntimeTitle)
        messageItems = problem.messages.map { KitInfoMessage($0) }
        linkItems = problem.links.map(KitLinkItem.init)
    }

    /// The first message, else the title.
    public var message: String { messageItems.lazy.compactMap(\.text).first ?? title ?? "" }
    /// The problem's type, as one of the kinds a flow handles; `nil` for others.
    public var type: HandleableProblemType? { HandleableProblemType(problem.type) }
    /// The problem's `type`, as received.
    public var representationType: String? { problem.type.rawValue }
    /// For invalid-input problems: the wrong fields.
    public var invalidFields: [InvalidInputProblem.InvalidField] { (problem as? InvalidInputProblem)?.invalidFields ?? [] }
    /// What a flow does about the problem.
    public var handling: ProblemHandling { ProblemHandling(problem.type) }
    /// Whether the user can correct the input and retry on the same step.
    public var isCorrectable: Bool { handling == .correctOnSameStep }
}

/// The tokens a flow ended with, as the kit hands them to the app.
public struct KitOAuthTokenModel: OAuthTokenModel, Hashable {
    /// The token response as received.
    public let response: SuccessfulTokenResponse
    /// The access token.
    public var accessToken: String { response.accessToken }
    /// The token type (`Bearer`, `DPoP`), when the server said.
    public var tokenType: String? { response.tokenType }
    /// The granted scope, when the server said.
    public var scope: String? { response.scope }
    /// Seconds the access token lives, as the server said; `0` when it did not say.
    public var expiresIn: Int { response.expiresIn }
    /// The refresh token, when the server issued one.
    public var refreshToken: String? { response.refreshToken }
    /// The ID token, when the server issued one.
    public var idToken: String? { response.idToken }
    /// Whether the tokens are bound to the flow's DPoP key.
    public var isBound: Bool { response.isDPoPBound }

    /// A model of a token response.
    public init(_ response: SuccessfulTokenResponse) { self.response = response }
}

/// An OAuth error a flow ended with: an `error-authorization-response` problem, or an error
/// from the token endpoint.
public struct KitOAuthErrorModel: OAuthErrorModel, Error, Hashable {
    /// The OAuth error code (`access_denied`, `invalid_grant`, ...).
    public let error: String
    /// The server's description of the error, if it gave one.
    public let errorDescription: String?
    /// A page about the error, if the server gave one.
    public let errorUri: String?
    /// Where it came from.
    public let source: Source

    /// Where an OAuth error came from.
    public enum Source: Sendable, Hashable {
        /// The authorization response (the flow was refused or cancelled).
        case authorizationResponse
        /// The token endpoint (the code exchange or a refresh).
        case tokenEndpoint
        /// The client: the user abandoned a flow that offered no cancel action.
        case client
    }

    /// A model of an error from any source.
    public init(error: String, errorDescription: String?, errorUri: String? = nil, source: Source) {
        (self.error, self.errorDescription, self.errorUri, self.source) = (error, errorDescription, errorUri, source)
    }

    /// A model of an `error-authorization-response` problem.
    public init(_ problem: AuthorizationProblem) {
        self.init(
            error: problem.error, errorDescription: problem.errorDescription ?? problem.title?.literal, source: .authorizationResponse)
    }

    /// A model of a token endpoint error.
    public init(_ response: ErrorTokenResponse) {
        self.init(error: response.error, errorDescription: response.errorDescription, errorUri: response.errorUri, source: .tokenEndpoint)
    }
}
