import Foundation
import HaapiCLICore
import OAuthCore

/// A QR code drawn with text, by the `qrencode` program (libqrencode's command-line tool,
/// packaged by every major distribution and Homebrew): the terminal gets a code a phone can
/// scan, and this project carries no QR encoder of its own.
enum QRCodeText {
    /// The code for `data` as lines of block characters, or `nil` when `qrencode` is not
    /// installed or fails. The data goes through standard input, never the argument list.
    static func render(_ data: String) -> PrintableText? {
        // UTF8: two rows per line with half blocks, a quiet zone of 2 modules (phones read it on dark and light themes).
        guard let text = encode(data, as: ["-t", "UTF8", "-m", "2"]) else { return nil }
        // Block characters and newlines; each line still goes through PrintableText.
        return PrintableText.joined(
            text.split(separator: "\n", omittingEmptySubsequences: false).map { PrintableText($0) }, separator: "\n")
    }

    /// The code for `data` as an image (for `haapi preview`'s pages), or `nil` without `qrencode`.
    /// What another program wrote enters a page only as an image's bytes, which a browser never
    /// runs as markup.
    @Sendable static func svg(_ data: String) -> Markup? {
        guard let svg = encode(data, as: ["-t", "SVG", "-m", "2"]), svg.contains("<svg") else { return nil }
        return "<img alt=\"\" src=\"\(link: .image(Data(svg.utf8), mediaType: "image/svg+xml"))\">"
    }

    /// What `qrencode` writes with `options` for `data`.
    private static func encode(_ data: String, as options: [String]) -> String? {
        guard let program = executable("qrencode") else { return nil }
        let process = Process()
        process.executableURL = program
        process.arguments = options + ["-o", "-"]
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch { return nil }
        input.fileHandleForWriting.write(Data(data.utf8))
        try? input.fileHandleForWriting.close()
        let drawn = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0, let text = String(data: drawn, encoding: .utf8), !text.isEmpty else { return nil }
        return text
    }

    private static func executable(_ name: String) -> URL? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        for directory in path.split(separator: ":") {
            let candidate = URL(fileURLWithPath: String(directory)).appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        return nil
    }
}
