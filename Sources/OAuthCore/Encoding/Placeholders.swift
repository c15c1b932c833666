import Foundation

/// Texts with `%@` placeholders, as `.strings` tables write them: the kit's strings and the
/// development server's pages fill theirs here.
package enum Placeholders {
    /// `format` with `arguments` in place of its `%@` (in order) or `%1$@`, `%2$@`, ... (by
    /// position, as a translation may reorder them); `%%` is `%`. A marker with no argument
    /// stays as written.
    package static func fill(_ format: String, _ arguments: [String]) -> String {
        var output = ""
        var rest = Substring(format)
        var next = 0
        // One pass over the format, so an argument that holds a marker is never formatted again.
        while let percent = rest.firstIndex(of: "%") {
            output += rest[..<percent]
            let after = rest[rest.index(after: percent)...]
            if after.hasPrefix("@") {
                output += next < arguments.count ? arguments[next] : "%@"
                next += 1
                rest = after.dropFirst()
            } else if let (position, end) = positional(after), position <= arguments.count {
                output += arguments[position - 1]
                rest = after[end...]
            } else if after.hasPrefix("%") {
                output += "%"
                rest = after.dropFirst()
            } else {
                output += "%"
                rest = after
            }
        }
        return output + rest
    }

    /// The position `N` of a `N$@` that `text` starts with (`N` one or two ASCII digits, not
    /// starting with 0), and where the marker ends. Parsed by hand: `Regex` is iOS 16.
    private static func positional(_ text: Substring) -> (position: Int, end: Substring.Index)? {
        var index = text.startIndex
        var position = 0
        var digits = 0
        while digits < 2, index < text.endIndex, let digit = asciiDigit(text[index]), digits > 0 || digit > 0 {
            position = position * 10 + digit
            digits += 1
            index = text.index(after: index)
        }
        guard digits > 0, text[index...].hasPrefix("$@") else { return nil }
        return (position, text.index(index, offsetBy: 2))
    }

    /// The value of an ASCII digit `0`...`9`; `nil` for any other character (other scripts' digits too).
    private static func asciiDigit(_ character: Character) -> Int? {
        guard let ascii = character.asciiValue, (0x30...0x39).contains(ascii) else { return nil }
        return Int(ascii - 0x30)
    }
}
