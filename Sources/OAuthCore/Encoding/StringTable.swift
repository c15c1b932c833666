import Foundation

/// One language's table of texts, read from the bytes of a `.strings` file (an old-style property
/// list of key = text) and, for texts with a count, a `.stringsdict` file: the kit's screens and
/// the command line each keep tables of their own and read them so.
package struct StringTable: Sendable {
    /// One text with a count: its format per CLDR plural category (English and Swedish have
    /// `one` and `other`), each with `%d` where the numbers go.
    package struct Plural: Sendable {
        /// The formats by category.
        package let formats: [String: String]

        /// The text for `count`, with `more` in the format's further `%d`s in order.
        package func text(for count: Int, _ more: [Int] = []) -> String {
            let format = (count == 1 ? formats["one"] : nil) ?? formats["other"] ?? "%d"
            var values = ([count] + more).makeIterator()
            return format.components(separatedBy: "%d").enumerated()
                .map { index, part in index == 0 ? part : String(values.next() ?? 0) + part }.joined()
        }
    }

    /// The single texts by key.
    package var texts: [String: String] = [:]
    /// The texts with a count by key.
    package var plurals: [String: Plural] = [:]

    /// The table of `strings` and `stringsdict` (the bytes of the files, which the package embeds);
    /// a file that does not parse gives no texts, so a key is then shown as itself.
    package init(strings: [UInt8], stringsdict: [UInt8] = []) {
        texts = (try? PropertyListSerialization.propertyList(from: Data(strings), format: nil)) as? [String: String] ?? [:]
        guard !stringsdict.isEmpty,
            let entries = (try? PropertyListSerialization.propertyList(from: Data(stringsdict), format: nil)) as? [String: [String: Any]]
        else { return }
        for (key, entry) in entries {
            // One variable per entry, named by its NSStringLocalizedFormatKey (`%#@value@`).
            guard let variable = entry.first(where: { $0.key != "NSStringLocalizedFormatKey" })?.value as? [String: Any] else {
                continue
            }
            plurals[key] = Plural(formats: variable.compactMapValues { $0 as? String }.filter { !$0.key.hasPrefix("NSString") })
        }
    }
}
