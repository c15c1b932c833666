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

    /// Every element, in order.
    public var items: [ScreenItem] { messages + content + links }

    /// The buttons, in order.
    public var buttons: [ScreenItem.Button] {
        items.compactMap { if case .button(let button) = $0 { return button } else { return nil } }
    }

    /// The text fields, in order.
    public var textFields: [ScreenItem.TextField] {
        items.compactMap { if case .textField(let field) = $0 { return field } else { return nil } }
    }
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

    /// What identifies the action: its kind, and the element's key, title or target.
    private var identity: String {
        switch self {
        case .submit(let button): return "submit \(button.key) \(button.label)"
        case .select(let option): return "select \(option.title) \(option.type ?? "")"
        case .open(let url): return "open \(url.absoluteString)"
        case .follow(let link): return "follow \(link.rel) \(link.href)"
        case .poll: return "poll"
        case .passkey(let kind): return "passkey \(kind.rawValue)"
        }
    }

    public static func == (lhs: ScreenAction, rhs: ScreenAction) -> Bool { lhs.identity == rhs.identity }
    public func hash(into hasher: inout Hasher) { hasher.combine(identity) }
}

/// One element of a ``Screen``. Fields keep the model element they edit (``TextField/item``):
/// a screen writes what the user enters there; two screens are equal when they show the same.
public enum ScreenItem: Sendable, Hashable {
    /// A text field.
    public struct TextField: Sendable, Hashable {
        public typealias ContentType = InputTextConfiguration.ContentType

        /// The element it edits.
        public let item: any InteractionItemInputTextModel
        /// The field's name in its form.
        public let name: String
        public let label: String
        public let placeholder: String?
        /// The value shown at first (never a password).
        public let value: String?
        public let contentType: ContentType
        /// The keyboard to show.
        public let keyboard: InputTextConfiguration.Keyboard
        public let isSecure: Bool
        public let isRequired: Bool
        public let minLength: Int?
        public let maxLength: Int?
        /// The server's complaint about the last value, shown under the field.
        public let error: String?
        /// The theme section (the theme's `huiTextField`).
        public let style: String

        public static func == (lhs: Self, rhs: Self) -> Bool {
            (lhs.name, lhs.label, lhs.placeholder, lhs.value, lhs.contentType, lhs.keyboard) == (rhs.name, rhs.label, rhs.placeholder, rhs.value, rhs.contentType, rhs.keyboard)
                && (lhs.isSecure, lhs.isRequired, lhs.minLength, lhs.maxLength, lhs.error, lhs.style)
                    == (rhs.isSecure, rhs.isRequired, rhs.minLength, rhs.maxLength, rhs.error, rhs.style)
        }
        public func hash(into hasher: inout Hasher) { hasher.combine(name) }
    }

    /// A checkbox.
    public struct Checkbox: Sendable, Hashable {
        /// The element it edits.
        public let item: any InteractionItemCheckboxModel
        public let name: String
        public let label: String
        public let isChecked: Bool
        /// Shown but not changeable (a scope the client must have).
        public let isReadonly: Bool
        public let error: String?
        public let style: String

        public static func == (lhs: Self, rhs: Self) -> Bool {
            (lhs.name, lhs.label, lhs.isChecked, lhs.isReadonly, lhs.error, lhs.style) == (rhs.name, rhs.label, rhs.isChecked, rhs.isReadonly, rhs.error, rhs.style)
        }
        public func hash(into hasher: inout Hasher) { hasher.combine(name) }
    }

    /// A choice among values (a select field).
    public struct Picker: Sendable, Hashable {
        /// One value to choose.
        public struct Option: Sendable, Hashable {
            public let label: String
            public let value: String
            public let isSelected: Bool
        }

        /// The element it edits.
        public let item: any InteractionItemSelectModel
        public let name: String
        public let label: String
        public let options: [Option]
        public let error: String?
        public let style: String

        public static func == (lhs: Self, rhs: Self) -> Bool {
            (lhs.name, lhs.label, lhs.options, lhs.error, lhs.style) == (rhs.name, rhs.label, rhs.options, rhs.error, rhs.style)
        }
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

        public let title: String
        public let role: Role
        public let action: ScreenAction

        /// A button.
        public init(title: String, role: Role, action: ScreenAction) {
            self.title = title
            self.role = role
            self.action = action
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

    /// A message, styled by its class (`MessageView.*`).
    case message(text: String, style: String)
    /// A text between elements (BankID's "or"), in the screen's content style.
    case text(String)
    /// A form's title over its fields, when a step offers more than one form (Curity's section
    /// item), in the screen's header style (`headerTextAppearance`, `headerTextColorName`).
    case section(String)
    case textField(TextField)
    case checkbox(Checkbox)
    case picker(Picker)
    case button(Button)
    /// The options of a selector presented as tabs, the first selected (`TabView`); the selected
    /// option's own elements follow.
    case tabs(titles: [String], selected: Int)
    /// A spinner while the step waits (`LoadingIndicatorView`).
    case loadingIndicator
    /// The time left to wait, as text, and in seconds.
    case countdown(text: String, seconds: Int)
    /// A QR code: its data (drawn by the app) or the server's image of it.
    case qrCode(data: String?, image: KitLinkItem?)
    /// A title that opens to show a text (`ExpandableView`; BankID's help).
    case expandable(title: String, body: String)
    /// A link of the step (`LinkView`).
    case link(title: String, action: ScreenAction)
}

extension ScreenItem {
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
