import Foundation
import HaapiTesting
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Issue 18, item 4: Ctrl-C cancels a request under way at once, says "cancelled", exits with
/// 130 and retries nothing. The server never answers, so only the cancellation can end the
/// command before its 30 s timeout.
@Suite(.ownThreads) struct CLIInterruptTests {
    /// What a hanging command was doing when Ctrl-C came.
    enum Waiting: String, CaseIterable, CustomTestStringConvertible {
        /// Discovery of the issuer (`login --issuer`).
        case discovery
        /// The HAAPI client's token request, which a login used to retry twice after a timeout.
        case haapiAccessToken

        var testDescription: String { rawValue }

        /// The command; `answers` is an answers file, since standard input is no terminal.
        func arguments(_ server: TestServer, answers: String) -> [String] {
            let command: [String]
            switch self {
            case .discovery:
                command = ["login", "--issuer", server.url, "--client-id", "app"]
            case .haapiAccessToken:
                command = [
                    "login", "--base-url", server.url, "--token-endpoint", server.url + "/token",
                    "--authorization-endpoint", server.url + "/authorize", "--client-id", "app",
                ]
            }
            return command + ["--answers", answers]
        }
    }

    @Test(arguments: Waiting.allCases)
    func ctrlCCancelsTheRequestAtOnce(_ waiting: Waiting) async throws {
        try HaapiCommand.requireBinary()
        let home = try HaapiCommand.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: home) }
        let answers = home.appendingPathComponent("answers.json")
        try Data(#"{"fields": {}}"#.utf8).write(to: answers)
        try await withServer(reply: { _ in .hang }) { server in
            let launched = try HaapiCommand.prepare(
                waiting.arguments(server, answers: answers.path), home: home, environment: ["HAAPI_CLIENT_SECRET": "s"])
            try launched.process.run()
            try await server.waitForRequests(1, limit: .seconds(30))
            try await Task.sleep(for: .milliseconds(300))
            let interrupted = Date()
            kill(launched.process.processIdentifier, SIGINT)
            let run = try #require(try HaapiCommand.collect([launched], timeout: 20).first)
            let seconds = Date().timeIntervalSince(interrupted)

            #expect(run.status == 130, "stderr: \(run.stderr)")
            #expect(run.stderr.hasSuffix("haapi: cancelled\n"), "stderr: \(run.stderr)")
            // The cancellation reached the request: no net had to end the process.
            #expect(!run.stderr.contains("did not stop"), "stderr: \(run.stderr)")
            #expect(seconds < 10, "Ctrl-C took \(seconds) s")
            #expect(!run.stderr.contains("trying again") && !run.stderr.contains("timed out"), "stderr: \(run.stderr)")
            // Standard error is a file here: no spinner (item 1).
            #expect(!run.stderr.contains("Waiting for"), "stderr: \(run.stderr)")
            // Nothing was sent again, and nothing was saved.
            try await Task.sleep(for: .seconds(1))
            #expect(server.requests.count == 1, "\(server.requests.map(\.uri))")
            #expect(!FileManager.default.fileExists(atPath: home.appendingPathComponent("home/profiles/default").path))
        }
    }

    /// Items 1 and 4 as a person sees them in a terminal: the wait names what it waits for and
    /// counts the seconds, and Ctrl-C ends it at once with "haapi: cancelled" and status 130.
    @Test(.enabled(if: CLITests.tmux != nil, "tmux is not installed"))
    func aHangingServerShowsTheWaitAndCtrlCEndsIt() async throws {
        try HaapiCommand.requireBinary()
        let home = try HaapiCommand.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: home) }
        try await withServer(reply: { _ in .hang }) { server in
            let session = "haapi-wait-\(UUID().uuidString.prefix(8))"
            let command =
                "HAAPI_HOME='\(home.path)' '\(HaapiCommand.binary.path)' login --issuer \(server.url) --client-id app; echo \"EXIT=$?\"; sleep 60"
            try CLITests.tmux(["new-session", "-d", "-s", session, "-x", "160", "-y", "30", command])
            defer { _ = try? CLITests.tmux(["kill-session", "-t", session]) }
            let port = server.url.split(separator: ":").last!
            try CLITests.waitForPane(session, "Waiting for 127.0.0.1:\(port): GET /.well-known/openid-configuration")
            // The seconds count up while it waits.
            try CLITests.waitForPane(session, "openid-configuration… 2 s")
            try CLITests.tmux(["send-keys", "-t", session, "C-c"])
            let ended = try CLITests.waitForPane(session, "EXIT=", timeout: 10)
            #expect(ended.contains("haapi: cancelled\nEXIT=130"), "pane:\n\(ended)")
            #expect(!ended.contains("Waiting for"), "the spinner's line is erased:\n\(ended)")
            #expect(server.requests.count == 1)
        }
    }
}
