import Foundation
import HaapiTesting
import OAuthCore
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The findings of the security review about the client (issue 17).
@Suite("haapi trusts no server text", .ownThreads)
struct CLIUntrustedServerTests {
    /// Item 17: a HAAPI login sends a nonce and checks the ID token as OIDCClient does (one
    /// validator): signature by the provider's key, issuer, audience, lifetime and nonce. A
    /// forged one fails the login and nothing is kept.
    @Test(arguments: PlaybackServer.Identity.Forgery.allCases)
    func theHaapiLoginChecksTheIDToken(_ forgery: PlaybackServer.Identity.Forgery) async throws {
        let scenes = [
            PlaybackServer.Scene(try CLIPlaybackTests.uiKit("username-authentication-step")),
            PlaybackServer.Scene(try CLIPlaybackTests.uiKit("oauth-authorization-response"), expecting: ("POST", "/auth/login")),
        ]
        let login = try await CLIPlaybackTests.playbackLogin(
            scenes, hosts: [], identity: .init(subject: "admin", forgery: forgery), answers: #"{"fields": {"username": "admin"}}"#)
        let (run, kept) = (login.run, login.keptTokens)
        let nonce = PlaybackServer.query(login.requests.first { $0.path == PlaybackServer.authorizePath }?.uri ?? "")["nonce"]
        #expect(nonce?.count ?? 0 >= 32, "the authorization request carries a nonce")
        if forgery == .none {
            #expect(run.status == 0, "\(run.stderr)")
            #expect(run.stderr.contains("Logged in as admin"), "\(run.stderr)")
            #expect(kept)
        } else {
            #expect(run.status == 1, "\(forgery): \(run.stderr)")
            #expect(!run.stderr.contains("Logged in"), "\(run.stderr)")
            #expect(run.stderr.lowercased().contains("id token"), "\(run.stderr)")
            #expect(!kept, "nothing is kept after a forged ID token")
        }
    }
}

extension CLIUntrustedServerTests {
    /// Item 16: an href to another origin gets no HAAPI request (no HAAPI token, Session-Id or
    /// DPoP proof leaves for it); the login stops with the reason.
    @Test func haapiRequestsGoToTheConfiguredServerOnly() async throws {
        try await withServer(reply: { _ in .text(200, "{}") }) { collector in
            let step =
                #"{"type":"authentication-step","actions":[{"template":"form","kind":"login","model":{"href":"\#(collector.url)/collect","method":"POST","fields":[{"name":"username","type":"username"}]}}]}"#
            let run = try await CLIPlaybackTests.playbackLogin([PlaybackServer.Scene(step)], answers: #"{"fields": {"username": "demo"}}"#)
                .run
            #expect(run.status == 1)
            #expect(run.stderr.contains("configured server only"), "\(run.stderr)")
            #expect(collector.requests.isEmpty, "\(collector.requests.map(\.headers))")
        }
    }

    /// Item 18: escape sequences in server text never reach the terminal.
    @Test func serverTextReachesTheTerminalEscaped() async throws {
        let evil = "\u{1B}]0;pwned\u{07}\u{1B}[2JDone\u{202E}txt.exe"
        let problem = JSONValue.object([
            "type": "https://curity.se/problems/unexpected", "title": .string(evil),
            "messages": [["text": .string(evil), "classList": ["error"]]],
        ])
        let scenes = [
            PlaybackServer.Scene(try CLIPlaybackTests.uiKit("username-authentication-step")),
            PlaybackServer.Scene(String(decoding: problem.serialized(), as: UTF8.self), expecting: ("POST", "/auth/login")),
        ]
        let run = try await CLIPlaybackTests.playbackLogin(scenes, answers: #"{"fields": {"username": "demo"}}"#).run
        #expect(run.status == 1)
        #expect(
            !run.stderr.unicodeScalars.contains { $0 == "\u{1B}" || $0 == "\u{07}" || $0 == "\u{202E}" }, "\(run.stderr.debugDescription)")
        #expect(run.stderr.contains("\\u{1B}]0;pwned"), "\(run.stderr)")
    }

    /// Item 19: only https, and http to loopback, are handed to the browser command.
    @Test(arguments: ["file:///etc/passwd", "javascript:alert(1)", "http://evil.example/login", "ssh://evil.example"])
    func onlyWebURLsAreOpened(_ href: String) async throws {
        let step =
            #"{"type":"authentication-step","actions":[{"template":"client-operation","kind":"login","model":{"name":"external-browser-flow","arguments":{"href":"\#(href)"},"continueActions":[{"template":"form","kind":"continue","model":{"href":"/resume","method":"POST","fields":[{"name":"_resume_nonce","type":"context"}]}}]}}]}"#
        let login = try await CLIPlaybackTests.playbackLogin([PlaybackServer.Scene(step)], answers: "{}")
        let (run, opened) = (login.run, login.opened)
        #expect(run.status == 1)
        #expect(opened.isEmpty, "the browser was given \(opened)")
        #expect(run.stderr.contains("only https, and http to a loopback address, are opened"), "\(run.stderr)")
    }
}

extension CLIUntrustedServerTests {
    /// Item 20: the client secret comes from a file or the environment without a warning; on the
    /// command line it still works, with a warning that `ps` shows it.
    @Test func secretsNeedNotBeOnTheCommandLine() async throws {
        let directory = try CLITests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("secret")
        try Data("from-a-file\n".utf8).write(to: file)
        let warning = "visible to other users"
        func sentSecret(_ requests: [ReceivedRequest]) -> String? {
            guard let header = requests.first(where: { $0.path == PlaybackServer.tokenPath })?.headers["Authorization"].first,
                let decoded = Data(base64Encoded: String(header.dropFirst("Basic ".count)))
            else { return nil }
            return String(decoding: decoded, as: UTF8.self).split(separator: ":", maxSplits: 1).last.map(String.init)
        }
        let scenes = [
            PlaybackServer.Scene(try CLIPlaybackTests.uiKit("username-authentication-step")),
            PlaybackServer.Scene(try CLIPlaybackTests.uiKit("oauth-authorization-response"), expecting: ("POST", "/auth/login")),
        ]
        func login(_ secret: [String], environment: [String: String] = [:]) async throws -> CLIPlaybackTests.PlaybackLogin {
            try await CLIPlaybackTests.playbackLogin(
                scenes, answers: #"{"fields": {"username": "demo"}}"#, secret: secret, environment: environment)
        }
        let fromFile = try await login(["--client-secret-file", file.path])
        #expect(fromFile.run.status == 0 && !fromFile.run.stderr.contains(warning), "\(fromFile.run.stderr)")
        #expect(sentSecret(fromFile.requests) == "from-a-file")
        let fromEnvironment = try await login([], environment: ["HAAPI_CLIENT_SECRET": "from-the-environment"])
        #expect(fromEnvironment.run.status == 0 && !fromEnvironment.run.stderr.contains(warning), "\(fromEnvironment.run.stderr)")
        #expect(sentSecret(fromEnvironment.requests) == "from-the-environment")
        // A pipe, as `--client-secret-file <(pass show app)` gives one (issue 56, item 5).
        let fifo = directory.appendingPathComponent("secret-pipe").path
        #expect(mkfifo(fifo, 0o600) == 0)
        Thread {
            let handle = FileHandle(forWritingAtPath: fifo)
            handle?.write(Data("from-a-pipe\n".utf8))
            try? handle?.close()
        }.start()
        let fromPipe = try await login(["--client-secret-file", fifo])
        #expect(fromPipe.run.status == 0, "\(fromPipe.run.stderr)")
        #expect(sentSecret(fromPipe.requests) == "from-a-pipe")
        let onArgv = try await login(["--client-secret", "on-the-command-line"])
        #expect(onArgv.run.status == 0 && onArgv.run.stderr.contains(warning), "\(onArgv.run.stderr)")
        #expect(sentSecret(onArgv.requests) == "on-the-command-line")
    }

    /// Item 22: plain http to another machine is refused unless allowed, and then warned about.
    @Test func plainHttpToAnotherMachineIsRefused() throws {
        let directory = try CLITests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let refused = try CLITests.haapi(
            ["login", "--issuer", "http://idsvr.example/oauth", "--client-id", "c", "--answers", "/dev/null"], home: directory)
        #expect(refused.status == 2)
        #expect(refused.stderr.contains("--allow-insecure-http"), "\(refused.stderr)")
        // Allowed: warned about (discovery then fails at once: no name under .invalid resolves).
        let allowed = try CLITests.haapi(
            ["login", "--issuer", "http://idsvr.invalid/oauth", "--client-id", "c", "--answers", "/dev/null", "--allow-insecure-http"],
            home: directory)
        #expect(allowed.stderr.contains("travel in clear"), "\(allowed.stderr)")
        // 127.0.0.2 is this machine (the loopback block is 127.0.0.0/8): no flag, no warning (issue 56, item 8).
        let loopback = try CLITests.haapi(
            ["login", "--issuer", "http://127.0.0.2:9/oauth", "--client-id", "c", "--answers", "/dev/null"], home: directory)
        #expect(
            loopback.status != 2 && !loopback.stderr.contains("travel in clear") && !loopback.stderr.contains("--allow-insecure-http"),
            "\(loopback.stderr)")
    }

    /// A select field the server sends without options is a message, not a menu of `1-0` that
    /// traps on any answer (review 4, finding 4); with options, a number typed still chooses.
    @Test(arguments: [#"[]"#, #"[{"label": "Only", "value": "only"}]"#])
    func aSelectWithoutOptionsOrWithADefaultOutsideThemNeverTraps(options: String) async throws {
        let step =
            #"{"type": "authentication-step", "actions": [{"template": "form", "kind": "login", "title": "Pick", "model": {"#
            + #""href": "/auth/pick", "method": "POST", "actionTitle": "Next", "fields": [{"type": "select", "name": "pick", "label": "Pick one", "options": "#
            + options + "}]}}]}"
        let scenes = [
            PlaybackServer.Scene(step),
            PlaybackServer.Scene(try CLIPlaybackTests.uiKit("oauth-authorization-response"), expecting: ("POST", "/auth/pick")),
        ]
        let login = try await CLIPlaybackTests.playbackLogin(scenes, answers: nil, typed: "1\n1\n1\n")
        if options == "[]" {
            #expect(login.run.status == 1, "\(login.run.stderr)")
            #expect(login.run.stderr.contains("offers nothing to choose"), "\(login.run.stderr)")
            #expect(!login.run.stderr.contains("1-0"), "\(login.run.stderr)")
        } else {
            #expect(login.run.status == 0, "\(login.run.stderr)")
            #expect(login.requests.contains { $0.path == "/auth/pick" && String(decoding: $0.body, as: UTF8.self).contains("pick=only") })
        }
    }
}
