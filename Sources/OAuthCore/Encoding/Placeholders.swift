import Foundation

/// Texts with `%@` placeholders, as `.strings` tables write them: the kit's strings and the
/// development server's pages fill theirs here.
public enum Placeholders {
    /// `format` with `arguments` in place of its `%@` (in order) or `%1$@`, `%2$@`, ... (by
    /// position, as a translation may reorder them); `%%` is `%`. A marker with no argument
    /// stays as written.
    public static func fill(_ format: String, _ arguments: [String]) -> String {
        var output = "", rest = Substring(format), next = 0
        // One pass over the format, so an argument that holds a marker is never formatted again.
        while let percent = rest.firstIndex(of: "%") {
            output += rest[..<percent]
            let after = rest[rest.index(after: percent)...]
            if after.hasPrefix("@") {
                output += next < arguments.count ? arguments[next] : "%@"
                next += 1
                rest = after.dropFirst()
            } else if let match = after.prefixMatch(of: #/([1-9][0-9]?)\$@/#), let position = Int(match.1), position <= arguments.count {
                output += arguments[position - 1]
                rest = after[match.range.upperBound...]
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
}
