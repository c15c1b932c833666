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
        func forms(_ actions: [any Action]) -> [FormModel] {
            actions.compactMap { FormModel($0, invalidInput: invalid, enteredValues: enteredValues) }
        }
        let allForms = forms(step.allActions)
        let selectors = step.allActions.compactMap { SelectorModel($0, presentation: presentation) }
        let content: UIModel.Content
        switch step {
        case let step as AuthenticatorSelectorStep:
            content = SelectorModel(step.selector, presentation: presentation).map(UIModel.Content.selector) ?? .generic
        case let step as PollingStep:
            let operation = step.actions.lazy.compactMap { self.clientOperation($0, in: step) }.first
            content = .polling(PollingModel(step, autoPollingDuration: autoPollingDuration, clientOperation: operation))
        case let step as ContinueSameStep:
            content = .continueSameStep(forms(step.continueActions))
        case is UserConsentStep:
            content = .consent(ConsentModel(forms: allForms))
        case let step as OAuthAuthorizationResponseStep:
            content = .authorizationResponse(step.oauthAuthorizationResponseProperties)
        case let step as any ClientOperationStep:
            content = .clientOperation(clientOperation(step))
        default:
            if let launch = step.allActions.lazy.compactMap({ ($0 as? GenericAction)?.launch }).first {
                // Curity's legacy `launch` template: an external-browser operation in all but name.
                content = .clientOperation(.externalBrowser(externalBrowser(
                    href: launch.href, actions: ClientOperationActions(continueActions: launch.continueActions, errorActions: launch.errorActions))))
            } else if let only = selectors.first, selectors.count == 1, allForms.allSatisfy(\.isCancel) {
                // A step that is one choice (Duo's device selector, whatever the step's type) is a selector.
                content = .selector(only)
            } else if step is InteractiveFormStep {
                content = selectors.isEmpty ? .form(allForms) : .generic
            } else {
                content = .generic
            }
        }
        var messages = step.messages.map { MessageModel($0) }
        if case .polling(let polling) = content, let recipient = polling.recipient,
            !messages.contains(where: { $0.text.contains(recipient) })
        {
            messages.append(MessageModel(text: recipient, classList: ["recipient"]))
        }
        return UIModel(
            representation: step, content: content, messages: messages, links: step.links.map(LinkModel.init), forms: allForms,
            selectors: selectors, problem: problem.map(ProblemModel.init))
    }

    /// The model shown once `option` of a selector in `current` is chosen: its own options as a
    /// selector (an option holding options), or its form when the form asks for something (the
    /// step's cancel forms offered beside it); `nil` when choosing it is just submitting its form.
    public func makeUIModel(choosing option: SelectorOptionModel, on current: UIModel) -> UIModel? {
        let cancels = current.forms.filter(\.isCancel)
        let content: UIModel.Content
        if let form = option.form {
            guard !form.inputFields.isEmpty else { return nil }
            content = .form([form] + cancels)
        } else if let nested = SelectorModel(option.action, presentation: presentation), !nested.options.isEmpty {
            content = .selector(nested)
        } else {
            return nil
        }
        return UIModel(
            representation: current.representation, content: content, messages: current.messages, links: current.links + current.images,
            forms: cancels, selectors: [], problem: nil)
    }

    /// The model of a client operation step.
    public func clientOperation(_ step: any ClientOperationStep) -> ClientOperationModel {
        if let action = step.clientOperationAction, let model = clientOperation(action, in: step) { return model }
        return .generic(GenericOperationModel(name: .unknown(value: ""), arguments: [:], actions: ClientOperationActions(continueActions: [], errorActions: [])))
    }

    /// The model of the client-operation action `action` of `step` (a client operation step, or a
    /// polling step that also offers one, as BankID's does); `nil` when `action` is not one.
    public func clientOperation(_ action: any Action, in step: any HaapiRepresentation) -> ClientOperationModel? {
        guard let model = action.clientOperation else { return nil }
        let actions = ClientOperationActions(model)
        switch model.name {
        case .externalBrowser:
            return .externalBrowser(externalBrowser(href: model.argument("href"), actions: actions))
        case .bankId:
            let qrData = ["qrCodeData", "qrData"].lazy.compactMap { model.argument($0) ?? step.propertiesJSON[$0]?.stringValue }.first
            let links = step.links.map(LinkModel.init)
            let qrCode = links.first { $0.isImage && $0.rel == "qr-code" } ?? links.first(where: \.isQRCode)
            return .bankID(BankIDOperationModel(
                href: model.argument("href"), autoStartToken: model.argument("autoStartToken"), redirect: model.argument("redirect"),
                qrData: qrData, qrCode: qrCode, actions: actions))
        case .encapAutoActivation:
            return .encap(EncapOperationModel(href: model.argument("href"), activationCode: model.argument("activationCode"), actions: actions))
        case .webAuthnRegistration:
            return .webAuthn(WebAuthnOperationModel(isRegistration: true, arguments: model.argumentsJSON, actions: actions))
        case .webAuthnAuthentication:
            return .webAuthn(WebAuthnOperationModel(isRegistration: false, arguments: model.argumentsJSON, actions: actions))
        default:
            return .generic(GenericOperationModel(name: model.name, arguments: model.argumentsJSON, actions: actions))
        }
    }

    private func externalBrowser(href: String?, actions: ClientOperationActions) -> ExternalBrowserOperationModel {
        ExternalBrowserOperationModel(
            href: href, launchURL: href.flatMap { ExternalBrowserOperationModel.launchURL(href: $0, appRedirect: appRedirect, baseURL: baseURL) },
            appRedirect: appRedirect, prefersDefaultBrowser: useDefaultExternalBrowser, actions: actions)
    }
}
