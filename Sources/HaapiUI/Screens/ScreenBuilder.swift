import Foundation
import HaapiSDK

/// Makes the ``Screen`` of a step or a problem: which screen, which elements in which order,
/// their texts (the server's, else the kit's table in the user's language) and their styles.
public struct ScreenBuilder: Sendable {
    /// The kit's texts.
    public let strings: LocalizableStrings
    /// The theme section of text fields (the theme's `huiTextField`).
    public let textFieldStyle: String

    /// A builder with `strings`, and text fields styled by the section `textFieldStyle`.
    public init(strings: LocalizableStrings = LocalizableStrings(), textFieldStyle: String = "InputTextField") {
        self.strings = strings
        self.textFieldStyle = textFieldStyle
    }

    /// A builder for `theme`'s text fields.
    public init(strings: LocalizableStrings = LocalizableStrings(), theme: Theme) {
        self.init(strings: strings, textFieldStyle: theme.textFieldSection)
    }

    // MARK: Steps

    /// The screen of `model`. A problem about the last submission is shown above the content,
    /// its complaints about fields under those fields.
    public func screen(for model: UIModel) -> Screen {
        var messages = model.messages.map { ScreenItem.message(text: $0.text, style: $0.themeSection) }
        let links = model.links.map { ScreenItem.link(title: $0.title, action: .follow($0)) }
        let (kind, content) = kindAndContent(model)
        // A selector says what is chosen (Curity's `SelectorModel.title`) unless a heading does.
        if case .selector(let selector) = model.content, let title = selector.title, !title.isEmpty, model.heading == nil {
            messages.insert(.message(text: title, style: MessageStyleAttribute.heading.themeSection), at: 0)
        }
        if let problem = model.problem {
            let shown = Set(content.compactMap(\.fieldName))
            messages.insert(contentsOf: problemMessages(problem, fieldsShown: shown), at: 0)
        }
        return Screen(kind: kind, messages: messages, content: content, links: links)
    }

    private func kindAndContent(_ model: UIModel) -> (ScreenKind, [ScreenItem]) {
        switch model.content {
        case .form(let forms), .continueSameStep(let forms):
            return (.form, formItems(forms))
        case .consent(let consent):
            return (.form, formItems(consent.consent.map { [$0] + consent.forms.filter { $0 != consent.consent } } ?? consent.forms))
        case .selector(let selector):
            return (.selector, selectorItems(selector) + formItems(model.forms.filter(\.isCancel)))
        case .polling(let polling):
            if case .bankID(let bankID)? = polling.clientOperation { return (.bankID, bankIDItems(bankID, polling: polling, model: model)) }
            return (.polling, pollingItems(polling))
        case .clientOperation(.bankID(let bankID)):
            return (.bankID, bankIDItems(bankID, polling: nil, model: model))
        case .clientOperation(.webAuthn(let webAuthn)):
            return (.webAuthn, webAuthnItems(webAuthn, model: model))
        case .clientOperation(.externalBrowser(let browser)):
            var items: [ScreenItem] = []
            if let url = browser.launchURL {
                items.append(.button(.init(title: strings.string(.continueInBrowser), role: .primary, action: .open(url))))
            }
            return (.generic, items + formItems(otherForms(browser.actions, in: model), primary: items.isEmpty))
        case .clientOperation(let operation):
            return (.generic, formItems(otherForms(operation.actions, in: model)))
        case .authorizationResponse:
            return (.polling, [.loadingIndicator])
        case .generic:
            return (.generic, model.selectors.flatMap(selectorItems) + formItems(model.forms, primary: model.selectors.isEmpty))
        }
    }

    // MARK: Problems

    /// The screen of a problem that ends the step: its title and messages, and its links.
    public func screen(for problem: ProblemModel) -> Screen {
        Screen(
            kind: .problem, messages: problemMessages(problem, fieldsShown: []), content: [],
            links: problem.links.map { ScreenItem.link(title: $0.title, action: .follow($0)) })
    }

    /// A problem's title as an error, then its messages (a message without a known class is an
    /// error too), then its complaints about fields other than `fieldsShown` (those go under
    /// their fields): nothing the server said is lost.
    private func problemMessages(_ problem: ProblemModel, fieldsShown: Set<String>) -> [ScreenItem] {
        let title = problem.title(in: strings)
        let error = MessageStyleAttribute.error.themeSection
        var items: [ScreenItem] = [.message(text: title, style: error)]
        for message in problem.messages where message.text != title {
            items.append(.message(text: message.text, style: message.knownStyle == nil ? error : message.themeSection))
        }
        for field in problem.invalidFields where !fieldsShown.contains(field.name) {
            items.append(.message(text: field.detail.literal.isEmpty ? field.name : field.detail.literal, style: error))
        }
        return items
    }

    // MARK: Forms

    /// The fields of each form then its button: the first form that is not a cancel is the
    /// primary one (when `primary`), other forms secondary, cancel forms text buttons last.
    /// When more than one form asks for something, each titled one that does is headed by its
    /// title, so that two "Log in" buttons say what each logs in with (BankID here or elsewhere).
    func formItems(_ forms: [FormModel], primary: Bool = true) -> [ScreenItem] {
        let ordered = forms.filter { !$0.isCancel } + forms.filter(\.isCancel)
        let sectioned = ordered.filter { !$0.isCancel && !$0.inputFields.isEmpty }.count > 1
        var items: [ScreenItem] = []
        var primaryTaken = !primary
        for form in ordered {
            if sectioned, !form.isCancel, !form.inputFields.isEmpty, let title = form.title, !title.isEmpty, title != form.actionTitle {
                items.append(.section(title))
            }
            for field in form.inputFields { items.append(contentsOf: fieldItem(field, of: form)) }
            let role: ScreenItem.Button.Role
            if form.isCancel {
                role = .text
            } else if !primaryTaken {
                role = .primary
                primaryTaken = true
            } else {
                role = .secondary
            }
            items.append(.button(.init(title: form.actionTitle, role: role, action: .submit(form))))
        }
        return items
    }

    private func fieldItem(_ field: FieldModel, of form: FormModel) -> [ScreenItem] {
        let error = field.error.map { $0.detail ?? $0.reason ?? strings.string(.fieldInvalid) }
        switch field.kind {
        case .checkbox:
            return [.checkbox(.init(
                form: form, name: field.name, label: field.label, isChecked: field.isChecked, isReadonly: field.isReadonly, error: error,
                style: "CheckboxView"))]
        case .select:
            return [.picker(.init(form: form, name: field.name, label: field.label, options: field.options, error: error, style: "TextPickerView"))]
        case .hidden, .context:
            return []
        default:
            return [.textField(.init(
                form: form, name: field.name, label: field.label, placeholder: field.placeholder, value: field.value,
                contentType: Self.contentType(field), isSecure: field.isSecure, isRequired: field.isRequired, minLength: field.minLength,
                maxLength: field.maxLength, error: error, style: textFieldStyle))]
        }
    }

    /// What AutoFill may put in `field`: from its type, then its kind and name.
    public static func contentType(_ field: FieldModel) -> ScreenItem.TextField.ContentType {
        let name = field.name.lowercased()
        switch field.kind {
        case .username: return .username
        case .password: return name.contains("new") || name.contains("confirm") ? .newPassword : .password
        case .text(let kind):
            switch kind?.lowercased() {
            case "email"?: return .emailAddress
            case "tel"?, "phone"?: return .telephoneNumber
            default: break
            }
            if ["otp", "passcode", "code", "otpcode", "totp"].contains(name) || name.hasSuffix("otp") { return .oneTimeCode }
            if name.contains("email") { return .emailAddress }
            if name.contains("phone") || name.contains("mobile") { return .telephoneNumber }
            if name == "username" || name == "userid" { return .username }
            return .none
        default: return .none
        }
    }

    // MARK: Selectors

    private func selectorItems(_ selector: SelectorModel) -> [ScreenItem] {
        guard !selector.options.isEmpty else { return [] }
        switch selector.presentation {
        case .tabs:
            // The first option is shown: its fields when choosing it asks for some, else its button.
            let first = selector.options[0]
            var items: [ScreenItem] = [.tabs(titles: selector.options.map(\.title), selected: 0)]
            if let form = first.form, !form.inputFields.isEmpty {
                items += formItems([form])
            } else {
                items.append(.button(.init(title: first.title, role: .primary, action: .select(first))))
            }
            return items
        default:
            return selector.options.map { .button(.init(title: $0.title, role: .secondary, action: .select($0))) }
        }
    }

    // MARK: Waits

    private func pollingItems(_ polling: PollingModel) -> [ScreenItem] {
        var items: [ScreenItem] = [.loadingIndicator]
        if let countdown = countdown(polling) { items.append(countdown) }
        if !polling.isAutomatic { items.append(.button(.init(title: strings.string(.checkNow), role: .primary, action: .poll))) }
        if let cancel = polling.cancel { items.append(.button(.init(title: cancel.actionTitle, role: .text, action: .submit(cancel)))) }
        return items
    }

    /// The time left, in minutes from two minutes up, else in seconds.
    func countdown(_ polling: PollingModel) -> ScreenItem? {
        guard let seconds = polling.remainingTime.map({ max(0, $0) }) else { return nil }
        return .countdown(text: strings.timeLeft(seconds: seconds), seconds: seconds)
    }

    /// BankID: the app on this device, or its QR code for another, with the help text; then
    /// the wait and the step's other ways on.
    private func bankIDItems(_ bankID: BankIDOperationModel, polling: PollingModel?, model: UIModel) -> [ScreenItem] {
        var items: [ScreenItem] = []
        let autoStart = bankID.autoStartURL
        if let autoStart {
            items.append(.button(.init(title: strings.string(.bankIDOpenOnThisDevice), role: .primary, action: .open(autoStart))))
        }
        if bankID.qrData != nil || bankID.qrCode != nil {
            if autoStart != nil { items.append(.text(strings.string(.or))) }
            items.append(.qrCode(data: bankID.qrData, image: bankID.qrCode))
            items.append(.expandable(title: strings.string(.bankIDInstructionTitle), body: strings.string(.bankIDInstructionBody)))
        }
        if let polling {
            items.append(.loadingIndicator)
            if let countdown = countdown(polling) { items.append(countdown) }
            if !polling.isAutomatic { items.append(.button(.init(title: strings.string(.checkNow), role: .secondary, action: .poll))) }
        }
        // Polling is the screen's own doing (or its "check now" button), not a form to show.
        // Without polling, the server waits for the app to come back: its continue action is the
        // way on when the app does not bring the user back by itself.
        let cancel = polling?.cancel
        let continues = polling == nil ? bankID.actions.continueActions : []
        var others = (continues + otherForms(bankID.actions, in: model)).filter { $0 != cancel && $0.kind != .poll }
        if let cancel { others.append(cancel) }
        return items + formItems(others, primary: autoStart == nil && polling == nil)
    }

    // MARK: Passkeys

    /// A button per kind of authenticator the step can use, each with its explanation; then
    /// the step's other ways on (the browser fallback, cancel).
    private func webAuthnItems(_ webAuthn: WebAuthnOperationModel, model: UIModel) -> [ScreenItem] {
        var items: [ScreenItem] = []
        let kinds: [WebAuthnAuthenticatorKind]
        if webAuthn.isRegistration {
            kinds = WebAuthnAuthenticatorKind.allCases.filter { webAuthn.creationOptions[$0] != nil }
        } else {
            kinds = webAuthn.requestOptions == nil ? [] : [.platform, .crossPlatform]
        }
        for (index, kind) in kinds.enumerated() {
            let (message, button): (LocalizableStrings.Key, LocalizableStrings.Key) =
                kind == .crossPlatform ? (.webAuthnCrossPlatformMessage, .webAuthnCrossPlatformButton) : (.webAuthnPlatformMessage, .webAuthnPlatformButton)
            items.append(.message(text: strings.string(message), style: MessageStyleAttribute.content.themeSection))
            items.append(.button(.init(title: strings.string(button), role: index == 0 ? .primary : .secondary, action: .passkey(kind))))
        }
        if kinds.isEmpty { items.append(.message(text: strings.string(.passkeysNotSupported), style: MessageStyleAttribute.warn.themeSection)) }
        let others = otherForms(webAuthn.actions, in: model).filter { form in !webAuthn.actions.continueActions.contains(form) }
        return items + formItems(others, primary: kinds.isEmpty)
    }

    /// An operation's error actions, then the step's forms that repeat none of its actions
    /// (its cancel among them); the continue actions are what the operation submits itself.
    private func otherForms(_ actions: ClientOperationActions, in model: UIModel) -> [FormModel] {
        actions.errorActions + actions.formsBeside(in: model)
    }
}
