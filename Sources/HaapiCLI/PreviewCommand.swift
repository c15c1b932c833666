import ArgumentParser
import Foundation
import HaapiPreview
import HaapiSDK
import HaapiUI
import OAuthCore

/// `haapi preview`: the kit's screens as web pages, themed, one per HAAPI response.
struct PreviewCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "preview",
        abstract: "Write the UI kit's screens for HAAPI responses as themed web pages, to look at in a browser.",
        discussion: """
            Each response (FILE, or every *.json of --captured DIR) becomes OUT/NAME.html: the \\
            screen the kit shows for it (the same value its UIKit screens draw), with the theme \\
            applied, light and dark as the browser prefers; OUT/index.html links them all. \\
            --theme is the app's theme plist, laid over the kit's; --assets the app's asset \\
            catalog, whose colour sets win over the kit's colours of the same name. The server's \\
            texts are escaped.

            Examples:
              haapi preview --captured responses --out preview
              haapi preview --theme App.plist --assets App/Assets.xcassets --lang sv login.json --out preview
            """)

    @Argument(help: "HAAPI response bodies (JSON files).")
    var files: [String] = []

    @Option(help: ArgumentHelp("A folder of HAAPI responses: each *.json in it gets a page.", valueName: "dir"))
    var captured: String?

    @Option(help: ArgumentHelp("The app's theme plist, laid over the kit's theme.", valueName: "plist"))
    var theme: String?

    @Option(help: ArgumentHelp("The app's asset catalog (Assets.xcassets): its colour sets win over the kit's colours.", valueName: "dir"))
    var assets: String?

    @Option(help: ArgumentHelp("The language of the kit's texts (en, sv).", valueName: "code"))
    var lang: String?

    @Option(help: ArgumentHelp("Where to write the pages (made if missing).", valueName: "dir"))
    var out: String

    func run() async throws {
        let inputs = try responses()
        guard !inputs.isEmpty else { throw CLIFailure("no responses to preview: name JSON files, or a folder with --captured DIR") }
        let written = try await write(inputs)
        Stdout.line(PrintableText("wrote \(written) pages and index.html to \(out)"))
    }

    /// The files to preview: those named, then each `*.json` of `--captured`, by name.
    func responses() throws -> [URL] {
        var urls = files.map { URL(fileURLWithPath: $0) }
        if let captured {
            let folder = URL(fileURLWithPath: captured, isDirectory: true)
            let names: [String]
            do { names = try FileManager.default.contentsOfDirectory(atPath: folder.path) } catch {
                throw CLIFailure("cannot read \(captured): \(error.localizedDescription)")
            }
            urls += names.filter { $0.hasSuffix(".json") }.sorted().map { folder.appendingPathComponent($0) }
        }
        return urls
    }

    @MainActor func write(_ inputs: [URL]) throws -> Int {
        let screens = try KitScreens(lang: lang, themePath: theme)
        let page: ScreenPage
        do {
            page = try ScreenPage(theme: screens.theme, palette: try Palette(assets: assets.map { URL(fileURLWithPath: $0, isDirectory: true) }), strings: screens.strings)
        } catch {
            throw CLIFailure("cannot preview with this theme: \(error)")
        }
        let folder = URL(fileURLWithPath: out, isDirectory: true)
        do { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) } catch {
            throw CLIFailure("cannot make \(out): \(error.localizedDescription)")
        }
        var pages: [(title: String, file: String, kind: String)] = []
        for input in inputs {
            let name = input.deletingPathExtension().lastPathComponent
            do {
                let data: Data
                do { data = try Data(contentsOf: input) } catch { throw CLIFailure("cannot read \(input.path): \(error.localizedDescription)") }
                let response: HaapiDocument
                do { response = try HaapiModel.response(from: data) } catch { throw CLIFailure("\(input.path) is not a HAAPI response: \(error)") }
                let screen = screens.builder.screen(for: try screens.model(of: response))
                try Data(page.html(screen, title: name).utf8).write(to: folder.appendingPathComponent(name + ".html"), options: .atomic)
                pages.append((name, name + ".html", screen.kind.rawValue))
            } catch let failure as CLIFailure {
                // One bad file does not stop the others: it is said, and left out of the index.
                Stderr.line(PrintableText("haapi: warning: skipped \(name): \(failure.message)"))
            }
        }
        guard !pages.isEmpty else { throw CLIFailure("none of the responses could be previewed") }
        do {
            try Data(page.index(pages, title: "haapi preview").utf8).write(to: folder.appendingPathComponent("index.html"), options: .atomic)
        } catch {
            throw CLIFailure("cannot write \(out)/index.html: \(error.localizedDescription)")
        }
        return pages.count
    }
}
