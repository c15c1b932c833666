import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Standard error, unbuffered. It takes only ``PrintableText``: what a server, a provider or a
/// stored file says cannot act on the terminal (`Scripts/lint.py` keeps
/// this the only way out, for the command line and for ``HaapiLogger``'s console sink).
package enum Stderr {
    package static func write(_ text: PrintableText) { FileHandle.standardError.write(Data(text.description.utf8)) }
    package static func line(_ text: PrintableText) { write(text + "\n") }
}

/// Standard output, unbuffered; ``PrintableText`` only, as ``Stderr``.
package enum Stdout {
    package static func write(_ text: PrintableText) { FileHandle.standardOutput.write(Data(text.description.utf8)) }
    package static func line(_ text: PrintableText) { write(text + "\n") }
    /// A response body as the server sent it, as `curl` writes it: the bytes themselves into a
    /// pipe or a file (binary data stays intact), but on a terminal as text, line by line, each
    /// line made safe.
    package static func body(_ data: Data) {
        guard isatty(STDOUT_FILENO) == 1 else { return FileHandle.standardOutput.write(data) }
        write(onTerminal(data))
    }

    /// A response body as a terminal shows it: JSON pretty-printed, other text line by line;
    /// every line made safe, and the last one ended (the prompt comes back on its own line).
    package static func onTerminal(_ data: Data) -> PrintableText {
        if let json = try? JSONValue(parsing: data), json.objectValue != nil || json.arrayValue != nil {
            return PrintableText(json: json) + "\n"
        }
        var text = String(decoding: data, as: UTF8.self)
        if !text.isEmpty, !text.hasSuffix("\n") { text += "\n" }
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        return PrintableText.joined(lines.map { PrintableText($0) }, separator: "\n")
    }

    /// Pretty JSON from ``JSONValue/serialized(pretty:)``, its strings' control characters escaped.
    package static func json(_ value: JSONValue) { line(PrintableText(json: value)) }
}
