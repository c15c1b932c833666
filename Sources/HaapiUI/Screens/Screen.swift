import Foundation
import HaapiSDK

/// Which of the kit's screens shows a step; each has its view controller and theme section.
public enum ScreenKind: String, Sendable, CaseIterable {
    /// Fields and buttons (`FormViewController`): login, registration, consent, continue steps.
    case form
    /// A choice of authenticator, as a list or as tabs (`SelectorViewController`).
    case selector
    /// A wait for something outside the app (`PollingViewController`).
    case polling
    /// BankID: the app on this device, or a QR code for another (`BankIdViewController`).
    case bankID
    /// A passkey or a security key (`WebAuthnViewController`).
    case webAuthn
    /// A problem that ends the step (`ProblemViewController`).
    case problem
    /// Any other step: its messages, forms, selectors and links (`GenericViewController`).
    case generic

    /// What the screen is, in the kit's words (`Form`, `Wait`...): the key of its text.
    public var title: LocalizableStrings.Key {
        switch self {
        case .form: return .screenForm
        case .selector: return .screenSelector
        case .polling: return .screenPolling
        case .bankID: return .screenBankID
        case .webAuthn: return .screenWebAuthn
        case .problem: return .screenProblem
        case .generic: return .screenGeneric
        }
    }

    /// The theme section of the screen's style.
    public var themeSection: String {
        switch self {
        case .form: return FormViewControllerStyle.themeSection
        case .selector: return SelectorViewControllerStyle.themeSection
        case .polling: return PollingViewControllerStyle.themeSection
        case .bankID: return BankIdViewControllerStyle.themeSection
        case .webAuthn: return WebAuthnViewControllerStyle.themeSection
        case .problem: return ProblemViewControllerStyle.themeSection
        case .generic: return GenericViewControllerStyle.themeSection
        }
    }
}

/// What a screen shows, top to bottom, with its texts in the user's language and the theme
/// section that styles each element: the value a UI draws, and a test asserts on.
///
/// ``ScreenBuilder`` makes it from any ``UIModel``, the app's own included; the kit's view
/// controllers draw it and send each element's ``ScreenAction`` back to the flow.
public struct Screen: Sendable, Hashable {
    /// The screen that shows it.
    public let kind: ScreenKind
    /// The messages above the content (the heading first when there is one).
    public let messages: [ScreenItem]
    /// Fields, choices, buttons, waits and codes, in order.
    public let content: [ScreenItem]
    /// The links under the content.
    public let links: [ScreenItem]
    /// The field the keyboard starts in: the first one the server complained about, else the
    /// first empty one (`nil`: none, the screen asks for nothing to be typed).
    public let focus: String?
    /// What opens by itself when the screen first appears: BankID on this device.
    public let openOnAppear: URL?

    /// A screen; ``focus`` is the first field with an error, else the first empty one.
    public init(kind: ScreenKind, messages: [ScreenItem], content: [ScreenItem], links: [ScreenItem], openOnAppear: URL? = nil) {
        (self.kind, self.messages, self.content, self.links, self.openOnAppear) = (kind, messages, content, links, openOnAppear)
        // The keyboard comes up by itself only where typing is the step's point: not over an app
        // that opens by itself, a wait, a passkey sheet or a problem.
        let fields = content.compactMap { if case .textField(let field) = $0 { return field } else { return nil } }
        let types = [.form, .generic, .selector].contains(kind) && openOnAppear == nil
        focus = types ? (fields.first { $0.error != nil } ?? fields.first { ($0.value ?? "").isEmpty })?.name : nil
    }

    /// Every element, in order.
    public var items: [ScreenItem] { messages + content + links }

    /// The buttons, in order.
    public var buttons: [ScreenItem.Button] {
        items.compactMap { if case .button(let button) = $0 { return button } else { return nil } }
    }

    /// The server's images the screen shows (QR codes and pictures), in order: what to load
    /// (``RemoteImages``) before drawing them.
    public var serverImages: [KitLinkItem] {
        items.compactMap {
            switch $0 {
            case .qrCode(nil, let image?), .serverImage(let image): return image
            default: return nil
            }
        }
    }

    /// The text fields, in order.
    public var textFields: [ScreenItem.TextField] {
        items.compactMap { if case .textField(let field) = $0 { return field } else { return nil } }
    }

    /// The field that takes the keyboard when the screen is drawn again in place while the user
    /// types in `typing` (a form back with the server's complaints): the screen's ``focus`` (the
    /// first field complained about, else the first empty one), else the same field; `nil` when
    /// nobody was typing (the keyboard does not come up by itself then).
    public func focusAfterRedraw(typingIn typing: String?) -> String? {
        guard let typing else { return nil }
        return focus ?? (textFields.contains { $0.name == typing } ? typing : nil)
    }

    /// Where the return key of the field `name` leads: the next field of its form, else the
    /// button that submits the form (`nil`: the field is not on this screen). While a request
    /// runs (`isLoading`) the return key submits nothing, as the disabled buttons do not: a
    /// one-shot action is sent once.
    public func afterReturn(in name: String, isLoading: Bool = false) -> ReturnTarget? {
        guard let start = content.firstIndex(where: { $0.fieldName == name }) else { return nil }
        for item in content[(start + 1)...] {
            switch item {
            case .textField(let next): return .field(next.name)
            case .button(let button): return isLoading ? .waitForRequest : .submit(button.action)
            default: continue
            }
        }
        return .dismissKeyboard
    }
}

/// What VoiceOver says of an element (``ScreenBuilder/accessibility(of:)``).
public struct ScreenAccessibility: Sendable, Hashable {
    /// What the element is (a field's label, with its error when it has one).
    public let label: String?
    /// Its state (a checkbox's "Checked"), when it has one.
    public let value: String?
    /// What is said as soon as the element appears (a field's error), so nobody misses it.
    public let announcement: String?
    /// Whether it changes by itself (a countdown), so VoiceOver reads it again.
    public let updatesFrequently: Bool
    /// Whether it heads what follows (a heading message, a form's title): VoiceOver's rotor
    /// moves from heading to heading.
    public let isHeader: Bool

    /// The smallest side of anything to tap, in points, as Apple's Human Interface Guidelines
    /// ask: a theme's smaller button, link, checkbox or close button keeps its look, and its
    /// tappable area grows to this.
    public static let minimumTarget: Double = 44

    /// A description.
    public init(label: String?, value: String? = nil, announcement: String? = nil, updatesFrequently: Bool = false, isHeader: Bool = false)
    {
        (self.label, self.value, self.announcement, self.updatesFrequently, self.isHeader) = (
            label, value, announcement, updatesFrequently, isHeader
        )
    }
}

/// Where a field's return key leads (``Screen/afterReturn(in:isLoading:)``).
public enum ReturnTarget: Sendable, Hashable {
    /// Into the next field.
    case field(String)
    /// Submits the form (the field is its last).
    case submit(ScreenAction)
    /// Nowhere: the keyboard goes away.
    case dismissKeyboard
    /// Nothing: the form's request is under way, and the keyboard stays.
    case waitForRequest
}

/// What a tap on an element does.
public enum ScreenAction: Sendable, Hashable {
    /// Submits a button's form with what the user entered in its fields.
    case submit(any InteractionItemButtonModel)
    /// Chooses an option of a selector.
    case select(any SelectorItemInteractionActionModel)
    /// Opens a URL outside the app (BankID's app, the browser of an external-browser step).
    case open(URL)
    /// Follows a link of the step.
    case follow(any LinkItemModel)
    /// Polls now.
    case poll
    /// Starts the passkey ceremony with an authenticator of `kind`.
    case passkey(WebAuthnAuthenticatorKind)
    /// Goes on in the browser after passkeys failed (the step's fallback; see ``PasskeyFailureOutcome``).
    case passkeyFallback
    /// Copies a text (a device's user code) to the pasteboard.
    case copy(String)

    /// What identifies the action: its kind, and the element's key, title or target.
    private var identity: String {
        switch self {
        case .submit(let button): return "submit \(button.key) \(button.label)"
        case .select(let option): return "select \(option.title) \(option.type ?? "")"
        case .open(let url): return "open \(url.absoluteString)"
        case .follow(let link): return "follow \(link.rel) \(link.href)"
        case .poll: return "poll"
        case .passkey(let kind): return "passkey \(kind.rawValue)"
        case .passkeyFallback: return "passkey fallback"
        case .copy(let text): return "copy \(text)"
        }
    }

    /// Whether two actions do the same: same kind, and the same element's key, title or target.
    public static func == (lhs: ScreenAction, rhs: ScreenAction) -> Bool { lhs.identity == rhs.identity }
    /// Hashes what ``==(_:_:)`` compares.
    public func hash(into hasher: inout Hasher) { hasher.combine(identity) }
}

/// One element of a ``Screen``. Fields keep the model element they edit (``TextField/item``):
/// a screen writes what the user enters there; two screens are equal when they show the same.
public enum ScreenItem: Sendable, Hashable {
    /// A text field.
    public struct TextField: Sendable, Hashable {
        /// What the system may fill in (AutoFill).
        public typealias ContentType = InputTextConfiguration.ContentType

        /// The label of the keyboard's return key.
        public enum ReturnKey: String, Sendable, CaseIterable {
            /// To the next field.
            case next
            /// Submits the form: the field is its last.
            case go
        }

        /// The element it edits.
        public let item: any InteractionItemInputTextModel
        /// The field's name in its form.
        public let name: String
        /// The field's title.
        public let label: String
        /// The hint shown in the empty field, if any.
        public let placeholder: String?
        /// The value shown at first (never a password).
        public let value: String?
        /// What the system may fill in.
        public let contentType: ContentType
        /// The keyboard to show.
        public let keyboard: InputTextConfiguration.Keyboard
        /// The return key: to the next field, or submitting the form.
        public internal(set) var returnKey: ReturnKey
        /// Whether the typing is hidden (a password); ``showsSecureEntryToggle`` then offers to show it.
        public let isSecure: Bool
        /// Whether a button shows and hides what was typed (every secure field has it).
        public var showsSecureEntryToggle: Bool { isSecure }
        /// The rules a new password follows, for the system's strong-password suggestion
        /// (`UITextInputPasswordRules` syntax); `nil` for other fields.
        public var passwordRules: String? {
            guard contentType == .newPassword else { return nil }
            return [
                "required: lower; required: upper; required: digit", minLength.map { "minlength: \($0)" },
                maxLength.map { "maxlength: \($0)" },
            ]
            .compactMap { $0 }.joined(separator: "; ") + ";"
        }
        /// Whether the form cannot be submitted with the field empty.
        public let isRequired: Bool
        /// The shortest accepted length, if the server gave one.
        public let minLength: Int?
        /// The longest accepted length, if the server gave one.
        public let maxLength: Int?
        /// The server's complaint about the last value, shown under the field.
        public let error: String?
        /// The theme section (the theme's `huiTextField`).
        public let style: String

        /// Whether two fields show the same; the model element (``item``) is not compared.
        public static func == (lhs: Self, rhs: Self) -> Bool {
            (lhs.name, lhs.label, lhs.placeholder, lhs.value, lhs.contentType, lhs.keyboard) == (
                rhs.name, rhs.label, rhs.placeholder, rhs.value, rhs.contentType, rhs.keyboard
            )
                && lhs.returnKey == rhs.returnKey
                && (lhs.isSecure, lhs.isRequired, lhs.minLength, lhs.maxLength, lhs.error, lhs.style)
                    == (rhs.isSecure, rhs.isRequired, rhs.minLength, rhs.maxLength, rhs.error, rhs.style)
        }
        /// Hashes the field's name (equal fields have equal names).
        public func hash(into hasher: inout Hasher) { hasher.combine(name) }
    }

    /// A checkbox.
    public struct Checkbox: Sendable, Hashable {
        /// The element it edits.
        public let item: any InteractionItemCheckboxModel
        /// The box's name in its form.
        public let name: String
        /// The text beside the box.
        public let label: String
        /// Whether the box is checked.
        public let isChecked: Bool
        /// Shown but not changeable (a scope the client must have).
        public let isReadonly: Bool
        /// The server's complaint about the last value, shown under the box.
        public let error: String?
        /// The theme section (`CheckboxView`).
        public let style: String

        /// Whether two checkboxes show the same; the model element (``item``) is not compared.
        public static func == (lhs: Self, rhs: Self) -> Bool {
            (lhs.name, lhs.label, lhs.isChecked, lhs.isReadonly, lhs.error, lhs.style) == (
                rhs.name, rhs.label, rhs.isChecked, rhs.isReadonly, rhs.error, rhs.style
            )
        }
        /// Hashes the box's name (equal checkboxes have equal names).
        public func hash(into hasher: inout Hasher) { hasher.combine(name) }
    }

    /// A choice among values (a select field).
    public struct Picker: Sendable, Hashable {
        /// One value to choose.
        public struct Option: Sendable, Hashable {
            /// The text shown for the value.
            public let label: String
            /// The value submitted when it is chosen.
            public let value: String
            /// Whether it is the chosen value.
            public let isSelected: Bool
        }

        /// The element it edits.
        public let item: any InteractionItemSelectModel
        /// The field's name in its form.
        public let name: String
        /// The field's title.
        public let label: String
        /// The values to choose from, in order.
        public let options: [Option]
        /// The server's complaint about the last value, shown under the field.
        public let error: String?
        /// The theme section (`TextPickerView`).
        public let style: String

        /// Whether two pickers show the same; the model element (``item``) is not compared.
        public static func == (lhs: Self, rhs: Self) -> Bool {
            (lhs.name, lhs.label, lhs.options, lhs.error, lhs.style) == (rhs.name, rhs.label, rhs.options, rhs.error, rhs.style)
        }
        /// Hashes the field's name (equal pickers have equal names).
        public func hash(into hasher: inout Hasher) { hasher.combine(name) }
    }

    /// A button.
    public struct Button: Sendable, Hashable {
        /// How much the button stands out.
        public enum Role: String, Sendable, CaseIterable {
            /// The step's main way on (`ActionableButton.Primary`).
            case primary
            /// Another way on (`ActionableButton.Secondary`).
            case secondary
            /// A way out, or a minor action (`ActionableButton.Text`).
            case text

            /// The role of a button of `type` (a link-like button is a text button).
            public init(_ type: InteractionItemButtonType) {
                switch type {
                case .primary: self = .primary
                case .secondary: self = .secondary
                case .text, .link: self = .text
                }
            }
        }

        /// The button's title.
        public let title: String
        /// How much the button stands out.
        public let role: Role
        /// What a tap does.
        public let action: ScreenAction
        /// The name of its icon among the theme's images (an authenticator's, see
        /// ``AuthenticatorIcons``); `nil` for none.
        public let icon: String?

        /// A button.
        public init(title: String, role: Role, action: ScreenAction, icon: String? = nil) {
            self.title = title
            self.role = role
            self.action = action
            self.icon = icon
        }
        /// The theme section.
        public var style: String {
            switch role {
            case .primary: return "ActionableButton.Primary"
            case .secondary: return "ActionableButton.Secondary"
            case .text: return "ActionableButton.Text"
            }
        }
    }

    /// The time left to wait.
    public struct Countdown: Sendable, Hashable {
        /// The time left, as text ("2 minutes and 3 seconds left").
        public let text: String
        /// The time left, in seconds.
        public let seconds: Int
        /// The whole wait, in seconds, when known.
        public let total: Int?
        /// Whether a bar shows the time left (BankID's QR code, which expires).
        public let showsProgress: Bool

        /// A countdown.
        public init(text: String, seconds: Int, total: Int? = nil, showsProgress: Bool = false) {
            (self.text, self.seconds, self.total, self.showsProgress) = (text, seconds, total, showsProgress)
        }

        /// The share of the wait that is left, from 1 down to 0 (`nil` when the whole wait is unknown).
        public var fractionLeft: Double? {
            guard let total, total > 0 else { return nil }
            return min(1, max(0, Double(seconds) / Double(total)))
        }
    }

    /// A message, styled by its class (`MessageView.*`).
    case message(text: String, style: String)
    /// A text between elements (BankID's "or"), in the screen's content style.
    case text(String)
    /// A form's title over its fields, when a step offers more than one form (Curity's section
    /// item), in the screen's header style (`headerTextAppearance`, `headerTextColorName`).
    case section(String)
    /// A text field; what the user types goes to ``TextField/item``.
    case textField(TextField)
    /// A checkbox; a tap toggles ``Checkbox/item``.
    case checkbox(Checkbox)
    /// A choice among values (a select field).
    case picker(Picker)
    /// A button.
    case button(Button)
    /// The options of a selector presented as tabs, the first selected (`TabView`); the selected
    /// option's own elements follow.
    case tabs(titles: [String], selected: Int)
    /// A spinner while the step waits (`LoadingIndicatorView`).
    case loadingIndicator
    /// The time left to wait.
    case countdown(Countdown)
    /// An image of the theme (BankID's logo), with what VoiceOver says of it.
    case image(name: String, label: String)
    /// A QR code: its data (drawn by the app) or the server's image of it.
    case qrCode(data: String?, image: KitLinkItem?)
    /// An image the step links to that is not a QR code (a picture of the server's), loaded
    /// through ``RemoteImages`` (`data:` or `https:` only); where it cannot be shown, a
    /// placeholder says why.
    case serverImage(KitLinkItem)
    /// A title that opens to show a text (`ExpandableView`; BankID's help).
    case expandable(title: String, body: String)
    /// A link of the step (`LinkView`).
    case link(title: String, action: ScreenAction)
}

extension ScreenItem {
    /// The theme section that styles the element (`nil`: the screen's own content style draws it).
    public var themeSection: String? {
        switch self {
        case .message(_, let style): return style
        case .textField(let field): return field.style
        case .checkbox(let box): return box.style
        case .picker(let picker): return picker.style
        case .button(let button): return button.style
        case .link: return "LinkView"
        case .tabs: return "TabView"
        case .loadingIndicator: return "LoadingIndicatorView"
        case .expandable: return "ExpandableView"
        case .image: return "HeaderView"
        case .text, .section, .countdown, .qrCode, .serverImage: return nil
        }
    }

    /// The name of the field this element edits, if it is a field.
    public var fieldName: String? {
        switch self {
        case .textField(let field): return field.name
        case .checkbox(let box): return box.name
        case .picker(let picker): return picker.name
        default: return nil
        }
    }
}

extension InfoMessageModel {
    /// The theme section of the message's style (``messageStyleAttribute``).
    public var themeSection: String { messageStyleAttribute.themeSection }
}
