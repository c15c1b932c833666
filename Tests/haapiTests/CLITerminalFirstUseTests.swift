import Foundation
import HaapiServerTesting
import HaapiTesting
import Testing

/// Issue 27 walked as a new user meets it: a bash in a tmux pane against `haapi server`, each
/// item checked on the screen.
@Suite(.serialized, .enabled(if: CLITests.tmux != nil, "tmux is not installed"), .ownThreads)
struct CLITerminalFirstUseTests {
    @Test func everyItemAsANewUserSeesIt() async throws {
        try HaapiCommand.requireBinary()
        let directory = try HaapiCommand.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let server = try CLITests.ServerProcess(directory: directory)
        defer { server.stop() }
        let secret = try #require(server.secret(of: "haapi-secret"))
        let shell = try READMEExampleTests.Shell(directory: directory, substitutions: .init(issuer: server.issuer))
        let pane = try CLITerminalSessionTests.Pane(shell: shell)
        let issuer = server.issuer
        let home = directory.appendingPathComponent("home")
        try Data("\(secret)\n".utf8).write(to: directory.appendingPathComponent("secret.txt"))
        let secretFile = directory.appendingPathComponent("secret.txt").path

        // 1: one error per cause, each naming the fix; --attestation is in the help.
        var screen = try pane.type("haapi login --issuer \(issuer) --client-id haapi-secret")
        #expect(
            screen.contains("the client \"haapi-secret\" must authenticate") && screen.contains("--client-secret-file FILE"), "\(screen)")
        #expect(!screen.contains("Invalid configuration") && screen.contains("EXIT=1"), "\(screen)")
        screen = try pane.type("haapi login --issuer \(issuer) --client-id no-such-client")
        #expect(
            screen.contains("the server does not know the client id \"no-such-client\"") && screen.contains("check --client-id"),
            "\(screen)")
        screen = try pane.type("haapi login --issuer \(issuer) --client-id browser-app")
        #expect(screen.contains("is not a HAAPI client") && screen.contains("haapi login --browser"), "\(screen)")
        screen = try pane.type("haapi login --issuer \(issuer) --client-id haapi-attested")
        #expect(screen.contains("authenticates with client attestation") && screen.contains("--attestation software"), "\(screen)")
        screen = try pane.type("haapi login --help | grep -c -- --attestation")
        #expect(!screen.contains("\n0\n"), "\(screen)")
        #expect(
            !FileManager.default.fileExists(atPath: home.appendingPathComponent("profiles/default").path), "a failed login saves nothing")

        // 2: no browser on the machine: one line saying so, the URL, no launcher noise, and a truthful end-session.
        let bin = directory.appendingPathComponent("bin").path
        try pane.send("env -u BROWSER PATH=/nonexistent \(bin)/haapi login --browser --issuer \(issuer) --client-id browser-app")
        screen = try pane.waitFor("Waiting for the browser to come back...")
        #expect(screen.contains("No browser could be started (xdg-open: not found; open: not found). Open this URL"), "\(screen)")
        #expect(!screen.contains("/usr/bin/env") && !screen.contains("Opened the browser"), "\(screen)")
        var url = try #require(screen.firstMatch(of: /\n  (http\S+)\n/).flatMap { URL(string: String($0.1)) }, "\(screen)")
        _ = try await Browser.walk(from: url, username: "demo", password: "Password1")
        screen = try pane.waitFor("EXIT=")
        #expect(screen.contains("Logged in as demo") && screen.contains("EXIT=0"), "\(screen)")
        try pane.send("env -u BROWSER PATH=/nonexistent \(bin)/haapi logout --end-session")
        screen = try pane.waitFor("Waiting for the browser to come back...")
        #expect(!screen.contains("Opened the browser"), "\(screen)")
        url = try #require(screen.firstMatch(of: /\n  (http\S+)\n/).flatMap { URL(string: String($0.1)) }, "\(screen)")
        _ = try await Browser.walk(from: url, username: "demo", password: "Password1")
        screen = try pane.waitFor("EXIT=")
        #expect(screen.contains("the provider ended its session") && screen.contains("EXIT=0"), "\(screen)")

        // 3: a DPoP-bound token printed into a pipe warns on standard error and names the way out; on the terminal it does not.
        screen = try pane.type(
            "haapi login --profile work --issuer \(issuer) --client-id haapi-secret --client-secret-file \(secretFile) --scope 'openid profile' --answers \(try answers(directory))"
        )
        #expect(screen.contains("Logged in as demo"), "\(screen)")
        screen = try pane.type("haapi profiles use work")
        #expect(screen.contains("Commands now use profile work by default"), "\(screen)")
        screen = try pane.type(
            "curl -s -o /dev/null -w 'HTTP %{http_code}\\n' -H \"Authorization: Bearer $(haapi token)\" \(issuer)/oauth/userinfo")
        #expect(
            screen.contains("haapi: warning: this token is DPoP-bound") && screen.contains("haapi api URL") && screen.contains("HTTP 401"),
            "\(screen)")
        screen = try pane.type("haapi token")
        #expect(!screen.contains("warning") && screen.contains("EXIT=0"), "\(screen)")

        // 4: profiles: a damaged one is reported as broken beside the others; use, delete, logout --all.
        screen = try pane.type(
            "haapi login --profile spare --issuer \(issuer) --client-id haapi-secret --client-secret-file \(secretFile) --answers \(try answers(directory))"
        )
        #expect(screen.contains("EXIT=0"), "\(screen)")
        try Data("not json".utf8).write(to: home.appendingPathComponent("profiles/spare/config.json"))
        screen = try pane.type("haapi status --all")
        #expect(
            screen.contains("Profile spare: broken") && screen.contains("Profile work: logged in as demo") && screen.contains("EXIT=1"),
            "\(screen)")
        screen = try pane.type("haapi profiles")
        #expect(
            screen.contains("  spare\tbroken") || screen.contains("  spare   broken")
                || screen.contains("spare") && screen.contains("broken"), "\(screen)")
        #expect(screen.contains("* work"), "\(screen)")
        screen = try pane.type("haapi profiles delete spare")
        #expect(screen.contains("Deleted profile spare") && screen.contains("EXIT=0"), "\(screen)")
        screen = try pane.type("haapi logout --all")
        #expect(screen.contains("Logged out of profile work") && screen.contains("EXIT=0"), "\(screen)")
        screen = try pane.type("haapi profiles")
        #expect(screen.contains("* work") && screen.contains("logged out") && !screen.contains("spare"), "\(screen)")

        // 5: --config in plain words with its defaults; --json on login, token and profiles; the token's claims.
        // Issue 38, item 7: one spelling (status --json's); issue 56, item 12: the AppAuth example's
        // `clientID` is read as it is, silently.
        try Data(#"{"issuer": "\#(issuer)", "clientid": "haapi-secret"}"#.utf8).write(to: directory.appendingPathComponent("cfg.json"))
        screen = try pane.type("haapi login --config \(directory.path)/cfg.json")
        #expect(screen.contains("unknown key \"clientid\"; did you mean \"clientId\"?") && screen.contains("EXIT=1"), "\(screen)")
        try Data(#"{"issuer": "\#(issuer)", "clientID": "haapi-secret"}"#.utf8).write(to: directory.appendingPathComponent("cfg.json"))
        screen = try pane.type(
            "haapi login --config \(directory.path)/cfg.json --client-secret-file \(secretFile) --answers \(try answers(directory)) --json")
        #expect(screen.contains("\"state\" : \"loggedIn\"") && screen.contains("EXIT=0"), "\(screen)")
        #expect(
            try String(contentsOf: home.appendingPathComponent("profiles/work/config.json"), encoding: .utf8).contains(
                "\"clientId\" : \"haapi-secret\""))
        screen = try pane.type("haapi token --json")
        #expect(
            screen.contains("\"tokenType\" : \"DPoP\"") && screen.contains("\"scopes\" : [") && screen.contains("\"expiresAt\""),
            "\(screen)")
        screen = try pane.type("haapi profiles --json")
        #expect(screen.contains("\"profile\" : \"work\"") && screen.contains("\"isDefault\" : true"), "\(screen)")
        screen = try pane.type("haapi token --decode")
        #expect(
            screen.firstMatch(of: /"exp" : "20\d\d-\d\d-\d\dT\d\d:\d\d:\d\dZ"/) != nil && screen.contains("\"sub\" : \"demo\""), "\(screen)"
        )
        screen = try pane.type("haapi token | haapi inspect -")
        #expect(screen.contains("\"claims\"") && screen.contains("\"typ\" : \"at+jwt\"") && screen.contains("EXIT=0"), "\(screen)")
        screen = try pane.type("haapi help nosuch")
        #expect(screen.contains("unknown command \"nosuch\"") && screen.contains("EXIT=2"), "\(screen)")

        // 6: the demo asks only what the user must answer: no internal ids, consent once, declined scopes not granted.
        try pane.send("haapi demo")
        screen = try pane.waitFor("Choose 1-3 [1]:")
        #expect(screen.contains("1) Login\n"), "\(screen)")
        try type(pane, "")
        try pane.waitFor("Username:")
        try type(pane, "demo")
        try pane.waitFor("Password:")
        try type(pane, "Password1")
        screen = try CLITests.waitForPane(pane.session, "Choose 1-3 [1]:", count: 2)
        #expect(screen.contains("1) Accept\n") && screen.contains("2) Choose what to allow\n"), "\(screen)")
        try type(pane, "2")
        for prompt in ["and locale [Y/n]", "is verified [Y/n]", "(a refresh token) [Y/n]"] {
            try pane.waitFor(prompt)
            try type(pane, "n")
        }
        screen = try pane.waitFor("EXIT=")
        #expect(
            screen.contains("Logged in as demo") && screen.contains("scope openid;") && !screen.contains("with a refresh token"),
            "\(screen)")
        try pane.send("haapi demo")
        try pane.waitFor("Choose 1-3 [1]:")
        try type(pane, "")
        try pane.waitFor("Username:")
        try type(pane, "demo")
        try pane.waitFor("Password:")
        try type(pane, "Password1")
        try CLITests.waitForPane(pane.session, "Choose 1-3 [1]:", count: 2)
        try type(pane, "")
        screen = try pane.waitFor("EXIT=")
        #expect(!screen.contains("[Y/n]") && screen.contains("with a refresh token") && screen.contains("EXIT=0"), "\(screen)")

        // 6: with the secret client, menus show titles only, and a one-time code is a message to the user, not a log line.
        try pane.send("haapi demo --client secret")
        screen = try pane.waitFor("Choose 1-")
        #expect(screen.contains(") One-time code\n") && !screen.contains("(login)") && !screen.contains("(sms"), "\(screen)")
        try type(pane, "One-time code")
        screen = try pane.waitFor("Username")
        try type(pane, "demo")
        screen = try pane.waitFor("your one-time code is ")
        #expect(!screen.contains("notice") && !screen.contains("haapi-server.otp"), "\(screen)")
        let code = try #require(screen.firstMatch(of: /your one-time code is (\d{6})/).map { String($0.1) }, "\(screen)")
        try pane.waitFor("One-time code:")
        try type(pane, code)
        screen = try pane.waitFor("Choose 1-3 [1]:")
        try type(pane, "")
        screen = try pane.waitFor("EXIT=")
        #expect(screen.contains("Logged in as demo") && screen.contains("EXIT=0"), "\(screen)")
    }

    /// The answers of a username/password login.
    private func answers(_ directory: URL) throws -> String {
        let file = directory.appendingPathComponent("answers.json")
        try Data(#"{"fields": {"userName": "demo", "password": "Password1"}, "choices": ["html-form"]}"#.utf8).write(to: file)
        return file.path
    }

    private func type(_ pane: CLITerminalSessionTests.Pane, _ text: String) throws {
        if !text.isEmpty { try CLITests.tmux(["send-keys", "-t", pane.session, "-l", text]) }
        try CLITests.tmux(["send-keys", "-t", pane.session, "Enter"])
    }
}
