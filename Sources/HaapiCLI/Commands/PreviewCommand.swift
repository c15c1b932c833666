import ArgumentParser
import Foundation
import HaapiCLICore
import HaapiDevServer
import HaapiPreview
import HaapiSDK
import HaapiUI
import OAuthCore

/// `haapi preview`: the kit's screens as web pages, themed, one per HAAPI response.
struct PreviewCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "preview",
        abstract: "Write the UI kit's screens for HAAPI responses as themed web pages, to look at in a browser.",
        discussion: helpText(
            """
            Each response (FILE, or every *.json of --captured DIR) becomes OUT/NAME.html: the \\
            screen the kit shows for it (the same value its UIKit screens draw), with the theme \\
            applied, light and dark as the browser prefers; OUT/index.html links them all. \\
            --theme is the app's theme plist, laid over the kit's; --assets the app's asset \\
            catalog, whose colour and image sets win over the kit's of the same name (the \\
            header logo, authenticators' icons). The server's texts are escaped.

            With --server, runs the development server with a gallery at /preview: every step \
            and problem it can send, in English and Swedish (?lang=sv), drawn with the theme and \
            asset catalog given, read again at each request: edit the plist, reload the page.
            """,
            examples:
                "haapi preview --captured responses --out preview",
            "haapi preview --server --theme App.plist",
            "haapi preview --theme App.plist --assets App/Assets.xcassets --lang sv login.json --out preview"))

    @Argument(help: "HAAPI response bodies (JSON files).")
    var files: [String] = []

    @Option(help: ArgumentHelp("A folder of HAAPI responses: each *.json in it gets a page.", valueName: "dir"))
    var captured: String?

    @OptionGroup var look: KitLookOptions

    @Option(
        help: ArgumentHelp(
            "The app's asset catalog (Assets.xcassets): its colour and image sets win over the kit's colours and symbols.", valueName: "dir"
        ))
    var assets: String?

    @Option(help: ArgumentHelp("Where to write the pages (made if missing).", valueName: "dir"))
    var out: String?

    @Flag(help: "Serve the development server with its gallery of steps at /preview, instead of writing pages.")
    var server = false

    @Option(help: "With --server: the port; 0 picks a free one.")
    var port = 8091

    func validate() throws {
        guard server || out != nil else {
            throw ValidationError("say where to write the pages with --out DIR, or serve them with --server")
        }
        guard (0...65535).contains(port) else { throw ValidationError("--port must be 1 to 65535 (or 0 for a free one), not \(port)") }
    }

    func run() async throws {
        if server {
            try await serve()
            return
        }
        guard let out else { return }
        let inputs = try responses()
        guard !inputs.isEmpty else { throw CLIFailure("no responses to preview: name JSON files, or a folder with --captured DIR") }
        let written = try await write(inputs, to: out)
        Stdout.line(PrintableText("wrote \(written) \(written == 1 ? "page" : "pages") and index.html to \(out)"))
    }

    /// The files to preview: those named, then each `*.json` of `--captured`, by name (with
    /// the folder it must be inside: a link out of it is refused).
    func responses() throws -> [(url: URL, folder: URL?)] {
        var urls: [(url: URL, folder: URL?)] = files.map { (URL(fileURLWithPath: $0), nil) }
        if let captured {
            let folder = URL(fileURLWithPath: captured, isDirectory: true)
            let names: [String]
            do { names = try FileManager.default.contentsOfDirectory(atPath: folder.path) } catch {
                throw CLIFailure("cannot read \(captured): \(error.localizedDescription)")
            }
            urls += names.filter { $0.hasSuffix(".json") }.sorted().map { (folder.appendingPathComponent($0), folder) }
        }
        return urls
    }

    @MainActor func write(_ inputs: [(url: URL, folder: URL?)], to out: String) async throws -> Int {
        let (screens, page) = try Self.pages(lang: look.lang, theme: look.theme, assets: assets)
        Self.warnAboutContrast(of: page)
        let images = RemoteImages()
        let folder = URL(fileURLWithPath: out, isDirectory: true)
        do { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) } catch {
            throw CLIFailure("cannot make \(out): \(error.localizedDescription)")
        }
        Self.removePagesOfEarlierRuns(in: folder)
        var pages: [(title: String, link: PageLink, caption: String)] = []
        for (input, captured) in inputs {
            let name = input.deletingPathExtension().lastPathComponent
            do {
                let data =
                    try captured.map { try InputFiles.read(input.lastPathComponent, in: $0, "the response", limit: InputFiles.Limit.small) }
                    ?? InputFiles.read(input.path, "the response", limit: InputFiles.Limit.small)
                let response: HaapiDocument
                do { response = try HaapiModel.response(from: data) } catch {
                    throw CLIFailure("\(input.path) is not a HAAPI response: \(error)")
                }
                let screen = screens.builder.screen(for: try screens.model(of: response))
                let loaded = await images.load(screen)
                try page.html(screen, title: name, images: loaded).data.write(
                    to: folder.appendingPathComponent(name + ".html"), options: .atomic)
                // The index links the page written, by its file's name: never a name read as a URL.
                pages.append((name, .file(name + ".html"), screens.strings.string(screen.kind.title)))
            } catch let failure as CLIFailure {
                // One bad file does not stop the others: it is said, and left out of the index.
                Texts.warn(PrintableText("skipped \(name): \(failure.message)"))
            }
        }
        guard !pages.isEmpty else { throw CLIFailure("none of the responses could be previewed") }
        do {
            try page.index(pages, title: "haapi preview").data.write(to: folder.appendingPathComponent("index.html"), options: .atomic)
        } catch {
            throw CLIFailure("cannot write \(out)/index.html: \(error.localizedDescription)")
        }
        return pages.count
    }

    /// Removes the pages an earlier run wrote into `folder` (those whose `generator` is
    /// ``ScreenPage/generator``), so that it holds this run's pages only; any other file stays.
    static func removePagesOfEarlierRuns(in folder: URL) {
        let marker: Markup = "<meta name=\"generator\" content=\"\(text: ScreenPage.generator)\">"
        for name in (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [] where name.hasSuffix(".html") {
            let file = folder.appendingPathComponent(name)
            // Only the head is read: the marker is in its first lines.
            guard let handle = try? FileHandle(forReadingFrom: file) else { continue }
            let head = (try? handle.read(upToCount: 1024)) ?? Data()
            try? handle.close()
            if head.range(of: marker.data) != nil { try? FileManager.default.removeItem(at: file) }
        }
    }

    /// Says, on standard error, each text of the theme and colours below WCAG AA contrast on
    /// what it is drawn on, naming the theme's keys and colours (``ThemeContrast``).
    static func warnAboutContrast(of page: ScreenPage) {
        for pair in ThemeContrast.failures(of: page.theme, color: { page.assets.color(named: $0) }) {
            Texts.warn(PrintableText("low contrast: \(pair.description)"))
        }
    }

    /// The screens and their page maker for a language, theme and asset catalog.
    static func pages(lang: String?, theme: String?, assets: String?) throws -> (KitScreens, ScreenPage) {
        let screens = try KitScreens(lang: lang, themePath: theme)
        let appAssets: AppAssets
        do { appAssets = try AppAssets(catalog: assets.map { URL(fileURLWithPath: $0, isDirectory: true) }) } catch {
            throw CLIFailure("cannot preview with this theme: \(error)")
        }
        // The theme as a whole: a misspelt key or section, or a colour found nowhere, would draw silently wrong.
        if let app = screens.appTheme {
            let lookedIn =
                assets.map { "the kit's colours and the colour sets of \($0)" }
                ?? "the kit's colours (and no asset catalog was given: --assets DIR)"
            let problems = ThemeCheck.problems(
                of: app, over: try Theme.kit, colorExists: { appAssets.color(named: $0) != nil }, lookedIn: lookedIn)
            if !problems.isEmpty {
                let lines = problems.map { PrintableText($0.errorDescription ?? $0.reason) }
                throw CLIFailure("the theme is not what the kit reads:\n  " + PrintableText.joined(lines, separator: "\n  "))
            }
        }
        do {
            return (screens, try ScreenPage(theme: screens.theme, assets: appAssets, strings: screens.strings, qrCode: QRCodeText.svg))
        } catch {
            throw CLIFailure("cannot preview with this theme: \(error)")
        }
    }

    /// The development server, with the gallery.
    func serve() async throws {
        var configuration = DevServerConfiguration(port: port, databasePath: nil)
        configuration.preview = Gallery(theme: look.theme, assets: assets)
        if let style = ScreenPage.kitStyleForServerPages { configuration.pageStyle = style }
        // The theme as it is now (the gallery reads it again at each request, and shows its errors there).
        do { Self.warnAboutContrast(of: try Self.pages(lang: nil, theme: look.theme, assets: assets).1) } catch let failure as CLIFailure {
            Texts.warn("\(failure.message) (the gallery's pages say so until the theme is mended)")
        }
        do {
            try await DevServer.run(configuration: configuration) { issuer in
                ServerCommand.writeLine(
                    "the gallery: \(issuer.appendingPathComponent("preview").absoluteString) (Swedish: ?lang=sv); the server: \(issuer.absoluteString)"
                )
            }
        } catch let error as DevServerError {
            throw CLIFailure(PrintableText(error.description))
        }
    }
}

/// The gallery's pages, drawn with the theme and asset catalog as they are at each request.
struct Gallery: PreviewRenderer {
    let theme: String?
    let assets: String?

    /// The images of the gallery's steps, loaded once while the server runs.
    let images = RemoteImages()

    func page(_ name: String?, documents: [StepGallery.Document], language: String) async throws -> Markup? {
        try await draw(name, documents: documents, language: language)
    }

    @MainActor func draw(_ name: String?, documents: [StepGallery.Document], language: String) async throws -> Markup? {
        let screens: KitScreens
        let page: ScreenPage
        do {
            (screens, page) = try PreviewCommand.pages(lang: language, theme: theme, assets: assets)
        } catch let failure as CLIFailure {
            // A theme being edited may be wrong for a moment: the page says why, the server stays up.
            return "<!doctype html><meta charset=\"utf-8\"><title>haapi preview</title><pre>\(text: failure.message)</pre>"
        }
        let others = StepGallery.languages.filter { $0 != language }
        guard let name else {
            let rows = documents.compactMap { document -> (title: String, link: PageLink, caption: String)? in
                guard let screen = try? screen(document, screens) else { return nil }
                return (
                    document.name, .path(["preview", document.name], query: [("lang", language)]), screens.strings.string(screen.kind.title)
                )
            }
            // The other languages, each named in its own words.
            let languages = others.map { other -> (title: String, link: PageLink, caption: String) in
                (
                    Locale(identifier: other).localizedString(forLanguageCode: other) ?? other,
                    .path(["preview"], query: [("lang", other)]), ""
                )
            }
            return page.index(rows + languages, title: "haapi preview (\(language))")
        }
        guard let document = documents.first(where: { $0.name == name }) else { return nil }
        let shown = try screen(document, screens)
        return page.html(shown, title: name, images: await images.load(shown))
    }

    @MainActor private func screen(_ document: StepGallery.Document, _ screens: KitScreens) throws -> Screen {
        screens.builder.screen(for: try screens.model(of: try HaapiModel.response(from: document.body.serialized())))
    }
}
