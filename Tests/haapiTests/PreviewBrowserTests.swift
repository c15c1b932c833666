import Foundation
import HaapiTesting
import HaapiUI
import Testing

@testable import HaapiCLI

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `haapi preview`'s pages in a real browser (Chromium's headless shell, which Scripts/test.sh
/// installs): each page, in a 390×844 phone viewport, draws something, logs no error and has
/// nothing wider than the screen; the theme's colour and the chosen language reach the page.
///
/// The development server's own browser pages wear the same style sheet and are checked the same way.
@Suite(
    "haapi preview in a real browser",
    .enabled(
        if: HeadlessBrowser.installed != nil || HeadlessBrowser.required != nil,
        "no headless Chromium: apt-get install chromium-headless-shell"))
struct PreviewBrowserTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let fixtures = root.appendingPathComponent("Tests/HaapiUITests/Fixtures/ui-kit")

    /// Every UI-kit response, by base name: each becomes a page.
    static let fixtureNames: [String] = {
        let files = (try? FileManager.default.contentsOfDirectory(atPath: fixtures.path)) ?? []
        return files.filter { $0.hasSuffix(".json") }.map { String($0.dropLast(".json".count)) }.sorted()
    }()

    /// The steps the README shows, written to docs/screens/ under `HAAPI_UPDATE_SCREENSHOTS=1`.
    static let readmeScreens: Set = [
        "html-form-login", "bankid-polling-pending", "sms-polling-pending", "problem-invalid-input", "dev-server-device",
    ]

    /// The kind some pages must have (the others: any of the contract's kinds).
    static let expectedKinds = [
        "html-form-login": "form", "bankid-polling-pending": "bankID", "sms-polling-pending": "polling",
        "problem-invalid-input": "problem", "authentication-select-authenticator": "selector",
        "webauthn-registration-passkey-client-operation": "webAuthn",
    ]

    /// `haapi preview` failed.
    struct PreviewFailed: Error, CustomStringConvertible {
        let arguments: [String]
        let run: HaapiCommand.Run
        var description: String { "haapi \(arguments.joined(separator: " ")) exited with \(run.status): \(run.stderr)" }
    }

    /// Writes `out/index.html` and one page per response file: `haapi preview FILES… --out OUT`
    /// (with `--theme`, `--assets`, `--lang` when given).
    static func renderPreview(files: [URL], theme: URL? = nil, assets: URL? = nil, lang: String? = nil, out: URL) throws {
        var arguments = ["preview"] + files.map(\.path)
        if let theme { arguments += ["--theme", theme.path] }
        if let assets { arguments += ["--assets", assets.path] }
        if let lang { arguments += ["--lang", lang] }
        arguments += ["--out", out.path]
        let home = out.deletingLastPathComponent()
        let run = try CLITests.haapi(arguments, home: home)
        guard run.status == 0 else { throw PreviewFailed(arguments: arguments, run: run) }
    }

    /// A page's screenshot, its colours, and what the probe found in it.
    struct Rendered {
        let png: URL
        let colours: PNGColours
        let report: HeadlessBrowser.PageReport
    }

    /// Screenshots `page` (into `screens`) and inspects it in the browser.
    static func load(_ page: URL, screens: URL, colour: String? = nil) throws -> Rendered {
        let browser = try HeadlessBrowser.require()
        let png = screens.appendingPathComponent(page.deletingPathExtension().lastPathComponent + ".png")
        try browser.screenshot(url: page, to: png, width: PageChecks.width, height: PageChecks.height)
        return Rendered(png: png, colours: try PNGColours.of(png, near: colour), report: try browser.inspect(page: page))
    }

    /// Where screenshots go: docs/screens/ for the README's steps under
    /// `HAAPI_UPDATE_SCREENSHOTS=1`, otherwise a fixed temporary folder (overwritten each run,
    /// kept afterwards to look at).
    static func screens(for name: String) throws -> URL {
        let forReadme = ProcessInfo.processInfo.environment["HAAPI_UPDATE_SCREENSHOTS"] == "1" && readmeScreens.contains(name)
        let directory =
            forReadme
            ? root.appendingPathComponent("docs/screens")
            : FileManager.default.temporaryDirectory.appendingPathComponent("haapi-preview-screens")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    @Test("a page draws, logs no error and fits a 390-pixel phone", arguments: fixtureNames)
    func pageFitsAPhone(_ name: String) throws {
        let directory = try HaapiCommand.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let out = directory.appendingPathComponent("out")
        try Self.renderPreview(files: [Self.fixtures.appendingPathComponent("\(name).json")], out: out)
        let page = out.appendingPathComponent("\(name).html")
        let rendered = try Self.load(page, screens: try Self.screens(for: name))
        let problems = PageChecks.all(rendered, kind: Self.expectedKinds[name])
        #expect(problems.isEmpty, "\(name).html (screenshot \(rendered.png.path)):\n\(problems.joined(separator: "\n"))")
    }

    /// The preview is the screen: what the browser lays out is the ``ScreenLayout`` the UIKit
    /// screens lay out, measured on the page: the bar's title and way out (44 points at least),
    /// the space between the elements of each stack, and their alignment (a centred stack's
    /// elements as far from either side, a filled one's flush with both).
    @Test(
        "the page lays out the kit's ScreenLayout",
        arguments: ["html-form-login", "authentication-select-authenticator", "bankid-polling-pending", "problem-invalid-input"])
    @MainActor func thePageIsTheScreensLayout(_ name: String) throws {
        let directory = try HaapiCommand.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = Self.fixtures.appendingPathComponent("\(name).json")
        try Self.renderPreview(files: [file], out: directory)
        let report = try HeadlessBrowser.require().inspect(page: directory.appendingPathComponent("\(name).html"))
        let screens = try KitScreens(lang: "en", themePath: nil)
        let screen = screens.builder.screen(for: try screens.model(of: try HaapiModel.response(from: Data(contentsOf: file))))
        let layout = try ScreenLayout(screen, theme: screens.theme)
        #expect(report.navigationTitle == (layout.navigationBar.title ?? ""), "the bar's title")
        #expect(report.leaveSize.count == 2 && report.leaveSize.allSatisfy { $0 >= 44 }, "the way out: \(report.leaveSize)")
        let expected = [
            ("messages", screen.messages, layout.messages), ("content", screen.content, layout.content),
            ("links", screen.links, layout.links),
        ]
        .filter { !$0.1.isEmpty }
        #expect(report.stacks.map(\.name) == expected.map(\.0))
        for (stack, (_, _, shape)) in zip(report.stacks, expected) {
            #expect(
                stack.gaps.allSatisfy { $0 == Int(shape.spacing) },
                "\(name) \(stack.name): gaps \(stack.gaps), the layout's \(shape.spacing)")
            for side in stack.sides {
                switch shape.alignment {
                case .fill: #expect(side == [0, 0], "\(name) \(stack.name): filled, yet \(side) from the sides")
                case .center: #expect(abs(side[0] - side[1]) <= 1, "\(name) \(stack.name): centred, yet \(side) from the sides")
                default: break
                }
            }
        }
    }

    /// The development server's device page, as a phone shows it: the kit's look, nothing wider
    /// than the screen, no error.
    @Test func theDevServersPagesFitAPhone() throws {
        let directory = try HaapiCommand.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let server = try CLITests.ServerProcess(directory: directory)
        defer { server.stop() }
        // The page as served, inspected from a file (its style sheet is inline).
        let served = try Data(contentsOf: try #require(URL(string: server.issuer + "/device")))
        let page = directory.appendingPathComponent("device.html")
        try served.write(to: page)
        let browser = try HeadlessBrowser.require()
        let png = try Self.screens(for: "dev-server-device").appendingPathComponent("dev-server-device.png")
        try browser.screenshot(url: page, to: png, width: PageChecks.width, height: PageChecks.height)
        let rendered = Rendered(png: png, colours: try PNGColours.of(png, near: "646E85"), report: try browser.inspect(page: page))
        let problems = PageChecks.blankness(rendered.colours) + PageChecks.layout(rendered.report) + PageChecks.errors(rendered.report)
        #expect(problems.isEmpty, "/device:\n\(problems.joined(separator: "\n"))")
        // The kit's primary button colour (hui_button_background_primary) draws Continue.
        #expect((rendered.colours.match?.pixels ?? 0) > 5000, "\(rendered.colours)")
    }

    /// The page a browser shows when it comes back to `haapi`, for each kind of return.
    @Test func theReturnPageFitsAPhone() throws {
        let directory = try HaapiCommand.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let make = ReturnPage.make(language: "sv")
        for (name, parameters, title) in [
            ("signed-in", [("_resume_nonce", "n")], "Inloggad"), ("failed", [("error", "access_denied")], "Inloggningen slutfördes inte"),
            ("signed-out", [("state", "s")], "Utloggad"),
        ] {
            let page = directory.appendingPathComponent("return-\(name).html")
            try Data(make(parameters).utf8).write(to: page)
            let rendered = try Self.load(page, screens: directory)
            let problems = PageChecks.blankness(rendered.colours) + PageChecks.layout(rendered.report) + PageChecks.errors(rendered.report)
            #expect(problems.isEmpty, "\(name):\n\(problems.joined(separator: "\n"))")
            #expect(
                rendered.report.dom.contains("<title>\(title)</title>")
                    && rendered.report.dom.contains("data-style=\"MessageView.Heading\""), "\(name)")
        }
    }

    @Test func indexLinksToEveryPage() throws {
        let directory = try HaapiCommand.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let out = directory.appendingPathComponent("out")
        let names = ["html-form-login", "bankid-polling-pending", "problem-invalid-input"]
        try Self.renderPreview(files: names.map { Self.fixtures.appendingPathComponent("\($0).json") }, out: out)
        let rendered = try Self.load(out.appendingPathComponent("index.html"), screens: directory)
        let problems = PageChecks.blankness(rendered.colours) + PageChecks.layout(rendered.report) + PageChecks.errors(rendered.report)
        #expect(problems.isEmpty, "index.html:\n\(problems.joined(separator: "\n"))")
        for name in names {
            #expect(rendered.report.dom.contains("href=\"./\(name).html\""), "index.html does not link to \(name).html")
            #expect(FileManager.default.fileExists(atPath: out.appendingPathComponent("\(name).html").path), "\(name).html was not written")
        }
    }

    /// A magenta primary colour from an asset catalog, named by a theme plist, fills the login
    /// button's pixels; without the theme no pixel is magenta. The colorset spells its
    /// components three ways (hex, fraction, 0-255) as Xcode does, and has a green dark
    /// variant that a light-mode page must not use.
    @Test func themedPrimaryColourFillsTheLoginButton() throws {
        let directory = try HaapiCommand.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let colorset = directory.appendingPathComponent("Assets.xcassets/hui_test_magenta.colorset")
        try FileManager.default.createDirectory(at: colorset, withIntermediateDirectories: true)
        try Data(
            """
            {"colors": [
              {"idiom": "universal", "color": {"color-space": "srgb", "components": {"red": "0xFF", "green": "0.000", "blue": "255", "alpha": "1.000"}}},
              {"idiom": "universal", "appearances": [{"appearance": "luminosity", "value": "dark"}],
               "color": {"color-space": "srgb", "components": {"red": "0x00", "green": "0xFF", "blue": "0x00", "alpha": "1.000"}}}
            ], "info": {"author": "xcode", "version": 1}}
            """.utf8
        ).write(to: colorset.appendingPathComponent("Contents.json"))
        let kitTheme = Self.root.appendingPathComponent("Sources/HaapiUI/Resources/Theme.plist")
        var theme = try #require(
            try PropertyListSerialization.propertyList(from: Data(contentsOf: kitTheme), format: nil) as? [String: Any])
        var primary = try #require(theme["ActionableButton.Primary"] as? [String: Any])
        primary["backgroundColorName"] = "hui_test_magenta"
        theme["ActionableButton.Primary"] = primary
        let themeFile = directory.appendingPathComponent("App.plist")
        try PropertyListSerialization.data(fromPropertyList: theme, format: .xml, options: 0).write(to: themeFile)

        let login = Self.fixtures.appendingPathComponent("html-form-login.json")
        let themed = directory.appendingPathComponent("themed")
        let plain = directory.appendingPathComponent("plain")
        try Self.renderPreview(files: [login], theme: themeFile, assets: directory.appendingPathComponent("Assets.xcassets"), out: themed)
        try Self.renderPreview(files: [login], out: plain)
        let withTheme = try Self.load(themed.appendingPathComponent("html-form-login.html"), screens: themed, colour: "FF00FF")
        let withoutTheme = try Self.load(plain.appendingPathComponent("html-form-login.html"), screens: plain, colour: "FF00FF")
        let darkVariant = try PNGColours.of(withTheme.png, near: "00FF00")

        // A 358×50 button less its label and rounded corners: well over 10,000 pixels.
        let magenta = try #require(withTheme.colours.match).pixels
        #expect(magenta > 10_000, "only \(magenta) magenta pixels on the themed login page (\(withTheme.png.path))")
        #expect(try #require(withoutTheme.colours.match).pixels == 0, "magenta without the theme (\(withoutTheme.png.path))")
        #expect(try #require(darkVariant.match).pixels == 0, "the dark variant's green on a light page (\(withTheme.png.path))")
        // Without a theme, the button is Curity's: #646E85 (hui_button_background_primary of UI kit 5.4).
        let curity = try #require(try PNGColours.of(withoutTheme.png, near: "646E85").match).pixels
        #expect(curity > 10_000, "only \(curity) pixels of Curity's primary colour on the default login page (\(withoutTheme.png.path))")
        #expect(
            withTheme.report.dom.contains(
                #"<button class="item item-button role-primary" data-style="ActionableButton.Primary" type="button">"#),
            "no primary button as the contract writes it")
    }

    /// The app's logo (an SVG image set the theme's header names) draws in the page's pixels;
    /// the selector's authenticators each show the outline of their symbol.
    @Test func anAppsLogoAndTheAuthenticatorsIconsDraw() throws {
        let directory = try HaapiCommand.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let imageSet = directory.appendingPathComponent("Assets.xcassets/CompanyLogo.imageset")
        try FileManager.default.createDirectory(at: imageSet, withIntermediateDirectories: true)
        try Data(
            ##"<svg xmlns="http://www.w3.org/2000/svg" width="160" height="48"><rect width="160" height="48" fill="#00FFFF"/></svg>"##.utf8
        )
        .write(to: imageSet.appendingPathComponent("logo.svg"))
        try Data(#"{"images": [{"idiom": "universal", "filename": "logo.svg"}], "info": {"author": "xcode", "version": 1}}"#.utf8)
            .write(to: imageSet.appendingPathComponent("Contents.json"))
        let themeFile = directory.appendingPathComponent("App.plist")
        try PropertyListSerialization.data(fromPropertyList: ["HeaderView": ["imageName": "CompanyLogo"]], format: .xml, options: 0).write(
            to: themeFile)
        let selector = Self.fixtures.appendingPathComponent("authentication-select-authenticator.json")
        let branded = directory.appendingPathComponent("branded")
        let plain = directory.appendingPathComponent("plain")
        try Self.renderPreview(
            files: [selector], theme: themeFile, assets: directory.appendingPathComponent("Assets.xcassets"), out: branded)
        try Self.renderPreview(files: [selector], out: plain)
        let withLogo = try Self.load(
            branded.appendingPathComponent("authentication-select-authenticator.html"), screens: branded, colour: "00FFFF")
        let withoutLogo = try Self.load(
            plain.appendingPathComponent("authentication-select-authenticator.html"), screens: plain, colour: "00FFFF")
        // A 48-pixel-high logo, at most 60% of the width: thousands of cyan pixels.
        #expect(try #require(withLogo.colours.match).pixels > 3000, "the logo is not drawn (\(withLogo.png.path))")
        #expect(try #require(withoutLogo.colours.match).pixels == 0, "cyan without the app's logo (\(withoutLogo.png.path))")
        let problems = PageChecks.all(withLogo, kind: "selector")
        #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
        for symbol in ["globe", "clock.arrow.circlepath", "person.text.rectangle", "envelope", "message"] {
            #expect(withLogo.report.dom.contains("data-symbol=\"\(symbol)\""), "no outline of \(symbol)")
        }
    }

    /// `--lang sv`: the kit's own BankID help title is Swedish; without it, English.
    @Test func swedishKitTextsUnderLangSv() throws {
        let directory = try HaapiCommand.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let bankID = Self.fixtures.appendingPathComponent("bankid-polling-pending.json")
        let swedish = directory.appendingPathComponent("sv")
        let english = directory.appendingPathComponent("en")
        try Self.renderPreview(files: [bankID], lang: "sv", out: swedish)
        try Self.renderPreview(files: [bankID], out: english)
        let browser = try HeadlessBrowser.require()
        let inSwedish = try browser.inspect(page: swedish.appendingPathComponent("bankid-polling-pending.html"))
        let inEnglish = try browser.inspect(page: english.appendingPathComponent("bankid-polling-pending.html"))
        #expect(inSwedish.dom.contains("Skanna QR-koden"), "\(inSwedish.dom)")
        #expect(!inEnglish.dom.contains("Skanna QR-koden"), "\(inEnglish.dom)")
        #expect(inSwedish.errors.isEmpty && inEnglish.errors.isEmpty, "\(inSwedish.errors) \(inEnglish.errors)")
    }
}

/// What every page must satisfy; each check returns its problems, empty when the page passes.
enum PageChecks {
    static let width = 390, height = 844
    /// Anti-aliased text alone gives dozens of colours; a blank or single-block page has a few.
    static let minimumColours = 8
    /// A page whose background covers more than this share of it shows almost nothing. Not
    /// lower: a correct screen with one line of text on it (an authorization response) is
    /// 99.6% background, one with a title and a message 98.4%, a blank page 100%.
    static let maximumDominantFraction = 0.999
    static let kinds: Set = ["form", "selector", "polling", "bankID", "webAuthn", "problem", "generic"]

    static func all(_ rendered: PreviewBrowserTests.Rendered, kind: String?) -> [String] {
        blankness(rendered.colours) + layout(rendered.report) + errors(rendered.report) + contract(rendered.report.dom, kind: kind)
    }

    static func blankness(_ colours: PNGColours) -> [String] {
        var problems: [String] = []
        if colours.width != width || colours.height != height {
            problems.append("the screenshot is \(colours.width)×\(colours.height), not \(width)×\(height)")
        }
        if colours.distinctColours < minimumColours {
            problems.append("blank: \(colours.distinctColours) distinct colours (fewer than \(minimumColours))")
        }
        if colours.dominantFraction > maximumDominantFraction {
            let percent = (colours.dominantFraction * 1000).rounded() / 10
            problems.append("nearly blank: \(percent)% of the pixels are #\(colours.dominantColour)")
        }
        return problems
    }

    static func layout(_ report: HeadlessBrowser.PageReport) -> [String] {
        var problems = report.tooWide.map { "wider than the \(width)-pixel viewport: \($0)" }
        if report.viewport != [width, height] {
            problems.append("the viewport was \(report.viewport), not [\(width), \(height)]: is the viewport <meta> missing?")
        }
        if report.scrollWidth > width { problems.append("the page scrolls sideways: scrollWidth \(report.scrollWidth)") }
        problems += report.hidden.map { "on the screen but not seen: \($0)" }
        problems += report.small.map { "smaller than 44×44 to tap: \($0)" }
        return problems
    }

    static func errors(_ report: HeadlessBrowser.PageReport) -> [String] {
        report.errors.map { "error: \($0)" }
    }

    /// The contract's root, `<main class="screen" data-kind=…>` (of `kind` when given), and the
    /// phone viewport `<meta>`.
    static func contract(_ dom: String, kind: String?) -> [String] {
        var problems: [String] = []
        if !dom.contains(#"<meta name="viewport" content="width=device-width, initial-scale=1">"#) {
            problems.append("no <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">")
        }
        let marker = #"<main class="screen" data-kind=""#
        guard let start = dom.range(of: marker), let end = dom[start.upperBound...].firstIndex(of: "\"") else {
            return problems + ["no <main class=\"screen\" data-kind=…>"]
        }
        let found = String(dom[start.upperBound..<end])
        if !kinds.contains(found) { problems.append("data-kind \"\(found)\" is none of \(kinds.sorted())") }
        if let kind, found != kind { problems.append("data-kind \"\(found)\", expected \"\(kind)\"") }
        if !dom.contains(#" class="item item-"#) { problems.append("no items") }
        return problems
    }
}

/// The checks above fail on pages that break them: otherwise a passing page proves nothing.
@Suite(
    "the browser checks catch broken pages",
    .enabled(
        if: HeadlessBrowser.installed != nil || HeadlessBrowser.required != nil,
        "no headless Chromium: apt-get install chromium-headless-shell"))
struct PreviewBrowserCheckTests {
    /// A contract page with `items` inside its `<main>`.
    static func page(_ items: String, head: String = #"<meta name="viewport" content="width=device-width, initial-scale=1">"#) -> String {
        """
        <!DOCTYPE html><html lang="en"><head><meta charset="utf-8">\(head)<style>body { margin: 0; font: 16px sans-serif; } .screen { padding: 16px; }</style></head>
        <body><main class="screen" data-kind="generic"><div class="item item-message" data-style="TextAppearance.Title"><h1>A title for the checks</h1></div>
        \(items)</main></body></html>
        """
    }

    static func load(_ html: String, in directory: URL, name: String = "page") throws -> PreviewBrowserTests.Rendered {
        let file = directory.appendingPathComponent("\(name).html")
        try Data(html.utf8).write(to: file)
        return try PreviewBrowserTests.load(file, screens: directory)
    }

    @Test func aWellFormedPagePasses() throws {
        let directory = try HaapiCommand.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let rendered = try Self.load(
            Self.page(#"<div class="item item-message" data-style="MessageView.Info"><p>Hello</p></div>"#), in: directory)
        #expect(PageChecks.layout(rendered.report).isEmpty && PageChecks.errors(rendered.report).isEmpty, "\(rendered.report)")
        #expect(PageChecks.contract(rendered.report.dom, kind: "generic").isEmpty)
    }

    @Test func anElementWiderThanThePhoneIsReported() throws {
        let directory = try HaapiCommand.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let rendered = try Self.load(
            Self.page(#"<div class="item item-wide" style="width: 600px; height: 40px; background: #CCC"></div>"#), in: directory)
        let problems = PageChecks.layout(rendered.report)
        // 16 px of padding, then 600 px.
        #expect(problems.contains { $0.contains("div.item.item-wide 16..616") }, "\(problems)")
        #expect(problems.contains { $0.contains("scrollWidth 616") }, "\(problems)")
    }

    /// A page whose fields and buttons are there but not seen (each hidden another way) has
    /// enough colours and items to pass the blankness and contract checks: the layout check
    /// names each one.
    @Test func fieldsAndButtonsThatAreNotSeenAreReported() throws {
        let directory = try HaapiCommand.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let rendered = try Self.load(
            Self.page(
                """
                <div class="item item-textField" style="display: none"><input name="userName"></div>
                <div class="item item-textField"><input name="password" type="password" style="visibility: hidden"></div>
                <div class="item item-button" style="opacity: 0"><button type="button">Login</button></div>
                <div class="item item-link"><a href="#x" style="display: inline-block; width: 0; height: 0; overflow: hidden">Forgot</a></div>
                <details class="item item-expandable"><summary>More</summary><p><a href="#y">inside a closed details: fine</a></p></details>
                """), in: directory)
        #expect(PageChecks.blankness(rendered.colours).isEmpty && PageChecks.contract(rendered.report.dom, kind: "generic").isEmpty)
        let problems = PageChecks.layout(rendered.report)
        for expected in [
            "div.item.item-textField: not rendered", "input: not rendered", "input: visibility hidden", "div.item.item-button: opacity 0",
            "button: opacity 0", "a: no size",
        ] {
            #expect(problems.contains { $0.contains(expected) }, "\(expected) not in \(problems)")
        }
        // Those six, and nothing seen (the title, the summary) or hidden by design (a closed details' body).
        #expect(problems.filter { $0.hasPrefix("on the screen but not seen") }.count == 6, "\(problems)")
    }

    /// A link of a theme's 36 points, a 20-point checkbox row: too small to tap.
    @Test func targetsSmallerThan44AreReported() throws {
        let directory = try HaapiCommand.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let rendered = try Self.load(
            Self.page(
                """
                <a class="item item-link" href="#x" style="display: block; height: 36px; line-height: 36px">Forgot your password?</a>
                <label class="item item-checkbox" style="display: flex; height: 20px"><input type="checkbox"> Remember me</label>
                <button class="item item-button" type="button" style="height: 48px; width: 100%">Log in</button>
                """), in: directory)
        let problems = PageChecks.layout(rendered.report)
        #expect(problems.contains { $0.hasPrefix("smaller than 44×44 to tap: a.item.item-link") && $0.hasSuffix("×36") }, "\(problems)")
        #expect(problems.contains { $0.hasPrefix("smaller than 44×44 to tap: label.item.item-checkbox") }, "\(problems)")
        #expect(problems.count == 2, "\(problems)")
    }

    @Test func aPageWithoutTheViewportMetaIsReported() throws {
        let directory = try HaapiCommand.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let rendered = try Self.load(Self.page("", head: ""), in: directory)
        #expect(PageChecks.contract(rendered.report.dom, kind: nil).contains { $0.contains("viewport") })
    }

    @Test func errorsOfEveryKindAreReported() throws {
        let directory = try HaapiCommand.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let rendered = try Self.load(
            Self.page(
                """
                <img src="missing.png" alt="">
                <script>console.error('logged on purpose'); Promise.reject('rejected on purpose');</script>
                <script>throw new Error('thrown on purpose');</script>
                <script>setTimeout(function () { throw new Error('thrown later on purpose'); }, 500);</script>
                """), in: directory)
        let problems = PageChecks.errors(rendered.report)
        for expected in [
            "console.error: logged on purpose", "rejected on purpose", "Uncaught Error: thrown on purpose", "thrown later on purpose",
            "failed to load <img>",
        ] {
            #expect(problems.contains { $0.contains(expected) }, "\(expected) not in \(problems)")
        }
        // The browser's log sees the uncaught exceptions and the rejection too, and says so for each.
        #expect(rendered.report.console.filter(\.isUncaughtError).count == 3, "\(rendered.report.console)")
    }

    @Test func aBlankPageIsReported() throws {
        let directory = try HaapiCommand.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let blank = try Self.load(
            #"<!DOCTYPE html><html><head><meta name="viewport" content="width=device-width, initial-scale=1"></head><body></body></html>"#,
            in: directory)
        let problems = PageChecks.blankness(blank.colours)
        #expect(problems.contains { $0.hasPrefix("blank: 1 distinct colours") }, "\(problems)")
        #expect(problems.contains { $0.contains("100.0% of the pixels are #FFFFFF") }, "\(problems)")
        #expect(PageChecks.contract(blank.report.dom, kind: nil).contains("no <main class=\"screen\" data-kind=…>"))
    }

    /// A page that never finishes is killed at the time limit, with a typed error.
    @Test func aHungPageTimesOut() throws {
        let directory = try HaapiCommand.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let page = directory.appendingPathComponent("hang.html")
        try Data("<!DOCTYPE html><html><body><script>while (true) {}</script></body></html>".utf8).write(to: page)
        let browser = try HeadlessBrowser.require()
        let start = Date()
        #expect {
            _ = try browser.dumpDOM(url: page, timeout: 5)
        } throws: { error in
            guard case HeadlessBrowser.Failure.timedOut = error else { return false }
            return true
        }
        #expect(Date().timeIntervalSince(start) < 15)
    }
}
