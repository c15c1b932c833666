import Foundation
import HaapiSDK

/// The kit's data mapper: which model, with which elements in which order and how prominent,
/// each HAAPI step is shown as. ``DataMapperBuilder`` builds on it; its models are the `Kit…`
/// types.
public struct KitDataMapper: DataMapper {
    /// How selectors are presented.
    public var presentation: AuthenticatorSelectionPresentation
    /// Seconds between automatic polls (0 = off).
    public var autoPollingDuration: TimeInterval
    /// The app's redirect, appended to external-browser URLs as `redirect_uri`.
    public var appRedirect: String
    /// The server's base URL, for relative `href`s (external browsers), when known.
    public var baseURL: URL?
    /// Whether external browsers should be the default browser.
    public var useDefaultExternalBrowser: Bool
    /// The kit's texts (a problem without a title is titled from them).
    public var strings: LocalizableStrings

    /// A mapper with explicit settings.
    public init(
        presentation: AuthenticatorSelectionPresentation = .list, autoPollingDuration: TimeInterval = 3, appRedirect: String,
        baseURL: URL? = nil,
        useDefaultExternalBrowser: Bool = false, strings: LocalizableStrings = LocalizableStrings()
    ) {
        (self.presentation, self.autoPollingDuration, self.appRedirect, self.baseURL) = (
            presentation, autoPollingDuration, appRedirect, baseURL
        )
        (self.useDefaultExternalBrowser, self.strings) = (useDefaultExternalBrowser, strings)
    }

    /// The mapper for a configuration.
    public init(configuration: HaapiUIKitConfiguration) {
        self.init(
            presentation: configuration.authenticationSelectionPresentation, autoPollingDuration: configuration.autoPollingDuration,
            appRedirect: configuration.haapiConfiguration.appRedirect, baseURL: configuration.haapiConfiguration.baseURL,
            useDefaultExternalBrowser: configuration.useDefaultExternalBrowser)
    }

    // MARK: DataMapper

    /// The model of a step, or a ``KitProblemModel`` of a problem.
    /// - Throws: the result's error, as it is; any error of mapping the step.
    public func mapHaapiResultToUIModel(haapiResult: HaapiResult) throws -> any UIModel {
        switch haapiResult {
        case .representation(let step): return try mapHaapiRepresentationToInteraction(haapiRepresentation: step)
        case .problem(let problem): return KitProblemModel(problem, strings: strings)
        case .error(let failure): throw failure
        }
    }

    /// Not used by the kit, which maps an option through ``mapSelection(_:on:)`` (that knows the option's step).
    /// - Throws: ``HaapiUIKitError/unsupportedMap(objName:expectedObjName:)`` always.
    public func mapRepresentationActionModelToUIInteractionModel(representationActionModel: any RepresentationActionModel) throws
        -> any UIInteractionModel
    {
        throw HaapiUIKitError.unsupportedMap(
            objName: "\(type(of: representationActionModel))", expectedObjName: "an option of a step (see mapSelection(_:on:))")
    }

    /// The model of `step`, by what it offers: a form, a selector, a wait, BankID, an operation, ...
    /// - Throws: ``HaapiUIKitError`` or ``UnsupportedStepError`` when the step cannot be shown.
    public func mapHaapiRepresentationToInteraction(haapiRepresentation step: any HaapiRepresentation) throws -> any UIInteractionModel {
        let context = StepContext(step, messages: messages(of: step))
        let actions = step.allActions
        let forms = actions.compactMap { $0 as? FormAction }
        let selectors = actions.compactMap { $0 as? SelectorAction }
        switch step {
        case let step as AuthenticatorSelectorStep:
            return selectorModel(step.selector, context: context, cancels: forms.filter { $0.kind == .cancel })
        case let step as PollingStep:
            let polling = pollingModel(step, context: context)
            if let bankID = actions.lazy.compactMap({ ($0 as? ClientOperationAction)?.model as? BankIdClientOperationActionModel }).first {
                return bankIDModel(bankID, step: step, context: context, polling: polling)
            }
            return polling
        case let step as ContinueSameStep:
            let continues = step.actions.compactMap { $0 as? FormAction }
            return KitContinueSameModel(context: context, formModel: continues.isEmpty ? nil : formModel(continues, context: context))
        case is UserConsentStep:
            return formModel(forms, context: context)
        case let step as OAuthAuthorizationResponseStep:
            return KitAuthorizationRequestModel(context: context, properties: step.oauthAuthorizationResponseProperties)
        case let step as any ClientOperationStep:
            return operationModel(step, context: context)
        default:
            if let launch = actions.lazy.compactMap({ ($0 as? GenericAction)?.launch }).first,
                let resume = launch.continueActions.lazy.compactMap(\.form).first
            {
                // Curity's legacy `launch` template: an external-browser operation in all but name.
                let others = besides(launch.continueActions + launch.errorActions, in: forms, errorActions: launch.errorActions)
                return KitExternalBrowserModel(
                    context: context, href: launch.href, redirectTo: appRedirect, baseURL: baseURL, formActionModel: resume,
                    interactionModel: formModel(others, context: context, primary: false),
                    prefersDefaultBrowser: useDefaultExternalBrowser, problem: browserProblem)
            }
            if let only = selectors.first, selectors.count == 1, forms.allSatisfy({ $0.kind == .cancel }) {
                // A step that is one choice (Duo's device selector, whatever the step's type) is a selector.
                return selectorModel(only, context: context, cancels: forms)
            }
            if step is InteractiveFormStep, selectors.isEmpty { return formModel(forms, context: context) }
            return KitGenericModel(
                context: context, formModel: forms.isEmpty ? nil : formModel(forms, context: context, primary: selectors.isEmpty),
                selectorModel: selectors.first.map { selectorModel($0, context: context, cancels: []) })
        }
    }

    /// The model shown once `item` of a selector on `step` is chosen: its own options as a
    /// selector (an option holding options), or its form when the form asks for something (the
    /// step's cancel forms offered beside it).
    /// - Throws: ``HaapiUIKitError/unsupportedMap(objName:expectedObjName:)`` when choosing it is just
    ///   submitting its form (nothing to show).
    public func mapSelection(_ item: any SelectorItemInteractionActionModel, on step: any HaapiRepresentation) throws
        -> any UIInteractionModel
    {
        let context = StepContext(step, messages: messages(of: step))
        let cancels = step.allActions.compactMap { $0 as? FormAction }.filter { $0.kind == .cancel }
        let option = (item as? KitSelectorItem)?.option
        if let form = option as? FormAction, form.model.fields.contains(where: \.isUserInput) {
            return formModel([form] + cancels, context: context)
        }
        if let nested = option as? SelectorAction, !nested.model.options.isEmpty {
            return selectorModel(nested, context: context, cancels: cancels)
        }
        throw HaapiUIKitError.unsupportedMap(
            objName: "the option \"\(item.title)\"", expectedObjName: "an option holding a form to fill in or options")
    }

    // MARK: Models

    /// The step's messages; a polling step's recipient is added when no message names it.
    private func messages(of step: any HaapiRepresentation) -> [any InfoMessageModel] {
        var messages: [any InfoMessageModel] = step.messages.map { KitInfoMessage($0) }
        if let polling = step as? PollingStep, let recipient = polling.pollingProperties.recipientOfCommunication,
            !step.messages.contains(where: { $0.text.literal.contains(recipient) })
        {
            messages.append(KitInfoMessage(text: recipient, messageStyleAttribute: .recipientofcommunication, classList: ["recipient"]))
        }
        return messages
    }

    func formModel(_ forms: [FormAction], context: StepContext, primary: Bool = true) -> KitFormModel {
        KitFormModel(context: context, interactionItems: formItems(forms, primary: primary))
    }

    private func selectorModel(_ selector: SelectorAction, context: StepContext, cancels: [FormAction]) -> KitSelectorModel {
        KitSelectorModel(
            context: context, title: selector.title?.literal,
            // An option the server left untitled is not drawn: its kind or type is no title.
            selectorItems: selector.model.options.filter { $0.title?.literal.isEmpty == false }.map {
                KitSelectorItem($0, shouldKeepFocus: presentation == .tabs)
            },
            presentation: presentation, cancelItems: formItems(cancels).compactMap { $0 as? KitButtonItem })
    }

    private func pollingModel(_ step: PollingStep, context: StepContext) -> KitPollingModel {
        KitPollingModel(
            context: context, properties: step.pollingProperties, mainAction: button(step.mainAction, type: .primary),
            cancelAction: step.cancelAction.map { button($0, type: .text) }, autoPollingDuration: autoPollingDuration)
    }

    private func bankIDModel(
        _ bankID: BankIdClientOperationActionModel, step: any HaapiRepresentation, context: StepContext, polling: KitPollingModel?
    ) -> KitBankIdModel {
        let qrData = ["qrCodeData", "qrData"].lazy.compactMap { bankID.argument($0) ?? step.propertiesJSON[$0]?.stringValue }.first
        let qrCode = context.images.first { $0.rel == "qr-code" } ?? context.images.first(where: \.isQRCode)
        // BankID brings the user back to the app (BankID's guidelines: the app's own URL as `redirect`).
        let autoStart = appRedirect.isEmpty ? bankID.autoStartURL : bankID.urlToLaunch(redirectTo: appRedirect)
        // Polling is the screen's own doing, not a form to show. Without polling, the server waits
        // for the app to come back: its continue action is the way on when the app does not bring
        // the user back by itself.
        let cancel = (step as? PollingStep)?.cancelAction
        let continues = polling == nil ? bankID.continueActions.compactMap { $0 as? FormAction } : []
        let others =
            (continues + besides(bankID.continueActions + bankID.errorActions, in: step.formActions, errorActions: bankID.errorActions))
            .filter { $0.kind != .poll && $0 != cancel }
        return KitBankIdModel(
            context: context, polling: polling, autoStartURL: autoStart, qrData: qrData, qrCode: qrCode,
            otherItems: formItems(others + (cancel.map { [$0] } ?? []), primary: autoStart == nil && polling == nil))
    }

    private func operationModel(_ step: any ClientOperationStep, context: StepContext) -> any UIInteractionModel {
        let operation = step.operationModel
        let own = (operation?.continueActions ?? []) + (operation?.errorActions ?? [])
        let errors = operation?.errorActions ?? []
        switch step {
        case let step as ExternalBrowserClientOperationStep:
            let others = besides(own, in: step.formActions, errorActions: errors)
            return KitExternalBrowserModel(
                context: context, href: step.actionModel.href, redirectTo: appRedirect, baseURL: baseURL,
                formActionModel: step.continueFormActionModel, interactionModel: formModel(others, context: context, primary: false),
                prefersDefaultBrowser: useDefaultExternalBrowser, problem: browserProblem)
        case let step as BankIdClientOperationStep:
            return bankIDModel(step.actionModel, step: step, context: context, polling: nil)
        case let step as WebAuthnRegistrationClientOperationStep:
            return webAuthnModel(step.actionModel, step: step, context: context)
        case let step as WebAuthnAuthenticationClientOperationStep:
            return webAuthnModel(step.actionModel, step: step, context: context)
        default:
            let others = besides(own, in: step.formActions, errorActions: errors)
            let generic = HaapiModel.ActionModelFactory.genericClientOperation(
                arguments: operation?.arguments ?? [:], name: operation?.name ?? .unknown(value: ""),
                continueActions: operation?.continueActions ?? [],
                errorActions: errors)
            return KitGenericOperationModel(
                context: context, actionModel: generic, url: operation?.argument("href").flatMap { URL(string: $0) },
                interactionModel: formModel(others, context: context),
                problem: KitOperationProblem(
                    title: strings.string(.developerRuntimeTitle),
                    message: "the client operation \(operation?.name.rawValue ?? "") is not supported"))
        }
    }

    private func webAuthnModel(
        _ operation: any ClientOperationActionModelRepresentation, step: any HaapiRepresentation, context: StepContext
    ) -> KitWebAuthnModel {
        // The error actions are the browser fallback, offered only after a ceremony failed and
        // only when the configuration allows it (``KitWebAuthnModel/browserFallback``): not from the start.
        let continues = operation.continueActions.compactMap(\.form)
        let errors = operation.errorActions.compactMap(\.form)
        let others = besides(operation.continueActions + operation.errorActions, in: step.formActions, errorActions: [])
            .filter { !continues.contains($0.model) && !errors.contains($0.model) }
        return KitWebAuthnModel(
            context: context, actionModel: operation,
            interactionModel: formModel(others, context: context, primary: KitWebAuthnModel.kinds(of: operation).isEmpty),
            problem: passkeyProblem)
    }

    private var browserProblem: KitOperationProblem {
        KitOperationProblem(title: strings.string(.developerRuntimeTitle), message: strings.string(.continueInBrowser))
    }

    private var passkeyProblem: KitOperationProblem {
        KitOperationProblem(title: strings.string(.developerRuntimeTitle), message: strings.string(.passkeysNotSupported))
    }

    /// An operation's error actions, then the step's forms that repeat none of its actions (its
    /// cancel among them); the continue actions are what the operation submits itself.
    private func besides(_ own: [any Action], in forms: [FormAction], errorActions: [any Action]) -> [FormAction] {
        let ownForms = own.compactMap(\.form)
        return errorActions.compactMap { $0 as? FormAction }
            + forms.filter { form in !ownForms.contains { $0.href == form.model.href && $0.method == form.model.method } }
    }

    // MARK: Elements

    /// The elements of `forms` as the kit's screens show them, titled from `strings` (see ``formItems(_:primary:)``).
    static func itemsOfForms(_ forms: [FormAction], primary: Bool = true, strings: LocalizableStrings) -> [any InteractionItemModel] {
        KitDataMapper(appRedirect: "", strings: strings).formItems(forms, primary: primary)
    }

    /// The fields of each form then its button: the first form that is not a cancel is the
    /// primary one (when `primary`), other forms secondary, cancel forms text buttons last.
    /// When more than one form asks for something, each titled one that does is headed by its
    /// title, so that two "Log in" buttons say what each logs in with (BankID here or elsewhere).
    /// A form without a title of its own (the server's or the kit's word for its kind) is not
    /// drawn. Two buttons that would read the same (BankID here or on another device, both
    /// "Login") read their actions' own titles instead, when those differ.
    func formItems(_ forms: [FormAction], primary: Bool = true) -> [any InteractionItemModel] {
        let titled = forms.compactMap { form in buttonTitle(form).map { (form, $0) } }
        let ordered = titled.filter { $0.0.kind != .cancel } + titled.filter { $0.0.kind == .cancel }
        let asks: (FormAction) -> Bool = { $0.model.fields.contains(where: \.isUserInput) }
        let sectioned = ordered.filter { $0.0.kind != .cancel && asks($0.0) }.count > 1
        // A form's title heads it when more than one form asks for something.
        let sections: [String?] = ordered.map { form, label in
            guard sectioned, form.kind != .cancel, asks(form), let title = form.title?.literal, !title.isEmpty, title != label else {
                return nil
            }
            return title
        }
        let labels = Self.distinctLabels(ordered, sections: sections)
        var items: [any InteractionItemModel] = []
        var primaryTaken = !primary
        for (index, (form, _)) in ordered.enumerated() {
            let actionTitle = labels[index]
            if let title = sections[index] { items.append(KitSectionItem(key: "section-\(index)", label: title)) }
            let fields = form.model.fields.compactMap { item(for: $0, in: form.kind) }
            items += fields
            let type: InteractionItemButtonType
            if form.kind == .cancel {
                type = .text
            } else if !primaryTaken {
                type = .primary
                primaryTaken = true
            } else {
                type = .secondary
            }
            items.append(button(form, label: actionTitle, type: type, fields: fields))
        }
        return items
    }

    /// The buttons' labels of `titled` forms: each its title, but a button that reads as another
    /// does, with no section heading it (`sections`), reads its action's own title when the
    /// actions' titles tell them apart.
    private static func distinctLabels(_ titled: [(FormAction, String)], sections: [String?]) -> [String] {
        titled.indices.map { index in
            let (form, label) = titled[index]
            let same = titled.filter { $0.1 == label }
            let actions = Set(same.compactMap { $0.0.title?.literal }.filter { !$0.isEmpty })
            guard sections[index] == nil, same.count > 1, actions.count == same.count, let own = form.title?.literal else { return label }
            return own
        }
    }

    /// The button of a form, titled `label` (its ``buttonTitle(_:)`` when not given).
    private func button(_ form: FormAction, label: String? = nil, type: InteractionItemButtonType, fields: [any InteractionItemModel] = [])
        -> KitButtonItem
    {
        KitButtonItem(
            key: "\(form.kind.rawValue) \(form.model.method) \(form.model.href)",
            label: label ?? buttonTitle(form) ?? strings.string(.continueLogin), type: type,
            action: form.model, kind: form.kind, title: form.title?.literal, fields: fields)
    }

    /// The title of a form's button: the server's (its `actionTitle`, else the action's title),
    /// else the kit's word for its kind (Cancel, Continue, Log in, Check now), else Continue for a
    /// form that asks for something (it must be sent); `nil` for a form with none of these, which
    /// is not drawn as a button. A kind or template name is never a title.
    func buttonTitle(_ form: FormAction) -> String? {
        if let title = form.model.actionTitle?.literal ?? form.title?.literal, !title.isEmpty { return title }
        switch form.kind {
        case .cancel: return strings.string(.cancel)
        case .redirect, .continue, .continueAutoLogin: return strings.string(.continueLogin)
        case .login: return strings.string(.logIn)
        case .poll: return strings.string(.checkNow)
        default: return form.model.fields.contains(where: \.isUserInput) ? strings.string(.continueLogin) : nil
        }
    }

    /// The element of a field the user fills in, in a form of `kind`; `nil` for hidden and context fields.
    func item(for field: any FormField, in kind: ActionKind? = nil) -> (any InteractionItemModel)? {
        let label =
            [field.label?.literal, field.placeholder?.literal].compactMap { $0 }.first { !$0.isEmpty } ?? fieldTitle(field, in: kind)
        switch field {
        case is HiddenFormField, is ContextFormField:
            return nil
        case let box as CheckboxFormField:
            return KitCheckboxItem(
                key: box.name, label: label, value: box.value ?? "on", isChecked: box.checked, isReadOnly: box.readonly,
                isRequired: box.isRequired)
        case let select as SelectFormField:
            let selected = select.options.firstIndex { $0.value == select.value } ?? select.options.firstIndex(where: \.selected)
            return KitSelectItem(
                key: select.name, label: label, options: select.options.map { ($0.label.literal, $0.value) }, selected: selected,
                isRequired: select.isRequired)
        default:
            let secure = field is PasswordFormField
            let lengths = field as? any TextLengthRestriction
            let configuration = InputTextConfiguration(
                contentType: Self.contentType(field, in: kind), keyboard: Self.keyboard(field), isSecure: secure,
                minLength: lengths?.minLength, maxLength: lengths?.maxLength)
            return KitInputTextItem(
                key: field.name, label: label, placeholder: field.placeholder?.literal, value: secure ? "" : field.value ?? "",
                inputConfiguration: configuration,
                isRequired: field.isRequired)
        }
    }

    /// The title of a field the server left unlabelled: the kit's word for what it holds (user
    /// name, password, email address, phone number), else none. Its name is no title for a person.
    private func fieldTitle(_ field: any FormField, in kind: ActionKind?) -> String {
        switch Self.contentType(field, in: kind) {
        case .username: return strings.string(.fieldUsername)
        case .password, .newPassword: return strings.string(.fieldPassword)
        case .emailAddress: return strings.string(.fieldEmail)
        case .telephoneNumber: return strings.string(.fieldPhone)
        default: return field is PasswordFormField ? strings.string(.fieldPassword) : ""
        }
    }

    /// What AutoFill may put in `field` of a form of `kind`: from its type, then its kind and
    /// name. A password is a new one in a form that registers a user or resets a password (the
    /// system then suggests a strong one and saves it), or when its name says so.
    public static func contentType(_ field: any FormField, in kind: ActionKind? = nil) -> InputTextConfiguration.ContentType {
        let name = field.name.lowercased()
        switch field {
        case is UsernameFormField: return .username
        case is PasswordFormField:
            let creates = kind == .userRegister || kind == .passwordReset
            return creates || name.contains("new") || name.contains("confirm") ? .newPassword : .password
        case let text as TextFormField:
            switch text.kind {
            case .email?: return .emailAddress
            case .tel?: return .telephoneNumber
            case .url?: return .url
            case .unknown(let value)? where value.lowercased() == "phone": return .telephoneNumber
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

    /// The keyboard for `field`: from its kind.
    static func keyboard(_ field: any FormField) -> InputTextConfiguration.Keyboard {
        switch (field as? TextFormField)?.kind {
        case .number?: return .number
        case .email?: return .email
        case .tel?: return .phone
        case .url?: return .url
        default: return .text
        }
    }
}
