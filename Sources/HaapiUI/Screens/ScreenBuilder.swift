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

    /// The screen of `model`, the kit's or an app's. A problem about the last submission is
    /// shown above the content, its complaints about fields under those fields.
    @MainActor public func screen(for model: any UIModel, problem: (any ProblemModel)? = nil) -> Screen {
        if let problem = model as? any ProblemModel { return screen(for: problem) }
        let invalid = Dictionary((problem as? KitProblemModel)?.invalidFields.map { ($0.name, $0) } ?? [], uniquingKeysWith: { first, _ in first })
        var messages = Self.messageItems(of: model).compactMap { message in
            message.text.map { ScreenItem.message(text: $0, style: message.themeSection) }
        }
        let links = Self.linkItems(of: model).map { ScreenItem.link(title: $0.text ?? $0.href, action: .follow($0)) }
        let (kind, content) = kindAndContent(model, invalid: invalid)
        // A selector says what is chosen (Curity's `SelectorModel.title`) unless a heading does.
        if let selector = model as? any SelectorModel, let title = selector.title, !title.isEmpty,
            !Self.messageItems(of: model).contains(where: { $0.messageStyleAttribute == .heading })
        {
            messages.insert(.message(text: title, style: MessageStyleAttribute.heading.themeSection), at: 0)
        }
        if let problem {
            let shown = Set(content.compactMap(\.fieldName))
            messages.insert(contentsOf: problemMessages(problem, fieldsShown: shown), at: 0)
        }
        return Screen(kind: kind, messages: messages, content: content, links: links)
    }

    @MainActor private func kindAndContent(_ model: any UIModel, invalid: [String: InvalidInputProblem.InvalidField]) -> (ScreenKind, [ScreenItem]) {
        switch model {
        case let bankID as KitBankIdModel:
            return (.bankID, bankIDItems(bankID, invalid: invalid))
        case let polling as any PollingModel:
            return (model is any BankIdModel ? .bankID : .polling, pollingItems(polling, invalid: invalid))
        case let selector as any SelectorModel:
            var items = selectorItems(selector, invalid: invalid)
            if let kit = selector as? KitSelectorModel { items += elements(kit.cancelItems, invalid: invalid) }
            return (.selector, items)
        case let webAuthn as any WebAuthnOperationModel:
            return (.webAuthn, webAuthnItems(webAuthn, invalid: invalid))
        case let browser as any FormOperationModel:
            var items: [ScreenItem] = []
            if let url = browser.url {
                items.append(.button(.init(title: strings.string(.continueInBrowser), role: .primary, action: .open(url))))
            }
            return (.generic, items + elements(browser.interactionModel?.interactionItems ?? [], invalid: invalid, demoted: !items.isEmpty))
        case let operation as any GenericOperationModel:
            return (.generic, elements(operation.interactionModel?.interactionItems ?? [], invalid: invalid))
        case let continued as any ContinueSameModel:
            return (.form, elements(continued.formModel?.interactionItems ?? [], invalid: invalid))
        case let generic as any GenericModel:
            let choices = generic.selectorModel.map { selectorItems($0, invalid: invalid) } ?? []
            return (.generic, choices + elements(generic.formModel?.interactionItems ?? [], invalid: invalid))
        case let form as any FormModel:
            return (.form, elements(form.interactionItems, invalid: invalid))
        case is any AuthorizationRequestModel:
            return (.polling, [.loadingIndicator])
        default:
            return (.generic, [])
        }
    }

    /// The messages a model shows above its content.
    public static func messageItems(of model: any UIModel) -> [any InfoMessageModel] {
        switch model {
        case let form as any FormModel: return form.messageItems
        case let selector as any SelectorModel: return selector.messageItems
        case let polling as any PollingModel: return polling.messageItems
        case let continued as any ContinueSameModel: return continued.messageItems
        case let problem as any ProblemModel: return problem.messageItems
        case let step as any KitStepModel: return step.context.messageItems
        default: return []
        }
    }

    /// The links a model shows under its content.
    public static func linkItems(of model: any UIModel) -> [any LinkItemModel] {
        switch model {
        case let form as any FormModel: return form.linkItems
        case let selector as any SelectorModel: return selector.linkItems
        case let polling as any PollingModel: return polling.linkItems
        case let problem as any ProblemModel: return problem.linkItems
        case let step as any KitStepModel: return step.context.linkItems
        default: return []
        }
    }

    // MARK: Problems

    /// The screen of a problem that ends the step: its title and messages, and its links.
    public func screen(for problem: any ProblemModel) -> Screen {
        Screen(
            kind: .problem, messages: problemMessages(problem, fieldsShown: []), content: [],
            links: problem.linkItems.map { ScreenItem.link(title: $0.text ?? $0.href, action: .follow($0)) })
    }

    /// A problem's title as an error, then its messages (a message without a known class is an
    /// error too), then its complaints about fields other than `fieldsShown` (those go under
    /// their fields): nothing the server said is lost.
    private func problemMessages(_ problem: any ProblemModel, fieldsShown: Set<String>) -> [ScreenItem] {
        let title = problem.title ?? strings.string(.developerRuntimeTitle)
        let error = MessageStyleAttribute.error.themeSection
        var items: [ScreenItem] = [.message(text: title, style: error)]
        for message in problem.messageItems {
            guard let text = message.text, text != title else { continue }
            let known = (message as? KitInfoMessage).map { MessageStyleAttribute(knownClassList: $0.classList) != nil } ?? true
            items.append(.message(text: text, style: known ? message.themeSection : error))
        }
        for field in (problem as? KitProblemModel)?.invalidFields ?? [] where !fieldsShown.contains(field.name) {
            items.append(.message(text: field.detail.literal.isEmpty ? field.name : field.detail.literal, style: error))
        }
        return items
    }

    // MARK: Elements

    /// The screen elements of a model's interaction items; `demoted` makes a primary button
    /// secondary (another element is the step's main way on).
    @MainActor func elements(
        _ items: [any InteractionItemModel], invalid: [String: InvalidInputProblem.InvalidField] = [:], demoted: Bool = false
    ) -> [ScreenItem] {
        items.compactMap { item in
            let complaint = invalid[item.key].map { $0.detail.literal.isEmpty ? $0.reason ?? strings.string(.fieldInvalid) : $0.detail.literal }
            switch item {
            case let field as any InteractionItemInputTextModel:
                let configuration = field.inputConfiguration
                return .textField(.init(
                    item: field, name: field.key, label: field.label, placeholder: field.placeholder,
                    value: configuration.isSecure || field.value.isEmpty ? nil : field.value, contentType: configuration.contentType,
                    keyboard: configuration.keyboard, isSecure: configuration.isSecure, isRequired: field.isRequired, minLength: configuration.minLength,
                    maxLength: configuration.maxLength, error: field.error ?? complaint, style: textFieldStyle))
            case let box as any InteractionItemCheckboxModel:
                return .checkbox(.init(
                    item: box, name: box.key, label: box.label, isChecked: box.isChecked, isReadonly: box.isReadOnly,
                    error: (box as? KitCheckboxItem)?.error ?? complaint, style: "CheckboxView"))
            case let select as any InteractionItemSelectModel:
                let options = select.options.enumerated().map { index, option in
                    ScreenItem.Picker.Option(label: option.0, value: option.1, isSelected: index == select.selectedPosition)
                }
                return .picker(.init(
                    item: select, name: select.key, label: select.label, options: options, error: (select as? KitSelectItem)?.error ?? complaint,
                    style: "TextPickerView"))
            case let button as any InteractionItemButtonModel:
                let role = ScreenItem.Button.Role(button.type)
                return .button(.init(title: button.label, role: demoted && role == .primary ? .secondary : role, action: .submit(button)))
            case let section as any InteractionItemSectionModel:
                return .section(section.label)
            case let text as any InteractionItemTextContentModel:
                return .text(text.label)
            default:
                return nil
            }
        }
    }

    // MARK: Selectors

    @MainActor private func selectorItems(_ selector: any SelectorModel, invalid: [String: InvalidInputProblem.InvalidField]) -> [ScreenItem] {
        let options = selector.selectorItems.compactMap { $0 as? any SelectorItemInteractionActionModel }
        guard !options.isEmpty else { return [] }
        switch (selector as? KitSelectorModel)?.presentation {
        case .tabs?:
            // The first option is shown: its fields when choosing it asks for some, else its button.
            let first = options[0]
            var items: [ScreenItem] = [.tabs(titles: options.map(\.title), selected: 0)]
            if let form = (first as? KitSelectorItem)?.option as? FormAction, form.model.fields.contains(where: \.isUserInput) {
                items += elements(KitDataMapper.itemsOfForms([form]), invalid: invalid)
            } else {
                items.append(.button(.init(title: first.title, role: .primary, action: .select(first))))
            }
            return items
        default:
            return options.map { .button(.init(title: $0.title, role: .secondary, action: .select($0))) }
        }
    }

    // MARK: Waits

    @MainActor private func pollingItems(_ polling: any PollingModel, invalid: [String: InvalidInputProblem.InvalidField]) -> [ScreenItem] {
        var items: [ScreenItem] = [.loadingIndicator]
        if let countdown = countdown(polling) { items.append(countdown) }
        if !Self.isAutomatic(polling) { items.append(.button(.init(title: strings.string(.checkNow), role: .primary, action: .poll))) }
        if let cancel = polling.cancelAction { items += elements([cancel], invalid: invalid) }
        return items
    }

    /// Whether the view model polls by itself: the kit's polling model says; another's polls
    /// when its ``PollingModel/autoPollingDuration`` is positive.
    static func isAutomatic(_ polling: any PollingModel) -> Bool {
        (polling as? KitPollingModel)?.isAutomatic ?? (polling as? KitBankIdModel)?.polling?.isAutomatic ?? (polling.autoPollingDuration > 0)
    }

    /// The time left, in minutes from two minutes up, else in seconds.
    func countdown(_ polling: any PollingModel) -> ScreenItem? {
        guard let seconds = polling.maxWaitRemainingTime.map(Self.wholeSeconds) else { return nil }
        return .countdown(text: strings.timeLeft(seconds: seconds), seconds: seconds)
    }

    /// A server's count of seconds as a whole number (rounded): never negative, and never a
    /// trap (``OutsideNumber/wholeSeconds(_:)``).
    public static func wholeSeconds(_ time: TimeInterval) -> Int {
        max(0, OutsideNumber.wholeSeconds(time.rounded()))
    }

    /// BankID: the app on this device, or its QR code for another, with the help text; then
    /// the wait and the step's other ways on.
    @MainActor private func bankIDItems(_ bankID: KitBankIdModel, invalid: [String: InvalidInputProblem.InvalidField]) -> [ScreenItem] {
        var items: [ScreenItem] = []
        if let autoStart = bankID.autoStartURL {
            items.append(.button(.init(title: strings.string(.bankIDOpenOnThisDevice), role: .primary, action: .open(autoStart))))
        }
        if bankID.qrData != nil || bankID.qrCode != nil {
            if bankID.autoStartURL != nil { items.append(.text(strings.string(.or))) }
            items.append(.qrCode(data: bankID.qrData, image: bankID.qrCode))
            items.append(.expandable(title: strings.string(.bankIDInstructionTitle), body: strings.string(.bankIDInstructionBody)))
        }
        if let polling = bankID.polling {
            items.append(.loadingIndicator)
            if let countdown = countdown(polling) { items.append(countdown) }
            if !polling.isAutomatic { items.append(.button(.init(title: strings.string(.checkNow), role: .secondary, action: .poll))) }
        }
        return items + elements(bankID.otherItems, invalid: invalid)
    }

    // MARK: Passkeys

    /// A button per kind of authenticator the step can use, each with its explanation; then
    /// the step's other ways on (the browser fallback, cancel).
    @MainActor private func webAuthnItems(_ webAuthn: any WebAuthnOperationModel, invalid: [String: InvalidInputProblem.InvalidField]) -> [ScreenItem] {
        var items: [ScreenItem] = []
        let kinds = (webAuthn as? KitWebAuthnModel)?.kinds ?? []
        for (index, kind) in kinds.enumerated() {
            let (message, button): (LocalizableStrings.Key, LocalizableStrings.Key) =
                kind == .crossPlatform ? (.webAuthnCrossPlatformMessage, .webAuthnCrossPlatformButton) : (.webAuthnPlatformMessage, .webAuthnPlatformButton)
            items.append(.message(text: strings.string(message), style: MessageStyleAttribute.content.themeSection))
            items.append(.button(.init(title: strings.string(button), role: index == 0 ? .primary : .secondary, action: .passkey(kind))))
        }
        if kinds.isEmpty { items.append(.message(text: strings.string(.passkeysNotSupported), style: MessageStyleAttribute.warn.themeSection)) }
        return items + elements(webAuthn.interactionModel?.interactionItems ?? [], invalid: invalid)
    }
}
