/// A command's help text (its `discussion`): `about`, when there is more to say than the
/// abstract, then `examples`, one command line each, under `Examples:`. Every command's help
/// ends with examples, written here in one format (what users copy first, and what the man
/// page and the tests read).
func helpText(_ about: String = "", examples: String...) -> String {
    let list = "Examples:\n" + examples.map { "  " + $0 }.joined(separator: "\n")
    return about.isEmpty ? list : about + "\n\n" + list
}
