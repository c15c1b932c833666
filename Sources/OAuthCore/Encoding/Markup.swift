import Foundation

/// HTML, and the CSS inside it, in which nothing from outside can act as markup.
///
/// Pages are written from a server's words, a theme's names and a captured file's name: any of
/// them may hold `</style><script>`, a quote that ends an attribute, or `javascript:`. In a
/// `Markup` the literal parts of a string literal are the program's own and are kept as
/// written; every value goes in through a labelled interpolation that escapes it for where it
/// lands:
///
/// ```swift
/// let row: Markup = "<li><a href=\"\(link: page)\">\(text: title)</a></li>"
/// let rule: Markup = "[data-style=\(cssString: section)] { font-family: \(cssString: font); }"
/// ```
///
/// - `\(text:)`: element text or a double-quoted attribute value (`&`, `<`, `>`, `"`, `'` escaped);
/// - `\(cssString:)`: a quoted CSS string (a selector's attribute value, a font's name);
/// - `\(cssIdentifier:)`: a CSS name made of the value's letters, digits, `_` and `-` only;
/// - `\(number:)`: a finite number (`0` for any other);
/// - `\(link:)`: a ``PageLink``, a target this program built, never outside text;
/// - `\(markup:)`: markup already made.
///
/// There is no way from a `String` to `Markup` other than these, and the labels make a literal
/// that uses them a `Markup` (a `String` has none), so `Scripts/check-markup.sh` in CI can tell
/// markup from text: a literal holding a tag with an unlabelled interpolation, or joined with
/// `+` to something else, fails it. Package access, as ``PrintableText``.
package struct Markup: Sendable, Hashable, CustomStringConvertible, ExpressibleByStringInterpolation {
    /// The markup, safe to serve or write.
    package private(set) var description: String

    /// The program's own markup, kept as written.
    package init(stringLiteral value: String) { description = value }

    package init(stringInterpolation: StringInterpolation) { description = stringInterpolation.text }

    private init(safe text: String) { description = text }

    /// Nothing.
    package static let empty: Markup = ""

    /// A string literal's parts: literals kept, each value escaped by its label.
    package struct StringInterpolation: StringInterpolationProtocol {
        var text = ""

        package init(literalCapacity: Int, interpolationCount: Int) {
            text.reserveCapacity(literalCapacity + 16 * interpolationCount)
        }

        package mutating func appendLiteral(_ literal: String) { text += literal }

        /// Element text or a double-quoted attribute value.
        package mutating func appendInterpolation(text value: some CustomStringConvertible) {
            text += Markup.escapedText(value.description)
        }

        /// A quoted CSS string.
        package mutating func appendInterpolation(cssString value: some StringProtocol) { text += Markup.cssString(value) }

        /// A CSS name: the value's letters, digits, `_` and `-`, any other character `-`.
        package mutating func appendInterpolation(cssIdentifier value: some StringProtocol) { text += Markup.cssIdentifier(value) }

        /// A finite number, as `%g` writes it; `0` for NaN and the infinities.
        package mutating func appendInterpolation(number value: Double) { text += Markup.number(value) }

        /// A link target this program built.
        package mutating func appendInterpolation(link value: PageLink) { text += Markup.escapedText(value.target) }

        /// Markup already made, kept as it is.
        package mutating func appendInterpolation(markup value: Markup) { text += value.description }

        /// Markup that may be absent: nothing then.
        package mutating func appendInterpolation(markup value: Markup?) { text += value?.description ?? "" }
    }

    /// `lhs` followed by `rhs`.
    package static func + (lhs: Markup, rhs: Markup) -> Markup { Markup(safe: lhs.description + rhs.description) }

    /// Appends `rhs`.
    package static func += (lhs: inout Markup, rhs: Markup) { lhs.description += rhs.description }

    /// The parts with `separator` between them.
    package static func joined(_ parts: some Sequence<Markup>, separator: Markup = "") -> Markup {
        Markup(safe: parts.map(\.description).joined(separator: separator.description))
    }

    /// `format` (with `%@` or `%1$@` markers, as ``Placeholders/fill(_:_:)`` reads them) with
    /// `arguments` in its places, in one pass.
    package static func filling(_ format: Markup, _ arguments: [Markup]) -> Markup {
        Markup(safe: Placeholders.fill(format.description, arguments.map(\.description)))
    }

    /// The markup as UTF-8, for a file or a response body.
    package var data: Data { Data(description.utf8) }

    // MARK: Escapes

    /// `text` with HTML's special characters escaped, for element content and attribute values.
    package static func escapedText(_ text: some StringProtocol) -> String {
        text.escaped { scalar in
            switch scalar {
            case "&": return "&amp;"
            case "<": return "&lt;"
            case ">": return "&gt;"
            case "\"": return "&quot;"
            case "'": return "&#39;"
            default: return nil
            }
        }
    }

    /// `text` as a CSS string literal: quoted, every character that could end it or the style
    /// element (`"`, `'`, `\`, `<`, `>`, `&`, control characters) written as a CSS escape.
    package static func cssString(_ text: some StringProtocol) -> String {
        "\""
            + text.escaped { scalar in
                scalar == "\"" || scalar == "'" || scalar == "\\" || scalar == "<" || scalar == ">" || scalar == "&" || scalar.value < 0x20
                    || scalar.value == 0x7F
                    ? "\\" + String(scalar.value, radix: 16) + " " : nil
            } + "\""
    }

    /// A CSS name from `text`: letters, digits, `_` and `-` kept, any other character `-`.
    package static func cssIdentifier(_ text: some StringProtocol) -> String {
        String(text.unicodeScalars.map { CharacterSet.alphanumerics.contains($0) || $0 == "_" || $0 == "-" ? Character($0) : "-" })
    }

    /// `value` as `%g` writes it when finite, else `0`.
    package static func number(_ value: Double) -> String { value.isFinite ? String(format: "%g", value) : "0" }
}

/// Where a link in a page goes: always a target this program built, from a page file it wrote
/// or a path of its own, never text from outside taken as a URL (a captured file named
/// `javascript:alert(1).json` links to `./javascript%3Aalert%281%29.html`, a file beside the index).
package struct PageLink: Sendable, Hashable {
    /// The target, percent-encoded.
    package let target: String

    private init(target: String) { self.target = target }

    /// A file in the same folder as the page, by its name (one path segment, percent-encoded,
    /// after `./`, so that no name reads as a scheme).
    package static func file(_ name: String) -> PageLink {
        PageLink(target: "./" + segment(name))
    }

    /// A path on this server: `segments` (each percent-encoded) under `/`, and a query of
    /// encoded names and values.
    package static func path(_ segments: [String], query: [(String, String)] = []) -> PageLink {
        var target = "/" + segments.map(segment).joined(separator: "/")
        if !query.isEmpty { target += "?" + query.map { segment($0.0) + "=" + segment($0.1) }.joined(separator: "&") }
        return PageLink(target: target)
    }

    /// An image this program read and checked to be of `mediaType` (an `image/…` type), as a
    /// `data:` URL.
    package static func image(_ data: Data, mediaType: String) -> PageLink {
        let type =
            mediaType.unicodeScalars.allSatisfy { CharacterSet.alphanumerics.contains($0) || "/+.-".unicodeScalars.contains($0) }
            ? mediaType : "application/octet-stream"
        return PageLink(target: "data:" + type + ";base64," + data.base64EncodedString())
    }

    /// A path of this program's own (`/authn/consent`), each segment percent-encoded, with a
    /// query of encoded names and values.
    package static func path(_ path: String, query: [(String, String)] = []) -> PageLink {
        self.path(path.split(separator: "/").map(String.init), query: query)
    }

    /// Nowhere: a link drawn for its look (`#`).
    package static let none = PageLink(target: "#")

    /// `text` as one path segment: unreserved characters kept, every other byte `%XX`.
    private static func segment(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? ""
    }

    private static let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
}
