/// A command's help text (its `discussion`): `about`, when there is more to say than the
/// abstract, then `examples`, one command line each, under `Examples:`. Every command's help
/// ends with examples, written here in one format (what users copy first, and what the man
/// page and the tests read).
///
/// The help is wrapped at 80 columns, and a wrapped example would break mid-command: an
/// example's comment goes on the line above it, and a command still too long is continued
/// with ` \` lines, as a shell reads them.
package func helpText(_ about: String = "", examples: String...) -> String {
    let list = "Examples:\n" + examples.map(exampleLines).joined(separator: "\n")
    return about.isEmpty ? list : about + "\n\n" + list
}

/// The widest example line: ArgumentParser wraps at 80 columns.
private let exampleWidth = 78

/// `example` as lines of at most ``exampleWidth`` columns, indented by two.
private func exampleLines(_ example: String) -> String {
    guard example.count + 2 > exampleWidth else { return "  " + example }
    var command = example
    var lines: [String] = []
    if let comment = example.range(of: "   # ") ?? example.range(of: "  # ") {
        lines.append("  # " + example[comment.upperBound...])
        command = example[..<comment.lowerBound].trimmingCharacters(in: .whitespaces)
    }
    // Break between words, each continued line ending in ` \`.
    var line = "  "
    for word in command.split(separator: " ", omittingEmptySubsequences: false) {
        let candidate = line.trimmingCharacters(in: .whitespaces).isEmpty ? line + word : line + " " + word
        if candidate.count + 2 > exampleWidth && !line.trimmingCharacters(in: .whitespaces).isEmpty {
            lines.append(line + " \\")
            line = "      " + word
        } else {
            line = candidate
        }
    }
    lines.append(line)
    return lines.joined(separator: "\n")
}
