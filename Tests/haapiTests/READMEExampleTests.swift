import Foundation
import HaapiServerTesting
import HaapiTesting
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Issue 18: the README's every command-line example, run as printed, in order, by bash,
/// against `haapi server`, with a person at the terminal (tmux) and at the browser.
///
/// The README's placeholders are mapped to the server (``Substitutions``); an example this
/// test does not know how to play fails it, so a new example comes with its test.
@Suite(.serialized, .enabled(if: CLITests.tmux != nil, "tmux is not installed"), .ownThreads)
struct READMEExampleTests {
    static let readme = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("README.md")

    /// Every line of the README's `sh` blocks, without its comment.
    static func shellExamples() throws -> [String] {
        var examples: [String] = []
        var inShell = false
        for line in try String(contentsOf: readme, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("```") {
                inShell = line == "```sh"
                continue
            }
            guard inShell else { continue }
            let command = line.replacing(/\s+#\s.*$/, with: "").trimmingCharacters(in: .whitespaces)
            if !command.isEmpty { examples.append(command) }
        }
        return examples
    }

    /// Commands in the README's prose, each also run here.
    static let proseExamples = [
        #"curl -H "Authorization: Bearer $(haapi token --min-ttl 60)" URL"#,
        "source <(haapi completion bash)",
    ]

    /// What the README's lines become against the test's server: its port for 8080, the binary
    /// for `swift run haapi`; nothing else (the lines name the server's own clients and paths).
    struct Substitutions {
        let issuer: String

        func apply(_ line: String) -> String {
            line.replacingOccurrences(of: "swift run haapi", with: "haapi")
                .replacingOccurrences(of: "http://127.0.0.1:8080", with: issuer)
                .replacingOccurrences(of: "--port 8080", with: "--port 0")
                .replacingOccurrences(of: " URL", with: " " + issuer + "/oauth/userinfo")
        }
    }

    /// A bash with `haapi` on its PATH, a home of its own and a browser that records the URL it is given.
    final class Shell: @unchecked Sendable {
        let directory: URL
        let substitutions: Substitutions
        let opened: URL
        var environment: [String: String]

        init(directory: URL, substitutions: Substitutions) throws {
            self.directory = directory
            self.substitutions = substitutions
            let bin = directory.appendingPathComponent("bin")
            try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
            try FileManager.default.createSymbolicLink(at: bin.appendingPathComponent("haapi"), withDestinationURL: HaapiCommand.binary)
            opened = directory.appendingPathComponent("opened-url")
            let browser = bin.appendingPathComponent("record-url")
            try Data("#!/bin/sh\nprintf '%s\\n' \"$1\" > '\(opened.path).tmp' && mv '\(opened.path).tmp' '\(opened.path)'\n".utf8).write(
                to: browser)
            try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: browser.path)
            var environment = ProcessInfo.processInfo.environment
            environment["PATH"] = bin.path + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
            environment["HAAPI_HOME"] = directory.appendingPathComponent("home").path
            environment["XDG_DATA_HOME"] = directory.appendingPathComponent("data").path
            environment["BROWSER"] = browser.path
            environment["HAAPI_PROFILE"] = nil
            environment["HAAPI_CLIENT_SECRET"] = nil
            self.environment = environment
        }

        /// `bash -c LINE` (substituted), not yet started, its output going to two files.
        func prepare(_ line: String) throws -> HaapiCommand.Launched {
            let launched = try HaapiCommand.prepare([], home: directory)
            launched.process.executableURL = URL(fileURLWithPath: "/bin/bash")
            launched.process.arguments = ["-c", substitutions.apply(line)]
            launched.process.environment = environment
            launched.process.currentDirectoryURL = directory
            return launched
        }

        /// Runs `line` to its end.
        func run(_ line: String, timeout: Double = 60) throws -> HaapiCommand.Run {
            let launched = try prepare(line)
            try launched.process.run()
            return try #require(try HaapiCommand.collect([launched], timeout: timeout).first)
        }

        /// Runs `line` while playing the person at the browser it opens (the server's pages).
        func runWithBrowser(_ line: String) async throws -> HaapiCommand.Run {
            try? FileManager.default.removeItem(at: opened)
            let launched = try prepare(line)
            try launched.process.run()
            let start = Date()
            while !FileManager.default.fileExists(atPath: opened.path) && launched.process.isRunning && Date().timeIntervalSince(start) < 60
            {
                try await Task.sleep(for: .milliseconds(100))
            }
            if let text = try? String(contentsOf: opened, encoding: .utf8),
                let url = URL(string: text.trimmingCharacters(in: .whitespacesAndNewlines))
            {
                _ = try await Browser.walk(from: url, username: "demo", password: "Password1")
            }
            return try #require(try HaapiCommand.collect([launched], timeout: 60).first)
        }

        /// Runs `line` while approving, on "another device", the device login it shows.
        func runWithPhone(_ line: String) throws -> HaapiCommand.Run {
            let launched = try prepare(line)
            try launched.process.run()
            let errors = launched.standardErrorFile
            Phone.approveDeviceLoginWhenShown(
                in: { (try? String(contentsOf: errors, encoding: .utf8)) ?? "" }, username: "demo", password: "Password1")
            return try #require(try HaapiCommand.collect([launched], timeout: 60).first)
        }

        /// Runs `line` in a tmux pane, answering its prompts as a person would (the demo user,
        /// the first authenticator, every default); returns the pane at the end.
        func runAtTerminal(_ line: String) throws -> String {
            let session = "haapi-readme-\(UUID().uuidString.prefix(8))"
            let exports = environment.filter { ["PATH", "HAAPI_HOME", "XDG_DATA_HOME", "BROWSER"].contains($0.key) }
                .map { "export \($0.key)='\($0.value)'" }.joined(separator: "; ")
            let command = "\(exports); cd '\(directory.path)'; \(substitutions.apply(line)); echo \"EXIT=$?\"; sleep 60"
            try CLITests.tmux(["new-session", "-d", "-s", session, "-x", "200", "-y", "100", command])
            defer { _ = try? CLITests.tmux(["kill-session", "-t", session]) }
            var answered = ""
            let start = Date()
            while Date().timeIntervalSince(start) < 90 {
                let pane = try CLITests.tmux(["capture-pane", "-p", "-J", "-S", "-300", "-t", session])
                if pane.contains("EXIT=") { return pane }
                let last = pane.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.last { !$0.isEmpty } ?? ""
                if pane != answered, let answer = Self.answer(to: last) {
                    try CLITests.tmux(["send-keys", "-t", session, "-l", answer])
                    try CLITests.tmux(["send-keys", "-t", session, "Enter"])
                    answered = pane
                }
                usleep(200_000)
            }
            Issue.record("\(line) did not end; the pane ran: \(command)")
            return try CLITests.tmux(["capture-pane", "-p", "-J", "-S", "-300", "-t", session])
        }

        static func answer(to prompt: String) -> String? {
            if prompt.hasSuffix("Username:") { return "demo" }
            if prompt.hasSuffix("Password:") { return "Password1" }
            if prompt.hasSuffix("[Y/n]") || prompt.firstMatch(of: /Choose 1-\d+ \[\d+\]: ?$/) != nil { return "" }
            if prompt.firstMatch(of: /Choose 1-\d+:$/) != nil { return "1" }
            return nil
        }
    }

    /// Every relative link of the README names a file of the repository (a link to `../` is
    /// broken for everyone who clones it).
    @Test func everyRelativeLinkStaysInTheRepository() throws {
        let root = Self.readme.deletingLastPathComponent().standardizedFileURL
        let text = try String(contentsOf: Self.readme, encoding: .utf8)
        var checked = 0
        for match in text.matches(of: /\]\(([^)\s]+)\)/) {
            let target = String(match.1)
            if target.hasPrefix("#") || target.contains("://") || target.hasPrefix("mailto:") { continue }
            let path = String(target.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)[0])
            let resolved = root.appendingPathComponent(path).standardizedFileURL
            #expect(resolved.path.hasPrefix(root.path + "/"), "\(target) points outside the repository")
            #expect(FileManager.default.fileExists(atPath: resolved.path), "\(target) does not exist")
            checked += 1
        }
        #expect(checked >= 2)
    }

    @Test func everyCommandLineExampleRunsAsPrinted() async throws {
        try HaapiCommand.requireBinary()
        let directory = try HaapiCommand.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        // The README's `haapi server --port 8080 &`, on a free port, with the database a shell's
        // `haapi server --print-config` reads (its default under XDG_DATA_HOME).
        let database = directory.appendingPathComponent("data/swift-haapi/server.sqlite")
        try FileManager.default.createDirectory(at: database.deletingLastPathComponent(), withIntermediateDirectories: true)
        let server = try CLITests.ServerProcess(directory: directory, database: database.path)
        defer { server.stop() }
        let shell = try Shell(directory: directory, substitutions: Substitutions(issuer: server.issuer))
        let readme = try String(contentsOf: Self.readme, encoding: .utf8)
        for example in Self.proseExamples { #expect(readme.contains(example), "the README no longer says \(example)") }

        var played = 0
        for example in try Self.shellExamples() {
            played += 1
            switch example {
            case "Scripts/test.sh":
                // This test runs inside it; CI runs it as the README says.
                let ci = try String(contentsOf: Self.readme.deletingLastPathComponent().appendingPathComponent(".ci/run"), encoding: .utf8)
                // A line of its own, run by CI's step function or bare.
                #expect(ci.split(separator: "\n").contains { ["Scripts/test.sh", "step Scripts/test.sh"].contains($0) }, "\(ci)")
            case "swift run haapi demo":
                let pane = try shell.runAtTerminal(example)
                #expect(pane.contains("EXIT=0") && pane.contains("\"sub\" : \"demo\""), "pane:\n\(pane)")
            case "install -m 755 $(Scripts/build-cli.sh) ~/.local/bin/":
                // The release build takes minutes: the test's shell has the debug build on its PATH
                // instead, and the script is there to run as printed.
                #expect(
                    FileManager.default.isExecutableFile(
                        atPath: Self.readme.deletingLastPathComponent().appendingPathComponent("Scripts/build-cli.sh").path))
                #expect(try shell.run("command -v haapi").status == 0)
            case "haapi server --port 8080 &":
                // Played by the test's server, started above.
                break
            case "haapi server --print-config --client haapi-secret > haapi-secret.json":
                let run = try shell.run(example)
                let written = try Data(contentsOf: directory.appendingPathComponent("haapi-secret.json"))
                let settings = try JSONSerialization.jsonObject(with: written) as? [String: Any] ?? [:]
                #expect(run.status == 0 && settings["clientSecret"] as? String == server.secret(of: "haapi-secret"), "\(run.stderr)")
                #expect(settings["issuer"] as? String == server.issuer)
            case "haapi login --config haapi-secret.json":
                let pane = try shell.runAtTerminal(example)
                #expect(pane.contains("EXIT=0") && pane.contains("Logged in as demo"), "pane:\n\(pane)")
                #expect(pane.contains("Demo App asks for access"), "consent to the client's scopes:\n\(pane)")
                #expect(try shell.run("haapi status").status == 0)
            case let line where line.hasPrefix("haapi login --browser"):
                let run = try await shell.runWithBrowser(line)
                #expect(run.status == 0 && run.stderr.contains("Logged in as demo"), "\(run.stderr)")
            case let line where line.hasPrefix("haapi login --attestation software"):
                let pane = try shell.runAtTerminal(line)
                #expect(pane.contains("EXIT=0") && pane.contains("Logged in as demo"), "pane:\n\(pane)")
            case "haapi token --decode":
                let run = try shell.run(example)
                #expect(run.status == 0 && run.stdout.contains("\"sub\" : \"demo\""), "\(run.stdout) \(run.stderr)")
                #expect(run.stdout.firstMatch(of: /"exp" : "20\d\d-/) != nil, "\(run.stdout)")
            case "haapi profiles use default":
                let run = try shell.run(example)
                #expect(run.status == 0 && run.stderr.contains("Commands now use profile default"), "\(run.stderr)")
            case "haapi logout --all":
                let run = try shell.run(example)
                // In this order the profile was logged out by the line before: said, and not an error.
                #expect(run.status == 0 && run.stderr.contains("default is not logged in; nothing to do"), "\(run.stderr)")
                #expect(try shell.run("haapi status").status == 4)
            case let line where line.hasPrefix("haapi login --device"):
                let run = try shell.runWithPhone(line)
                #expect(run.status == 0 && run.stderr.contains("Logged in as demo"), "\(run.stderr)")
            case let line where line.hasPrefix("haapi api ") || line.hasPrefix("haapi token --header") || line == "haapi userinfo":
                let run = try shell.run(line)
                #expect(run.status == 0 && run.stdout.contains("\"demo\""), "\(line): \(run.stdout) \(run.stderr)")
            case "haapi status --json":
                let run = try shell.run(example)
                #expect(run.status == 0 && run.stdout.contains("\"subject\" : \"demo\""), "\(run.stdout) \(run.stderr)")
            case "haapi profiles":
                let run = try shell.run(example)
                #expect(run.status == 0 && run.stdout.contains("default"), "\(run.stdout) \(run.stderr)")
            case "haapi refresh":
                let run = try shell.run(example)
                #expect(run.status == 0, "\(run.stderr)")
            case "haapi logout --end-session":
                let run = try await shell.runWithBrowser(example)
                #expect(run.status == 0 && run.stderr.contains("the provider ended its session"), "\(run.stderr)")
                #expect(try shell.run("haapi status").status == 4)
            case "haapi revoke refresh":
                let run = try shell.run(example)
                #expect(run.status == 0, "\(run.stderr)")
                #expect(server.lines(prefix: "request: POST /oauth/revoke").count >= 1)
            case "swift run haapi server --port 8080":
                // A database of its own: the test's server keeps serving from the default one.
                let launched = try shell.prepare("XDG_DATA_HOME='\(directory.path)/data-2' " + example)
                try launched.process.run()
                let start = Date()
                var printed = ""
                while !printed.contains("listening on http://127.0.0.1:") && Date().timeIntervalSince(start) < 60 {
                    try await Task.sleep(for: .milliseconds(100))
                    printed =
                        (try? String(
                            contentsOf: launched.standardErrorFile.deletingPathExtension().appendingPathExtension("out"), encoding: .utf8))
                        ?? ""
                }
                #expect(printed.contains("listening on http://127.0.0.1:"), "\(printed)")
                // Its default database, under XDG_DATA_HOME.
                #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent("data-2/swift-haapi/server.sqlite").path))
                kill(launched.process.processIdentifier, SIGINT)
                let run = try #require(try HaapiCommand.collect([launched], timeout: 30).first)
                #expect(!run.timedOut, "Ctrl-C stops the server")
            case let line where line.hasPrefix("haapi preview --server"):
                // As printed, from the repository's root: its files are the app's.
                let launched = try shell.prepare("cd '\(Self.readme.deletingLastPathComponent().path)' && " + line)
                try launched.process.run()
                let start = Date()
                var printed = ""
                while !printed.contains("the gallery: http://127.0.0.1:") && Date().timeIntervalSince(start) < 60 {
                    try await Task.sleep(for: .milliseconds(100))
                    printed =
                        (try? String(
                            contentsOf: launched.standardErrorFile.deletingPathExtension().appendingPathExtension("out"), encoding: .utf8))
                        ?? ""
                }
                #expect(printed.contains("/preview (Swedish: ?lang=sv)"), "\(printed)")
                kill(launched.process.processIdentifier, SIGINT)
                let run = try #require(try HaapiCommand.collect([launched], timeout: 30).first)
                #expect(!run.timedOut, "Ctrl-C stops the gallery")
            case let line where line.hasPrefix("haapi preview "):
                // As printed, on the repository's files; the pages go to a folder of the test's.
                let out = directory.appendingPathComponent("preview-\(played)")
                let run = try shell.run(
                    "cd '\(Self.readme.deletingLastPathComponent().path)' && "
                        + line.replacingOccurrences(of: "--out preview", with: "--out '\(out.path)'"))
                #expect(run.status == 0 && run.stdout.hasPrefix("wrote "), "\(run.stdout) \(run.stderr)")
                #expect(!run.stderr.contains("contrast"), "the example theme reaches WCAG AA: \(run.stderr)")
                #expect(FileManager.default.fileExists(atPath: out.appendingPathComponent("index.html").path))
            case "swift run haapi server --print-config":
                let run = try shell.run(example)
                #expect(run.status == 0 && run.stdout.contains("\"haapi-secret\""), "\(run.stdout) \(run.stderr)")
            default:
                Issue.record("the README's example `\(example)` is run by no test: teach READMEExampleTests to play it")
                played -= 1
            }
        }
        #expect(played >= 18, "the README's examples were not found")

        // The prose's examples: a Bearer profile's curl line, and completion in bash.
        shell.environment["HAAPI_PROFILE"] = "bearer"
        let bearer = try shell.runWithPhone("haapi login --device --no-dpop --issuer http://127.0.0.1:8080 --client-id browser-app")
        #expect(bearer.status == 0, "\(bearer.stderr)")
        let curl = try shell.run(Self.proseExamples[0])
        #expect(curl.status == 0 && curl.stdout.contains("\"demo\""), "\(curl.stdout) \(curl.stderr)")
        let completion = try shell.run("source <(haapi completion bash) && complete -p haapi")
        #expect(completion.status == 0 && completion.stdout.contains("haapi"), "\(completion.stdout) \(completion.stderr)")
    }
}
