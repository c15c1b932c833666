import Foundation
import HaapiPreview
import OAuthCore
import OIDCClient
import Testing

@testable import HaapiCLICore

/// Text from outside (a provider's `scope`, `sub` or `error_description`, a user name) on its way
/// to the terminal: `PrintableText` neutralises its control characters once (security review, round 3).
@Suite("Text from outside", .serialized, .ownThreads)
struct TextFromOutsideTests {
    /// What a hostile server might put in a text: set the window title, clear the screen,
    /// return to the start of the line, a C1 CSI, a bidirectional override, a newline.
    static let hostile = "\u{1B}]0;pwned\u{07}\u{1B}[2J\rfake line\u{9B}31m\u{202E}txt.exe\nforged"
    static let controls: [Unicode.Scalar] = ["\u{1B}", "\u{07}", "\r", "\u{9B}", "\u{202E}"]

    static func hasControl(_ text: String) -> Bool { text.unicodeScalars.contains { controls.contains($0) } }

    @Test func literalsAreKeptAndEveryValueIsNeutralisedOnce() throws {
        let name = Self.hostile
        let line: PrintableText = "approve: https://as.example/a for \(name)\n"
        #expect(line.description.hasPrefix("approve: https://as.example/a for \\u{1B}]0;pwned\\u{7}"))
        #expect(line.description.hasSuffix("forged\n"), "the literal's own newline is kept")
        #expect(line.description.filter { $0 == "\n" }.count == 1, "the value's newline is not")
        #expect(!Self.hasControl(line.description))
        let nested: PrintableText = "[\(line)]"
        #expect(nested.description == "[" + line.description + "]", "a PrintableText interpolated is kept as it is")
        #expect(PrintableText(PrintableText(name).description) == PrintableText(name), "neutralising twice changes nothing")
        #expect((line + PrintableText(name)).description == line.description + PrintableText(name).description)
        #expect(PrintableText("plain text, ünïcödé, 日本").description == "plain text, ünïcödé, 日本")

        // JSON output: the same value, with the controls escaped the JSON way.
        let value: JSONValue = ["scope": .string(name)]
        let json = PrintableText(json: value)
        #expect(!Self.hasControl(json.description))
        #expect(try JSONValue(parsing: Data(json.description.utf8)) == value)
    }

    /// On its way to a web page, a server's text is escaped scalar by scalar: a quote or an angle
    /// bracket followed by a combining mark is one `Character`, and must not slip past the table
    /// (it would close an attribute value and add one of the server's choosing).
    @Test func aServersTextCannotBecomeMarkupEvenWithACombiningMark() {
        let hostile = "\"\u{301} onmouseover=steal() x='\u{301}<\u{301}script>&\u{301}"
        let escaped = Markup.escapedText(hostile)
        #expect(escaped == "&quot;\u{301} onmouseover=steal() x=&#39;\u{301}&lt;\u{301}script&gt;&amp;\u{301}")
        #expect(!escaped.unicodeScalars.contains { "\"'<>".unicodeScalars.contains($0) })
        #expect(Markup.escapedText("plain, ünïcödé, 日本") == "plain, ünïcödé, 日本")
    }

    /// Finding 5: a server-chosen `scope` or `sub` reached the terminal raw in `status` and
    /// `profiles` (it could clear the screen, set the window title, overwrite a line).
    @Test func aServersScopeAndSubjectCannotActOnTheTerminalInStatusOrProfiles() throws {
        let session = try CLITokenTests.LoggedIn()
        var tokens = try #require(try session.storedTokens())
        tokens["scope"] = "openid " + Self.hostile
        tokens["subject"] = Self.hostile
        try JSONSerialization.data(withJSONObject: tokens).write(to: session.tokensFile)
        for arguments in [["status"], ["status", "--json"], ["status", "--all"], ["profiles"], ["profiles", "--json"]] {
            let run = try session.haapi(arguments)
            #expect(
                !Self.hasControl(run.stdout) && !Self.hasControl(run.stderr),
                "\(arguments): \(run.stdout.debugDescription) \(run.stderr.debugDescription)")
            #expect((run.stdout + run.stderr).contains("pwned"), "\(arguments): the text is shown, neutralised")
        }
        let json = try session.haapi(["status", "--json"])
        let report = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(report["subject"] as? String == Self.hostile, "JSON keeps the value: escaped, not altered")
    }

    /// Finding 5: a provider's `error_description` reached the terminal raw in refresh errors.
    @Test func aRefreshErrorFromTheServerCannotActOnTheTerminal() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("haapi-text-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let profile = Profile(name: "work", directory: directory, storage: try FileStorage(directory: directory))
        for error: any Error in [OIDCError(.loginRequired, Self.hostile), OIDCError(.tokenRequestFailed, Self.hostile)] {
            do {
                _ = try await profile.reportingFailures(of: "the refresh") { () async throws -> Int in throw error }
                Issue.record("no failure")
            } catch let failure as CLIFailure {
                #expect(!Self.hasControl(failure.message.description), "\(failure.message.description.debugDescription)")
                #expect(failure.message.description.contains("pwned"))
            }
        }
    }
}
