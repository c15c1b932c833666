import Foundation
import HaapiSDK

/// Maps SDK steps and problems to UI models (the seeds' `UIModelFactory`).
public struct UIModelFactory: Sendable {
    /// How selectors are presented.
    public var presentation: AuthenticatorSelectionPresentation
    /// Seconds between automatic polls (0 = off).
    public var autoPollingDuration: Double
    /// The app's redirect, appended to external-browser URLs as `redirect_uri`.
    public var appRedirect: String
    /// The server's base URL, for relative `href`s.
    public var baseURL: URL
    /// Whether external browsers should be the default browser.
    public var useDefaultExternalBrowser: Bool

    /// A factory with explicit settings.
    public init(
        presentation: AuthenticatorSelectionPresentation = .list, autoPollingDuration: Double = 3, appRedirect: String,
        baseURL: URL, useDefaultExternalBrowser: Bool = false
    ) {
        self.presentation = presentation
        self.autoPollingDuration = autoPollingDuration
        self.appRedirect = appRedirect
        self.baseURL = baseURL
        self.useDefaultExternalBrowser = useDefaultExternalBrowser
    }

    /// A factory for a configuration.
    public init(configuration: HaapiUIKitConfiguration) {
        self.init(
            presentation: configuration.authenticationSelectionPresentation, autoPollingDuration: configuration.autoPollingDuration,
            appRedirect: configuration.haapiConfiguration.appRedirect, baseURL: configuration.haapiConfiguration.baseURL,
            useDefaultExternalBrowser: configuration.useDefaultExternalBrowser)
    }

    /// The model of `step`, with `problem` attached (its invalid fields go to the fields of the
    /// same name) and the non-secret values the user entered last.
    public func makeUIModel(
        _ step: any HaapiRepresentation, problem: (any ProblemRepresentation)? = nil, enteredValues: [String: String] = [:]
    ) -> UIModel {
        let invalid = problem as? InvalidInputProblem
        func forms(_ actions: [Action]) -> [FormModel] {
            actions.compactMap { FormModel($0, invalidInput: invalid, enteredValues: enteredValues) }
        }
        let allForms = forms(step.actions)
        let selectors = step.actions.compactMap { SelectorModel($0, presentation: presentation) }
        let content: UIModel.Content
        switch step {
        case let step as AuthenticatorSelectorStep:
            content = SelectorModel(step.selector, presentation: presentation).map(UIModel.Content.selector) ?? .generic
        case let step as PollingStep:
            content = .polling(PollingModel(step, autoPollingDuration: autoPollingDuration))
        case let step as ContinueSameStep:
            content = .continueSameStep(forms(step.continueActions))
        case is UserConsentStep:
            content = .consent(ConsentModel(forms: allForms))
        case let step as OAuthAuthorizationResponseStep:
            content = .authorizationResponse(step.oauthAuthorizationResponseProperties)
        case let step as any ClientOperationStep:
            content = .clientOperation(clientOperation(step))
        case is InteractiveFormStep:
            content = selectors.isEmpty ? .form(allForms) : .generic
        default:
            content = .generic
        }
        var messages = step.messages.map(MessageModel.init)
        if case .polling(let polling) = content, let recipient = polling.recipient,
            !messages.contains(where: { $0.text.contains(recipient) })
        {
            messages.append(MessageModel(text: recipient, classList: ["recipient"]))
        }
        return UIModel(
            representation: step, content: content, messages: messages, links: step.links.map(LinkModel.init), forms: allForms,
            selectors: selectors, problem: problem.map(ProblemModel.init))
    }

    /// The model of a client operation.
    public func clientOperation(_ step: any ClientOperationStep) -> ClientOperationModel {
        let actions = ClientOperationActions(step.actionModel)
        switch step {
        case let step as ExternalBrowserClientOperationStep:
            return .externalBrowser(ExternalBrowserOperationModel(
                href: step.href,
                launchURL: step.href.flatMap { ExternalBrowserOperationModel.launchURL(href: $0, appRedirect: appRedirect, baseURL: baseURL) },
                appRedirect: appRedirect, prefersDefaultBrowser: useDefaultExternalBrowser, actions: actions))
        case let step as BankIdClientOperationStep:
            return .bankID(BankIDOperationModel(href: step.href, autoStartToken: step.autoStartToken, redirect: step.redirect, actions: actions))
        case let step as EncapClientOperationStep:
            return .encap(EncapOperationModel(href: step.href, activationCode: step.activationCode, actions: actions))
        case is WebAuthnRegistrationClientOperationStep:
            return .webAuthn(WebAuthnOperationModel(isRegistration: true, arguments: step.actionModel.arguments, actions: actions))
        case is WebAuthnAuthenticationClientOperationStep:
            return .webAuthn(WebAuthnOperationModel(isRegistration: false, arguments: step.actionModel.arguments, actions: actions))
        default:
            return .generic(GenericOperationModel(name: step.actionModel.name, arguments: step.actionModel.arguments, actions: actions))
        }
    }
}
