import Foundation
import OAuthCore

/// An action the user (or the client) can take on a step (the seeds' `Action`). Switch on the
/// concrete type: ``FormAction``, ``SelectorAction``, ``ClientOperationAction``, or
/// ``GenericAction`` for a template this SDK does not know (kept whole).
public protocol Action: Codable, Equatable, Sendable {
    /// What the action does.
    var kind: ActionKind { get }
    /// The title to show.
    var title: Message? { get }
    /// Whether `other` is the same action.
    func isEqualTo(_ other: any Action) -> Bool
    /// The action as received (models of this SDK keep it).
    var rawJSON: JSONValue { get }
}

extension Action {
    /// Whether `other` is an action of the same type, equal to this one.
    public func isEqualTo(_ other: any Action) -> Bool { (other as? Self) == self }
    /// `null`: only an action of this SDK keeps its JSON.
    public var rawJSON: JSONValue { .null }

    /// How the action is presented and submitted.
    public var template: ActionTemplate {
        switch self {
        case is FormAction: return .form
        case is SelectorAction: return .selector
        case is ClientOperationAction: return .clientOperation
        default: return ActionTemplate(rawValue: rawJSON["template"]?.stringValue ?? "")
        }
    }

    /// The form model, if this is a form action.
    public var form: FormActionModel? { (self as? FormAction)?.model }
    /// The selector model, if this is a selector action.
    public var selector: SelectorActionModel? { (self as? SelectorAction)?.model }
    /// The client-operation model, if this is a client-operation action.
    public var clientOperation: (any ClientOperationActionModelRepresentation)? { (self as? ClientOperationAction)?.model }
    /// `properties.authenticatorType`, on authenticator options.
    public var authenticatorType: String? { rawJSON["properties"]?["authenticatorType"]?.stringValue }
    /// The title's text, if there is a title.
    public var titleText: String? { title?.literal }
}

/// Reads an action by its `template`.
func decodeAction(_ reader: JSONReader) throws -> any Action {
    let kind = ActionKind(rawValue: try reader.optionalString("kind") ?? "")
    let title = try reader.optionalMessage("title")
    let model = try reader.optionalObject("model")
    let properties = try reader.optionalObject("properties")
    func required(_ what: String) throws -> JSONReader {
        guard let model else { throw HaapiModelError(.missingMember, path: reader.child("model"), "a \(what) action has no model") }
        return model
    }
    let parts = _ActionParts(kind: kind, title: title, raw: reader.raw)
    switch ActionTemplate(rawValue: try reader.optionalString("template") ?? "") {
    case .form:
        return FormAction(parts, model: try FormActionModel(required("form")), properties: try properties.map(FormAction.Properties.init))
    case .selector:
        return SelectorAction(
            parts, model: try SelectorActionModel(required("selector")),
            properties: properties.map { SelectorAction.Properties(rawJSON: $0.raw) })
    case .clientOperation:
        return ClientOperationAction(
            parts, model: try decodeClientOperationModel(required("client-operation")),
            properties: properties.map { ClientOperationAction.Properties(rawJSON: $0.raw) })
    default:
        return GenericAction(parts)
    }
}

extension JSONReader {
    /// An optional array of actions; absent means empty.
    func actions(_ key: String) throws -> [any Action] { try objects(key, decodeAction) }
}

/// Decodes an action of the type `T` (its template must say so).
func decodeTypedAction<T: Action>(_ decoder: any Decoder, as _: T.Type) throws -> T {
    try decodeModel(decoder, by: { try decodeAction(JSONReader($0, path: "$")) }, at: "template") {
        "an action of template \($0.template.rawValue)"
    }
}

extension Array where Element == any Action {
    /// Whether two action lists are the same, action by action.
    func isEqualTo(_ other: [any Action]) -> Bool {
        count == other.count && zip(self, other).allSatisfy { $0.isEqualTo($1) }
    }

    /// Hashes each action's JSON.
    func hash(into hasher: inout Hasher) {
        hasher.combine(count)
        for action in self { hasher.combine(action.rawJSON) }
    }
}

/// Not API: the members every action has, read once (an action's synthesized `==` and hash come
/// from here and its own members).
public struct _ActionParts: Sendable, Hashable {
    let kind: ActionKind
    let title: Message?
    let raw: JSONValue
}

extension Action where Self: RawJsonRepresentable & _PartsHolder, _Parts == _ActionParts {
    /// What the action does (`login`, `cancel`, ...).
    public var kind: ActionKind { _parts.kind }
    /// The title to show, if the action has one.
    public var title: Message? { _parts.title }
    /// The action exactly as received: nothing of it is lost.
    public var rawJSON: JSONValue { _parts.raw }

    /// Decodes an action of this type's template.
    /// - Throws: ``HaapiModelError`` when it is malformed or of another template.
    public init(from decoder: any Decoder) throws { self = try decodeTypedAction(decoder, as: Self.self) }
}

/// An action's `properties`, kept as JSON.
public protocol ActionProperties: Codable, Hashable, Sendable {}

extension ActionProperties where Self: _RawJSONEncodable {
    /// The properties as JSON text (sorted keys).
    public var rawJsonString: String { rawJSONText }
}

/// A form to fill in and submit (template `form`).
public struct FormAction: Action, _PartsHolder, Hashable, RawJsonRepresentable, _RawJSONEncodable {
    /// A form action's `properties`: the authenticator type on authenticator options.
    public struct Properties: ActionProperties, _RawJSONEncodable {
        /// `html-form`, `sms`, `bankid`, ... (empty when not given).
        public let authenticatorType: String
        /// The properties exactly as received.
        public let rawJSON: JSONValue

        init(authenticatorType: String, rawJSON: JSONValue) { (self.authenticatorType, self.rawJSON) = (authenticatorType, rawJSON) }

        init(_ reader: JSONReader) throws {
            authenticatorType = try reader.optionalString("authenticatorType") ?? ""
            rawJSON = reader.raw
        }

        /// Decodes the properties; a missing `authenticatorType` is empty.
        public init(from decoder: any Decoder) throws { try self.init(JSONReader(decoding: decoder)) }
    }

    /// Not API: what every action has, read once (see `_PartsHolder`).
    public let _parts: _ActionParts
    /// The form: its fields, method, address and what follows it.
    public let model: FormActionModel
    /// The action's `properties`, if it has any.
    public let properties: Properties?

    init(_ parts: _ActionParts, model: FormActionModel, properties: Properties?) {
        (_parts, self.model, self.properties) = (parts, model, properties)
    }
}

/// A choice between nested actions (template `selector`).
public struct SelectorAction: Action, _PartsHolder, Hashable, RawJsonRepresentable, _RawJSONEncodable {
    /// A selector action's `properties`, as JSON.
    public struct Properties: ActionProperties, _RawJSONEncodable {
        /// The properties exactly as received.
        public let rawJSON: JSONValue

        init(rawJSON: JSONValue) { self.rawJSON = rawJSON }
        /// Decodes the properties (any JSON object).
        public init(from decoder: any Decoder) throws { rawJSON = try JSONReader(decoding: decoder).raw }
    }

    /// Not API: what every action has, read once (see `_PartsHolder`).
    public let _parts: _ActionParts
    /// The options to choose from.
    public let model: SelectorActionModel
    /// The action's `properties`, if it has any.
    public let properties: Properties?

    init(_ parts: _ActionParts, model: SelectorActionModel, properties: Properties?) {
        (_parts, self.model, self.properties) = (parts, model, properties)
    }
}

/// An operation the client performs itself (template `client-operation`): opening a browser or
/// the BankID app, a WebAuthn ceremony, ...
public struct ClientOperationAction: Action, _PartsHolder, Hashable, RawJsonRepresentable, _RawJSONEncodable {
    /// A client-operation action's `properties`, as JSON.
    public struct Properties: ActionProperties, _RawJSONEncodable {
        /// The properties exactly as received.
        public let rawJSON: JSONValue

        init(rawJSON: JSONValue) { self.rawJSON = rawJSON }
        /// Decodes the properties (any JSON object).
        public init(from decoder: any Decoder) throws { rawJSON = try JSONReader(decoding: decoder).raw }
    }

    /// Not API: what every action has, read once (see `_PartsHolder`).
    public let _parts: _ActionParts
    /// The operation: a ``BankIdClientOperationActionModel``, an ``ExternalBrowserClientOperationActionModel``, ...
    public let model: any ClientOperationActionModelRepresentation
    /// The action's `properties`, if it has any.
    public let properties: Properties?

    init(_ parts: _ActionParts, model: any ClientOperationActionModelRepresentation, properties: Properties?) {
        (_parts, self.model, self.properties) = (parts, model, properties)
    }

    /// Whether the two are the same: the same JSON.
    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.rawJSON == rhs.rawJSON }
    /// Hashes the JSON.
    public func hash(into hasher: inout Hasher) { hasher.combine(rawJSON) }
}

/// An action of a template this SDK does not model, kept whole (``rawJSON``; its model is
/// ``model``).
public struct GenericAction: Action, _PartsHolder, Hashable, RawJsonRepresentable, _RawJSONEncodable {
    /// Not API: what every action has, read once (see `_PartsHolder`).
    public let _parts: _ActionParts

    init(_ parts: _ActionParts) { _parts = parts }

    /// The action's `model` as received, if it had one.
    public var model: JSONValue? { rawJSON["model"] }

    /// The launch this action asks for, when it is one in an older shape: Curity's legacy
    /// `launch` template (or any whose kind is `external-browser`) with an `href` in its model.
    /// Such an action is an external-browser operation in all but name: open `href`, come back
    /// with `_resume_nonce`, submit the continue action.
    public var launch: LaunchActionModel? {
        guard kind == .externalBrowser || template == .launch, let model, let reader = try? JSONReader(model, path: "model") else {
            return nil
        }
        return try? LaunchActionModel(reader)
    }
}

/// The model of a launch action in an older shape (see ``GenericAction/launch``).
public struct LaunchActionModel: Sendable, Hashable {
    /// What to open.
    public let href: String
    /// The button's title.
    public let actionTitle: Message?
    /// What to submit once the browser comes back (with `_resume_nonce`).
    public let continueActions: [any Action]
    /// What to submit when the launch fails.
    public let errorActions: [any Action]
    /// The model exactly as received.
    public let rawJSON: JSONValue

    init(_ reader: JSONReader) throws {
        href = try reader.string("href")
        actionTitle = try reader.optionalMessage("actionTitle")
        continueActions = try reader.actions("continueActions")
        errorActions = try reader.actions("errorActions")
        rawJSON = reader.raw
    }

    /// Whether the two are the same: the same JSON.
    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.rawJSON == rhs.rawJSON }
    /// Hashes the JSON.
    public func hash(into hasher: inout Hasher) { hasher.combine(rawJSON) }
}

/// What an action or a link holds (the seeds' `RepresentationActionModel`): a
/// ``FormActionModel``, a ``SelectorActionModel``, a client operation's model, or a ``Link``.
public protocol RepresentationActionModel: Codable, Equatable, Sendable {}

/// A form to submit (the seeds' `FormActionModel`).
public struct FormActionModel: RepresentationActionModel, Hashable, RawJsonRepresentable, _RawJSONEncodable {
    /// The submit button's title.
    public let actionTitle: Message?
    /// The actions offered after submitting, when the server answers with a continue-same-step.
    public let continueActions: [any Action]
    /// The actions offered when the operation fails.
    public let errorActions: [any Action]
    /// The fields.
    public let fields: [any FormField]
    /// The body's media type (default `application/x-www-form-urlencoded`; WebAuthn uses `application/json`).
    public let type: String
    /// The HTTP method (default `GET`).
    public let method: String
    /// Where to submit; may be relative to the server's base URL.
    public let href: String
    /// The form exactly as received.
    public let rawJSON: JSONValue

    init(
        actionTitle: Message?, continueActions: [any Action], errorActions: [any Action], fields: [any FormField], type: String?,
        method: String,
        href: String
    ) {
        (self.actionTitle, self.continueActions, self.errorActions, self.fields) = (actionTitle, continueActions, errorActions, fields)
        (self.type, self.method, self.href) = (type ?? "application/x-www-form-urlencoded", method.uppercased(), href)
        var members: [String: JSONValue] = ["href": .string(href), "method": .string(self.method), "type": .string(self.type)]
        members["actionTitle"] = actionTitle?.json
        members.setList("fields", fields.map(\.rawJSON))
        members.setList("continueActions", continueActions.map(\.rawJSON))
        members.setList("errorActions", errorActions.map(\.rawJSON))
        rawJSON = .object(members)
    }

    init(_ reader: JSONReader) throws {
        href = try reader.string("href")
        method = (try reader.optionalString("method") ?? "GET").uppercased()
        type = try reader.optionalString("type") ?? "application/x-www-form-urlencoded"
        actionTitle = try reader.optionalMessage("actionTitle")
        fields = try reader.objects("fields", decodeFormField)
        continueActions = try reader.actions("continueActions")
        errorActions = try reader.actions("errorActions")
        rawJSON = reader.raw
    }

    /// Decodes a form: `href` is required; `method` defaults to `GET`, `type` to `application/x-www-form-urlencoded`.
    /// - Throws: ``HaapiModelError`` when it is malformed.
    public init(from decoder: any Decoder) throws { try self.init(JSONReader(decoding: decoder)) }
    /// Whether the two are the same: the same JSON.
    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.rawJSON == rhs.rawJSON }
    /// Hashes the JSON.
    public func hash(into hasher: inout Hasher) { hasher.combine(rawJSON) }

    /// The field named `name`.
    public func field(_ name: String) -> (any FormField)? { fields.first { $0.name == name } }

    /// Values of any type, by field name, as text to submit: a `String` as it is; a `Bool` for
    /// a checkbox as the checkbox's value (`on` by default) when `true` and the empty string
    /// (unchecked) when `false`, elsewhere `true` or `false`; anything else as its description.
    public func fieldValues(_ parameters: [String: Any]) -> [String: String] {
        parameters.reduce(into: [:]) { result, entry in
            switch entry.value {
            case let text as String:
                result[entry.key] = text
            case let flag as Bool:
                if let checkbox = field(entry.key) as? CheckboxFormField {
                    result[entry.key] = flag ? (checkbox.value ?? "on") : ""
                } else {
                    result[entry.key] = flag ? "true" : "false"
                }
            default:
                result[entry.key] = String(describing: entry.value)
            }
        }
    }

    /// The parameters to submit: the caller's values for the fields they name, and every
    /// other field's default (hidden fields and readonly checkboxes unchanged). Fields with no
    /// value are left out; parameters the caller gives that name no field are sent too.
    public func parameters(with values: [String: String]) -> [(String, String)] {
        var result: [(String, String)] = []
        for field in fields {
            let value: String?
            if let hidden = field as? HiddenFormField {
                value = hidden.rawJSON["value"] == nil ? values[field.name] : hidden.value
            } else if let checkbox = field as? CheckboxFormField, checkbox.readonly {
                value = checkbox.defaultValue
            } else if field is CheckboxFormField && values[field.name]?.isEmpty == true {
                // Unchecked: left out, as a browser leaves it out (RFC 1866 §8.1.2.3); an empty
                // value would still name the box, and a server may read that as checked.
                value = nil
            } else {
                value = values[field.name] ?? field.defaultValue
            }
            if let value { result.append((field.name, value)) }
        }
        let named = Set(fields.map(\.name))
        result += values.filter { !named.contains($0.key) }.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
        return result
    }
}

/// A choice between actions (the seeds' `SelectorActionModel`); options may nest.
public struct SelectorActionModel: RepresentationActionModel, Hashable, RawJsonRepresentable, _RawJSONEncodable {
    /// The options, each an action of its own.
    public let options: [any Action]
    /// The model exactly as received.
    public let rawJSON: JSONValue

    init(options: [any Action]) {
        self.options = options
        rawJSON = .object(["options": .array(options.map(\.rawJSON))])
    }

    init(_ reader: JSONReader) throws {
        options = try reader.actions("options")
        rawJSON = reader.raw
    }

    /// Decodes a selector's model.
    /// - Throws: ``HaapiModelError`` when it is malformed.
    public init(from decoder: any Decoder) throws { try self.init(JSONReader(decoding: decoder)) }
    /// Whether the two are the same: the same JSON.
    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.rawJSON == rhs.rawJSON }
    /// Hashes the JSON.
    public func hash(into hasher: inout Hasher) { hasher.combine(rawJSON) }
}
