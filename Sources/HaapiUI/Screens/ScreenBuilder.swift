import Foundation
import HaapiSDK

/// Makes the ``Screen`` of a step or a problem: which screen, which elements in which order,
/// their texts (the server's, else the kit's table in the user's language) and their styles.
public struct ScreenBuilder: Sendable {
    /// The kit's texts.
    public let strings: LocalizableStrings
    /// The theme section of text fields (the theme's `huiTextField`).
    public let textFieldStyle: String
    /// The keys of the BankID screen's texts (the theme's `BankIdViewController` section).
    public let bankIDKeys: BankIDTextKeys
    /// The keys of the passkey screen's texts (the theme's `WebAuthnViewController` section).
    public let webAuthnKeys: WebAuthnViewControllerStyle.TextualKeys?

    /// A builder with `strings`, and text fields styled by the section `textFieldStyle`; the
    /// BankID and passkey screens take the kit's keys.
    public init(strings: LocalizableStrings = LocalizableStrings(), textFieldStyle: String = "InputTextField") {
        self.init(strings: strings, textFieldStyle: textFieldStyle, bankIDKeys: BankIDTextKeys(), webAuthnKeys: nil)
    }

    /// A builder for `theme`: its text field section, and the text keys its BankID and passkey
    /// screens name (an app's theme may point any of them at a key of its own).
    public init(strings: LocalizableStrings = LocalizableStrings(), theme: Theme) {
        let bankID = try? theme.style(BankIdViewControllerStyle.self)
        self.init(
            strings: strings, textFieldStyle: theme.textFieldSection, bankIDKeys: bankID.map(BankIDTextKeys.init) ?? BankIDTextKeys(),
            webAuthnKeys: (try? theme.style(WebAuthnViewControllerStyle.self))?.textualKeys)
    }

    private init(
        strings: LocalizableStrings, textFieldStyle: String, bankIDKeys: BankIDTextKeys,
        webAuthnKeys: WebAuthnViewControllerStyle.TextualKeys?
    ) {
        (self.strings, self.textFieldStyle, self.bankIDKeys, self.webAuthnKeys) = (strings, textFieldStyle, bankIDKeys, webAuthnKeys)
    }

    /// The keys of BankID's texts: the kit's, or those a theme names.
    public struct BankIDTextKeys: Sendable, Hashable {
        /// The help's title (`textInstructionTitle`).
        public var instructionTitle = LocalizableStrings.Key.bankIDInstructionTitle.rawValue
        /// The help's text, with how long the QR code is shown (`textInstructionBody`).
        public var instructionBody = LocalizableStrings.Key.bankIDInstructionBody.rawValue
        /// The "or" between the app and the other ways on (`textOr`).
        public var or = LocalizableStrings.Key.or.rawValue
        /// A length in minutes (`textMinutes`).
        public var minutes = LocalizableStrings.PluralKey.pollingMinutes.rawValue
        /// A length in seconds (`textSeconds`).
        public var seconds = LocalizableStrings.PluralKey.pollingSeconds.rawValue
        /// The time left, in minutes and seconds (`textMinutesRemaining`).
        public var minutesRemaining = LocalizableStrings.PluralKey.pollingMinutesRemaining.rawValue
        /// The time left, in seconds (`textSecondsRemaining`).
        public var secondsRemaining = LocalizableStrings.PluralKey.pollingSecondsRemaining.rawValue

        /// The kit's keys.
        public init() {}

        /// The keys `style` names.
        public init(_ style: BankIdViewControllerStyle) {
            (instructionTitle, instructionBody, or) = (style.textInstructionTitleKey, style.textInstructionBodyKey, style.textOrKey)
            (minutes, seconds) = (style.textMinutesKey, style.textSecondsKey)
            (minutesRemaining, secondsRemaining) = (style.textMinutesRemainingKey, style.textSecondsRemainingKey)
        }
    }

    /// The text of a passkey screen's key (`keyPath` of the theme's keys, else `fallback`).
    private func webAuthnText(_ keyPath: KeyPath<WebAuthnViewControllerStyle.TextualKeys, String>, _ fallback: LocalizableStrings.Key)
        -> String
    {
        strings.string(forKey: webAuthnKeys?[keyPath: keyPath] ?? fallback.rawValue)
    }

    // MARK: Steps

    /// The screen of `model`, the kit's or an app's. A problem about the last submission is
    /// shown above the content, its complaints about fields under those fields.
    @MainActor public func screen(for model: any UIModel, problem: (any ProblemModel)? = nil) -> Screen {
        if let problem = model as? any ProblemModel { return screen(for: problem) }
        let invalid = Dictionary(
            (problem as? KitProblemModel)?.invalidFields.map { ($0.name, $0) } ?? [], uniquingKeysWith: { first, _ in first })
        let (messageItems, linkItems) = Self.decorations(of: model)
        var messages: [ScreenItem] = []
        var codes: [String] = []
        for message in messageItems {
            guard let text = message.text else { continue }
            if message.messageStyleAttribute != .usercode { appendCopyButton(for: &codes, to: &messages) }
            messages.append(.message(text: text, style: message.themeSection))
            if message.messageStyleAttribute == .usercode { codes.append(text) }
        }
        appendCopyButton(for: &codes, to: &messages)
        let links = linkItems.map { ScreenItem.link(title: $0.text ?? $0.href, action: .follow($0)) }
        var (kind, content) = kindAndContent(model, invalid: invalid)
        // A step's images are shown above what it asks: a QR code (an activation code for another
        // app) as one, any other as a picture; BankID places its own QR code.
        if let step = model as? any KitStepModel {
            let images = step.context.images.filter { !(model is KitBankIdModel && $0.isQRCode) }
            content.insert(contentsOf: images.map { $0.isQRCode ? ScreenItem.qrCode(data: nil, image: $0) : .serverImage($0) }, at: 0)
        }
        // BankID on this device opens by itself (Curity's autostart); on another device the QR code is the way.
        let bankID = model as? KitBankIdModel
        let openOnAppear = bankID.flatMap { $0.isOnThisDevice ? $0.autoStartURL : nil }
        // A selector says what is chosen (Curity's `SelectorModel.title`) unless a heading does.
        if let selector = model as? any SelectorModel, let title = selector.title, !title.isEmpty,
            !messageItems.contains(where: { $0.messageStyleAttribute == .heading })
        {
            messages.insert(.message(text: title, style: MessageStyleAttribute.heading.themeSection), at: 0)
        }
        if let problem {
            let shown = Set(content.compactMap(\.fieldName))
            messages.insert(contentsOf: problemMessages(problem, fieldsShown: shown), at: 0)
        }
        // A step with nothing to do, no wait and no link is a dead end: say so rather than show a blank screen.
        if content.isEmpty && links.isEmpty && openOnAppear == nil && !(model is any GenericOperationModel),
            let step = model as? any KitStepModel
        {
            let heading = messageItems.first { $0.messageStyleAttribute == .heading }?.text
            let subject = heading ?? step.representationType ?? ""
            messages.append(.message(text: strings.string(.problemNoRoutes), style: MessageStyleAttribute.heading.themeSection))
            messages.append(
                .message(text: strings.string(.problemNoRoutesMessage, subject), style: MessageStyleAttribute.error.themeSection))
        }
        return Screen(kind: kind, messages: messages, content: content, links: links, openOnAppear: openOnAppear)
    }

    /// After a run of codes the user types elsewhere (a device's user code, recovery codes): one
    /// button that copies them all, a line each; `codes` is emptied.
    private func appendCopyButton(for codes: inout [String], to items: inout [ScreenItem]) {
        guard !codes.isEmpty else { return }
        items.append(.button(.init(title: strings.string(.userCodeCopyButton), role: .text, action: .copy(codes.joined(separator: "\n")))))
        codes = []
    }

    @MainActor private func kindAndContent(_ model: any UIModel, invalid: [String: InvalidInputProblem.InvalidField]) -> (
        ScreenKind, [ScreenItem]
    ) {
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
    public static func messageItems(of model: any UIModel) -> [any InfoMessageModel] { decorations(of: model).messages }

    /// The links a model shows under its content.
    public static func linkItems(of model: any UIModel) -> [any LinkItemModel] { decorations(of: model).links }

    /// The messages above and the links under a model's content: one reading of which model kinds have them.
    private static func decorations(of model: any UIModel) -> (messages: [any InfoMessageModel], links: [any LinkItemModel]) {
        switch model {
        case let form as any FormModel: return (form.messageItems, form.linkItems)
        case let selector as any SelectorModel: return (selector.messageItems, selector.linkItems)
        case let polling as any PollingModel: return (polling.messageItems, polling.linkItems)
        case let continued as any ContinueSameModel: return (continued.messageItems, [])
        case let problem as any ProblemModel: return (problem.messageItems, problem.linkItems)
        case let step as any KitStepModel: return (step.context.messageItems, step.context.linkItems)
        default: return ([], [])
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

    /// The title and message of an alert about `error`: the server's words for a problem; for
    /// a step the app cannot show, what it cannot show; for any other failure, its reason; and
    /// for a flow the server asks to start over, that.
    public func alert(for error: HaapiFlowError) -> (title: String, message: String) {
        switch error.kind {
        case .problem(let problem):
            if problem.handling == .restartFlow {
                return (problem.title ?? strings.string(.developerRuntimeTitle), strings.string(.restartRequiredMessage))
            }
            let texts = problem.messageItems.compactMap(\.text).filter { $0 != problem.title }
            return (
                problem.title ?? strings.string(.developerRuntimeTitle), texts.isEmpty ? problem.message : texts.joined(separator: "\n")
            )
        case .failure(let failure):
            if case .unsupported(let cause)? = failure as? HaapiUIKitError {
                return (strings.string(.developerUnsupportedTitle), strings.string(.developerUnsupportedMessage, cause))
            }
            return (strings.string(.developerRuntimeTitle), strings.string(.developerRuntimeMessage, error.title))
        }
    }

    /// What VoiceOver says of `item`: a field with its error (announced when it appears), a
    /// checkbox with its state, the spinner and the countdown as what they wait for.
    public func accessibility(of item: ScreenItem) -> ScreenAccessibility {
        switch item {
        case .textField(let field):
            guard let error = field.error else { return ScreenAccessibility(label: field.label) }
            return ScreenAccessibility(label: strings.string(.fieldError, field.label, error), announcement: error)
        case .checkbox(let box):
            let label = box.error.map { strings.string(.fieldError, box.label, $0) } ?? box.label
            return ScreenAccessibility(label: label, value: strings.string(box.isChecked ? .checked : .notChecked), announcement: box.error)
        case .picker(let picker):
            let label = picker.error.map { strings.string(.fieldError, picker.label, $0) } ?? picker.label
            return ScreenAccessibility(label: label, value: picker.options.first(where: \.isSelected)?.label, announcement: picker.error)
        case .message(let text, let style):
            // A heading is one to VoiceOver; an error (the login failed) is said as it appears.
            return ScreenAccessibility(
                label: text, announcement: style == MessageStyleAttribute.error.themeSection ? text : nil,
                isHeader: style == MessageStyleAttribute.heading.themeSection)
        case .section(let text): return ScreenAccessibility(label: text, isHeader: true)
        case .text(let text): return ScreenAccessibility(label: text)
        case .button(let button): return ScreenAccessibility(label: button.title)
        case .link(let title, _): return ScreenAccessibility(label: title)
        case .tabs(let titles, let selected): return ScreenAccessibility(label: titles.indices.contains(selected) ? titles[selected] : nil)
        case .loadingIndicator: return ScreenAccessibility(label: strings.string(.waiting))
        case .countdown(let countdown): return ScreenAccessibility(label: countdown.text, updatesFrequently: true)
        case .qrCode(_, let image): return ScreenAccessibility(label: image?.text ?? strings.string(forKey: bankIDKeys.instructionTitle))
        case .image(_, let label): return ScreenAccessibility(label: label)
        case .serverImage(let image): return ScreenAccessibility(label: image.text ?? strings.string(.imageFromServer))
        case .expandable(let title, _): return ScreenAccessibility(label: title)
        }
    }

    /// Where VoiceOver's focus goes when `screen` appears: the first field the server complained
    /// about, else the first error (a form-level one: "Incorrect credentials"), else nowhere (it
    /// starts at the top). Its text is announced besides (``accessibility(of:)``).
    public func accessibilityFocus(of screen: Screen) -> ScreenItem? {
        screen.items.first { item in
            switch item {
            case .textField(let field): return field.error != nil
            case .checkbox(let box): return box.error != nil
            case .picker(let picker): return picker.error != nil
            default: return false
            }
        } ?? screen.messages.first { if case .message(_, MessageStyleAttribute.error.themeSection) = $0 { true } else { false } }
    }

    // MARK: Elements

    /// The screen elements of a model's interaction items; `demoted` makes a primary button
    /// secondary (another element is the step's main way on).
    @MainActor func elements(
        _ items: [any InteractionItemModel], invalid: [String: InvalidInputProblem.InvalidField] = [:], demoted: Bool = false
    ) -> [ScreenItem] {
        var elements = items.compactMap { item -> ScreenItem? in
            let complaint = invalid[item.key].map {
                $0.detail.literal.isEmpty ? $0.reason ?? strings.string(.fieldInvalid) : $0.detail.literal
            }
            switch item {
            case let field as any InteractionItemInputTextModel:
                let configuration = field.inputConfiguration
                return .textField(
                    .init(
                        item: field, name: field.key, label: field.label, placeholder: field.placeholder,
                        value: configuration.isSecure || field.value.isEmpty ? nil : field.value, contentType: configuration.contentType,
                        keyboard: configuration.keyboard, returnKey: .go, isSecure: configuration.isSecure, isRequired: field.isRequired,
                        minLength: configuration.minLength,
                        maxLength: configuration.maxLength, error: field.error ?? complaint, style: textFieldStyle))
            case let box as any InteractionItemCheckboxModel:
                return .checkbox(
                    .init(
                        item: box, name: box.key, label: box.label, isChecked: box.isChecked, isReadonly: box.isReadOnly,
                        error: (box as? KitCheckboxItem)?.error ?? complaint, style: "CheckboxView"))
            case let select as any InteractionItemSelectModel:
                let options = select.options.enumerated().map { index, option in
                    ScreenItem.Picker.Option(label: option.0, value: option.1, isSelected: index == select.selectedPosition)
                }
                return .picker(
                    .init(
                        item: select, name: select.key, label: select.label, options: options,
                        error: (select as? KitSelectItem)?.error ?? complaint,
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
        // A field's return key goes to the next field of its form, the last one's submits it.
        for index in elements.indices {
            guard case .textField(var field) = elements[index] else { continue }
            let next = elements[(index + 1)...].first {
                if case .textField = $0 { return true } else if case .button = $0 { return true } else { return false }
            }
            if case .textField? = next { field.returnKey = .next } else { field.returnKey = .go }
            elements[index] = .textField(field)
        }
        return elements
    }

    // MARK: Selectors

    @MainActor private func selectorItems(_ selector: any SelectorModel, invalid: [String: InvalidInputProblem.InvalidField])
        -> [ScreenItem]
    {
        let options = selector.selectorItems.compactMap { $0 as? any SelectorItemInteractionActionModel }
        guard !options.isEmpty else { return [] }
        switch (selector as? KitSelectorModel)?.presentation {
        case .tabs?:
            // The selected tab's option is shown under the tabs: its fields when choosing it asks
            // for some, else its button. Choosing another tab selects it (the tabs stay).
            let selected = min(max((selector as? KitSelectorModel)?.selectedIndex ?? 0, 0), options.count - 1)
            let option = options[selected]
            var items: [ScreenItem] = [.tabs(titles: options.map(\.title), selected: selected)]
            if let form = (option as? KitSelectorItem)?.option as? FormAction, form.model.fields.contains(where: \.isUserInput) {
                items += elements(KitDataMapper.itemsOfForms([form], strings: strings), invalid: invalid)
            } else {
                items.append(.button(.init(title: option.title, role: .primary, action: .select(option), icon: option.icon)))
            }
            return items
        default:
            return options.map { .button(.init(title: $0.title, role: .secondary, action: .select($0), icon: $0.icon)) }
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
        (polling as? KitPollingModel)?.isAutomatic ?? (polling as? KitBankIdModel)?.polling?.isAutomatic
            ?? (polling.autoPollingDuration > 0)
    }

    /// The time left, in minutes and seconds (``timeLeft(seconds:)``), with the whole wait
    /// when the server said it; `showsProgress` for a bar of the time left.
    func countdown(_ polling: any PollingModel, showsProgress: Bool = false) -> ScreenItem? {
        guard let seconds = polling.maxWaitRemainingTime.map(Self.wholeSeconds) else { return nil }
        let total = polling.maxWaitTime.map(Self.wholeSeconds).map { max($0, seconds) }
        return .countdown(.init(text: timeLeft(seconds: seconds), seconds: seconds, total: total, showsProgress: showsProgress))
    }

    /// The text of `seconds` left to wait: minutes and seconds from a minute up, else seconds
    /// ("2 minutes and 3 seconds left", "45 seconds left"), by the theme's BankID keys.
    public func timeLeft(seconds: Int) -> String {
        strings.timeLeft(seconds: seconds, minutesKey: bankIDKeys.minutesRemaining, secondsKey: bankIDKeys.secondsRemaining)
    }

    /// A length of time as text: whole minutes from two minutes up, else seconds ("3 minutes").
    public func duration(seconds: Int) -> String {
        seconds >= 120
            ? strings.string(forPluralKey: bankIDKeys.minutes, count: seconds / 60)
            : strings.string(forPluralKey: bankIDKeys.seconds, count: max(0, seconds))
    }

    /// A server's count of seconds as a whole number (rounded): never negative, and never a
    /// trap (``/OAuthCore/OutsideNumber/wholeSeconds(_:)``).
    public static func wholeSeconds(_ time: TimeInterval) -> Int {
        max(0, OutsideNumber.wholeSeconds(time.rounded()))
    }

    /// BankID: the app on this device, or its QR code for another, with the help text; then
    /// the wait and the step's other ways on.
    /// On this device: the logo and a button that opens the app again (the screen opens it by
    /// itself first, ``Screen/openOnAppear``). On another device: the QR code, the time it is
    /// shown as a bar, and the help (how long the code is shown in it); never a button for an
    /// app that is not on this device.
    @MainActor private func bankIDItems(_ bankID: KitBankIdModel, invalid: [String: InvalidInputProblem.InvalidField]) -> [ScreenItem] {
        var items: [ScreenItem] = [.image(name: Self.bankIDLogo, label: "BankID")]
        if bankID.isOnThisDevice, let autoStart = bankID.autoStartURL {
            items.append(.button(.init(title: strings.string(.bankIDOpenOnThisDevice), role: .primary, action: .open(autoStart))))
        } else if !bankID.isOnThisDevice {
            items.append(.qrCode(data: bankID.qrData, image: bankID.qrCode))
            let shown =
                (bankID.polling?.maxWaitTime).map { duration(seconds: Self.wholeSeconds($0)) }
                ?? duration(seconds: Self.bankIDQRCodeLifetime)
            items.append(
                .expandable(
                    title: strings.string(forKey: bankIDKeys.instructionTitle),
                    body: Placeholders.fill(strings.string(forKey: bankIDKeys.instructionBody), [shown])))
        }
        if let polling = bankID.polling {
            items.append(.loadingIndicator)
            if let countdown = countdown(polling, showsProgress: !bankID.isOnThisDevice) { items.append(countdown) }
            if !polling.isAutomatic { items.append(.button(.init(title: strings.string(.checkNow), role: .secondary, action: .poll))) }
        }
        let others = elements(bankID.otherItems, invalid: invalid)
        // "or" parts the app on this device from the other ways on (another device), not from cancel.
        let alternatives = others.contains { if case .button(let button) = $0 { button.role != .text } else { $0.fieldName != nil } }
        if bankID.isOnThisDevice, bankID.autoStartURL != nil, alternatives { items.append(.text(strings.string(forKey: bankIDKeys.or))) }
        return items + others
    }

    /// The image name of BankID's symbol (Curity's name; an app's image of that name wins, the kit
    /// draws a symbol of its own).
    public static let bankIDLogo = "hui_ic_bankid_login_symbol"
    /// How long BankID shows a QR code when the server does not say: its relying-party
    /// guidelines give an order a QR code lives for 30 seconds before it is cancelled.
    static let bankIDQRCodeLifetime = 30

    // MARK: Passkeys

    /// A button per kind of authenticator the step can use, each with its explanation; then
    /// the step's other ways on (the browser fallback, cancel).
    /// After a failed ceremony, what its ``PasskeyFailureOutcome`` shows first.
    @MainActor private func webAuthnItems(_ webAuthn: any WebAuthnOperationModel, invalid: [String: InvalidInputProblem.InvalidField])
        -> [ScreenItem]
    {
        var items: [ScreenItem] = []
        let kit = webAuthn as? KitWebAuthnModel
        let kinds = kit?.kinds ?? []
        let error = MessageStyleAttribute.error.themeSection
        switch kit?.failure {
        case .retry?:
            items.append(
                .message(text: webAuthnText(\.retryMessageTextKey, .webAuthnRetryMessage), style: MessageStyleAttribute.warn.themeSection))
            items.append(
                .button(
                    .init(
                        title: webAuthnText(\.retryButtonTextKey, .webAuthnRetryButton), role: .primary,
                        action: .passkey(kit?.lastKind ?? kinds.first ?? .any))))
            return items + elements(webAuthn.interactionModel?.interactionItems ?? [], invalid: invalid, demoted: true)
        case .noCredentials?:
            items.append(.message(text: webAuthnText(\.noCredentialsMessageTextKey, .webAuthnNoCredentialsMessage), style: error))
        case .appAssociation?:
            items.append(
                .message(text: webAuthnText(\.appAssociationErrorMessageTextKey, .webAuthnAppAssociationErrorMessage), style: error))
        case .fallback?:
            items.append(.message(text: webAuthnText(\.errorMessageTextKey, .webAuthnErrorMessage), style: error))
            items.append(
                .button(.init(title: webAuthnText(\.errorButtonTextKey, .webAuthnErrorButton), role: .primary, action: .passkeyFallback)))
            return items + elements(webAuthn.interactionModel?.interactionItems ?? [], invalid: invalid, demoted: true)
        case .unavailable?:
            items.append(.message(text: webAuthnText(\.passkeysNotSupportedMessageTextKey, .passkeysNotSupported), style: error))
            return items + elements(webAuthn.interactionModel?.interactionItems ?? [], invalid: invalid, demoted: true)
        case .nothing?, nil:
            break
        }
        for (index, kind) in kinds.enumerated() {
            let crossPlatform = kind == .crossPlatform
            items.append(
                .message(
                    text: crossPlatform
                        ? webAuthnText(\.crossPlatformMessageTextKey, .webAuthnCrossPlatformMessage)
                        : webAuthnText(\.platformMessageTextKey, .webAuthnPlatformMessage),
                    style: MessageStyleAttribute.content.themeSection))
            items.append(
                .button(
                    .init(
                        title: crossPlatform
                            ? webAuthnText(\.crossPlatformButtonTextKey, .webAuthnCrossPlatformButton)
                            : webAuthnText(\.platformButtonTextKey, .webAuthnPlatformButton),
                        role: index == 0 ? .primary : .secondary, action: .passkey(kind))))
        }
        if kinds.isEmpty {
            items.append(
                .message(
                    text: webAuthnText(\.passkeysNotSupportedMessageTextKey, .passkeysNotSupported),
                    style: MessageStyleAttribute.warn.themeSection))
        }
        return items + elements(webAuthn.interactionModel?.interactionItems ?? [], invalid: invalid)
    }
}
