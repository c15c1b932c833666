import Foundation
import HaapiTesting
import Testing

/// Issue 18, item 8, as a person sees it in a terminal (tmux): consent lists the scopes with
/// their descriptions under a heading naming the client, a refused one-time code is never the
/// default, invalid input is shown at its fields, and a lockout says how long.
@Suite(.enabled(if: CLITests.tmux != nil, "tmux is not installed"), .ownThreads)
struct CLIPromptTests {
    /// `haapi demo --client secret` in a tmux pane, with the keys a person types.
    final class Demo {
        let session = "haapi-prompts-\(UUID().uuidString.prefix(8))"
        let home: URL

        init() throws {
            try HaapiCommand.requireBinary()
            home = try HaapiCommand.temporaryDirectory()
            let command = "HAAPI_HOME='\(home.path)' '\(HaapiCommand.binary.path)' demo --client secret; echo \"EXIT=$?\"; sleep 60"
            try CLITests.tmux(["new-session", "-d", "-s", session, "-x", "200", "-y", "80", command])
        }

        deinit {
            _ = try? CLITests.tmux(["kill-session", "-t", session])
            try? FileManager.default.removeItem(at: home)
        }

        func type(_ text: String) throws {
            try CLITests.tmux(["send-keys", "-t", session, "-l", text])
            try CLITests.tmux(["send-keys", "-t", session, "Enter"])
        }
        @discardableResult func waitFor(_ text: String, count: Int = 1) throws -> String {
            try CLITests.waitForPane(session, text, count: count)
        }
    }

    @Test func invalidInputAtItsFieldsAndConsentWithDescriptions() throws {
        let demo = try Demo()
        try demo.waitFor("Choose 1-8")
        try demo.type("1")
        try demo.waitFor("Choose 1-3 [1]")
        try demo.type("")
        try demo.waitFor("Username:")
        try demo.type("")
        try demo.waitFor("Password:")
        try demo.type("")
        // The problem names its fields, and the refused form is asked again at once (issue 38,
        // item 9: not the menu), each prompt with its complaint.
        let refused = try demo.waitFor("Username (You have to enter your username):")
        #expect(
            refused.contains(
                "error: Form Errors\nerror: Username: You have to enter your username\nerror: Password: You have to enter your password"),
            "pane:\n\(refused)")
        #expect(refused.components(separatedBy: "Choose 1-3 [1]").count == 2, "one menu, before the first try:\n\(refused)")
        try demo.type("demo")
        try demo.waitFor("Password (You have to enter your password):")
        try demo.type("Password1")
        let consent = try demo.waitFor("Choose 1-3 [1]", count: 2)
        #expect(
            consent.contains(
                """
                Demo App asks for access to your account
                  [x] Your name, username and locale
                  [x] Your email address and whether it is verified
                  [x] Access while you are away (a refresh token)
                Choose what to do
                  1) Accept
                  2) Choose what to allow
                  3) Deny
                """), "pane:\n\(consent)")
        // Accept grants what is listed without asking again; choosing asks scope by scope.
        try demo.type("2")
        try demo.waitFor("Your name, username and locale [Y/n]")
        try demo.type("")
        try demo.waitFor("Your email address and whether it is verified [Y/n]")
        try demo.type("n")
        try demo.waitFor("Access while you are away (a refresh token) [Y/n]")
        try demo.type("")
        let ended = try demo.waitFor("EXIT=")
        #expect(ended.contains("EXIT=0"), "pane:\n\(ended)")
        // The scope refused at the prompt was not granted.
        #expect(ended.contains("scope openid profile offline_access"), "pane:\n\(ended)")
    }

    @Test func aRefusedCodeIsNeverTheDefaultAndTheLockoutSaysHowLong() throws {
        let demo = try Demo()
        try demo.waitFor("Choose 1-8")
        try demo.type("2")
        try demo.waitFor("Username:")
        try demo.type("demo")
        try demo.waitFor("One-time code:")
        try demo.type("000001")
        // The prompt comes again, empty: Enter does not send the refused code.
        let again = try demo.waitFor("One-time code:", count: 2)
        #expect(again.contains("error: Incorrect credentials"), "pane:\n\(again)")
        #expect(!again.contains("[000001]"), "pane:\n\(again)")
        try demo.type("")
        try demo.waitFor("One-time code (You have to enter the code):")
        // Five wrong codes are allowed; the sixth attempt finds the account locked.
        for attempt in 2...6 {
            try demo.type(String(format: "%06d", attempt))
            if attempt < 6 { try demo.waitFor("One-time code:", count: attempt + 1) }
        }
        let ended = try demo.waitFor("EXIT=")
        #expect(ended.contains("EXIT=1"), "pane:\n\(ended)")
        #expect(
            ended.contains("haapi: error: login failed: Too many failed attempts: the account is locked for 15 minutes"), "pane:\n\(ended)")
    }

    /// Issue 56, item 9: a menu takes an entry's title as well as its number, and no choice is
    /// printed twice: BankID's two ways are menu entries only (not also the forms' headings),
    /// and a passkey without a platform authenticator offers the browser once.
    @Test func menusTakeTitlesAndNameEachChoiceOnce() throws {
        let demo = try Demo()
        try demo.waitFor("Choose 1-8")
        try demo.type("bankid")
        let bankID = try demo.waitFor("Choose 1-2")
        for way in ["Login with BankID installed on this device", "Login with BankID installed on a different device"] {
            #expect(bankID.components(separatedBy: way).count == 2, "\(way) once:\n\(bankID)")
        }
        let demo2 = try Demo()
        try demo2.waitFor("Choose 1-8")
        try demo2.type("Passkey")
        try demo2.waitFor("Username:")
        try demo2.type("demo")
        try demo2.waitFor("Password:")
        try demo2.type("Password1")
        let fallback = try demo2.waitFor("Choose 1-2 [1]")
        #expect(fallback.contains("  1) Continue in the browser\n  2) Cancel"), "pane:\n\(fallback)")
        #expect(!fallback.contains("Use the browser instead"), "pane:\n\(fallback)")
    }
}
