import Foundation
import OAuthCore

/// A link of a step or problem: another resource the user may go to (the seeds' `Link`).
public struct Link: RawJsonRepresentable, Hashable {
    /// The target, possibly relative to the server's base URL; a `data:` URL for images.
    public let href: String
    /// The relation: `forgot-password`, `register-create`, `activation`, `authorization-response`, ...
    public let rel: String?
    /// The text to show.
    public let title: String?
    /// The media type of the target, such as `image/png`.
    public let type: String?
    public let rawJSON: JSONValue

    init(_ reader: JSONReader) throws {
        href = try reader.string("href")
        rel = try reader.optionalString("rel")
        title = try reader.optionalString("title")
        type = try reader.optionalString("type")
        rawJSON = reader.raw
    }

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

/// A message to show (the seeds' `UserMessage`): text and the classes that say how.
public struct UserMessage: RawJsonRepresentable, Hashable {
    /// The text.
    public let text: String
    /// The classes: `heading`, `info`, `warning`, `error`, `userName`, `recipient`, ...
    public let classList: [String]
    public let rawJSON: JSONValue

    init(_ reader: JSONReader) throws {
        text = try reader.optionalString("text") ?? ""
        classList = try reader.strings("classList")
        rawJSON = reader.raw
    }

    /// Whether the message has the class `name`.
    public func hasClass(_ name: String) -> Bool { classList.contains(name) }
}

/// Hints for rendering (the seeds' `Metadata`); clients may ignore them.
public struct Metadata: RawJsonRepresentable, Hashable {
    /// The server-side view that produced the response.
    public let viewName: String?
    /// The template area.
    public let templateArea: String?
    public let rawJSON: JSONValue

    init(_ reader: JSONReader) throws {
        viewName = try reader.optionalString("viewName")
        templateArea = try reader.optionalString("templateArea")
        rawJSON = reader.raw
    }
}
