import HaapiSDK

/// The kind of a form field, from its wire `type`.
public enum FieldKind: Sendable, Hashable {
    /// Text input; `textKind` is the wire `kind` (`number`, `email`, `tel`, `url`, `color`, ...).
    case text(textKind: String?)
    /// A username.
    case username
    /// A password: never echoed.
    case password
    /// A value sent unchanged; not shown.
    case hidden
    /// A choice from ``FieldModel/options``.
    case select
    /// A checkbox.
    case checkbox
    /// Filled by the client, not the user (`_resume_nonce`, a WebAuthn `credential`).
    case context
    /// An unknown type, kept: render it as text where possible.
    case other(String)

    init(_ field: any FormField) {
        switch field {
        case let text as TextFormField: self = .text(textKind: text.kind?.rawValue)
        case is UsernameFormField: self = .username
        case is PasswordFormField: self = .password
        case is HiddenFormField: self = .hidden
        case is SelectFormField: self = .select
        case is CheckboxFormField: self = .checkbox
        case is ContextFormField: self = .context
        default: self = .other(field.type.rawValue)
        }
    }
}

/// Why the server refused a field's value (from an invalid-input problem).
public struct FieldErrorModel: Sendable, Hashable {
    /// `missing`, `invalidValue`, or another reason.
    public let reason: String?
    /// The text to show next to the field.
    public let detail: String?
}

/// An option of a select field.
public struct FieldOptionModel: Sendable, Hashable {
    /// The text to show.
    public let label: String
    /// The value to submit.
    public let value: String
    /// Whether it is the current choice.
    public let isSelected: Bool
}

/// A form field as a UI shows it.
public struct FieldModel: Sendable, Hashable {
    /// The field as received.
    public let field: any FormField
    /// The name its value is submitted under.
    public var name: String { field.name }
    /// The kind of input.
    public let kind: FieldKind
    /// The label: the server's, else the placeholder, else the name.
    public var label: String { field.label?.literal ?? field.placeholder?.literal ?? field.name }
    /// Placeholder text.
    public var placeholder: String? { field.placeholder?.literal }
    /// Whether a value is required.
    public var isRequired: Bool { field.isRequired }
    /// The current value: what the user entered last (never for passwords), else the server's default.
    public let value: String?
    /// Whether the input must be hidden (passwords).
    public var isSecure: Bool { kind == .password }
    /// Whether the user fills it in (not hidden, not context).
    public var isUserInput: Bool { field.isUserInput }
    /// Whether the field is hidden: sent as the server gave it, never shown.
    public var isHidden: Bool { field.isHidden }
    /// For select fields: the options.
    public let options: [FieldOptionModel]
    /// For checkboxes: whether it is checked.
    public let isChecked: Bool
    /// For checkboxes: whether the user may not change it.
    public var isReadonly: Bool { (field as? CheckboxFormField)?.readonly ?? false }
    /// For text: the shortest accepted length.
    public var minLength: Int? { (field as? any TextLengthRestriction)?.minLength }
    /// For text: the longest accepted length.
    public var maxLength: Int? { (field as? any TextLengthRestriction)?.maxLength }
    /// The server's complaint about the last value, from an invalid-input problem.
    public let error: FieldErrorModel?

    /// A model of `field`, with the value the user entered last and the server's complaint, if any.
    public init(_ field: any FormField, enteredValue: String? = nil, error: FieldErrorModel? = nil) {
        self.field = field
        kind = FieldKind(field)
        self.error = error
        let current = kind == .password ? nil : (enteredValue ?? field.defaultValue)
        value = kind == .checkbox ? field.value ?? "on" : current
        isChecked = kind == .checkbox ? (enteredValue.map { !$0.isEmpty } ?? (field as? CheckboxFormField)?.checked ?? false) : false
        options = ((field as? SelectFormField)?.options ?? []).map { option in
            FieldOptionModel(label: option.label.literal, value: option.value, isSelected: current.map { option.value == $0 } ?? option.selected)
        }
    }

    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.field.isEqualTo(rhs.field) && lhs.value == rhs.value && lhs.isChecked == rhs.isChecked && lhs.options == rhs.options && lhs.error == rhs.error
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(field.rawJSON)
        hasher.combine(value)
        hasher.combine(error)
    }
}
