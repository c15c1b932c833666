/// Text from a server made safe to print: a server's messages, titles and labels are untrusted,
/// and a control character in them (an escape sequence, a carriage return, a bidirectional
/// override) could rewrite what the terminal shows. Such characters are printed as `\u{…}`.
package enum TerminalText {
    package static func safe(_ text: String) -> String {
        var out = ""
        out.unicodeScalars.reserveCapacity(text.unicodeScalars.count)
        for scalar in text.unicodeScalars {
            if isUnsafe(scalar) {
                out += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    private static func isUnsafe(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F: return true  // C0 (newlines included: one message, one line) and C1
        case 0x202A...0x202E, 0x2066...0x2069, 0x200E, 0x200F, 0x061C: return true  // bidirectional controls
        default: return false
        }
    }
}
