import Foundation

/// Swift source as code: the one way the tests that read the package's sources (which keys a
/// view draws, which string keys the code names) tell code from prose. A word in a comment or in
/// a string literal is not a use of anything.
public enum SwiftSourceText {
    /// `source` with every comment (`//`, `///`, `/* */`, nested) and the contents of every
    /// string literal (`"…"`, `"""…"""`, raw `#"…"#`) removed; the quotes stay, so that
    /// `f("x")` reads `f("")`. Line breaks are kept, so line numbers do not move.
    /// An interpolation's code (`\(…)`) is kept, with the literal's quotes around it.
    public static func code(_ source: String) -> String {
        var result = String.UnicodeScalarView()
        let scalars = Array(source.unicodeScalars)
        var index = 0
        func at(_ offset: Int) -> Unicode.Scalar? { index + offset < scalars.count ? scalars[index + offset] : nil }
        func starts(_ text: String) -> Bool {
            for (offset, scalar) in text.unicodeScalars.enumerated() where at(offset) != scalar { return false }
            return true
        }
        while index < scalars.count {
            if starts("//") {
                while index < scalars.count && scalars[index] != "\n" { index += 1 }
            } else if starts("/*") {
                var depth = 0
                repeat {
                    if starts("/*") {
                        depth += 1
                        index += 2
                    } else if starts("*/") {
                        depth -= 1
                        index += 2
                    } else {
                        if scalars[index] == "\n" { result.append("\n") }
                        index += 1
                    }
                } while depth > 0 && index < scalars.count
            } else if scalars[index] == "#" || scalars[index] == "\"" {
                // A raw string's #s, then its quotes: one or three.
                var hashes = 0
                while at(hashes) == "#" { hashes += 1 }
                guard at(hashes) == "\"" else {
                    result.append(scalars[index])
                    index += 1
                    continue
                }
                index += hashes
                let multiline = starts("\"\"\"")
                let quote = multiline ? "\"\"\"" : "\""
                index += quote.unicodeScalars.count
                let closing = quote + String(repeating: "#", count: hashes)
                let interpolation = "\\" + String(repeating: "#", count: hashes) + "("
                while index < scalars.count && !starts(closing) {
                    if starts(interpolation) {
                        // An interpolation is code, kept (between quotes, as `"" + (code) + ""`
                        // would read), but for the literals inside it.
                        index += interpolation.unicodeScalars.count
                        result.append(contentsOf: "\"(".unicodeScalars)
                        var depth = 1
                        var inner = false
                        while index < scalars.count && depth > 0 {
                            let scalar = scalars[index]
                            if inner {
                                if scalar == "\\" {
                                    index += 1
                                } else if scalar == "\"" {
                                    inner = false
                                    result.append(scalar)
                                }
                            } else {
                                if scalar == "\"" { inner = true } else if scalar == "(" { depth += 1 } else if scalar == ")" { depth -= 1 }
                                result.append(scalar)
                            }
                            index += 1
                        }
                        result.append("\"")
                        continue
                    }
                    // In a literal that is not raw, a backslash escapes what follows (\" and \\).
                    if hashes == 0 && scalars[index] == "\\" { index += 1 }
                    if index < scalars.count && scalars[index] == "\n" { result.append("\n") }
                    index += 1
                }
                index += closing.unicodeScalars.count
                result.append(contentsOf: "\"\"".unicodeScalars)
            } else {
                result.append(scalars[index])
                index += 1
            }
        }
        return String(result)
    }
}
