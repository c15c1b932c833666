import Foundation

/// Any JSON value, kept exactly as it was received.
///
/// Models of server responses keep their raw JSON in this form, so that a value the
/// typed model does not know about is never lost.
public enum JSONValue: Sendable, Hashable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// An integral number that fits in `Int`.
    case integer(Int)
    /// Any other number.
    case number(Double)
    /// A string.
    case string(String)
    /// An array, in order.
    case array([JSONValue])
    /// An object; the order of its members is not kept.
    case object([String: JSONValue])

    /// Parses JSON bytes.
    /// - Throws: ``JSONValue/ParseError`` when the bytes are not JSON.
    public init(parsing data: Data) throws {
        // Plain JSON takes a direct byte parser; anything it does not handle exactly as
        // JSONDecoder does (errors, duplicate keys, trailing commas, a BOM, UTF-16, integral
        // numbers written with a fraction or exponent, very deep nesting, ...) goes through
        // JSONDecoder, so the result is always the same.
        if let value = FastJSONParser.parse(data) {
            self = value
            return
        }
        do {
            self = try JSONDecoder().decode(JSONValue.self, from: data)
        } catch {
            throw ParseError(underlying: "\(error)")
        }
    }

    /// The error ``init(parsing:)`` throws for bytes that are not JSON.
    public struct ParseError: IdsvrError, Hashable {
        /// What the JSON parser said.
        public let underlying: String
        /// Always `invalid_json`.
        public var error: String { "invalid_json" }
        /// Always "not valid JSON".
        public var errorDescription: String? { "not valid JSON" }
        /// What the JSON parser said (``underlying``).
        public var failureReason: String { underlying }
        /// Nothing to retry: the bytes are not JSON; the cause says where.
        public var recoverySuggestion: IdsvrErrorHandling { .unrecoverable(action: .introspectCause) }
    }

    /// The member `key` of an object, or `nil`.
    public subscript(key: String) -> JSONValue? {
        if case .object(let members) = self { return members[key] }
        return nil
    }

    /// The string, if this is a string.
    public var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    /// The number as a `Double`, if this is a number.
    public var doubleValue: Double? {
        switch self {
        case .integer(let value): return Double(value)
        case .number(let value): return value
        default: return nil
        }
    }

    /// The number as an `Int`, if this is an integral number.
    public var intValue: Int? {
        switch self {
        case .integer(let value): return value
        case .number(let value) where value.rounded() == value && abs(value) < 9.0e15: return Int(value)
        default: return nil
        }
    }

    /// The Boolean, if this is a Boolean.
    public var boolValue: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }

    /// The members, if this is an object.
    public var objectValue: [String: JSONValue]? {
        if case .object(let members) = self { return members }
        return nil
    }

    /// The elements, if this is an array.
    public var arrayValue: [JSONValue]? {
        if case .array(let elements) = self { return elements }
        return nil
    }

    /// Compact JSON text with sorted keys.
    public func serialized() -> Data { serialized(pretty: false) }

    /// JSON text with sorted keys, indented when `pretty` (for people to read).
    public func serialized(pretty: Bool) -> Data {
        (try? Self.encodeSorted(self, pretty: pretty)) ?? Data("null".utf8)
    }

    /// The JSON text of any `Encodable`, the way this package writes JSON everywhere:
    /// sorted keys (stable output), slashes unescaped.
    public static func encodeSorted(_ value: some Encodable, pretty: Bool = false) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting =
            pretty ? [.sortedKeys, .withoutEscapingSlashes, .prettyPrinted] : [.sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(value)
    }
}

extension Dictionary where Key == String, Value == JSONValue {
    /// The member `name` as a string: the one way the core reads a typed member of an object it
    /// takes apart by hand (a token response, a JWT's claims, a JOSE header, a stored session).
    /// `nil` when it is absent, or `null` unless `nullIsAbsent` is false; `wrongType(name)` when
    /// it holds anything else.
    package func string<Failure: Error>(
        _ name: String, nullIsAbsent: Bool = true, or wrongType: (String) -> Failure
    ) throws(Failure) -> String? {
        switch self[name] {
        case nil: return nil
        case .null? where nullIsAbsent: return nil
        case .string(let text)?: return text
        default: throw wrongType(name)
        }
    }
}

extension JSONValue: Codable {
    /// Decodes any JSON value; an integral number that fits in `Int` becomes ``integer(_:)``, any other
    /// ``number(_:)``.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int.self) {
            self = .integer(value)
        } else if let value = try? container.decode(Double.self) {
            // JSONDecoder gives an Int for most integral numbers but not for all (the Double of
            // 888080000800000000.046 is integral): one rule for every one keeps a value equal to
            // itself parsed again after serialization (found by Scripts/fuzz.sh).
            self = Int(exactly: value).map(JSONValue.integer) ?? .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    /// Encodes the value as it is (`null`, a Boolean, a number, a string, an array, an object).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .integer(let value): try container.encode(value)
        case .number(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }
}

extension JSONValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByBooleanLiteral,
    ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral, ExpressibleByNilLiteral, ExpressibleByFloatLiteral
{
    /// A string, written as a literal.
    public init(stringLiteral value: String) { self = .string(value) }
    /// An integer, written as a literal.
    public init(integerLiteral value: Int) { self = .integer(value) }
    /// A number, written as a literal.
    public init(floatLiteral value: Double) { self = .number(value) }
    /// A Boolean, written as a literal.
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    /// An array, written as a literal.
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    /// `null`, written as `nil`.
    public init(nilLiteral: ()) { self = .null }
    /// An object, written as a literal; of members with the same key, the last is kept.
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
}

/// A strict JSON parser for the common case: UTF-8 text without a BOM, no duplicate keys,
/// no trailing commas, strings of valid UTF-8 and escapes, integers of up to 18 digits, and
/// numbers whose value is not integral. It returns `nil` for anything else, and the caller
/// asks JSONDecoder, whose answer (value or error) is then the answer: on what this accepts,
/// both give the same value.
private struct FastJSONParser {
    private struct Unsupported: Error {}

    private let bytes: UnsafeRawBufferPointer
    private var index = 0
    private var depth = 0
    private static let maxDepth = 200

    private init(_ bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

    static func parse(_ data: Data) -> JSONValue? {
        data.withUnsafeBytes { bytes -> JSONValue? in
            var parser = FastJSONParser(bytes)
            // (`nil` here must be Optional.none: JSONValue is ExpressibleByNilLiteral.)
            guard let value = try? parser.value() else { return Optional.none }
            parser.skipWhitespace()
            guard parser.index == bytes.count else { return Optional.none }
            return Optional.some(value)
        }
    }

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x0A, 0x0D, 0x09: index += 1
            default: return
            }
        }
    }

    private mutating func value() throws -> JSONValue {
        skipWhitespace()
        guard index < bytes.count else { throw Unsupported() }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try object()
        case UInt8(ascii: "["): return try array()
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"):
            try literal("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try literal("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try literal("null")
            return .null
        default: return try number()
        }
    }

    private mutating func literal(_ text: StaticString) throws {
        let count = text.utf8CodeUnitCount
        guard bytes.count - index >= count else { throw Unsupported() }
        let expected = UnsafeRawBufferPointer(start: text.utf8Start, count: count)
        for offset in 0..<count where bytes[index + offset] != expected[offset] { throw Unsupported() }
        index += count
    }

    private mutating func object() throws -> JSONValue {
        var members: [String: JSONValue] = [:]
        guard try !opens(closing: UInt8(ascii: "}")) else { return .object(members) }
        repeat {
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw Unsupported() }
            let key = try string()
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw Unsupported() }
            index += 1
            let member = try value()
            // JSONDecoder keeps the first of duplicate keys: leave those documents to it.
            guard members.updateValue(member, forKey: key) == nil else { throw Unsupported() }
        } while try !closes(UInt8(ascii: "}"))
        return .object(members)
    }

    private mutating func array() throws -> JSONValue {
        var elements: [JSONValue] = []
        guard try !opens(closing: UInt8(ascii: "]")) else { return .array(elements) }
        repeat {
            elements.append(try value())
        } while try !closes(UInt8(ascii: "]"))
        return .array(elements)
    }

    /// Steps into an object or array, the index on its opening bracket; `true` when it is
    /// empty (then the index is past its `closing` bracket).
    private mutating func opens(closing: UInt8) throws -> Bool {
        depth += 1
        guard depth <= Self.maxDepth else { throw Unsupported() }
        index += 1
        skipWhitespace()
        guard index < bytes.count, bytes[index] == closing else { return false }
        index += 1
        depth -= 1
        return true
    }

    /// After a member or element: `true` past the container's `closing` bracket (it ends),
    /// `false` past a comma (another follows).
    private mutating func closes(_ closing: UInt8) throws -> Bool {
        skipWhitespace()
        guard index < bytes.count else { throw Unsupported() }
        switch bytes[index] {
        case UInt8(ascii: ","):
            index += 1
            return false
        case closing:
            index += 1
            depth -= 1
            return true
        default:
            throw Unsupported()
        }
    }

    /// A string, the index on its opening quote.
    private mutating func string() throws -> String {
        index += 1  // "
        let start = index
        var ascii = true
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                let text = try decode(UnsafeRawBufferPointer(rebasing: bytes[start..<index]), ascii: ascii)
                index += 1
                return text
            }
            if byte == UInt8(ascii: "\\") { break }
            if byte < 0x20 { throw Unsupported() }
            if byte >= 0x80 { ascii = false }
            index += 1
        }
        // Escapes: collect the UTF-8 bytes.
        var utf8 = Array(UnsafeRawBufferPointer(rebasing: bytes[start..<index]))
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                return try utf8.withUnsafeBytes { try decode($0, ascii: false) }
            case UInt8(ascii: "\\"):
                index += 1
                guard index < bytes.count else { throw Unsupported() }
                let escape = bytes[index]
                index += 1
                switch escape {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): utf8.append(escape)
                case UInt8(ascii: "b"): utf8.append(0x08)
                case UInt8(ascii: "f"): utf8.append(0x0C)
                case UInt8(ascii: "n"): utf8.append(0x0A)
                case UInt8(ascii: "r"): utf8.append(0x0D)
                case UInt8(ascii: "t"): utf8.append(0x09)
                case UInt8(ascii: "u"):
                    var scalar = try hex4()
                    if (0xD800..<0xDC00).contains(scalar) {
                        guard bytes.count - index >= 6, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u")
                        else { throw Unsupported() }
                        index += 2
                        let low = try hex4()
                        guard (0xDC00..<0xE000).contains(low) else { throw Unsupported() }
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    } else if (0xDC00..<0xE000).contains(scalar) {
                        throw Unsupported()
                    }
                    guard let unicode = Unicode.Scalar(scalar) else { throw Unsupported() }
                    utf8.append(contentsOf: UTF8.encode(unicode)!)
                default: throw Unsupported()
                }
            default:
                if byte < 0x20 { throw Unsupported() }
                utf8.append(byte)
                index += 1
            }
        }
        throw Unsupported()
    }

    private mutating func hex4() throws -> UInt32 {
        guard bytes.count - index >= 4 else { throw Unsupported() }
        var result: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw Unsupported()
            }
            result = result << 4 | UInt32(digit)
            index += 1
        }
        return result
    }

    /// UTF-8 bytes as a string; invalid UTF-8 is left to JSONDecoder.
    private func decode(_ utf8: UnsafeRawBufferPointer, ascii: Bool) throws -> String {
        let text = String(decoding: utf8, as: UTF8.self)
        // Decoding repairs invalid UTF-8; valid UTF-8 comes back byte for byte.
        guard ascii || text.utf8.elementsEqual(utf8) else { throw Unsupported() }
        return text
    }

    private mutating func number() throws -> JSONValue {
        let start = index
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        let digitsStart = index
        while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
        let digits = index - digitsStart
        // No digits, or a leading zero: not JSON (JSONDecoder says so).
        guard digits > 0, digits == 1 || bytes[digitsStart] != UInt8(ascii: "0") else { throw Unsupported() }
        var isInteger = true
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            isInteger = false
            index += 1
            let fractionStart = index
            while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
            guard index > fractionStart else { throw Unsupported() }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            isInteger = false
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            let exponentStart = index
            while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
            guard index > exponentStart else { throw Unsupported() }
        }
        if isInteger {
            // Up to 18 digits always fits in Int; longer ones are left to JSONDecoder.
            guard digits <= 18 else { throw Unsupported() }
            var magnitude = 0
            for offset in digitsStart..<index { magnitude = magnitude * 10 + Int(bytes[offset] - UInt8(ascii: "0")) }
            return .integer(digitsStart == start ? magnitude : -magnitude)
        }
        let text = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        // JSONDecoder makes an Int of any integral value (1.0, 1e2, 1e-400 -> 0): leave those to it.
        guard let number = Double(text), number.isFinite, number.rounded() != number else { throw Unsupported() }
        return .number(number)
    }
}
