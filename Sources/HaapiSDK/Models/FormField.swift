import OAuthCore

/// A field of a form (the seeds' `FormField`). Switch on the concrete type: ``TextFormField``,
/// ``UsernameFormField``, ``PasswordFormField``, ``SelectFormField``, ``CheckboxFormField``,
/// ``HiddenFormField``, ``ContextFormField``, or ``GenericFormField`` for a type this SDK does
/// not know (shown as text).
public protocol FormField: Codable, Equatable, Sendable {
    /// The name to submit the value under.
    var name: String { get }
    /// The label.
    var label: Message? { get }
    /// Placeholder text.
    var placeholder: Message? { get }
    /// Whether a value is required (default `true`).
    var isRequired: Bool { get }
    /// Whether `other` is the same field.
    func isEqualTo(_ other: any FormField) -> Bool
    /// The field as received (models of this SDK keep it).
    var rawJSON: JSONValue { get }
}

extension FormField {
    /// Whether `other` is a field of the same type, equal to this one.
    public func isEqualTo(_ other: any FormField) -> Bool { (other as? Self) == self }
    /// `true`: a field is required unless it says otherwise.
    public var isRequired: Bool { true }
    /// `null`: only a field of this SDK keeps its JSON.
    public var rawJSON: JSONValue { .null }

    /// The wire `type`.
    public var type: FormFieldType {
        switch self {
        case is TextFormField: return .text
        case is UsernameFormField: return .username
        case is PasswordFormField: return .password
        case is SelectFormField: return .select
        case is CheckboxFormField: return .checkbox
        case is HiddenFormField: return .hidden
        case is ContextFormField: return .context
        default: return FormFieldType(rawValue: rawJSON["type"]?.stringValue ?? "text")
        }
    }

    /// The value the server gave: fixed for hidden fields, the initial value otherwise.
    public var value: String? {
        // Read from the JSON: a concrete field's own `value` would resolve to this property here.
        (try? JSONReader(members: rawJSON.objectValue ?? [:], path: "").optionalString("value")) ?? nil
    }

    /// Whether the field is hidden: sent as the server gave it, never shown.
    public var isHidden: Bool { self is HiddenFormField }

    /// Whether the user (rather than the server or the client) provides the value.
    public var isUserInput: Bool { !(self is HiddenFormField) && !(self is ContextFormField) }

    /// The value submitted when the caller gives none: a hidden field's value, the selected
    /// option, a checked checkbox's value (`on` by default), or the initial value.
    public var defaultValue: String? {
        switch self {
        case let field as SelectFormField: return field.options.first(where: \.selected)?.value ?? field.value
        case let field as CheckboxFormField: return field.checked ? (field.value ?? "on") : nil
        default: return value
        }
    }
}

/// A field with length limits (text, username and password fields).
public protocol TextLengthRestriction {
    /// The shortest accepted length.
    var minLength: Int? { get }
    /// The longest accepted length.
    var maxLength: Int? { get }
}

/// Not API: the members every field has, read once (a field's synthesized `==` and hash come
/// from here and its own members).
public struct _FieldParts: Sendable, Hashable {
    let name: String
    let label: Message?
    let placeholder: Message?
    let isRequired: Bool
    let value: String?
    let minLength: Int?
    let maxLength: Int?
    let raw: JSONValue

    /// The parts of a field made from values; `extra` are the type's own wire members.
    init(
        type: FormFieldType, name: String, label: Message? = nil, placeholder: Message? = nil, isRequired: Bool = true,
        value: String? = nil,
        minLength: Int? = nil, maxLength: Int? = nil, extra: [String: JSONValue] = [:]
    ) {
        (self.name, self.label, self.placeholder, self.isRequired, self.value) = (name, label, placeholder, isRequired, value)
        (self.minLength, self.maxLength) = (minLength, maxLength)
        var members = extra
        members["type"] = .string(type.rawValue)
        members["name"] = .string(name)
        members["label"] = label?.json
        members["placeholder"] = placeholder?.json
        members["value"] = value.map(JSONValue.string)
        members["minLength"] = minLength.map(JSONValue.integer)
        members["maxLength"] = maxLength.map(JSONValue.integer)
        if !isRequired { members["required"] = .bool(false) }
        raw = .object(members)
    }

    init(_ reader: JSONReader) throws {
        name = try reader.string("name")
        label = try reader.optionalMessage("label")
        placeholder = try reader.optionalMessage("placeholder")
        isRequired = try reader.optionalBool("required") ?? true
        value = try reader.optionalString("value")
        minLength = try reader.optionalCount("minLength")
        maxLength = try reader.optionalCount("maxLength")
        raw = reader.raw
    }
}

extension FormField where Self: _PartsHolder, _Parts == _FieldParts {
    /// The name the value is submitted under.
    public var name: String { _parts.name }
    /// The field's label, if it has one.
    public var label: Message? { _parts.label }
    /// The hint shown in the empty field, if any.
    public var placeholder: Message? { _parts.placeholder }
    /// Whether a value is required (`required`; `true` when absent).
    public var isRequired: Bool { _parts.isRequired }
    /// The value the server gave, if any: the initial value, or for a checkbox the value
    /// submitted when checked (`on` when absent).
    public var value: String? { _parts.value }
    /// The field exactly as received: nothing of it is lost.
    public var rawJSON: JSONValue { _parts.raw }

    /// Decodes a field of this type.
    /// - Throws: ``HaapiModelError`` when it is malformed or its `type` is another.
    public init(from decoder: any Decoder) throws { self = try decodeField(decoder, as: Self.self) }
}

extension TextLengthRestriction where Self: _PartsHolder, _Parts == _FieldParts {
    /// The longest accepted length, if the server gave one.
    public var maxLength: Int? { _parts.maxLength }
    /// The shortest accepted length, if the server gave one.
    public var minLength: Int? { _parts.minLength }
}

/// Reads a field by its wire `type` (absent: text).
func decodeFormField(_ reader: JSONReader) throws -> any FormField {
    let parts = try _FieldParts(reader)
    switch FormFieldType(rawValue: try reader.optionalString("type") ?? "text") {
    case .text: return TextFormField(parts, kind: try reader.optionalString("kind").map(TextFormField.Kind.init(rawValue:)))
    case .username: return UsernameFormField(parts)
    case .password: return PasswordFormField(parts)
    case .select: return SelectFormField(parts, options: try reader.objects("options", SelectFormField.Option.init))
    case .checkbox:
        return CheckboxFormField(
            parts, checked: try reader.optionalBool("checked") ?? false, readonly: try reader.optionalBool("readonly") ?? false)
    case .hidden: return HiddenFormField(parts)
    case .context: return ContextFormField(parts)
    default: return GenericFormField(parts)
    }
}

/// A text field; ``kind`` says what text (`number`, `email`, `tel`, `url`, `color`, ...).
public struct TextFormField: FormField, TextLengthRestriction, _PartsHolder, _RawJSONEncodable, Hashable {
    /// The kind of text.
    @frozen public enum Kind: OpenName, Codable {
        /// A number (`number`).
        case number
        /// An e-mail address (`email`).
        case email
        /// A URL (`url`).
        case url
        /// A telephone number (`tel`).
        case tel
        /// A colour (`color`).
        case color
        /// A kind this SDK has no case for, as received.
        case unknown(value: String)

        /// The kind named `rawValue`; ``unknown(value:)`` for a name this SDK does not know.
        public init(rawValue: String) { self = Self.named(rawValue) ?? .unknown(value: rawValue) }
        /// The wire name (an unknown kind's as received).
        public var rawValue: String { knownName ?? { if case .unknown(let value) = self { return value } else { return "" } }() }
    }

    /// Not API: what every field has, read once (see `_PartsHolder`).
    public let _parts: _FieldParts
    /// What text the field takes (`kind`), if the server said.
    public let kind: Kind?

    init(_ parts: _FieldParts, kind: Kind?) { (_parts, self.kind) = (parts, kind) }
}

extension TextFormField.Kind: WireNames {
    static let knownCases: [TextFormField.Kind] = [.number, .email, .url, .tel, .color]
    var knownName: String? {
        switch self {
        case .number: return "number"
        case .email: return "email"
        case .url: return "url"
        case .tel: return "tel"
        case .color: return "color"
        default: return nil
        }
    }
}

/// A username field.
public struct UsernameFormField: FormField, TextLengthRestriction, _PartsHolder, _RawJSONEncodable, Hashable {
    /// Not API: what every field has, read once (see `_PartsHolder`).
    public let _parts: _FieldParts

    init(_ parts: _FieldParts) { _parts = parts }
}

/// A password field: never echoed.
public struct PasswordFormField: FormField, TextLengthRestriction, _PartsHolder, _RawJSONEncodable, Hashable {
    /// Not API: what every field has, read once (see `_PartsHolder`).
    public let _parts: _FieldParts

    init(_ parts: _FieldParts) { _parts = parts }
}

/// A choice from ``options``.
public struct SelectFormField: FormField, _PartsHolder, _RawJSONEncodable, Hashable {
    /// An option of a select field.
    public struct Option: Codable, Hashable, Sendable, RawJsonRepresentable, _RawJSONEncodable {
        /// The text to show.
        public let label: Message
        /// The value to submit.
        public let value: String
        /// Whether it is the initial choice.
        public let selected: Bool
        /// The option exactly as received.
        public let rawJSON: JSONValue

        init(label: Message, value: String, selected: Bool) {
            (self.label, self.value, self.selected) = (label, value, selected)
            rawJSON = .object(["label": label.json, "value": .string(value), "selected": .bool(selected)])
        }

        init(_ reader: JSONReader) throws {
            value = try reader.optionalString("value") ?? ""
            label = try reader.optionalMessage("label") ?? Message(literal: value)
            selected = try reader.optionalBool("selected") ?? false
            rawJSON = reader.raw
        }

        /// Decodes an option; a missing `value` is empty, a missing `label` is the value.
        public init(from decoder: any Decoder) throws { try self.init(JSONReader(decoding: decoder)) }
    }

    /// Not API: what every field has, read once (see `_PartsHolder`).
    public let _parts: _FieldParts
    /// The options, in order.
    public let options: [Option]

    init(_ parts: _FieldParts, options: [Option]) { (_parts, self.options) = (parts, options) }
}

/// A checkbox.
public struct CheckboxFormField: FormField, _PartsHolder, _RawJSONEncodable, Hashable {
    /// Not API: what every field has, read once (see `_PartsHolder`).
    public let _parts: _FieldParts
    /// Whether it starts checked.
    public let checked: Bool
    /// Whether the user may not change it.
    public let readonly: Bool

    init(_ parts: _FieldParts, checked: Bool, readonly: Bool) { (_parts, self.checked, self.readonly) = (parts, checked, readonly) }
}

/// Filled by the client, not the user (`_resume_nonce`, a WebAuthn `credential`).
public struct ContextFormField: FormField, _PartsHolder, _RawJSONEncodable, Hashable {
    /// Not API: what every field has, read once (see `_PartsHolder`).
    public let _parts: _FieldParts

    init(_ parts: _FieldParts) { _parts = parts }
}

/// A value sent as the server gave it, never shown.
public struct HiddenFormField: FormField, _PartsHolder, _RawJSONEncodable, Hashable {
    /// Not API: what every field has, read once (see `_PartsHolder`).
    public let _parts: _FieldParts
    /// The value to send (empty when the server gave none).
    public var value: String { _parts.value ?? "" }

    init(_ parts: _FieldParts) { _parts = parts }
}

/// A field of a type this SDK does not know (``type`` says which), kept whole: show it as text.
public struct GenericFormField: FormField, TextLengthRestriction, _PartsHolder, _RawJSONEncodable, Hashable {
    /// Not API: what every field has, read once (see `_PartsHolder`).
    public let _parts: _FieldParts

    init(_ parts: _FieldParts) { _parts = parts }
}

/// Decodes a field of the type `T` (its wire `type` must say so).
private func decodeField<T: FormField>(_ decoder: any Decoder, as _: T.Type) throws -> T {
    try decodeModel(decoder, by: { try decodeFormField(JSONReader($0, path: "$")) }, at: "type") { "a field of type \($0.type.rawValue)" }
}

extension Array where Element == any FormField {
    /// Whether two field lists are the same, field by field.
    func isEqualTo(_ other: [any FormField]) -> Bool {
        count == other.count && zip(self, other).allSatisfy { $0.isEqualTo($1) }
    }
}
