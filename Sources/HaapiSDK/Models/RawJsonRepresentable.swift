import Foundation
import OAuthCore

/// A model that keeps the JSON it was made from, whole: members the typed model does not
/// know are still there (the seeds' `RawJsonRepresentable`).
public protocol RawJsonRepresentable {
    /// The JSON the model was made from, as text.
    var rawJsonString: String? { get }
    /// The JSON the model was made from, exactly as received (models of this SDK keep it; for
    /// others it is read from ``rawJsonString``).
    var rawJSON: JSONValue { get }
}

extension RawJsonRepresentable {
    /// ``rawJsonString`` parsed; `null` when there is none or it is not JSON.
    public var rawJSON: JSONValue { JSONValue(text: rawJsonString) ?? .null }

    /// The raw JSON as a dictionary, as the seeds' `rawJsonDictionary`.
    public var rawJsonDictionary: [String: JSONValue] { rawJSON.objectValue ?? [:] }

    /// The raw JSON serialized again (sorted keys): decoding and encoding lose nothing.
    public func jsonData() -> Data { rawJSON.serialized() }
}

/// Not API: a model of this SDK that encodes as the JSON it keeps (``rawJSON``), unchanged, so
/// that decoding and encoding lose nothing; written once here for every such model. Public
/// only because the members below are.
public protocol _RawJSONEncodable: Encodable {
    /// The model exactly as received (or as composed from values).
    var rawJSON: JSONValue { get }
}

extension _RawJSONEncodable {
    /// Encodes the model as received (``rawJSON``).
    public func encode(to encoder: any Encoder) throws { try rawJSON.encode(to: encoder) }

    /// ``rawJSON`` as JSON text (sorted keys): every `rawJsonString` (read here, where `rawJSON`
    /// can only be the model's own; an extension of ``Properties`` computes one from `rawJsonString`).
    var rawJSONText: String { rawJSON.jsonText }
}

extension RawJsonRepresentable where Self: _RawJSONEncodable {
    /// ``rawJSON`` as JSON text (sorted keys).
    public var rawJsonString: String? { rawJSONText }
}

/// Not API: a model of this SDK that keeps the members every model of its family has in one
/// value, `_parts`, which also makes its synthesized `==` and hash. An extension of the
/// family's protocol, written once, hands them out under the names Curity's SDK declares
/// (`_RepresentationParts`, `_ProblemParts`, `_FieldParts`, `_OperationParts`,
/// `_ActionParts`). Public only because those members are.
public protocol _PartsHolder {
    /// What every model of the family has.
    associatedtype _Parts
    /// What every model of the family has, read once.
    var _parts: _Parts { get }
}

extension JSONValue {
    /// The value `text` holds, when it is JSON (a `rawJsonString` given or kept).
    init?(text: String?) {
        guard let text, let value = try? JSONValue(parsing: Data(text.utf8)) else { return nil }
        self = value
    }

    /// The value as JSON text (sorted keys), for `rawJsonString`.
    var jsonText: String { String(decoding: serialized(), as: UTF8.self) }

    /// The value as Foundation values (`String`, `Int`, `Double`, `Bool`, arrays and
    /// dictionaries of them, `NSNull` for `null`), as Curity's models hand out `arguments`.
    var sendableValue: any Sendable {
        switch self {
        case .null: return NSNull()
        case .bool(let flag): return flag
        case .integer(let number): return number
        case .number(let number): return number
        case .string(let text): return text
        case .array(let values): return values.map(\.sendableValue)
        case .object(let members): return members.mapValues(\.sendableValue)
        }
    }

    /// A value given as Foundation values (the inverse of ``sendableValue``); what has no JSON
    /// form becomes its description.
    init(sendable value: any Sendable) {
        switch value {
        case let json as JSONValue: self = json
        case is NSNull: self = .null
        case let flag as Bool: self = .bool(flag)
        case let number as Int: self = .integer(number)
        case let number as Double: self = .number(number)
        case let text as String: self = .string(text)
        case let values as [any Sendable]: self = .array(values.map(JSONValue.init(sendable:)))
        case let members as [String: any Sendable]: self = .object(members.mapValues(JSONValue.init(sendable:)))
        default: self = .string(String(describing: value))
        }
    }
}

/// Reads the document a `Decoder` holds with `read`, the one reading of a kind of model, as the
/// type `T` whose `init(from:)` asks; a document of another type is a `wrongType` error at
/// `path`, saying what it is (`found`).
func decodeModel<Model, T>(_ decoder: any Decoder, by read: (JSONValue) throws -> Model, at path: String, _ found: (Model) -> String) throws
    -> T
{
    let model = try read(JSONValue(from: decoder))
    guard let typed = model as? T else { throw HaapiModelError(.wrongType, path: path, "the document is \(found(model)), not a \(T.self)") }
    return typed
}

extension [String: JSONValue] {
    /// Sets `key` to the list `values`, leaving it out when empty, as a model made from values
    /// composes its JSON (servers leave an empty list out too).
    mutating func setList(_ key: String, _ values: [JSONValue]) {
        if !values.isEmpty { self[key] = .array(values) }
    }
}

extension JSONReader {
    /// Reads the document a `Decoder` holds (a model's `init(from:)`).
    init(decoding decoder: any Decoder) throws {
        try self.init(JSONValue(from: decoder), path: "$")
    }
}
