import Foundation
import OAuthCore
import Testing

/// `haapi inspect --screen`: what the kit shows for a response, as JSON, in the language and
/// theme asked, from the binary as a user runs it.
@Suite struct CLIInspectScreenTests {
    static func screen(_ name: String, _ options: [String] = []) throws -> JSONValue {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("inspect-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: home) }
        let file = CLIPlaybackTests.uiKit.appendingPathComponent(name + ".json").path
        let run = try CLITests.haapi(["inspect", "--screen"] + options + [file], home: home)
        #expect(run.status == 0, "\(run.stderr)")
        return try JSONValue(parsing: Data(run.stdout.utf8))
    }

    static func items(_ screen: JSONValue, type: String) -> [[String: JSONValue]] {
        (screen["items"]?.arrayValue ?? []).compactMap(\.objectValue).filter { $0["type"]?.stringValue == type }
    }

    @Test func aLoginFormsFieldsWithTheirKeyboardsAndReturnKeys() throws {
        let screen = try Self.screen("html-form-login", ["--lang", "en"])
        #expect(screen["kind"]?.stringValue == "form" && screen["style"]?.stringValue == "FormViewController")
        let fields = Self.items(screen, type: "textField")
        #expect(fields.map { $0["name"]?.stringValue } == ["userName", "password"])
        #expect(fields.map { $0["contentType"]?.stringValue } == ["username", "password"])
        #expect(fields.map { $0["returnKey"]?.stringValue } == ["next", "go"])
        #expect(fields.map { $0["secure"]?.boolValue } == [false, true] && fields.map { $0["keyboard"]?.stringValue } == ["text", "text"])
        #expect(screen["focus"]?.stringValue == "userName")
    }

    @Test func aSignUpFormAsksForANewPasswordAndAProblemGetsItsScreenInSwedish() throws {
        let signUp = try Self.screen("sign-up-form")
        #expect(
            Self.items(signUp, type: "textField").contains { $0["contentType"]?.stringValue == "newPassword" && $0["passwordRules"] != nil }
        )
        let problem = try Self.screen("problem-authentication-failed", ["--lang", "sv"])
        #expect(problem["kind"]?.stringValue == "problem" && problem["language"]?.stringValue == "sv")
    }

    @Test func anAppThemeRestylesTheTextFields() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("theme-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let plist = directory.appendingPathComponent("App.plist")
        try Data(
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict><key>huiTextField</key><string>InputTextField.Outlined</string></dict></plist>
            """.utf8
        ).write(to: plist)
        let screen = try Self.screen("html-form-login", ["--theme", plist.path])
        #expect(Self.items(screen, type: "textField").allSatisfy { $0["style"]?.stringValue == "InputTextField.Outlined" })
    }

    /// The passkey failure rule, for a passkey step: a retry after a cancel, the browser's button
    /// only when the app allows the fallback.
    @Test func aPasskeyFailuresScreen() throws {
        let name = "webauthn-registration-passkey-client-operation"
        let retry = try Self.screen(name, ["--passkey-failure", "cancelled"])
        #expect(retry["passkeyFailureOutcome"]?.stringValue == "retry")
        #expect(Self.items(retry, type: "button").first?["text"]?.stringValue == "Try again")
        let fallback = try Self.screen(name, ["--passkey-failure", "failed"])
        #expect(fallback["passkeyFailureOutcome"]?.stringValue == "fallback")
        #expect(
            Self.items(fallback, type: "button").contains {
                $0["action"]?.stringValue == "passkeyFallback" && $0["text"]?.stringValue == "Continue in the browser"
            })
        let off = try Self.screen(name, ["--passkey-failure", "failed", "--no-browser-fallback"])
        #expect(off["passkeyFailureOutcome"]?.stringValue == "unavailable")
        #expect(!Self.items(off, type: "button").contains { $0["action"]?.stringValue == "passkeyFallback" })
    }
}
