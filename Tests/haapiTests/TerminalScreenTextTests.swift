import Foundation
import HaapiDevServer
import HaapiPreview
import HaapiSDK
import HaapiUI
import OAuthCore
import Testing

@testable import HaapiCLI

/// The terminal draws the kit's ``Screen`` (``ScreenText``), as the browser preview and UIKit
/// do: the same texts in the same order, for every step the dev server can send.
@Suite @MainActor struct TerminalScreenTextTests {
    static let languages = StepGallery.languages

    /// The screen and the terminal's lines of a gallery step, in `language`, without colour.
    static func drawn(_ name: String, language: String) throws -> (screen: Screen, lines: [String], screens: KitScreens) {
        let screens = try KitScreens(lang: language, themePath: nil)
        let document = try #require(StepGallery.documents(language: language).first { $0.name == name })
        let screen = screens.builder.screen(for: try screens.model(of: try HaapiModel.response(from: document.body.serialized())))
        var text = ScreenText(strings: screens.strings, colour: false)
        text.qrCode = { _ in nil }
        return (screen, text.lines(screen).map(\.description), screens)
    }

    /// The texts a screen shows that a terminal prints rather than asks: messages, plain texts,
    /// checkboxes and complaints about fields.
    static func printedTexts(_ screen: Screen) -> [String] {
        (screen.messages + screen.content).compactMap { item in
            switch item {
            case .message(let text, _), .text(let text), .section(let text): return text
            case .checkbox(let box): return box.label
            case .textField(let field): return field.error
            default: return nil
            }
        }
    }

    @Test(arguments: StepGallery.documents(language: "en").map(\.name))
    func everyTextOfTheScreenIsPrintedInItsOrderAndThePreviewAgrees(name: String) throws {
        for language in Self.languages {
            let (screen, lines, screens) = try Self.drawn(name, language: language)
            let joined = lines.joined(separator: "\n")
            // The terminal: each text, after the one before it.
            var cursor = joined.startIndex
            for text in Self.printedTexts(screen) {
                let found = try #require(
                    joined.range(of: text, range: cursor..<joined.endIndex),
                    "\(name) [\(language)]: \(text) missing or out of order in\n\(joined)")
                cursor = found.upperBound
            }
            // The browser preview of the same value: the same texts, in the same order.
            let page = try ScreenPage(theme: screens.theme, assets: try AppAssets(), strings: screens.strings).html(screen, title: name)
                .description
            var pageCursor = page.startIndex
            for text in Self.printedTexts(screen) {
                let found = try #require(
                    page.range(of: Markup.escapedText(text), range: pageCursor..<page.endIndex),
                    "\(name) [\(language)]: \(text) missing or out of order in the page")
                pageCursor = found.upperBound
            }
        }
    }

    @Test func consentListsItsScopesAsCheckedBoxesUnderTheServersHeading() throws {
        let (_, lines, _) = try Self.drawn("consent", language: "en")
        #expect(
            lines == [
                "haapi-public asks for access to your account",
                "  [x] Your name, username and locale",
                "  [x] Your email address and whether it is verified",
                "  [x] Access while you are away (a refresh token)",
            ])
    }

    @Test func bankIDOnAnotherDeviceShowsTheQRCodesDataWithoutQrencodeAndItsHelp() throws {
        let (_, lines, _) = try Self.drawn("bankid-other-device", language: "sv")
        let scan = try #require(lines.firstIndex { $0.hasSuffix(":") && $0.contains("BankID") })
        #expect(lines[scan + 1].hasPrefix("  bankid."), "\(lines)")
        #expect(lines.contains { $0.contains("qrencode") }, "\(lines)")
        // The help says how long the code is shown, in Swedish (the server's 120 seconds).
        #expect(lines.contains { $0.contains("2 minuter") }, "\(lines)")
        // Never this device's start link on another device.
        #expect(!lines.contains { $0.contains("autostarttoken") }, "\(lines)")
    }

    @Test func bankIDOnThisDeviceShowsTheLinkThatOpensTheApp() throws {
        let (_, lines, _) = try Self.drawn("bankid-this-device", language: "en")
        let open = try #require(lines.firstIndex(of: "Open BankID on this device:"), "\(lines)")
        #expect(lines[open + 1].hasPrefix("  bankid:///?autostarttoken="), "\(lines)")
    }

    @Test func aComplaintAboutAFieldIsPrintedWhereTheScreenShowsIt() throws {
        let screens = try KitScreens(lang: "en", themePath: nil)
        let login = try #require(StepGallery.documents(language: "en").first { $0.name == "login" })
        let invalid = try #require(StepGallery.documents(language: "en").first { $0.name == "invalid-input" })
        let model = try screens.model(of: try HaapiModel.response(from: login.body.serialized()))
        guard case .problem(let problem) = try HaapiModel.response(from: invalid.body.serialized()) else {
            Issue.record("not a problem")
            return
        }
        let screen = screens.builder.screen(for: model, problem: KitProblemModel(problem, strings: screens.strings))
        let lines = ScreenText(strings: screens.strings, colour: false).lines(screen).map(\.description)
        #expect(lines.first == "error: Form Errors", "\(lines)")
        #expect(lines.contains("error: Username: You have to enter your username"), "\(lines)")
    }

    @Test func serverTextCannotReachTheTerminalAsControlCharacters() throws {
        let screens = try KitScreens(lang: "en", themePath: nil)
        let text = ScreenText(strings: screens.strings, colour: false)
        let hostile = "\u{1B}]0;owned\u{07}Hello\u{1B}[2J"
        for item: ScreenItem in [
            .message(text: hostile, style: MessageStyleAttribute.heading.themeSection), .text(hostile),
            .expandable(title: hostile, body: hostile),
        ] {
            for line in text.lines(item) {
                #expect(!line.description.contains("\u{1B}") && !line.description.contains("\u{07}"), "\(line)")
            }
        }
    }
}
