import OAuthCore

/// Reads one JSON object of a HAAPI document, naming the path of every value it refuses.
struct JSONReader {
    let members: [String: JSONValue]
    let path: String

    init(members: [String: JSONValue], path: String) {
        self.members = members
        self.path = path
    }

    init(_ value: JSONValue, path: String) throws {
        guard case .object(let members) = value else {
            throw HaapiModelError(.wrongType, path: path, "expected an object, found \(value.kindName)")
        }
        self.members = members
        self.path = path
    }

    func child(_ key: String) -> String { path == "$" ? key : "\(path).\(key)" }

    /// A required string (an identifier such as `type`, `href` or `name`): it must be a JSON
    /// string; a number or Boolean there is a wrong type, not text.
    func string(_ key: String) throws -> String {
        switch members[key] {
        case nil, .null?: throw HaapiModelError(.missingMember, path: child(key), "the required string is missing")
        case .string(let text)?: return text
        case let other?: throw HaapiModelError(.wrongType, path: child(key), "expected a string, found \(other.kindName)")
        }
    }

    /// An optional string; `null` counts as absent, numbers and Booleans are taken as their text.
    func optionalString(_ key: String) throws -> String? {
        switch members[key] {
        case nil, .null?: return nil
        case .string(let text)?: return text
        case .integer(let number)?: return String(number)
        case .number(let number)?: return String(number)
        case .bool(let flag)?: return String(flag)
        case let other?: throw HaapiModelError(.wrongType, path: child(key), "expected a string, found \(other.kindName)")
        }
    }

    /// An optional Boolean; `"true"`/`"false"` strings are accepted.
    func optionalBool(_ key: String) throws -> Bool? {
        switch members[key] {
        case nil, .null?: return nil
        case .bool(let flag)?: return flag
        case .string(let text)? where text == "true" || text == "false": return text == "true"
        case let other?: throw HaapiModelError(.wrongType, path: child(key), "expected a Boolean, found \(other.kindName)")
        }
    }

    /// An optional integer; numeric strings are accepted (HAAPI sends some numbers as strings).
    func optionalInt(_ key: String) throws -> Int? {
        switch members[key] {
        case nil, .null?: return nil
        case let value? where value.intValue != nil: return value.intValue
        case .string(let text)? where Int(text.trimmingCharacters(in: .whitespaces)) != nil:
            return Int(text.trimmingCharacters(in: .whitespaces))
        case let other?: throw HaapiModelError(.wrongType, path: child(key), "expected an integer, found \(other.kindName)")
        }
    }

    /// An optional number of seconds (``optionalInt(_:)``), clamped as ``/OAuthCore/OutsideNumber/seconds(_:)-(Int)``
    /// says: a server's `Int.min` or `Int.max` becomes 0 or a hundred years, which later arithmetic
    /// cannot overflow.
    func optionalSeconds(_ key: String) throws -> Int? {
        try optionalInt(key).map(OutsideNumber.seconds)
    }

    /// An optional number of milliseconds, clamped into `0...` ``/OAuthCore/OutsideNumber/longestSeconds`` × 1000.
    func optionalMilliseconds(_ key: String) throws -> Int? {
        try optionalInt(key).map { OutsideNumber.count($0, atMost: OutsideNumber.longestSeconds * 1000) }
    }

    /// An optional count (a length), clamped into `0...OutsideNumber.largestCount`.
    func optionalCount(_ key: String) throws -> Int? {
        try optionalInt(key).map { OutsideNumber.count($0, atMost: OutsideNumber.largestCount) }
    }

    /// An optional object.
    func optionalObject(_ key: String) throws -> JSONReader? {
        switch members[key] {
        case nil, .null?: return nil
        case let value?: return try JSONReader(value, path: child(key))
        }
    }

    /// An optional array of objects, each read by `element`; absent means empty.
    func objects<T>(_ key: String, _ element: (JSONReader) throws -> T) throws -> [T] {
        switch members[key] {
        case nil, .null?: return []
        case .array(let values)?:
            return try values.enumerated().map { index, value in try element(JSONReader(value, path: "\(child(key))[\(index)]")) }
        case let other?: throw HaapiModelError(.wrongType, path: child(key), "expected an array, found \(other.kindName)")
        }
    }

    /// An optional array of strings; absent means empty.
    func strings(_ key: String) throws -> [String] {
        switch members[key] {
        case nil, .null?: return []
        case .string(let single)?: return single.split(separator: " ").map(String.init)
        case .array(let values)?:
            return try values.enumerated().map { index, value in
                guard let text = value.stringValue else {
                    throw HaapiModelError(.wrongType, path: "\(child(key))[\(index)]", "expected a string, found \(value.kindName)")
                }
                return text
            }
        case let other?: throw HaapiModelError(.wrongType, path: child(key), "expected an array of strings, found \(other.kindName)")
        }
    }

    var raw: JSONValue { .object(members) }
}

extension JSONValue {
    /// The JSON type's name, for error messages.
    var kindName: String {
        switch self {
        case .null: return "null"
        case .bool: return "a Boolean"
        case .integer, .number: return "a number"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        }
    }
}
