import OAuthCore

/// A field of a form (the seeds' `FormField` and its typed variants), with every member kept.
public struct FormField: RawJsonRepresentable, Hashable {
    /// An option of a `select` field (the seeds' `SelectFormField.Option`).
    public struct Option: RawJsonRepresentable, Hashable {
        /// The text to show.
        public let label: String
        /// The value to submit.
        public let value: String
        /// Whether it is the initial choice.
        public let isSelected: Bool
        public let rawJSON: JSONValue

        init(_ reader: JSONReader) throws {
            value = try reader.optionalString("value") ?? ""
            label = try reader.optionalString("label") ?? value
            isSelected = try reader.optionalBool("selected") ?? false
            rawJSON = reader.raw
        }
    }

    /// The name to submit the value under.
    public let name: String
    /// The field type; unknown types are kept (render them as text).
    public let type: FormFieldType
    /// The label.
    public let label: String?
    /// Placeholder text.
    public let placeholder: String?
    /// The value the server gave: fixed for hidden fields, the initial value otherwise.
    public let value: String?
    /// Whether a value is required (default `true`).
    public let isRequired: Bool
    /// For text fields: the kind of text (`number`, `email`, `tel`, `url`, `color`, ...).
    public let kind: String?
    /// For text fields: the shortest accepted length.
    public let minLength: Int?
    /// For text fields: the longest accepted length.
    public let maxLength: Int?
    /// For select fields: the options.
    public let options: [Option]
    /// For checkboxes: whether it starts checked.
    public let isChecked: Bool
    /// For checkboxes: whether the user may not change it.
    public let isReadonly: Bool
    public let rawJSON: JSONValue

    init(_ reader: JSONReader) throws {
        name = try reader.string("name")
        type = FormFieldType(rawValue: try reader.optionalString("type") ?? "text")
        label = try reader.optionalString("label")
        placeholder = try reader.optionalString("placeholder")
        value = try reader.optionalString("value")
        isRequired = try reader.optionalBool("required") ?? true
        kind = try reader.optionalString("kind")
        minLength = try reader.optionalInt("minLength")
        maxLength = try reader.optionalInt("maxLength")
        options = try reader.objects("options", Option.init)
        isChecked = try reader.optionalBool("checked") ?? false
        isReadonly = try reader.optionalBool("readonly") ?? false
        rawJSON = reader.raw
    }

    /// Whether the field is hidden: sent as the server gave it, never shown (the seeds' `HiddenFormField`).
    public var isHidden: Bool { type == .hidden }

    /// Whether the user (rather than the server or the client) provides the value.
    public var isUserInput: Bool { type != .hidden && type != .context }

    /// The value submitted when the caller gives none: a hidden field's value, the selected
    /// option, a checked checkbox's value (`on` by default), or the initial value.
    public var defaultValue: String? {
        switch type {
        case .select: return options.first(where: \.isSelected)?.value ?? value
        case .checkbox: return isChecked ? (value ?? "on") : nil
        default: return value
        }
    }
}
