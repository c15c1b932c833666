import Foundation
import OAuthCore

/// A text of a HAAPI document: a title, a label, a message (the seeds' `Message`). The server
/// sends the text itself (``literal``); ``key`` names it in a table when the text came from one.
public final class Message: NSObject, Codable, Sendable, ExpressibleByStringLiteral {
    /// The key of the text in a table of texts, when it has one.
    public let key: String?
    /// The text to show.
    public let literal: String

    /// A text, with the key it has in a table of texts (``HaapiModel/ContentFactory/message(key:literal:)``).
    public init(key: String? = nil, literal: String) {
        self.key = key
        self.literal = literal
    }

    /// A text without a key, written as a literal.
    public convenience init(stringLiteral value: String) { self.init(literal: value) }

    /// Reads a text: a JSON string (numbers and Booleans as their text), or an object with
    /// `literal` and `key` (as ``encode(to:)`` writes one with a key).
    convenience init(json value: JSONValue, path: String) throws {
        switch value {
        case .string(let text): self.init(literal: text)
        case .integer(let number): self.init(literal: String(number))
        case .number(let number): self.init(literal: String(number))
        case .bool(let flag): self.init(literal: String(flag))
        case .object(let members) where members["literal"]?.stringValue != nil:
            self.init(key: members["key"]?.stringValue, literal: members["literal"]!.stringValue!)
        default: throw HaapiModelError(.wrongType, path: path, "expected a text, found \(value.kindName)")
        }
    }

    /// Decodes a text: a JSON string (a number or a Boolean as its text), or an object with `literal` and `key`.
    /// - Throws: ``HaapiModelError`` for any other JSON.
    public convenience init(from decoder: any Decoder) throws {
        try self.init(json: JSONValue(from: decoder), path: "$")
    }

    /// Encodes a string, or an object with `key` and `literal` when the text has a key.
    public func encode(to encoder: any Encoder) throws { try json.encode(to: encoder) }

    /// The text as JSON: a string, or an object when it has a key.
    var json: JSONValue {
        key.map { .object(["key": .string($0), "literal": .string(literal)]) } ?? .string(literal)
    }

    /// The text (``literal``).
    public override var description: String { literal }

    /// Whether the two have the same key and text.
    public override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? Message else { return false }
        return key == other.key && literal == other.literal
    }
    /// Hashes the key and the text.
    public override var hash: Int {
        var hasher = Hasher()
        hasher.combine(key)
        hasher.combine(literal)
        return hasher.finalize()
    }
}

extension JSONReader {
    /// An optional text.
    func optionalMessage(_ key: String) throws -> Message? {
        switch members[key] {
        case nil, .null?: return nil
        case let value?: return try Message(json: value, path: child(key))
        }
    }
}

/// A message to show (the seeds' `UserMessage`): text and the classes that say how.
public struct UserMessage: Codable, Sendable, Hashable, RawJsonRepresentable, _RawJSONEncodable {
    /// The text.
    public let text: Message
    /// The classes: `heading`, `info`, `warning`, `error`, `userName`, `recipient`, ...
    public let classList: [String]
    /// The message exactly as received.
    public let rawJSON: JSONValue

    init(text: Message, classList: [String]) {
        (self.text, self.classList) = (text, classList)
        rawJSON = .object(["text": text.json, "classList": .array(classList.map(JSONValue.string))])
    }

    init(_ reader: JSONReader) throws {
        text = try reader.optionalMessage("text") ?? Message(literal: "")
        classList = try reader.strings("classList")
        rawJSON = reader.raw
    }

    /// Decodes a message; a missing `text` is empty, a missing `classList` none.
    /// - Throws: ``HaapiModelError`` when it is malformed.
    public init(from decoder: any Decoder) throws { try self.init(JSONReader(decoding: decoder)) }

    /// Whether the message has the class `name`.
    public func hasClass(_ name: String) -> Bool { classList.contains(name) }
}

/// A link of a step or problem: another resource the user may go to (the seeds' `Link`).
public struct Link: RepresentationActionModel, Hashable, RawJsonRepresentable, _RawJSONEncodable {
    /// The target, possibly relative to the server's base URL; a `data:` URL for images.
    public let href: String
    /// The relation: `forgot-password`, `register-create`, `activation`, `authorization-response`, ...
    /// (empty when the server gave none).
    public let rel: String
    /// The text to show.
    public let title: Message?
    /// The media type of the target, such as `image/png`.
    public let type: String?
    /// The link exactly as received.
    public let rawJSON: JSONValue

    init(href: String, rel: String, title: Message?, type: String?) {
        (self.href, self.rel, self.title, self.type) = (href, rel, title, type)
        var members: [String: JSONValue] = ["href": .string(href), "rel": .string(rel)]
        members["title"] = title?.json
        members["type"] = type.map(JSONValue.string)
        rawJSON = .object(members)
    }

    init(_ reader: JSONReader) throws {
        href = try reader.string("href")
        rel = try reader.optionalString("rel") ?? ""
        title = try reader.optionalMessage("title")
        type = try reader.optionalString("type")
        rawJSON = reader.raw
    }

    /// Decodes a link: `href` is required; a missing `rel` is empty.
    /// - Throws: ``HaapiModelError`` when it is malformed.
    public init(from decoder: any Decoder) throws { try self.init(JSONReader(decoding: decoder)) }

    /// Whether the link is an image to show (a QR code, usually): an `image/*` type or a `data:image/` URL.
    public var isImage: Bool {
        (type?.lowercased().hasPrefix("image/") ?? false) || href.lowercased().hasPrefix("data:image/")
    }

    /// The bytes of a base64 `data:` URL, such as a QR code's PNG.
    public var imageData: Data? {
        guard href.lowercased().hasPrefix("data:"), let comma = href.firstIndex(of: ","),
            href[..<comma].lowercased().hasSuffix(";base64")
        else { return nil }
        return Data(base64Encoded: String(href[href.index(after: comma)...]))
    }
}

/// Hints for rendering (the seeds' `Metadata`); clients may ignore them.
public final class Metadata: NSObject, Codable, Sendable, RawJsonRepresentable, _RawJSONEncodable {
    /// The template area.
    public let templateArea: String?
    /// The server-side view that produced the response.
    public let viewName: String?
    /// The metadata exactly as received.
    public let rawJSON: JSONValue

    init(templateArea: String?, viewName: String?) {
        (self.templateArea, self.viewName) = (templateArea, viewName)
        var members: [String: JSONValue] = [:]
        members["templateArea"] = templateArea.map(JSONValue.string)
        members["viewName"] = viewName.map(JSONValue.string)
        rawJSON = .object(members)
    }

    init(_ reader: JSONReader) throws {
        viewName = try reader.optionalString("viewName")
        templateArea = try reader.optionalString("templateArea")
        rawJSON = reader.raw
    }

    /// Decodes metadata (every member optional).
    /// - Throws: ``HaapiModelError`` when it is malformed.
    public convenience init(from decoder: any Decoder) throws { try self.init(JSONReader(decoding: decoder)) }

    /// Whether the two are the same JSON.
    public override func isEqual(_ object: Any?) -> Bool { (object as? Metadata)?.rawJSON == rawJSON }
    /// Hashes the JSON.
    public override var hash: Int { rawJSON.hashValue }
}
