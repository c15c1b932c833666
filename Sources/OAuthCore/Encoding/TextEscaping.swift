/// The one loop behind every escaper in the package: HTML text, JSON string literals and text
/// bound for a terminal or a log each supply only their table.
///
/// It works on Unicode scalars, not `Character`s, so a special character cannot hide from its
/// table inside a grapheme cluster (`&` followed by a combining accent is one `Character`).
extension StringProtocol {
    /// The text with every scalar for which `replacement` returns a string written as that
    /// string, and every other scalar kept; the text unchanged, without copying scalar by
    /// scalar, when no scalar has a replacement.
    package func escaped(by replacement: (Unicode.Scalar) -> String?) -> String {
        guard let first = unicodeScalars.firstIndex(where: { replacement($0) != nil }) else { return String(self) }
        var out = ""
        out.reserveCapacity(utf8.count + 16)
        out.unicodeScalars.append(contentsOf: unicodeScalars[..<first])
        for scalar in unicodeScalars[first...] {
            if let written = replacement(scalar) {
                out += written
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
