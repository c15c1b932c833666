import Foundation

/// The user's languages, and the `Accept-Language` header (RFC 9110 §12.5.4) that asks a server
/// for its texts in them.
///
/// One place for both ends: the SDK asks in the user's languages (a HAAPI server words its
/// labels, titles and problems for them, as Curity's does), the UI kit picks its own table by
/// them, and the development server reads the header back.
public enum UserLanguages {
    /// The user's languages, most preferred first: on Linux and other systems without a
    /// language setting of their own, `LANGUAGE`, `LC_ALL`, `LC_MESSAGES` and `LANG` first (so
    /// `LANG=sv_SE.UTF-8` asks for Swedish), then `Locale.preferredLanguages`. The values are
    /// as the system gives them (`sv_SE.UTF-8`, `en-US`); ``languageTag(_:)`` makes tags of them.
    public static var preferred: [String] {
        #if canImport(Darwin)
            return Locale.preferredLanguages
        #else
            let environment = ProcessInfo.processInfo.environment
            var named: [String] = []
            for variable in ["LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"] {
                for value in (environment[variable] ?? "").split(separator: ":")
                where value != "C" && value != "POSIX" && !value.hasPrefix("C.") {
                    named.append(String(value))
                }
            }
            return named + Locale.preferredLanguages
        #endif
    }

    /// The BCP 47 tag of a system language name: `sv_SE.UTF-8` and `sv_SE@euro` are `sv-SE`,
    /// `en-US` stays. `nil` for anything that is not a language tag (a language of 2 to 8
    /// letters, then subtags of 1 to 8 letters or digits), so nothing odd reaches a header.
    public static func languageTag(_ name: String) -> String? {
        let base = name.prefix { $0 != "." && $0 != "@" }.replacingOccurrences(of: "_", with: "-")
        let subtags = base.split(separator: "-", omittingEmptySubsequences: false)
        guard let primary = subtags.first, (2...8).contains(primary.count), primary.allSatisfy({ $0.isASCII && $0.isLetter }),
            subtags.allSatisfy({ (1...8).contains($0.count) && $0.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) } })
        else { return nil }
        return base
    }

    /// The `Accept-Language` value for `languages`, most preferred first: their tags, each once,
    /// with falling weights (`sv-SE, en-US;q=0.9`); at most six. `nil` when none is a tag.
    public static func acceptLanguage(_ languages: [String]) -> String? {
        var tags: [String] = []
        for tag in languages.compactMap(languageTag) where !tags.contains(where: { $0.caseInsensitiveCompare(tag) == .orderedSame }) {
            tags.append(tag)
            if tags.count == 6 { break }
        }
        guard !tags.isEmpty else { return nil }
        return tags.enumerated().map { index, tag in index == 0 ? tag : "\(tag);q=0.\(10 - index)" }.joined(separator: ", ")
    }

    /// The language ranges of an `Accept-Language` value, most preferred first (by weight, then
    /// by order), lowercased; ranges of weight 0 and malformed entries are left out.
    public static func ranges(acceptLanguage header: String) -> [String] {
        var weighted: [(range: String, weight: Double, order: Int)] = []
        for (order, entry) in header.split(separator: ",").prefix(32).enumerated() {
            let parts = entry.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
            guard let range = parts.first?.lowercased(), range == "*" || languageTag(range) != nil else { continue }
            var weight = 1.0
            for parameter in parts.dropFirst() where parameter.lowercased().hasPrefix("q=") {
                guard let value = Double(parameter.dropFirst(2)), (0...1).contains(value) else {
                    weight = -1
                    break
                }
                weight = value
            }
            if weight > 0 { weighted.append((range, weight, order)) }
        }
        return weighted.sorted { ($0.weight, -$0.order) > ($1.weight, -$1.order) }.map(\.range)
    }

    /// The first of `available` languages (primary subtags, lowercased: `["en", "sv"]`) that
    /// `ranges` ask for, matching by primary subtag (`sv-SE`, `sv_SE.UTF-8` and `sv` are `sv`);
    /// `*` takes the first available. `nil` when they ask for none of them.
    public static func negotiate(_ ranges: [String], available: [String]) -> String? {
        for range in ranges {
            if range == "*" { return available.first }
            let primary = String(range.prefix { $0.isLetter }).lowercased()
            if available.contains(primary) { return primary }
        }
        return nil
    }
}
