import Foundation
import HaapiServerTesting
import HaapiTesting
import Testing

/// Issue 18 walked as a user sees it: a bash in a tmux pane, commands typed one after another
/// against `haapi server`, each checked on the screen (with the terminal's colours, spinner and
/// prompts, which a pipe never shows).
@Suite(.serialized, .enabled(if: CLITests.tmux != nil, "tmux is not installed"), .ownThreads)
struct CLITerminalSessionTests {
    /// A bash in a tmux pane, with the README test's environment (haapi on PATH, a home of its
    /// own, a browser that records its URL).
    final class Pane {
        let session = "haapi-walk-\(UUID().uuidString.prefix(8))"
        let shell: READMEExampleTests.Shell

        init(shell: READMEExampleTests.Shell) throws {
            self.shell = shell
            let exports = shell.environment.filter { ["PATH", "HAAPI_HOME", "XDG_DATA_HOME", "BROWSER"].contains($0.key) }
                .map { "export \($0.key)='\($0.value)'" }.joined(separator: "; ")
            try CLITests.tmux(["new-session", "-d", "-s", session, "-x", "220", "-y", "60", "\(exports); exec bash --norc --noprofile"])
        }

        deinit { _ = try? CLITests.tmux(["kill-session", "-t", session]) }

        func screen() throws -> String { try CLITests.tmux(["capture-pane", "-p", "-J", "-S", "-200", "-t", session]) }

        /// Types `command` on a clear screen, followed by `; echo EXIT=$?`.
        func send(_ command: String) throws {
            try CLITests.tmux(["send-keys", "-t", session, "-l", "clear"])
            try CLITests.tmux(["send-keys", "-t", session, "Enter"])
            usleep(200_000)
            try CLITests.tmux(["clear-history", "-t", session])
            try CLITests.tmux(["send-keys", "-t", session, "-l", shell.substitutions.apply(command) + "; echo EXIT=$?"])
            try CLITests.tmux(["send-keys", "-t", session, "Enter"])
        }

        /// The screen once it shows `text` (`EXIT=` once more than the typed line does).
        @discardableResult
        func waitFor(_ text: String, timeout: Double = 60) throws -> String {
            try CLITests.waitForPane(session, text, count: text == "EXIT=" ? 2 : 1, timeout: timeout)
        }

        /// Types `command` and waits for it to end; the screen.
        @discardableResult
        func type(_ command: String) throws -> String {
            try send(command)
            return try waitFor("EXIT=")
        }

        func press(_ key: String) throws { try CLITests.tmux(["send-keys", "-t", session, key]) }
    }

    @Test func everyItemAsAUserSeesIt() async throws {
        try HaapiCommand.requireBinary()
        let directory = try HaapiCommand.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let server = try CLITests.ServerProcess(directory: directory)
        defer { server.stop() }
        let shell = try READMEExampleTests.Shell(
            directory: directory,
            substitutions: .init(issuer: server.issuer))
        let pane = try Pane(shell: shell)
        let userinfo = server.issuer + "/oauth/userinfo"

        // 7: one prefix, one line, the nearest command, ports and negative durations checked.
        var screen = try pane.type("haapi tokn")
        #expect(screen.contains("haapi: error: unknown command \"tokn\"; did you mean `haapi token`?"), "\(screen)")
        #expect(screen.contains("EXIT=2"))
        screen = try pane.type("haapi server --port 99999")
        #expect(screen.contains("haapi: error: --port must be 1 to 65535 (or 0 for a free one), not 99999"), "\(screen)")
        screen = try pane.type("haapi token --min-ttl -5")
        #expect(screen.contains("haapi: error: --min-ttl must be 0 or more seconds, not -5"), "\(screen)")

        // 5: nothing saved yet: a hint that works as printed, exit 4, and no profile created.
        screen = try pane.type("haapi token")
        #expect(screen.contains("haapi login --profile default --issuer URL --client-id ID"), "\(screen)")
        #expect(screen.contains("EXIT=4"), "\(screen)")
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("home/profiles/default").path))

        // 6 and 4: a secret on the command line warns; Ctrl-C at a question asks first, and ends with 130.
        let secret = try #require(server.secret(of: "haapi-secret"))
        try pane.send("haapi login --issuer \(server.issuer) --client-id haapi-secret --client-secret \(secret)")
        screen = try pane.waitFor("Choose 1-8:")
        #expect(screen.contains("haapi: warning: a secret given on the command line is visible to other users (ps)"), "\(screen)")
        try pane.press("C-c")
        try pane.waitFor("Stop logging in? [y/N]")
        try CLITests.tmux(["send-keys", "-t", pane.session, "y", "Enter"])
        screen = try pane.waitFor("EXIT=")
        #expect(screen.contains("haapi: login cancelled\nEXIT=130"), "\(screen)")
        #expect(
            !FileManager.default.fileExists(atPath: directory.appendingPathComponent("home/profiles/default").path),
            "a failed login saves nothing")

        // 1 and 4: the device grant shows the address, the code and what it waits for; Ctrl-C ends the wait at once.
        try pane.send("haapi login --device --issuer http://127.0.0.1:8080 --client-id browser-app")
        screen = try pane.waitFor("Waiting for the approval...")
        #expect(screen.contains("/device") && screen.firstMatch(of: /[A-Z]{4}-[A-Z]{4}/) != nil, "\(screen)")
        try pane.press("C-c")
        screen = try pane.waitFor("EXIT=")
        #expect(screen.contains("haapi: cancelled\nEXIT=130"), "\(screen)")

        // 2: the device grant approved on another device.
        try pane.send("haapi login --device --issuer http://127.0.0.1:8080 --client-id browser-app")
        try pane.waitFor("Waiting for the approval...")
        let session = pane.session
        Phone.approveDeviceLoginWhenShown(
            in: { (try? CLITests.tmux(["capture-pane", "-p", "-J", "-S", "-200", "-t", session])) ?? "" }, username: "demo",
            password: "Password1")
        screen = try pane.waitFor("EXIT=")
        #expect(screen.contains("Logged in as demo") && screen.contains("EXIT=0"), "\(screen)")

        // 3: an API call with DPoP, and the header lines for curl.
        screen = try pane.type("haapi api \(userinfo)")
        #expect(screen.contains("\"sub\":\"demo\"") || screen.contains("\"sub\" : \"demo\""), "\(screen)")
        screen = try pane.type("haapi token --header --url \(userinfo) | curl -s -H @- \(userinfo)")
        #expect(screen.contains("\"demo\""), "\(screen)")

        // 5: the real state, every profile.
        screen = try pane.type("haapi status")
        #expect(screen.contains("logged in") && screen.contains("EXIT=0"), "\(screen)")
        screen = try pane.type("haapi profiles")
        #expect(screen.contains("default"), "\(screen)")

        // 9: examples in the help, completion.
        screen = try pane.type("haapi api --help")
        #expect(screen.contains("Examples:"), "\(screen)")
        screen = try pane.type("source <(haapi completion bash) && complete -p haapi")
        #expect(screen.contains("-F _haapi haapi"), "\(screen)")

        // 10: end-session against our own server, saying what it waits for.
        try? FileManager.default.removeItem(at: shell.opened)
        try pane.send("haapi logout --end-session")
        screen = try pane.waitFor("waiting up to 60 s for it to come back")
        // The line comes before the browser starts: wait for the URL it was given.
        let start = Date()
        while !FileManager.default.fileExists(atPath: shell.opened.path) && Date().timeIntervalSince(start) < 30 {
            try await Task.sleep(for: .milliseconds(100))
        }
        let opened = try String(contentsOf: shell.opened, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        _ = try await Browser.walk(from: try #require(URL(string: opened)), username: "demo", password: "Password1")
        screen = try pane.waitFor("EXIT=")
        #expect(screen.contains("the provider ended its session") && screen.contains("EXIT=0"), "\(screen)")

        // 1: a browser login with no browser prints the URL and what it waits for.
        try pane.send("haapi login --browser --no-browser --issuer http://127.0.0.1:8080 --client-id browser-app")
        screen = try pane.waitFor("Waiting for the browser to come back")
        let url = try #require(screen.firstMatch(of: /\n  (http\S+)\n/).flatMap { URL(string: String($0.1)) }, "\(screen)")
        _ = try await Browser.walk(from: url, username: "demo", password: "Password1")
        screen = try pane.waitFor("EXIT=")
        #expect(screen.contains("Logged in as demo") && screen.contains("EXIT=0"), "\(screen)")
    }
}
