import Foundation

/// Text on its way to a terminal or a log line, in which nothing from outside can act as a
/// control character.
///
/// A server's `error_description`, a token's `scope`, a user name typed into a form: text from
/// outside may hold an escape sequence (clear the screen, set the window title), a carriage
/// return (overwrite the line), a newline (forge a second log line) or a bidirectional override
/// (show text in another order). In a `PrintableText` such characters are written as `\u{…}`:
///
/// ```swift
/// let line: PrintableText = "approve: \(link) for \(username)"   // a newline in username stays on this line
/// ```
///
/// The literal parts of a string literal are the program's own and are kept as written; every
/// interpolated value is neutralised, once (a `PrintableText` interpolated into another is kept).
/// Text built elsewhere comes in through ``init(_:)``, which neutralises it all. The command
/// line's output and the development server's log take only this type, so no path to them
/// skips it (`Scripts/lint.py` in CI keeps it so). Package access: it serves the
/// package's command line and server, and is no part of what an app links against.
package struct PrintableText: Sendable, Hashable, CustomStringConvertible, ExpressibleByStringInterpolation {
    /// The text, safe to write.
    package let description: String

    /// `text` from outside, every control character in it neutralised.
    package init(_ text: some StringProtocol) {
        description = Self.neutralised(text)
    }

    private init(safe text: String) { description = text }

    /// The program's own text, kept as written.
    package init(stringLiteral value: String) { description = value }

    package init(stringInterpolation: StringInterpolation) { description = stringInterpolation.text }

    /// A string literal's parts: literals kept, values neutralised.
    package struct StringInterpolation: StringInterpolationProtocol {
        var text = ""

        package init(literalCapacity: Int, interpolationCount: Int) {
            text.reserveCapacity(literalCapacity + 16 * interpolationCount)
        }

        package mutating func appendLiteral(_ literal: String) { text += literal }

        /// Text already made safe, kept as it is.
        package mutating func appendInterpolation(_ value: PrintableText) { text += value.description }

        /// Any other value, described and neutralised.
        package mutating func appendInterpolation<T>(_ value: T) {
            text += PrintableText.neutralised(String(describing: value))
        }
    }

    /// `self` followed by `other`.
    package static func + (lhs: PrintableText, rhs: PrintableText) -> PrintableText {
        PrintableText(safe: lhs.description + rhs.description)
    }

    /// The texts with `separator` between them.
    package static func joined(_ parts: some Sequence<PrintableText>, separator: PrintableText = "") -> PrintableText {
        PrintableText(safe: parts.map(\.description).joined(separator: separator.description))
    }

    /// `self` in a terminal's SGR style (`"1"` bold, `"31"` red, `"1;36"`): the program's own
    /// control sequence around text that is already safe. Digits and `;` only.
    package func styled(_ parameters: String) -> PrintableText {
        guard !parameters.isEmpty, parameters.unicodeScalars.allSatisfy({ ("0"..."9").contains($0) || $0 == ";" }) else { return self }
        return PrintableText(safe: "\u{1B}[" + parameters + "m" + description + "\u{1B}[0m")
    }

    /// `value` as pretty JSON text (``JSONValue/serialized(pretty:)``), with any control character
    /// inside its strings written as a JSON `\uXXXX` escape: the same JSON value, safe to print.
    /// The serializer's own newlines and indentation are kept.
    package init(json value: JSONValue) {
        // Outside strings a serializer writes only ASCII structure and whitespace; inside them
        // it has escaped C0 already, so what is left to escape is C1, DEL and the bidi controls.
        description = String(decoding: value.serialized(pretty: true), as: UTF8.self).escaped { scalar in
            scalar != "\n" && Self.isControl(scalar) ? String(format: "\\u%04X", scalar.value) : nil
        }
    }

    /// Text the program made itself, kept as it is: a terminal control sequence of its own
    /// (erase the line), a shell completion script from its own command definitions, lines each
    /// already made safe. Never text from outside.
    package init(own text: String) { description = text }

    /// `text` with every control character written as `\u{…}`.
    static func neutralised(_ text: some StringProtocol) -> String {
        text.escaped { isControl($0) ? "\\u{" + String($0.value, radix: 16, uppercase: true) + "}" : nil }
    }

    /// C0 (newlines and tabs too: one value, one line), DEL, C1, and the bidirectional controls.
    static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F: return true
        case 0x200E, 0x200F, 0x061C, 0x202A...0x202E, 0x2066...0x2069: return true
        default: return false
        }
    }
}
