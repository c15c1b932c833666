import Foundation
import HaapiDevServer
import Testing

@testable import HaapiCLI

/// `haapi preview` from the binary: a page per response and an index, themed by an app's plist
/// and asset catalog, every text escaped. (What a browser draws of them: `PreviewBrowserTests`.)
@Suite struct CLIPreviewTests {
    static func folder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("preview-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    /// A folder written again holds this run's pages only: the earlier run's pages go, any other
    /// file (an app's own page) stays.
    @Test func aFolderWrittenAgainHoldsOnlyThisRunsPages() throws {
        let home = try Self.folder()
        defer { try? FileManager.default.removeItem(at: home) }
        let out = home.appendingPathComponent("out")
        let login = CLIPlaybackTests.uiKit.appendingPathComponent("html-form-login.json").path
        let selector = CLIPlaybackTests.uiKit.appendingPathComponent("authentication-select-authenticator.json").path
        #expect(try CLITests.haapi(["preview", login, selector, "--out", out.path], home: home).status == 0)
        try Data("<!doctype html><title>notes</title>".utf8).write(to: out.appendingPathComponent("notes.html"))
        let again = try CLITests.haapi(["preview", selector, "--out", out.path], home: home)
        #expect(again.status == 0 && again.stdout.contains("wrote 1 page and index.html"), "\(again.stdout) \(again.stderr)")
        let left = try FileManager.default.contentsOfDirectory(atPath: out.path).sorted()
        #expect(left == ["authentication-select-authenticator.html", "index.html", "notes.html"], "\(left)")
        let index = try String(contentsOf: out.appendingPathComponent("index.html"), encoding: .utf8)
        #expect(index.contains(">Choice<") && !index.contains(">selector<"), "the kind in words, not its raw value")
    }

    /// The theme's `fontName` is the pages' font family, written as a CSS string: a name that
    /// tries to end the style element stays a name.
    @Test func theThemesFontFamilyIsUsedAndCannotEndTheStyle() throws {
        let home = try Self.folder()
        defer { try? FileManager.default.removeItem(at: home) }
        let login = CLIPlaybackTests.uiKit.appendingPathComponent("html-form-login.json").path
        for (name, expected) in [
            ("Avenir Next", "font-family: \"Avenir Next\", -apple-system"),
            ("x\"</style><script>alert(1)</script>", "font-family: \"x\\22 \\3c /style\\3e \\3c script\\3e alert(1)\\3c /script\\3e \""),
        ] {
            let plist = home.appendingPathComponent("Font.plist")
            try PropertyListSerialization.data(fromPropertyList: ["fontName": name], format: .xml, options: 0).write(to: plist)
            let out = home.appendingPathComponent("out")
            let run = try CLITests.haapi(["preview", "--theme", plist.path, login, "--out", out.path], home: home)
            #expect(run.status == 0, "\(run.stderr)")
            let page = try String(contentsOf: out.appendingPathComponent("html-form-login.html"), encoding: .utf8)
            #expect(page.contains(expected), "\(name)")
            #expect(!page.contains("<script>alert"), "\(name) became markup")
        }
    }

    @Test func aPagePerResponseAndAnIndexInTheLanguageAsked() throws {
        let home = try Self.folder()
        defer { try? FileManager.default.removeItem(at: home) }
        let out = home.appendingPathComponent("out")
        let run = try CLITests.haapi(["preview", "--lang", "sv", "--captured", CLIPlaybackTests.uiKit.path, "--out", out.path], home: home)
        #expect(run.status == 0, "\(run.stderr)")
        let fixtures = try FileManager.default.contentsOfDirectory(atPath: CLIPlaybackTests.uiKit.path).filter { $0.hasSuffix(".json") }
        let pages = try FileManager.default.contentsOfDirectory(atPath: out.path).filter { $0.hasSuffix(".html") && $0 != "index.html" }
        #expect(Set(pages) == Set(fixtures.map { $0.replacingOccurrences(of: ".json", with: ".html") }), "\(run.stderr)")
        let index = try String(contentsOf: out.appendingPathComponent("index.html"), encoding: .utf8)
        #expect(pages.allSatisfy { index.contains("href=\"./\($0)\"") })
        let login = try String(contentsOf: out.appendingPathComponent("html-form-login.html"), encoding: .utf8)
        #expect(login.contains("<main class=\"screen\" data-kind=\"form\" data-style=\"FormViewController\" style=\""))
        #expect(
            login.contains("autocomplete=\"current-password\"") && login.contains("enterkeyhint=\"next\"") && login.contains("autofocus"))
        #expect(login.contains("<html lang=\"sv\">") && login.contains("name=\"viewport\""))
        let bankID = try String(contentsOf: out.appendingPathComponent("bankid-polling-pending.html"), encoding: .utf8)
        #expect(bankID.contains("Skanna QR-koden"), "the kit's own texts in Swedish")
        #expect(!run.stderr.contains("contrast"), "the kit's own theme reaches WCAG AA: \(run.stderr)")
    }

    @Test func anAppsThemeAndColourSetsStyleThePages() throws {
        let home = try Self.folder()
        defer { try? FileManager.default.removeItem(at: home) }
        let colourSet = home.appendingPathComponent("Assets.xcassets/company_magenta.colorset", isDirectory: true)
        try FileManager.default.createDirectory(at: colourSet, withIntermediateDirectories: true)
        try Data(
            #"{"colors": [{"idiom": "universal", "color": {"color-space": "srgb", "components": {"red": "0xFF", "green": "0x00", "blue": "255", "alpha": "1.000"}}}, {"idiom": "universal", "appearances": [{"appearance": "luminosity", "value": "dark"}], "color": {"components": {"red": "0.5", "green": "0", "blue": "0.5", "alpha": "1"}}}]}"#
                .utf8
        )
        .write(to: colourSet.appendingPathComponent("Contents.json"))
        let plist = home.appendingPathComponent("App.plist")
        try Data(
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict><key>ActionableButton.Primary</key><dict><key>backgroundColorName</key><string>company_magenta</string></dict></dict></plist>
            """.utf8
        ).write(to: plist)
        let out = home.appendingPathComponent("out")
        let login = CLIPlaybackTests.uiKit.appendingPathComponent("html-form-login.json").path
        let run = try CLITests.haapi(
            ["preview", "--theme", plist.path, "--assets", home.appendingPathComponent("Assets.xcassets").path, login, "--out", out.path],
            home: home)
        #expect(run.status == 0, "\(run.stderr)")
        let page = try String(contentsOf: out.appendingPathComponent("html-form-login.html"), encoding: .utf8)
        #expect(
            page.contains("--c-company_magenta: rgba(255, 0, 255, 1.000);")
                && page.contains("--c-company_magenta: rgba(128, 0, 128, 1.000);"))
        #expect(page.contains("[data-style=\"ActionableButton.Primary\"] { background: var(--c-company_magenta);"))
        // White on #FF00FF is 3.136:1 (shown rounded down, so that 4.499 never reads 4.50), below the 4.5:1 WCAG AA asks of the button's text; on the
        // dark variant (#800080) it is 9.4:1.
        #expect(
            run.stderr.contains(
                "haapi: warning: low contrast: ActionableButton.Primary.textColorName (hui_button_text) on ActionableButton.Primary.backgroundColorName (company_magenta), light: 3.13:1, AA asks 4.5:1"
            ),
            "\(run.stderr)")
        #expect(!run.stderr.contains("company_magenta), dark"), "\(run.stderr)")
    }

    /// `--assets` images: the header logo the theme names comes from the app's image set (its
    /// largest file, light and dark); an app's image of an authenticator's name replaces the
    /// kit's outline; a set the browser cannot show (PDF only) leaves the kit's; a huge image is
    /// refused by name.
    @Test func anAppsImageSetsDrawTheLogoAndIconsAndTheKitsOutlinesTheRest() throws {
        let home = try Self.folder()
        defer { try? FileManager.default.removeItem(at: home) }
        let catalog = home.appendingPathComponent("Assets.xcassets", isDirectory: true)
        func imageSet(_ name: String, _ files: [(file: String, bytes: Data, scale: String, dark: Bool)]) throws {
            let folder = catalog.appendingPathComponent("\(name).imageset", isDirectory: true)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            var entries: [String] = []
            for file in files {
                try file.bytes.write(to: folder.appendingPathComponent(file.file))
                let appearance = file.dark ? #", "appearances": [{"appearance": "luminosity", "value": "dark"}]"# : ""
                entries.append(#"{"idiom": "universal", "filename": "\#(file.file)", "scale": "\#(file.scale)"\#(appearance)}"#)
            }
            try Data(#"{"images": [\#(entries.joined(separator: ", "))], "info": {"author": "xcode", "version": 1}}"#.utf8)
                .write(to: folder.appendingPathComponent("Contents.json"))
        }
        let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        let small = png + Data("small-logo".utf8)
        let large = png + Data("large-logo".utf8)
        let dark = png + Data("dark-logo".utf8)
        let sms = Data("<svg/>".utf8)
        try imageSet(
            "CompanyLogo", [("logo.png", small, "1x", false), ("logo@2x.png", large, "2x", false), ("logo-dark.png", dark, "2x", true)])
        try imageSet("hui_ic_authenticator_sms", [("sms.svg", sms, "1x", false)])
        try imageSet("hui_ic_authenticator_totp", [("totp.pdf", Data("%PDF".utf8), "1x", false)])
        let plist = home.appendingPathComponent("App.plist")
        try Data(
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict><key>HeaderView</key><dict><key>imageName</key><string>CompanyLogo</string></dict></dict></plist>
            """.utf8
        ).write(to: plist)
        let out = home.appendingPathComponent("out")
        let selector = CLIPlaybackTests.uiKit.appendingPathComponent("authentication-select-authenticator.json").path
        let run = try CLITests.haapi(["preview", "--theme", plist.path, "--assets", catalog.path, selector, "--out", out.path], home: home)
        #expect(run.status == 0, "\(run.stderr)")
        let page = try String(contentsOf: out.appendingPathComponent("authentication-select-authenticator.html"), encoding: .utf8)
        // The logo: the 2x file in light mode, the dark file in dark mode.
        #expect(
            page.contains(#"<source media="(prefers-color-scheme: dark)" srcset="data:image/png;base64,\#(dark.base64EncodedString())">"#),
            "\(page)")
        #expect(
            page.contains(#"src="data:image/png;base64,\#(large.base64EncodedString())""#) && !page.contains(small.base64EncodedString()))
        // SMS: the app's image; TOTP (PDF only) and the others: the kit's outlines of their symbols.
        #expect(
            page.contains(
                #"data-image="hui_ic_authenticator_sms"><img class="asset" alt="" src="data:image/svg+xml;base64,\#(sms.base64EncodedString())">"#
            ), "\(page)")
        #expect(
            page.contains(#"data-image="hui_ic_authenticator_totp"><svg class="glyph""#)
                && page.contains(#"data-symbol="clock.arrow.circlepath""#), "\(page)")

        // An image too large to embed is refused, naming it.
        try imageSet("Huge", [("huge.png", Data(count: 2 << 20), "1x", false)])
        let refused = try CLITests.haapi(["preview", "--assets", catalog.path, selector, "--out", out.path], home: home)
        #expect(refused.status != 0 && refused.stderr.contains("huge.png: it is larger than 1 MiB"), "\(refused.stderr)")
    }

    /// Issue 56, item 2: a theme is checked as a whole. The README's example without its asset
    /// catalog, a misspelt key and a misspelt section each fail, naming the section, the key and
    /// what to do; with the catalog, the example draws.
    @Test func aThemeThatWouldDrawSilentlyWrongIsRefusedSayingWhy() throws {
        let home = try Self.folder()
        defer { try? FileManager.default.removeItem(at: home) }
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../..")
        let example = root.appendingPathComponent("docs/examples/CompanyTheme.plist").path
        let login = CLIPlaybackTests.uiKit.appendingPathComponent("html-form-login.json").path
        let out = home.appendingPathComponent("out").path
        let noCatalog = try CLITests.haapi(["preview", "--theme", example, login, "--out", out], home: home)
        #expect(noCatalog.status == 1, "\(noCatalog.stderr)")
        #expect(
            noCatalog.stderr.contains(#"section "ActionableButton.Primary", key "backgroundColorName": names the colour "company_blue""#),
            "\(noCatalog.stderr)")
        #expect(noCatalog.stderr.contains("--assets"), "\(noCatalog.stderr)")
        let withCatalog = try CLITests.haapi(
            [
                "preview", "--theme", example, "--assets", root.appendingPathComponent("docs/examples/Assets.xcassets").path, login,
                "--out", out,
            ], home: home)
        #expect(withCatalog.status == 0, "\(withCatalog.stderr)")

        let plist = home.appendingPathComponent("Misspelt.plist")
        for (theme, said) in [
            (
                ["ActionableButton.Primary": ["backgroundColourName": "hui_error"]],
                #"key "backgroundColourName": the kit's "ActionableButton.Primary" has no such key; did you mean "backgroundColorName"?"#
            ),
            (
                ["ActionableButton.Primery": ["backgroundColorName": "hui_error"]],
                #"section "ActionableButton.Primery": the kit has no such section; did you mean "ActionableButton.Primary"?"#
            ),
            (["fontNmae": "Avenir"], #"key "fontNmae": the kit's theme has no such value; did you mean "fontName"?"#),
        ] as [([String: Any], String)] {
            try PropertyListSerialization.data(fromPropertyList: theme, format: .xml, options: 0).write(to: plist)
            let run = try CLITests.haapi(["preview", "--theme", plist.path, login, "--out", out], home: home)
            #expect(run.status == 1 && run.stderr.contains(said), "\(run.stderr)")
        }
        // A section far from every one of the kit's is the app's own, for its custom screens.
        try PropertyListSerialization.data(fromPropertyList: ["LoyaltyCardView": ["cornerRadius": 4]], format: .xml, options: 0).write(
            to: plist)
        #expect(try CLITests.haapi(["preview", "--theme", plist.path, login, "--out", out], home: home).status == 0)
    }

    /// Review 4, finding 1: the theme's `huiTextField` (a section's name) lands in the style
    /// sheet as a CSS string, so a name that tries to end the style element and add a script
    /// and markup stays a name.
    @Test func aThemesTextFieldSectionCannotEndTheStyleElement() throws {
        let home = try Self.folder()
        defer { try? FileManager.default.removeItem(at: home) }
        let section = "x\"] {}</style><script>alert(1)</script><h1>owned</h1><style>"
        let plist = home.appendingPathComponent("Field.plist")
        // The kit's own text field section, under the hostile name.
        let kit = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
            "../../Sources/HaapiUI/Resources/Theme.plist")
        let sections = try #require(try PropertyListSerialization.propertyList(from: Data(contentsOf: kit), format: nil) as? [String: Any])
        let field = try #require(sections["InputTextField"])
        try PropertyListSerialization.data(fromPropertyList: ["huiTextField": section, section: field], format: .xml, options: 0).write(
            to: plist)
        let out = home.appendingPathComponent("out")
        let login = CLIPlaybackTests.uiKit.appendingPathComponent("html-form-login.json").path
        let run = try CLITests.haapi(["preview", "--theme", plist.path, login, "--out", out.path], home: home)
        #expect(run.status == 0, "\(run.stderr)")
        let page = try String(contentsOf: out.appendingPathComponent("html-form-login.html"), encoding: .utf8)
        #expect(!page.contains("<script>") && !page.contains("<h1>owned"), "the section's name became markup")
        #expect(page.components(separatedBy: "</style>").count == 2, "one style element, ended once")
        #expect(page.contains(#"[data-style="x\22 ] {}\3c /style\3e \3c script\3e alert(1)"#), "the name is a CSS string in the selector")
    }

    /// Review 4, finding 2: an asset catalog's image sets are read only inside the catalog and
    /// only when their bytes are an image: a `../` in `Contents.json`, a link out of the catalog
    /// and a text file named `.png` are each refused, naming the file; nothing of them is embedded.
    @Test(arguments: ["dotdot", "link", "notAnImage"])
    func anAssetCatalogEmbedsOnlyImagesFromInsideIt(_ way: String) throws {
        let home = try Self.folder()
        defer { try? FileManager.default.removeItem(at: home) }
        let secret = home.appendingPathComponent("secret.png")
        let secretText = "PRIVATE KEY of the user"
        try Data(([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] as [UInt8]) + Array(secretText.utf8)).write(to: secret)
        let catalog = home.appendingPathComponent("Assets.xcassets", isDirectory: true)
        let set = catalog.appendingPathComponent("CompanyLogo.imageset", isDirectory: true)
        try FileManager.default.createDirectory(at: set, withIntermediateDirectories: true)
        let file: String
        switch way {
        case "dotdot": file = "../../secret.png"
        case "link":
            file = "logo.png"
            try FileManager.default.createSymbolicLink(at: set.appendingPathComponent(file), withDestinationURL: secret)
        default:
            file = "logo.png"
            try Data(secretText.utf8).write(to: set.appendingPathComponent(file))
        }
        try Data(#"{"images": [{"idiom": "universal", "filename": "\#(file)"}]}"#.utf8).write(
            to: set.appendingPathComponent("Contents.json"))
        let plist = home.appendingPathComponent("App.plist")
        try PropertyListSerialization.data(fromPropertyList: ["HeaderView": ["imageName": "CompanyLogo"]], format: .xml, options: 0).write(
            to: plist)
        let out = home.appendingPathComponent("out")
        let login = CLIPlaybackTests.uiKit.appendingPathComponent("html-form-login.json").path
        let run = try CLITests.haapi(["preview", "--theme", plist.path, "--assets", catalog.path, login, "--out", out.path], home: home)
        #expect(run.status != 0, "\(run.stderr)")
        #expect(run.stderr.contains(way == "notAnImage" ? "is not a PNG, JPEG, GIF or SVG image" : "leads out of"), "\(run.stderr)")
        let written = (try? FileManager.default.contentsOfDirectory(atPath: out.path)) ?? []
        for name in written {
            let page = try String(contentsOf: out.appendingPathComponent(name), encoding: .utf8)
            #expect(!page.contains(Data(secretText.utf8).base64EncodedString().prefix(12)), "\(name) embeds the file")
        }
    }

    /// Review 4, finding 5: a captured response's file name is a card's title and the name of
    /// the page written beside the index, never a URL: `javascript:alert(1).json` links to
    /// `./javascript%3Aalert%281%29.html`, the page it wrote.
    @Test func aCapturedFileNameIsNeverALinkTarget() throws {
        let home = try Self.folder()
        defer { try? FileManager.default.removeItem(at: home) }
        let captured = home.appendingPathComponent("captured", isDirectory: true)
        try FileManager.default.createDirectory(at: captured, withIntermediateDirectories: true)
        let name = "javascript:alert(document.domain)"
        try Data(contentsOf: CLIPlaybackTests.uiKit.appendingPathComponent("html-form-login.json")).write(
            to: captured.appendingPathComponent(name + ".json"))
        let out = home.appendingPathComponent("out")
        let run = try CLITests.haapi(["preview", "--captured", captured.path, "--out", out.path], home: home)
        #expect(run.status == 0, "\(run.stderr)")
        let index = try String(contentsOf: out.appendingPathComponent("index.html"), encoding: .utf8)
        #expect(!index.contains("href=\"javascript:"), "\(index)")
        #expect(index.contains(#"href="./javascript%3Aalert%28document.domain%29.html""#), "\(index)")
        #expect(index.contains(">javascript:alert(document.domain)<"), "the title is the name, as text")
        #expect(
            FileManager.default.fileExists(atPath: out.appendingPathComponent(name + ".html").path), "the link's page is the one written")
    }

    /// A server's words are text, never markup, wherever they land (content or attribute).
    @Test func aServersTextIsEscaped() throws {
        let home = try Self.folder()
        defer { try? FileManager.default.removeItem(at: home) }
        let step = home.appendingPathComponent("evil.json")
        try Data(
            #"""
            {"type": "authentication-step", "messages": [{"text": "<script>alert(1)</script>", "classList": ["heading"]}],
             "actions": [{"template": "form", "kind": "login", "model": {"href": "/a", "method": "POST", "actionTitle": "Go\" onclick=\"x",
               "fields": [{"type": "text", "name": "n\"><img src=x>", "label": "<b>Name</b>", "placeholder": "'&'"}]}}]}
            """#.utf8
        ).write(to: step)
        let out = home.appendingPathComponent("out")
        let run = try CLITests.haapi(["preview", step.path, "--out", out.path], home: home)
        #expect(run.status == 0, "\(run.stderr)")
        let page = try String(contentsOf: out.appendingPathComponent("evil.html"), encoding: .utf8)
        #expect(!page.contains("<script>") && !page.contains("<img") && !page.contains("<b>") && !page.contains("\" onclick"))
        #expect(page.contains("&lt;script&gt;alert(1)&lt;/script&gt;") && page.contains("&#39;&amp;&#39;"))
    }

    @Test func noResponsesOrABadFileIsSaidClearly() throws {
        let home = try Self.folder()
        defer { try? FileManager.default.removeItem(at: home) }
        let none = try CLITests.haapi(["preview", "--out", home.appendingPathComponent("out").path], home: home)
        #expect(none.status == 1 && none.stderr.contains("no responses to preview"), "\(none.stderr)")
        let bad = home.appendingPathComponent("bad.json")
        try Data("not json".utf8).write(to: bad)
        let login = CLIPlaybackTests.uiKit.appendingPathComponent("html-form-login.json").path
        let mixed = try CLITests.haapi(["preview", bad.path, login, "--out", home.appendingPathComponent("out").path], home: home)
        #expect(mixed.status == 0 && mixed.stderr.contains("haapi: warning: skipped bad:"), "\(mixed.stderr)")
        #expect(mixed.stdout.contains("wrote 1 page and index.html"), "\(mixed.stdout)")
    }
}

/// The gallery of `haapi preview --server`: every document of the development server has its
/// page, in each language, with a theme read again at each request.
@Suite @MainActor struct GalleryTests {
    @Test func everyStepAndProblemHasItsPageInEachLanguage() async throws {
        let gallery = Gallery(theme: nil, assets: nil)
        for language in StepGallery.languages {
            let documents = StepGallery.documents(language: language)
            #expect(documents.count >= 15)
            let index = try #require(try await gallery.draw(nil, documents: documents, language: language)).description
            for document in documents {
                #expect(
                    index.contains("href=\"/preview/\(document.name)?lang=\(language)\""),
                    "\(language) \(document.name) is not in the index")
                let page = try #require(try await gallery.draw(document.name, documents: documents, language: language)).description
                #expect(page.contains("<main class=\"screen\""), "\(language) \(document.name)")
            }
            #expect(try await gallery.draw("no-such-page", documents: documents, language: language) == nil)
        }
        let swedish = try #require(
            try await gallery.draw("bankid-other-device", documents: StepGallery.documents(language: "sv"), language: "sv")
        ).description
        #expect(swedish.contains("Skanna QR-koden") && swedish.contains("<html lang=\"sv\">"))
        let problem = try #require(
            try await gallery.draw("too-many-attempts", documents: StepGallery.documents(language: "en"), language: "en")
        ).description
        #expect(problem.contains("data-kind=\"problem\""))
    }

    @Test func anEditedThemeShowsAtTheNextRequestAndABrokenOneSaysWhy() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("gallery-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let plist = folder.appendingPathComponent("App.plist")
        func theme(_ colour: String) throws {
            try Data(
                """
                <?xml version="1.0" encoding="UTF-8"?>
                <plist version="1.0"><dict><key>ActionableButton.Primary</key><dict><key>backgroundColorName</key><string>\(colour)</string></dict></dict></plist>
                """.utf8
            ).write(to: plist)
        }
        let gallery = Gallery(theme: plist.path, assets: nil)
        let documents = StepGallery.documents(language: "en")
        try theme("hui_error_immutable")
        #expect(
            try await gallery.draw("login", documents: documents, language: "en")?.description.contains(
                "ActionableButton.Primary\"] { background: var(--c-hui_error_immutable)") == true)
        try theme("hui_success_immutable")
        #expect(
            try await gallery.draw("login", documents: documents, language: "en")?.description.contains(
                "ActionableButton.Primary\"] { background: var(--c-hui_success_immutable)") == true)
        try Data("not a plist".utf8).write(to: plist)
        let broken = try #require(try await gallery.draw("login", documents: documents, language: "en")).description
        #expect(broken.contains("<pre>") && broken.contains("theme"), "\(broken)")
    }
}
