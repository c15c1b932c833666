import Foundation
import HaapiServerTesting
import HaapiTesting
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// End-to-end tests of the built `haapi` binary: `haapi demo` and `haapi login` run as a
/// person or a CI job runs them (no TTY, `--answers`), and once under tmux as a person types.
@Suite("haapi command line", .serialized, .ownThreads)
struct CLITests {
    static var binary: URL { HaapiCommand.binary }
    typealias Run = HaapiCommand.Run

    static func temporaryDirectory() throws -> URL { try HaapiCommand.temporaryDirectory() }

    static func requireBinary() throws {
        do { try HaapiCommand.requireBinary() } catch {
            Issue.record("\(error)")
            throw error
        }
    }

    /// Runs `haapi ARGUMENTS` (see ``HaapiCommand/run(_:home:timeout:environment:)``); a run stopped at its time limit is an issue.
    static func haapi(_ arguments: [String], home: URL, timeout: Double = 60, environment: [String: String] = [:], typed: String? = nil)
        throws -> Run
    {
        try requireBinary()
        let run = try HaapiCommand.run(arguments, home: home, timeout: timeout, environment: environment, typed: typed)
        if run.timedOut { Issue.record("haapi \(arguments.joined(separator: " ")) did not finish in \(timeout) s") }
        return run
    }

    static func write(_ json: String, to directory: URL, name: String = "answers.json") throws -> String {
        let file = directory.appendingPathComponent(name)
        try Data(json.utf8).write(to: file)
        return file.path
    }

    /// `haapi server --log-requests` as a subprocess on a free port, with its database and seeded
    /// configuration. Its standard output is read to the end on a thread of its own (a server whose
    /// pipe is not read would block once the pipe is full), every line kept.
    /// Sendable: its stored properties are constants, and what it printed is behind a lock.
    final class ServerProcess: @unchecked Sendable {
        let process = Process()
        let issuer: String
        let configuration: [String: Any]
        private let output = ServerOutput()

        /// Starts the server with `arguments` added to `server --port 0 --database … --log-requests`
        /// (`database`, else `server.sqlite` in `directory`).
        init(directory: URL, database: String? = nil, arguments: [String] = []) throws {
            let database = database ?? directory.appendingPathComponent("server.sqlite").path
            let printed = try CLITests.haapi(["server", "--print-config", "--database", database], home: directory)
            #expect(printed.status == 0, "print-config: \(printed.stderr)")
            configuration = try JSONSerialization.jsonObject(with: Data(printed.stdout.utf8)) as? [String: Any] ?? [:]

            let pipe = Pipe()
            process.executableURL = CLITests.binary
            process.arguments = ["server", "--port", "0", "--database", database, "--log-requests"] + arguments
            process.standardOutput = pipe
            process.standardError = FileHandle.nullDevice
            process.standardInput = FileHandle.nullDevice
            try process.run()
            let handle = pipe.fileHandleForReading
            let output = output
            let reader = Thread {
                while true {
                    let data = handle.availableData
                    if data.isEmpty { break }
                    output.append(data)
                }
            }
            reader.start()
            let start = Date()
            var listening: String?
            while listening == nil && Date().timeIntervalSince(start) < 30 && process.isRunning {
                listening = output.lines.first { $0.hasPrefix("listening on ") }
                if listening == nil { usleep(20_000) }
            }
            guard let listening else {
                if process.isRunning {
                    process.terminate()
                    process.waitUntilExit()
                }
                throw ServerDidNotStart()
            }
            issuer = String(listening.dropFirst("listening on ".count))
        }

        func secret(of clientID: String) -> String? {
            (configuration["clients"] as? [[String: Any]])?.first { $0["clientId"] as? String == clientID }?["clientSecret"] as? String
        }

        /// Every complete line the server printed so far that starts with `prefix`, in order.
        func lines(prefix: String) -> [String] { output.lines.filter { $0.hasPrefix(prefix) } }

        /// The first line ever printed that starts with `prefix`, waiting up to `timeout` seconds for it; `nil` if none came.
        func waitForLine(prefix: String, timeout: Double) -> String? {
            let start = Date()
            while true {
                if let line = lines(prefix: prefix).first { return line }
                if Date().timeIntervalSince(start) >= timeout { return nil }
                usleep(20_000)
            }
        }

        func stop() {
            if process.isRunning {
                process.terminate()
                process.waitUntilExit()
            }
        }
    }

    struct ServerDidNotStart: Error {}

    /// What a server printed: complete lines, and the start of the next one.
    final class ServerOutput: @unchecked Sendable {
        private let lock = NSLock()
        private var complete: [String] = []
        private var partial = Data()

        func append(_ data: Data) {
            lock.withLock {
                partial.append(data)
                // Split on the newline byte, so a UTF-8 sequence cut between two reads stays whole.
                while let newline = partial.firstIndex(of: UInt8(ascii: "\n")) {
                    complete.append(String(decoding: partial[partial.startIndex..<newline], as: UTF8.self))
                    partial = Data(partial[partial.index(after: newline)...])
                }
            }
        }

        var lines: [String] { lock.withLock { complete } }
    }

    // MARK: haapi demo

    @Test func demoWithAnswersPrintsTheClaimsAndUserinfo() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let answers = try Self.write(#"{"fields": {"userName": "demo", "password": "Password1"}}"#, to: directory)
        let run = try Self.haapi(["demo", "--answers", answers], home: directory)
        #expect(run.status == 0, "stderr: \(run.stderr)")
        #expect(run.stdout.contains("Access token claims:"))
        #expect(run.stdout.contains("\"cnf\""))
        #expect(run.stdout.contains("Userinfo"))
        #expect(run.stdout.contains("\"preferred_username\" : \"demo\""))
        #expect(run.stdout.contains("\"sub\" : \"demo\""))
        #expect(run.stderr.contains("Password1"))  // the hint
    }

    /// `haapi demo --client secret` reaches each of Curity's shapes the server simulates from its selector.
    @Test(arguments: [
        #"{"fields": {"personalnumber": "199001011234"}, "choices": ["bankid", "bankid-other-device"]}"#,
        #"{"fields": {"personalnumber": "199001011234"}, "choices": ["bankid", "bankid-same-device"]}"#,
        #"{"fields": {"userName": "demo"}, "choices": ["duo", "Tablet", "Send push notification"]}"#,
    ])
    func demoPicksTheSimulatedAuthenticators(_ script: String) throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let answers = try Self.write(script, to: directory)
        try HaapiCommand.requireBinary()
        let launched = try HaapiCommand.prepare(["demo", "--client", "secret", "--answers", answers], home: directory)
        try launched.process.run()
        // The embedded server's log, on standard error, is where the approval link appears.
        let errors = launched.standardErrorFile
        Phone.approveWhenAsked(in: { (try? String(contentsOf: errors, encoding: .utf8)) ?? "" })
        let run = try #require(try HaapiCommand.collect([launched], timeout: 60).first)
        #expect(!run.timedOut)
        #expect(run.status == 0, "stderr: \(run.stderr)")
        #expect(run.stdout.contains("\"sub\" : \"demo\""), "stdout: \(run.stdout)")
    }

    /// `LANG=sv_SE.UTF-8 haapi demo`: the terminal's own texts come from the UI kit's table, in Swedish.
    @Test func demoSpeaksTheLanguageOfLANG() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let answers = try Self.write(#"{"fields": {"userName": "demo"}, "choices": ["polling"]}"#, to: directory)
        try HaapiCommand.requireBinary()
        var runs: [String: HaapiCommand.Run] = [:]
        for language in ["sv_SE.UTF-8", "en_GB.UTF-8"] {
            let launched = try HaapiCommand.prepare(
                ["demo", "--client", "secret", "--answers", answers], home: directory,
                environment: ["LANG": language, "LANGUAGE": "", "LC_ALL": "", "LC_MESSAGES": ""])
            try launched.process.run()
            let errors = launched.standardErrorFile
            Phone.approveWhenAsked(in: { (try? String(contentsOf: errors, encoding: .utf8)) ?? "" })
            let run = try #require(try HaapiCommand.collect([launched], timeout: 60).first)
            #expect(!run.timedOut && run.status == 0, "\(language): \(run.stderr)")
            runs[language] = run
        }
        let swedish = try #require(runs["sv_SE.UTF-8"]).stderr
        let english = try #require(runs["en_GB.UTF-8"]).stderr
        #expect(swedish.contains("Väntar på +XX XXX XXX 000"), "\(swedish)")
        #expect(!swedish.contains("Waiting for +XX"), "\(swedish)")
        #expect(english.contains("Waiting for +XX XXX XXX 000"), "\(english)")
        // The demo's own lines, and the server's words: haapi asks for the user's languages.
        #expect(swedish.contains("Logga in som användaren demo med lösenordet Password1."), "\(swedish)")
        #expect(swedish.contains("Meddelande till demo (en inloggning som godkänns i telefonen): öppna http"), "\(swedish)")
        #expect(swedish.contains("Välj inloggningsmetod: Godkänn i telefonen"), "\(swedish)")
        #expect(english.contains("Message to demo (a login approved on your phone): to approve the login, open http"), "\(english)")
        #expect(english.contains("Select Authentication Method: Approve on your phone"), "\(english)")
        // Issue 38, item 8: the command line's own lines too, first to last; no English among the Swedish.
        let swedishOut = try #require(runs["sv_SE.UTF-8"]).stdout
        #expect(swedish.hasPrefix("Utvecklingsserver på http://127.0.0.1:"), "\(swedish)")
        #expect(swedish.contains("Inloggad som demo på http://127.0.0.1:") && swedish.contains("DPoP-token, går ut om"), "\(swedish)")
        #expect(swedishOut.contains("Åtkomsttokenets anspråk:") && swedishOut.contains("Användarinformation (http"), "\(swedishOut)")
        for english in ["Development server", "Logged in", "Access token claims", "Userinfo ("] {
            #expect(!(swedish + swedishOut).contains(english), "\(english) in Swedish output")
        }
        #expect(english.hasPrefix("Development server on http://127.0.0.1:") && english.contains("Logged in as demo at"), "\(english)")

        // An error and a profile's status, in Swedish.
        let swedishOnly = ["LANG": "sv_SE.UTF-8", "LANGUAGE": "", "LC_ALL": "", "LC_MESSAGES": ""]
        let failed = try Self.haapi(["status", "--profile", "nope"], home: directory, environment: swedishOnly)
        #expect(failed.status == 4 && failed.stdout.hasPrefix("Profil nope: ingen sådan profil"), "\(failed.stdout)")
        // Issue 56, item 7: an error after the Swedish prefix is Swedish too.
        let noProfile = try Self.haapi(["token", "--profile", "nope"], home: directory, environment: swedishOnly)
        #expect(noProfile.status == 4 && noProfile.stderr.hasPrefix("haapi: fel: det finns ingen profil \"nope\""), "\(noProfile.stderr)")
        let usage = try Self.haapi(["login", "--secret-store", "nowhere"], home: directory, environment: swedishOnly)
        #expect(usage.status == 2 && usage.stderr.hasPrefix("haapi: fel: "), "\(usage.stderr)")
    }

    @Test func demoWithTheSecretClientChoosesAtTheSelector() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let answers = try Self.write(
            #"{"fields": {"userName": "demo", "password": "Password1"}, "choices": ["username-password"]}"#, to: directory)
        let run = try Self.haapi(["demo", "--client", "secret", "--answers", answers, "--log-level", "info"], home: directory)
        #expect(run.status == 0, "stderr: \(run.stderr)")
        #expect(run.stdout.contains("\"sub\" : \"demo\""))
        // Issue 56, item 10: the SDK's inner session keeps the ID token unverified (it has no
        // keys); the command line verifies it after the login, so the log at info says nothing of it.
        #expect(!run.stderr.contains("ID token"), "\(run.stderr)")
        let debug = try Self.haapi(["demo", "--client", "secret", "--answers", answers, "--log-level", "debug"], home: directory)
        #expect(
            debug.stderr.contains("[DEBUG]") && debug.stderr.contains("the ID token is kept unverified"),
            "the inner session's line is there, at debug")
    }

    // MARK: haapi login against haapi server

    @Test func loginWithAnswersAgainstTheServerKeepsTheTokensInTheProfile() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let server = try ServerProcess(directory: directory)
        defer { server.stop() }
        let secret = try #require(server.secret(of: "haapi-secret"))
        let answers = try Self.write(
            #"{"fields": {"userName": "demo", "password": "Password1"}, "choices": ["username-password"]}"#, to: directory)
        let run = try Self.haapi(
            [
                "login", "--profile", "ci", "--issuer", server.issuer, "--client-id", "haapi-secret", "--client-secret", secret,
                "--scope", "openid profile offline_access", "--answers", answers,
            ], home: directory)
        #expect(run.status == 0, "stderr: \(run.stderr)")
        #expect(run.stdout.isEmpty, "nothing, tokens least of all, goes to standard output")
        #expect(run.stderr.contains("Logged in as demo"))
        // The server, read past its `listening on` line, logged the code exchange.
        #expect(
            server.waitForLine(prefix: "request: POST /oauth/token grant_type=authorization_code", timeout: 10)
                == "request: POST /oauth/token grant_type=authorization_code 200")

        let profile = directory.appendingPathComponent("home/profiles/ci")
        for name in ["config.json", "tokens.json"] {
            let path = profile.appendingPathComponent(name).path
            let attributes = try FileManager.default.attributesOfItem(atPath: path)
            #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600, "\(name)")
        }
        let directoryAttributes = try FileManager.default.attributesOfItem(atPath: profile.path)
        #expect((directoryAttributes[.posixPermissions] as? NSNumber)?.intValue == 0o700)
        let tokens =
            try JSONSerialization.jsonObject(with: Data(contentsOf: profile.appendingPathComponent("tokens.json"))) as? [String: Any]
        #expect((tokens?["accessToken"] as? String)?.isEmpty == false)
        #expect(tokens?["refreshToken"] != nil)
        #expect(tokens?["tokenType"] as? String == "DPoP")
        let config =
            try JSONSerialization.jsonObject(with: Data(contentsOf: profile.appendingPathComponent("config.json"))) as? [String: Any]
        #expect(config?["issuer"] as? String == server.issuer)
        #expect(config?["clientId"] as? String == "haapi-secret")
        #expect((config?["tokenEndpoint"] as? String)?.hasSuffix("/oauth/token") == true)

        // The saved settings serve the next login of the profile.
        let again = try Self.haapi(["login", "--profile", "ci", "--answers", answers], home: directory)
        #expect(again.status == 0, "stderr: \(again.stderr)")
    }

    @Test func answersMissingAFieldFailNamingTheQuestion() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let server = try ServerProcess(directory: directory)
        defer { server.stop() }
        let secret = try #require(server.secret(of: "haapi-secret"))
        let answers = try Self.write(#"{"fields": {"userName": "demo"}, "choices": ["username-password"]}"#, to: directory)
        let run = try Self.haapi(
            ["login", "--issuer", server.issuer, "--client-id", "haapi-secret", "--client-secret", secret, "--answers", answers],
            home: directory)
        #expect(run.status == 1)
        #expect(run.stderr.contains("\"password\""), "stderr: \(run.stderr)")

        let noChoice = try Self.write(#"{"fields": {"userName": "demo", "password": "Password1"}}"#, to: directory, name: "b.json")
        let second = try Self.haapi(
            ["login", "--issuer", server.issuer, "--client-id", "haapi-secret", "--client-secret", secret, "--answers", noChoice],
            home: directory)
        #expect(second.status == 1)
        #expect(second.stderr.contains("Select Authentication Method"), "stderr: \(second.stderr)")
    }

    @Test func withoutATerminalOrAnswersLoginFailsAtOnce() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let run = try Self.haapi(["login", "--issuer", "http://127.0.0.1:9", "--client-id", "x"], home: directory, timeout: 20)
        #expect(run.status == 1)
        #expect(run.stderr.contains("--answers"))
        #expect(run.seconds < 10)
        let demo = try Self.haapi(["demo"], home: directory, timeout: 20)
        #expect(demo.status == 1)
        #expect(demo.stderr.contains("not a terminal"))
    }

    @Test func badUsageExitsWithTwo() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect(try Self.haapi(["login", "--no-such-flag"], home: directory).status == 2)
        #expect(try Self.haapi(["demo", "--client", "nobody"], home: directory).status == 2)
        #expect(try Self.haapi(["login", "--log-level", "loud"], home: directory).status == 2)
        let answers = try Self.write("{}", to: directory)
        #expect(try Self.haapi(["login", "--profile", "empty", "--answers", answers], home: directory).status == 2)
        #expect(try Self.haapi(["--help"], home: directory).status == 0)
    }

    /// Every subcommand's help shows examples.
    @Test func everySubcommandsHelpHasExamples() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let overview = try Self.haapi(["--help"], home: directory).stdout
        // The subcommands' lines start with two spaces and the name; wrapped lines with more.
        let names = (overview.components(separatedBy: "SUBCOMMANDS:").last ?? "").split(separator: "\n")
            .compactMap { $0.wholeMatch(of: #/  ([a-z][a-z-]*) .*/#).map { String($0.1) } }
        #expect(names.count >= 16, "\(names)")
        for name in names where name != "help" {
            let help = try Self.haapi([name, "--help"], home: directory)
            #expect(help.stdout.contains("Examples:\n  "), "haapi \(name) --help has no examples")
            // No example is wrapped mid-command (issue 56, item 9): each line is indented, and
            // a long one continues with ` \`.
            let examples = (help.stdout.components(separatedBy: "Examples:\n").last ?? "").components(separatedBy: "\n\n").first ?? ""
            for line in examples.split(separator: "\n") {
                #expect(line.hasPrefix("  ") && line.count <= 80, "haapi \(name) --help: a wrapped example line: \"\(line)\"")
            }
        }
    }

    /// `haapi completion bash` is a script bash accepts, and completing `haapi to` in it gives `token`.
    @Test func completionScriptsCompleteTheCommands() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let script = try Self.haapi(["completion", "bash"], home: directory)
        #expect(script.status == 0)
        let file = try Self.write(script.stdout, to: directory, name: "haapi.bash")
        /// What bash completes for the command line `words` (the last one being typed).
        func complete(_ words: [String]) throws -> String {
            let line = words.joined(separator: " ")
            let script =
                "source \"$1\"; COMP_WORDS=(\(line)); COMP_CWORD=\(words.count - 1); COMP_LINE='\(line)'; COMP_POINT=\(line.count); "
                + "_haapi haapi \(words.last!) \(words[words.count - 2]); echo \"${COMPREPLY[*]}\""
            let path = Self.binary.deletingLastPathComponent().path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
            return try Subprocess.run(
                "/bin/bash", ["-c", script, "bash", file],
                environment: ["PATH": path, "HAAPI_HOME": directory.appendingPathComponent("home").path]
            ).output
        }
        #expect(try complete(["haapi", "to"]) == "token\n")
        // Issue 56, item 9: a profile's name completes where a command takes one.
        let work = directory.appendingPathComponent("home/profiles/work")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        try Data(#"{"issuer": "https://idsvr.example", "clientId": "c", "redirectUri": "haapi://callback"}"#.utf8).write(
            to: work.appendingPathComponent("config.json"))
        #expect(try complete(["haapi", "profiles", "use", "w"]) == "work\n")
        // Issue 38, item 13: the shells, after `haapi completion`.
        #expect(try complete(["haapi", "completion", "z"]) == "zsh\n")
        for shell in ["zsh", "fish"] { #expect(try Self.haapi(["completion", shell], home: directory).stdout.contains("haapi")) }
        #expect(try Self.haapi(["completion", "tcsh"], home: directory).status == 2)
    }

    /// Errors are one line with one prefix, in plain words, with what to do next: a mistyped
    /// command gets the nearest one, a port out of range or in use says so and names --port 0.
    @Test func errorsAreOneLineWithWhatToDoNext() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let typo = try Self.haapi(["tokn"], home: directory)
        #expect(typo.status == 2)
        #expect(typo.stderr == "haapi: error: unknown command \"tokn\"; did you mean `haapi token`? (`haapi --help` lists the commands)\n")
        // Two neighbours swapped are one slip (issue 56, item 9).
        let swapped = try Self.haapi(["loign"], home: directory)
        #expect(swapped.stderr.hasPrefix("haapi: error: unknown command \"loign\"; did you mean `haapi login`?"), "\(swapped.stderr)")
        let unknown = try Self.haapi(["frobnicate", "--all"], home: directory)
        #expect(unknown.stderr == "haapi: error: unknown command \"frobnicate\" (`haapi --help` lists the commands)\n", "\(unknown.stderr)")
        let value = try Self.haapi(["token", "--min-ttl", "soon"], home: directory)
        #expect(value.status == 2)
        #expect(
            value.stderr == "haapi: error: The value 'soon' is invalid for '--min-ttl <min-ttl>' (see `haapi token --help`)\n",
            "\(value.stderr)")
        let port = try Self.haapi(["server", "--port", "99999"], home: directory)
        #expect(port.status == 2)
        #expect(
            port.stderr == "haapi: error: --port must be 1 to 65535 (or 0 for a free one), not 99999 (see `haapi server --help`)\n",
            "\(port.stderr)")

        let server = try ServerProcess(directory: directory)
        defer { server.stop() }
        let busyPort = try #require(URL(string: server.issuer)?.port)
        let busy = try Self.haapi(
            ["server", "--port", String(busyPort), "--database", directory.appendingPathComponent("other.sqlite").path], home: directory)
        #expect(busy.status == 1)
        #expect(
            busy.stderr
                == "haapi: error: port \(busyPort) on 127.0.0.1 is in use (another program listens there); choose another with --port N, or --port 0 for a free one\n",
            "\(busy.stderr)")
        let inspect = try Self.haapi(["inspect", "/nonexistent/file.json"], home: directory)
        #expect(inspect.stderr.hasPrefix("haapi: error: cannot read /nonexistent/file.json"), "\(inspect.stderr)")
    }

    // MARK: As a person types it

    static let tmux = ["/usr/bin/tmux", "/usr/local/bin/tmux", "/opt/homebrew/bin/tmux"].first {
        FileManager.default.isExecutableFile(atPath: $0)
    }

    /// Runs tmux with posix_spawn and waitpid (a tmux server started by the call inherits and
    /// keeps the descriptors, which Foundation's Process does not cope with); returns its output.
    ///
    /// Each session (the value of `-s` or `-t`) has a tmux server of its own (`-L`): with one
    /// server for all, a test's `new-session` could reach the server as another test's
    /// `kill-session` of the last session stopped it, and the new session never existed.
    @discardableResult
    static func tmux(_ arguments: [String]) throws -> String {
        let path = try #require(tmux)
        let named = arguments.indices.first { ["-s", "-t"].contains(arguments[$0]) && $0 + 1 < arguments.count }
        let arguments =
            try ["-L", "haapi-test-" + #require(named.map { arguments[$0 + 1] }, "tmux \(arguments) names no session")] + arguments
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("haapi-tmux-\(UUID().uuidString)").path
        defer { unlink(output) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        // Nothing else of this process: a tmux server lives on with what it inherits, and NIO's
        // sockets are not close-on-exec (a listening loopback port stayed taken by a tmux server).
        guard let closeFrom = Self.addCloseFrom, closeFrom(&actions, 3) == 0 else { throw CocoaError(.executableLoad) }
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var pid = pid_t()
        let spawned = posix_spawn(&pid, path, &actions, nil, argv, environ)
        guard spawned == 0 else { throw CocoaError(.executableLoad) }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        if arguments.contains("new-session"), status != 0 { throw TmuxFailed(arguments: arguments, status: status) }
        return (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
    }

    /// glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34 and later), which Swift's Glibc
    /// module does not declare.
    static let addCloseFrom: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, CInt) -> CInt)? = {
        dlsym(nil, "posix_spawn_file_actions_addclosefrom_np").map {
            unsafeBitCast($0, to: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, CInt) -> CInt).self)
        }
    }()

    /// A tmux session that could not be started.
    struct TmuxFailed: Error, CustomStringConvertible {
        let arguments: [String]
        let status: Int32
        var description: String { "tmux \(arguments.joined(separator: " ")) failed (wait status \(status))" }
    }

    /// Waits until the pane shows `text` (`count` times); returns the pane.
    @discardableResult
    static func waitForPane(_ session: String, _ text: String, count: Int = 1, timeout: Double = 30) throws -> String {
        let start = Date()
        var pane = ""
        while Date().timeIntervalSince(start) < timeout {
            pane = try tmux(["capture-pane", "-p", "-J", "-S", "-200", "-t", session])
            if pane.components(separatedBy: text).count > count { return pane }
            usleep(100_000)
        }
        Issue.record("the pane never showed \"\(text)\" \(count) time(s):\n\(pane)")
        throw CancellationError()
    }

    @Test(.enabled(if: tmux != nil, "tmux is not installed"))
    func demoUnderTmuxAsAPersonTypesIt() throws {
        try Self.requireBinary()
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let session = "haapi-cli-\(UUID().uuidString.prefix(8))"
        let command = "HAAPI_HOME='\(directory.path)' '\(Self.binary.path)' demo --client secret; echo \"EXIT=$?\"; sleep 60"
        try Self.tmux(["new-session", "-d", "-s", session, "-x", "160", "-y", "60", command])
        defer { _ = try? Self.tmux(["kill-session", "-t", session]) }

        _ = try Self.waitForPane(session, "Choose 1-8")
        try Self.tmux(["send-keys", "-t", session, "1", "Enter"])
        _ = try Self.waitForPane(session, "Forgot your password?")
        try Self.tmux(["send-keys", "-t", session, "", "Enter"])
        _ = try Self.waitForPane(session, "Username:")
        try Self.tmux(["send-keys", "-t", session, "demo", "Enter"])
        _ = try Self.waitForPane(session, "Password:")
        try Self.tmux(["send-keys", "-t", session, "Password1", "Enter"])
        _ = try Self.waitForPane(session, "asks for access")
        let consentPane = try Self.waitForPane(session, "Choose 1-3 [1]", count: 2)
        #expect(!consentPane.contains("Password1\n"), "the password is not echoed")
        #expect(consentPane.contains("Password:"))
        try Self.tmux(["send-keys", "-t", session, "", "Enter"])
        // Accept: the listed scopes, asked no more.
        let start = Date()
        var pane = ""
        while Date().timeIntervalSince(start) < 30 {
            pane = try Self.tmux(["capture-pane", "-p", "-J", "-S", "-200", "-t", session])
            if pane.contains("EXIT=") { break }
            let last = pane.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.last { !$0.isEmpty } ?? ""
            if last.hasSuffix("[Y/n]") || last.hasSuffix("[y/N]") {
                try Self.tmux(["send-keys", "-t", session, "", "Enter"])
            }
            usleep(200_000)
        }
        #expect(pane.contains("EXIT=0"), "pane:\n\(pane)")
        #expect(pane.contains("Access token claims:"))
        #expect(pane.contains("\"sub\" : \"demo\""))
        #expect(pane.contains("Userinfo"))
        // The password typed was never shown.
        let typed = pane.components(separatedBy: "\n").filter { $0.contains("Password1") }
        #expect(typed.allSatisfy { $0.contains("with password Password1") }, "\(typed)")
    }

    @Test(.enabled(if: tmux != nil, "tmux is not installed"))
    func ctrlCAsksBeforeAbandoningTheLogin() throws {
        try Self.requireBinary()
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let session = "haapi-cli-\(UUID().uuidString.prefix(8))"
        let command = "HAAPI_HOME='\(directory.path)' '\(Self.binary.path)' demo; echo \"EXIT=$?\"; sleep 60"
        try Self.tmux(["new-session", "-d", "-s", session, "-x", "160", "-y", "60", command])
        defer { _ = try? Self.tmux(["kill-session", "-t", session]) }

        try Self.waitForPane(session, "Choose 1-3")
        try Self.tmux(["send-keys", "-t", session, "", "Enter"])
        try Self.waitForPane(session, "Username:")
        try Self.tmux(["send-keys", "-t", session, "C-c"])
        try Self.waitForPane(session, "Stop logging in? [y/N]")
        // No: the login goes on at the same step.
        try Self.tmux(["send-keys", "-t", session, "n", "Enter"])
        try Self.waitForPane(session, "Choose 1-3", count: 2)
        try Self.tmux(["send-keys", "-t", session, "", "Enter"])
        try Self.waitForPane(session, "Username:", count: 2)
        try Self.tmux(["send-keys", "-t", session, "demo", "Enter"])
        try Self.waitForPane(session, "Password:")
        // Yes: the login ends as Ctrl-C ends a command, with exit status 130 and the reason.
        try Self.tmux(["send-keys", "-t", session, "C-c"])
        try Self.waitForPane(session, "Stop logging in? [y/N]", count: 2)
        try Self.tmux(["send-keys", "-t", session, "y", "Enter"])
        let ended = try Self.waitForPane(session, "EXIT=")
        #expect(ended.contains("EXIT=130"), "pane:\n\(ended)")
        #expect(ended.contains("haapi: login cancelled"))
    }
}

extension CLITests {
    /// Issue 56, item 4: `$HOME` is where the server keeps its database and the command line its
    /// profiles (without HAAPI_HOME or the XDG variables), as every Unix program takes it; the
    /// server says where its database is.
    @Test func theHomeVariableIsWhereTheServerAndProfilesLive() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let home = directory.appendingPathComponent("elsewhere").path
        let environment = ["HOME": home, "HAAPI_HOME": "", "XDG_DATA_HOME": "", "XDG_CONFIG_HOME": ""]
        let printed = try Self.haapi(["server", "--print-config"], home: directory, environment: environment)
        #expect(printed.status == 0, "\(printed.stderr)")
        #expect(FileManager.default.fileExists(atPath: home + "/.local/share/swift-haapi/server.sqlite"), "the database is not under $HOME")
        // Profiles live under $HOME too: a profile saved there is the one status reports.
        let profile = URL(fileURLWithPath: home + "/.config/swift-haapi/profiles/there")
        try FileManager.default.createDirectory(at: profile, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        try Data(#"{"issuer": "https://idsvr.example", "clientID": "c", "redirectUri": "haapi://callback"}"#.utf8).write(
            to: profile.appendingPathComponent("config.json"))
        let status = try Self.haapi(["status", "--profile", "there"], home: directory, environment: environment)
        #expect(
            status.status == 4 && status.stdout.contains("Profile there") && !status.stdout.contains("no such profile"), "\(status.stdout)")
        let server = try HaapiCommand.prepare(["server", "--port", "0"], home: directory, environment: environment)
        try server.process.run()
        defer { server.process.interrupt() }
        var said = ""
        let start = Date()
        while !said.contains("database: ") && Date().timeIntervalSince(start) < 30 {
            usleep(100_000)
            said = (try? server.standardOutput()) ?? ""
        }
        #expect(said.contains("database: \(home)/.local/share/swift-haapi/server.sqlite"), "\(said)")
    }
}

extension CLITests {
    /// Issue 56, item 12: the config file of the AppAuth example the project follows (seed 002:
    /// `issuer`, `clientID`, `redirectUri`, `postLogoutRedirectUri`, `scope`) is read as it is,
    /// silently: the login goes on to the issuer (unreachable here) without a word about the file.
    @Test func theAppAuthExamplesConfigIsReadAsItIs() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let config = try Self.write(
            #"{"issuer": "https://127.0.0.1:9/oauth/v2/login.porta.com", "clientID": "mobile-client", "redirectUri": "io.porta.client:/callback", "postLogoutRedirectUri": "io.porta.client:/logoutcallback", "scope": "openid profile"}"#,
            to: directory, name: "config.json")
        let run = try Self.haapi(["login", "--config", config, "--browser", "--no-browser"], home: directory, timeout: 30)
        #expect(!run.stderr.contains("config.json") && !run.stderr.contains("clientID") && !run.stderr.contains("warning"), "\(run.stderr)")
        #expect(run.stderr.contains("127.0.0.1:9"), "the login went on to the issuer: \(run.stderr)")
    }
}

extension CLITests {
    /// Issue 56, item 8: `logout --all` reports several profiles, so each failure names its profile.
    @Test func logoutAllNamesTheProfileOfEachFailure() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let profile = directory.appendingPathComponent("home/profiles/broken")
        try FileManager.default.createDirectory(at: profile, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        try Data(#"{"issuer": "https://idsvr.invalid", "clientId": "c", "redirectUri": "haapi://callback"}"#.utf8).write(
            to: profile.appendingPathComponent("config.json"))
        try Data("not the JSON haapi writes".utf8).write(to: profile.appendingPathComponent("tokens.json"))
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: profile.appendingPathComponent("tokens.json").path)
        let run = try Self.haapi(["logout", "--all"], home: directory)
        #expect(run.status == 1 && run.stderr.contains("haapi: error: profile broken: "), "\(run.stderr)")
    }
}
