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
/// ``ScreenBuilder`` makes it from a ``UIModel`` or a ``ProblemModel``; the kit's view
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
    /// Submits a form with what the user entered in its fields.
    case submit(FormModel)
    /// Chooses an option of a selector.
    case select(SelectorOptionModel)
    /// Opens a URL outside the app (BankID's app, the browser of an external-browser step).
    case open(URL)
    /// Follows a link of the step.
    case follow(LinkModel)
    /// Polls now.
    case poll
    /// Starts the passkey ceremony with an authenticator of `kind`.
    case passkey(WebAuthnAuthenticatorKind)
}

/// One element of a ``Screen``.
public enum ScreenItem: Sendable, Hashable {
    /// A text field.
    public struct TextField: Sendable, Hashable {
        /// What the system may fill in (AutoFill), from the field's type and kind.
        public enum ContentType: String, Sendable, CaseIterable {
            case username, password, newPassword, oneTimeCode, emailAddress, telephoneNumber, none
        }

        /// The field's form (submitted with ``ScreenAction/submit(_:)``).
        public let form: FormModel
        /// The field's name in the form.
        public let name: String
        public let label: String
        public let placeholder: String?
        /// The value shown at first (never a password).
        public let value: String?
        public let contentType: ContentType
        public let isSecure: Bool
        public let isRequired: Bool
        public let minLength: Int?
        public let maxLength: Int?
        /// The server's complaint about the last value, shown under the field.
        public let error: String?
        /// The theme section (the theme's `huiTextField`).
        public let style: String
    }

    /// A checkbox.
    public struct Checkbox: Sendable, Hashable {
        public let form: FormModel
        public let name: String
        public let label: String
        public let isChecked: Bool
        /// Shown but not changeable (a scope the client must have).
        public let isReadonly: Bool
        public let error: String?
        public let style: String
    }

    /// A choice among values (a select field).
    public struct Picker: Sendable, Hashable {
        public let form: FormModel
        public let name: String
        public let label: String
        public let options: [FieldOptionModel]
        public let error: String?
        public let style: String
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
    case qrCode(data: String?, image: LinkModel?)
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

extension MessageModel {
    /// The theme section of the message's style (``messageStyleAttribute``).
    public var themeSection: String { messageStyleAttribute.themeSection }
}
