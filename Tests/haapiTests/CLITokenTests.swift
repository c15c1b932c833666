import Foundation
import HaapiServerTesting
import HaapiTesting
import OAuthCore
import OAuthTransportNIO
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// End-to-end tests of `haapi token`, `status`, `refresh`, `revoke`, `logout` and `userinfo`:
/// the built binary against `haapi server`, after a scripted `haapi login`.
@Suite("haapi token commands", .serialized, .ownThreads)
struct CLITokenTests {
    /// A server subprocess and a logged-in profile in a temporary directory.
    final class LoggedIn {
        let directory: URL
        let server: CLITests.ServerProcess
        let profile: String
        let secret: String

        init(client: String = "haapi-secret", profile: String = "default") throws {
            directory = try CLITests.temporaryDirectory()
            server = try CLITests.ServerProcess(directory: directory)
            self.profile = profile
            secret = try #require(server.secret(of: "haapi-secret"))
            let answers = try CLITests.write(
                #"{"fields": {"userName": "demo", "password": "Password1"}, "choices": ["username-password"]}"#, to: directory)
            var arguments = [
                "login", "--profile", profile, "--issuer", server.issuer, "--client-id", client, "--scope", "openid profile offline_access",
                "--answers", answers,
            ]
            arguments += client == "haapi-secret" ? ["--client-secret", secret] : ["--attestation", "software"]
            let run = try haapi(arguments)
            #expect(run.status == 0, "login: \(run.stderr)")
        }

        deinit {
            server.stop()
            try? FileManager.default.removeItem(at: directory)
        }

        func haapi(_ arguments: [String], timeout: Double = 60) throws -> CLITests.Run {
            try CLITests.haapi(arguments, home: directory, timeout: timeout)
        }

        var tokensFile: URL { directory.appendingPathComponent("home/profiles/\(profile)/tokens.json") }

        func storedTokens() throws -> [String: Any]? {
            guard FileManager.default.fileExists(atPath: tokensFile.path) else { return nil }
            return try JSONSerialization.jsonObject(with: Data(contentsOf: tokensFile)) as? [String: Any]
        }

        /// Makes the stored access token look nearly expired (or, with a negative `seconds`,
        /// expired), as it would be some minutes later.
        func ageTokens(by seconds: TimeInterval = 5) throws {
            var tokens = try #require(try storedTokens())
            tokens["accessTokenExpiresAt"] = ISO8601DateFormatter().string(from: Date().addingTimeInterval(seconds))
            try JSONSerialization.data(withJSONObject: tokens).write(to: tokensFile)
        }

        /// Revokes `token` at the server as another party would (the secret client authenticates).
        func revokeAtServer(_ token: String, hint: String) async throws {
            let client = TokenRevocationClient(
                endpoint: try #require(URL(string: server.issuer + "/oauth/revoke")),
                clientAuthentication: .clientSecretBasic(clientID: "haapi-secret", secret: secret),
                transport: try AsyncHTTPClientTransport())
            try await client.revoke(token, hint: hint == "refresh_token" ? .refreshToken : .accessToken)
        }

        /// Checks that `token` is an access token the server signed, for the demo user, not expired.
        func expectValidAccessToken(_ token: String) async throws {
            let jwks = try await AsyncHTTPClientTransport().send(
                TransportRequest(url: try #require(URL(string: server.issuer + "/oauth/jwks"))))
            let jws = try CompactJWS(token)
            try jws.verify(with: try JWKSet(json: jwks.body))
            let claims = try JSONValue(parsing: jws.payload)
            #expect(claims["sub"]?.stringValue == "demo")
            #expect((claims["exp"]?.doubleValue ?? 0) > Date().timeIntervalSince1970 + 60)
        }
    }

    /// What `haapi token` pays at every start: the CLI talks through AsyncHTTPClient, so
    /// FoundationNetworking (URLSession on Linux), with libcurl and its thirty libraries, must not
    /// be linked in by any module it uses.
    @Test(.enabled(if: Self.isLinux, "FoundationNetworking and libcurl exist only on Linux"))
    func theBinaryLoadsNeitherFoundationNetworkingNorLibcurl() throws {
        let ldd = try Subprocess.run("/usr/bin/ldd", [HaapiCommand.binary.path])
        let libraries = ldd.output
        #expect(ldd.status == 0)
        #expect(libraries.contains("libswiftCore") || libraries.contains("libc.so"), "\(libraries)")
        #expect(!libraries.contains("FoundationNetworking"), "\(libraries)")
        #expect(!libraries.contains("libcurl"), "\(libraries)")
    }

    #if os(Linux)
        static let isLinux = true
    #else
        static let isLinux = false
    #endif

    @Test func tokenStatusRefreshUserinfoRevokeAndLogout() async throws {
        let session = try LoggedIn()
        let first = try #require(try session.storedTokens()?["accessToken"] as? String)
        let firstRefresh = try #require(try session.storedTokens()?["refreshToken"] as? String)

        // status: its report on stdout (as text, or JSON), never a token.
        let status = try session.haapi(["status"])
        #expect(status.status == 0, "\(status.stderr)")
        #expect(status.stderr.isEmpty, "\(status.stderr)")
        #expect(status.stdout.contains("logged in as demo"))
        #expect(status.stdout.contains("binding:  DPoP, key thumbprint"))
        let json = try session.haapi(["status", "--json"])
        let report = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(report["subject"] as? String == "demo")
        #expect(report["scope"] as? String == "openid profile offline_access")
        #expect((report["expiresIn"] as? Int ?? 0) > 800)
        #expect((report["binding"] as? [String: Any])?["type"] as? String == "DPoP")
        #expect(!json.stdout.contains(first) && !json.stdout.contains(firstRefresh), "status never shows a token")

        // token: the stored token while it has min-ttl left, and only it, on stdout.
        let token = try session.haapi(["token"])
        #expect(token.status == 0, "\(token.stderr)")
        #expect(token.stdout == first + "\n")
        // Standard output is not a terminal: the DPoP-bound token comes with its warning, never in it.
        #expect(token.stderr.hasPrefix("haapi: warning: this token is DPoP-bound") && !token.stderr.contains(first), "\(token.stderr)")

        // refresh: new tokens, the refresh token rotated, stored.
        let refresh = try session.haapi(["refresh"])
        #expect(refresh.status == 0, "\(refresh.stderr)")
        #expect(refresh.stderr.contains("refresh token rotated"))
        #expect(refresh.stdout.isEmpty)
        // In Swedish, all of it (issue 56, item 7), with the consent's word for a refresh token.
        let swedish = try CLITests.haapi(
            ["refresh"], home: session.directory, environment: ["LANG": "sv_SE.UTF-8", "LANGUAGE": "", "LC_ALL": "", "LC_MESSAGES": ""])
        #expect(
            swedish.status == 0 && swedish.stderr.hasPrefix("Förnyade token i profilen") && swedish.stderr.contains("ny förnyelsetoken"),
            "\(swedish.stderr)")
        #expect(!swedish.stderr.contains("refresh") && !swedish.stderr.contains("Refreshed"), "\(swedish.stderr)")
        let second = try #require(try session.storedTokens()?["accessToken"] as? String)
        #expect(second != first)
        #expect(try session.storedTokens()?["refreshToken"] as? String != firstRefresh)
        try await session.expectValidAccessToken(second)

        // userinfo with the bound token (a DPoP proof per request).
        let userinfo = try session.haapi(["userinfo"])
        #expect(userinfo.status == 0, "\(userinfo.stderr)")
        let claims = try #require(try JSONSerialization.jsonObject(with: Data(userinfo.stdout.utf8)) as? [String: Any])
        #expect(claims["sub"] as? String == "demo")

        // revoke access: the next token is a refreshed one.
        let revokeAccess = try session.haapi(["revoke", "access"])
        #expect(revokeAccess.status == 0, "\(revokeAccess.stderr)")
        let third = try session.haapi(["token"])
        #expect(third.status == 0, "\(third.stderr)")
        #expect(third.stdout != second + "\n")
        try await session.expectValidAccessToken(third.stdout.trimmingCharacters(in: .newlines))

        // logout: revoked at the server and deleted here; the settings stay.
        let lastRefresh = try #require(try session.storedTokens()?["refreshToken"] as? String)
        let logout = try session.haapi(["logout"])
        #expect(logout.status == 0, "\(logout.stderr)")
        #expect(try session.storedTokens() == nil)
        #expect(FileManager.default.fileExists(atPath: session.directory.appendingPathComponent("home/profiles/default/config.json").path))
        let after = try session.haapi(["token"])
        #expect(after.status == 4)
        #expect(after.stderr.contains("not logged in"), "\(after.stderr)")
        #expect(after.stdout.isEmpty)
        #expect(try session.haapi(["status"]).status == 4)
        // The server no longer takes the revoked refresh token.
        let form = TransportRequest.form(
            try #require(URL(string: session.server.issuer + "/oauth/token")),
            parameters: [("grant_type", "refresh_token"), ("refresh_token", lastRefresh)],
            headers: ["Authorization": "Basic " + Data("haapi-secret:\(session.secret)".utf8).base64EncodedString()])
        let refused = try await AsyncHTTPClientTransport().send(form)
        #expect(refused.status == 400)
    }

    @Test func twentyConcurrentTokenProcessesMakeOneRefresh() async throws {
        let session = try LoggedIn()
        let old = try #require(try session.storedTokens()?["accessToken"] as? String)
        let refreshLine = "request: POST /oauth/token grant_type=refresh_token"
        #expect(session.server.lines(prefix: refreshLine).isEmpty)
        try session.ageTokens()
        let runs = try Self.concurrently(20, ["token", "--min-ttl", "60"], home: session.directory)
        for run in runs {
            #expect(run.status == 0, "\(run.stderr)")
        }
        let printed = Set(runs.map(\.stdout))
        #expect(printed.count == 1, "every caller prints the same token")
        let token = try #require(printed.first?.trimmingCharacters(in: .newlines))
        #expect(token != old)
        #expect(token == (try session.storedTokens()?["accessToken"] as? String))
        try await session.expectValidAccessToken(token)
        // Counted at the server: exactly one refresh request, answered with tokens.
        #expect(session.server.lines(prefix: refreshLine) == [refreshLine + " 200"])
        let refresh = try session.haapi(["refresh"])
        #expect(refresh.status == 0, "\(refresh.stderr)")
        _ = session.server.waitForLine(prefix: refreshLine + " 200", timeout: 5)
        #expect(session.server.lines(prefix: refreshLine).count == 2)
    }

    @Test func userinfoRefreshesOnceWhenTheServerRefusesTheToken() async throws {
        let session = try LoggedIn()
        let revoked = try #require(try session.storedTokens()?["accessToken"] as? String)
        try await session.revokeAtServer(revoked, hint: "access_token")
        let userinfo = try session.haapi(["userinfo"])
        #expect(userinfo.status == 0, "\(userinfo.stderr)")
        #expect(userinfo.stdout.contains("\"sub\" : \"demo\""))
        #expect(try session.storedTokens()?["accessToken"] as? String != revoked)
    }

    /// `haapi api`: the request with the DPoP-bound token and a fresh proof (the server checks
    /// htm, htu, ath and jti), a refresh once on a 401, the body on stdout, and an HTTP error as
    /// exit 1 with one line.
    @Test func apiSendsTheRequestWithAProofAndRefreshesOnceOn401() async throws {
        let session = try LoggedIn()
        let userinfo = session.server.issuer + "/oauth/userinfo"
        let get = try session.haapi(["api", userinfo])
        #expect(get.status == 0, "\(get.stderr)")
        #expect(get.stdout.contains("\"sub\":\"demo\"") || get.stdout.contains("\"sub\" : \"demo\""), "\(get.stdout)")
        let post = try session.haapi(["api", "--method", "POST", "--include", userinfo])
        #expect(post.status == 0, "\(post.stderr)")
        // The status line as curl -i prints it (issue 56, item 11).
        #expect(post.stdout.hasPrefix("HTTP/1.1 200 OK\n"), "\(post.stdout)")

        let revoked = try #require(try session.storedTokens()?["accessToken"] as? String)
        try await session.revokeAtServer(revoked, hint: "access_token")
        let again = try session.haapi(["api", userinfo])
        #expect(again.status == 0, "\(again.stderr)")
        #expect(try session.storedTokens()?["accessToken"] as? String != revoked)
        #expect(session.server.lines(prefix: "request: POST /oauth/token grant_type=refresh_token").count == 1)

        let missing = try session.haapi(["api", session.server.issuer + "/no/such/api"])
        #expect(missing.status == 1)
        #expect(
            missing.stderr == "haapi: error: the API answered HTTP 404 to GET \(session.server.issuer)/no/such/api\n", "\(missing.stderr)")
        let missingHead = try session.haapi(["api", "-i", session.server.issuer + "/no/such/api"])
        #expect(missingHead.stdout.hasPrefix("HTTP/1.1 404 Not Found\n"), "\(missingHead.stdout)")
        let usage = try session.haapi(["api", "/relative"])
        #expect(usage.status == 2)
        #expect(usage.stderr.contains("the URL must be absolute"), "\(usage.stderr)")
    }

    /// A browser login against `haapi server`, then `logout --end-session`: the browser is sent
    /// to the server's sign-out, comes back to the registered loopback post-logout URI, and the
    /// command says what it waited for and that the provider ended its session.
    @Test func browserLoginThenLogoutWithEndSessionAgainstOurOwnServer() async throws {
        let directory = try CLITests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let server = try CLITests.ServerProcess(directory: directory)
        defer { server.stop() }
        let opened = directory.appendingPathComponent("opened-url")
        let script = directory.appendingPathComponent("record-url")
        try Data("#!/bin/sh\nprintf '%s\\n' \"$1\" > '\(opened.path).tmp' && mv '\(opened.path).tmp' '\(opened.path)'\n".utf8).write(
            to: script)
        try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: script.path)
        /// Runs `arguments` while playing the person at the browser it opens.
        func withBrowser(_ arguments: [String]) async throws -> CLITests.Run {
            try? FileManager.default.removeItem(at: opened)
            let running = Task {
                try await onThread { try CLITests.haapi(arguments + ["--browser-command", script.path], home: directory) }
            }
            let start = Date()
            while !FileManager.default.fileExists(atPath: opened.path) && Date().timeIntervalSince(start) < 60 {
                try await Task.sleep(for: .milliseconds(100))
            }
            let url = try #require(
                URL(string: try String(contentsOf: opened, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)))
            _ = try await Browser.walk(from: url, username: "demo", password: "Password1")
            return try await running.value
        }
        let login = try await withBrowser(["login", "--browser", "--issuer", server.issuer, "--client-id", "browser-app"])
        #expect(login.status == 0, "\(login.stderr)")
        let logout = try await withBrowser(["logout", "--end-session"])
        #expect(logout.status == 0, "\(logout.stderr)")
        #expect(logout.stderr.contains("waiting up to 60 s for it to come back"), "\(logout.stderr)")
        #expect(logout.stderr.contains("and the provider ended its session"), "\(logout.stderr)")
        #expect(try CLITests.haapi(["status"], home: directory).status == 4)
    }

    /// A browser login never waits in silence: with --no-browser, or a browser that cannot
    /// start, it prints the URL to open and that it waits; opened, the login completes.
    @Test(arguments: [["--no-browser"], ["--browser-command", "no-such-browser-here"]])
    func aBrowserLoginPrintsTheURLWhenNoBrowserOpensIt(_ how: [String]) async throws {
        let directory = try CLITests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let server = try CLITests.ServerProcess(directory: directory)
        defer { server.stop() }
        try HaapiCommand.requireBinary()
        let launched = try HaapiCommand.prepare(
            ["login", "--browser", "--issuer", server.issuer, "--client-id", "browser-app"] + how, home: directory)
        try launched.process.run()
        let start = Date()
        var printed = ""
        while printed.firstMatch(of: /\n  (http\S+)\n/) == nil && Date().timeIntervalSince(start) < 60 {
            try await Task.sleep(for: .milliseconds(100))
            printed = (try? String(contentsOf: launched.standardErrorFile, encoding: .utf8)) ?? ""
        }
        let url = try #require(printed.firstMatch(of: /\n  (http\S+)\n/).flatMap { URL(string: String($0.1)) }, "\(printed)")
        _ = try await Browser.walk(from: url, username: "demo", password: "Password1")
        let run = try #require(try HaapiCommand.collect([launched], timeout: 60).first)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("Open this URL in a browser on this machine"), "\(run.stderr)")
        #expect(run.stderr.contains("Waiting for the browser to come back..."), "\(run.stderr)")
        #expect(
            run.stderr.contains("No browser could be started (no-such-browser-here: not found). Open this URL")
                == (how != ["--no-browser"]), "\(run.stderr)")
        #expect(run.stderr.contains("Logged in as demo"), "\(run.stderr)")
    }

    /// `haapi token` as scripts call it (`--profile NAME`, `--min-ttl N`) is read without the
    /// argument parser; every other spelling goes through it. Both answer alike, token or failure.
    @Test func theQuickTokenPathAnswersAsTheParserDoes() throws {
        let session = try LoggedIn(profile: "work")
        let quick = try session.haapi(["token", "--min-ttl", "60", "--profile", "work"])
        let parsed = try session.haapi(["token", "--profile=work", "--min-ttl=60"])
        #expect(quick.status == 0 && parsed.status == 0, "\(quick.stderr) \(parsed.stderr)")
        #expect(quick.stdout == parsed.stdout && quick.stdout.count > 20)
        #expect(quick.stderr == parsed.stderr)
        let missingQuick = try session.haapi(["token", "--profile", "nobody"])
        let missingParsed = try session.haapi(["token", "--profile=nobody"])
        #expect(missingQuick.status == 4 && missingParsed.status == 4)
        #expect(
            missingQuick.stderr == missingParsed.stderr && missingQuick.stderr.contains("there is no profile \"nobody\""),
            "\(missingQuick.stderr)")
        // What the quick reader does not take is the parser's to refuse.
        for arguments in [["token", "--min-ttl", "-5"], ["token", "--profile"], ["token", "--nosuch", "x"]] {
            #expect(try session.haapi(arguments).status == 2, "\(arguments)")
        }
    }

    /// `haapi token --header`: the header lines of one request, which curl sends as they are
    /// (`curl -H @-`), so no token or key is ever on a command line.
    @Test func tokenHeaderLinesAuthorizeACurlRequest() throws {
        let session = try LoggedIn()
        let userinfo = session.server.issuer + "/oauth/userinfo"
        // Header lines for another origin carry the token there: refused, as `haapi api` refuses it, unless allowed.
        let foreign = try session.haapi(["token", "--header", "--url", "https://elsewhere.example/items"])
        #expect(
            foreign.status == 2 && foreign.stdout.isEmpty && foreign.stderr.contains("is not the provider's origin"), "\(foreign.stderr)")
        let allowed = try session.haapi([
            "token", "--header", "--url", "https://elsewhere.example/items", "--allow-origin", "https://elsewhere.example",
        ])
        #expect(allowed.status == 0 && allowed.stdout.hasPrefix("Authorization: DPoP "), "\(allowed.stderr)")
        let header = try session.haapi(["token", "--header", "--url", userinfo])
        #expect(header.status == 0, "\(header.stderr)")
        let lines = header.stdout.split(separator: "\n").map(String.init)
        #expect(lines.map { $0.split(separator: ":")[0] } == ["Authorization", "DPoP"])
        #expect(lines.first?.hasPrefix("Authorization: DPoP ") == true)

        /// curl with `arguments`, the header lines on its standard input (`-H @-`); what it printed.
        func curl(_ arguments: [String]) throws -> String {
            try Subprocess.run("/usr/bin/env", ["curl", "-s", "-H", "@-"] + arguments, input: Data(header.stdout.utf8)).output
        }
        let body = try curl([userinfo])
        #expect(body.contains("\"demo\""), "curl got: \(body)")
        // A proof is for one request: the same lines again are a replay.
        let status = try curl(["-o", "/dev/null", "-w", "%{http_code}", userinfo])
        #expect(status == "401")

        let misuse = try session.haapi(["token", "--url", userinfo])
        #expect(misuse.status == 2)
        #expect(misuse.stderr.contains("--method, --url, --allow-origin and --allow-insecure-http go with --header"), "\(misuse.stderr)")
    }

    @Test func aRefusedRefreshTokenEndsTheLoginAndRemovesTheStaleTokens() async throws {
        let session = try LoggedIn()
        let refreshToken = try #require(try session.storedTokens()?["refreshToken"] as? String)
        try await session.revokeAtServer(refreshToken, hint: "refresh_token")
        try session.ageTokens()
        let token = try session.haapi(["token", "--min-ttl", "60"])
        #expect(token.status == 4)
        #expect(token.stderr.contains("login required"), "\(token.stderr)")
        #expect(token.stdout.isEmpty)
        #expect(try session.storedTokens() == nil)
    }

    @Test func anAttestedClientRefreshesWithItsBoundKey() throws {
        let session = try LoggedIn(client: "haapi-attested", profile: "attested")
        let before = try #require(try session.storedTokens()?["accessToken"] as? String)
        let refresh = try session.haapi(["refresh", "--profile", "attested"])
        #expect(refresh.status == 0, "\(refresh.stderr)")
        #expect(try session.storedTokens()?["accessToken"] as? String != before)
        #expect(try session.storedTokens()?["tokenType"] as? String == "DPoP")
    }

    @Test func usageAndMissingProfiles() throws {
        let directory = try CLITests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let negative = try CLITests.haapi(["token", "--min-ttl", "-5"], home: directory)
        #expect(negative.status == 2)
        #expect(negative.stderr.contains("--min-ttl must be 0 or more seconds, not -5"), "\(negative.stderr)")
        #expect(try CLITests.haapi(["revoke", "everything"], home: directory).status == 2)
        // Read-only commands name the missing profile, exit 4 (login needed), and create nothing.
        for command in [["token"], ["status"], ["userinfo"], ["api", "https://api.example/"], ["refresh"], ["logout"]] {
            let missing = try CLITests.haapi(command + ["--profile", "nobody"], home: directory)
            #expect(missing.status == 4, "\(command): \(missing.stderr)")
            // status reports it (on standard output); the others fail with it.
            let said = command == ["status"] ? missing.stdout : missing.stderr
            #expect(said.contains("haapi login --profile nobody --issuer URL --client-id ID"), "\(command): \(said)")
        }
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("home/profiles/nobody").path))
        // The hint for a profile with no settings is a command that says what to give.
        let login = try CLITests.haapi(["login", "--profile", "nobody"], home: directory)
        #expect(login.status == 2)
        #expect(login.stderr.contains("haapi login --profile nobody --issuer URL --client-id ID"), "\(login.stderr)")
    }

    /// Profiles: `haapi profiles` lists them with their state, HAAPI_PROFILE chooses one,
    /// `status --all` reports each with an exit code that says whether any needs a login, a
    /// failed login saves nothing, and a damaged settings file is named and replaced by a login.
    @Test func profilesStatesAndTheProfileFromTheEnvironment() throws {
        let session = try LoggedIn(profile: "work")
        let profiles = try session.haapi(["profiles"])
        #expect(profiles.status == 0, "\(profiles.stderr)")
        #expect(profiles.stdout.hasPrefix("  work\tlogged in\tdemo\t\(session.server.issuer)"), "\(profiles.stdout)")

        let chosen = try CLITests.haapi(["status", "--json"], home: session.directory, environment: ["HAAPI_PROFILE": "work"])
        #expect(chosen.status == 0, "\(chosen.stderr)")
        #expect(chosen.stdout.contains("\"state\" : \"loggedIn\""), "\(chosen.stdout)")
        #expect(
            try CLITests.haapi(["profiles"], home: session.directory, environment: ["HAAPI_PROFILE": "work"]).stdout.hasPrefix("* work"))

        // Expired with a refresh token: usable (exit 0); without one: login needed (exit 4).
        try session.ageTokens(by: -60)
        let refreshable = try session.haapi(["status", "--profile", "work"])
        #expect(refreshable.status == 0)
        #expect(refreshable.stdout.hasPrefix("Profile work: expired, refreshable as demo"), "\(refreshable.stdout)")
        var tokens = try #require(try session.storedTokens())
        tokens["refreshToken"] = nil
        try JSONSerialization.data(withJSONObject: tokens).write(to: session.tokensFile)
        let expired = try session.haapi(["status", "--profile", "work"])
        #expect(expired.status == 4)
        #expect(expired.stdout.hasPrefix("Profile work: login needed as demo"), "\(expired.stdout)")
        let all = try session.haapi(["status", "--all", "--json"])
        #expect(all.status == 4)
        #expect(all.stdout.contains("\"profile\" : \"work\""), "\(all.stdout)")

        // A failed login (the server refuses the password) saves no profile.
        let answers = try CLITests.write(
            #"{"fields": {"userName": "demo", "password": "wrong"}, "choices": ["username-password"]}"#, to: session.directory,
            name: "wrong.json")
        let failed = try session.haapi([
            "login", "--profile", "other", "--issuer", session.server.issuer, "--client-id", "haapi-secret",
            "--client-secret-file", try CLITests.write(session.secret, to: session.directory, name: "secret.txt"), "--answers", answers,
        ])
        #expect(failed.status != 0)
        #expect(!FileManager.default.fileExists(atPath: session.directory.appendingPathComponent("home/profiles/other").path))

        // A damaged settings file is named with its path; a login with settings replaces it.
        let config = session.directory.appendingPathComponent("home/profiles/work/config.json")
        try Data("{ not json".utf8).write(to: config)
        let damaged = try session.haapi(["token", "--profile", "work"])
        #expect(damaged.status == 1)
        #expect(damaged.stderr.contains(config.path) && damaged.stderr.contains("replaces it"), "\(damaged.stderr)")
        let good = try CLITests.write(
            #"{"fields": {"userName": "demo", "password": "Password1"}, "choices": ["username-password"]}"#, to: session.directory,
            name: "good.json")
        let relogin = try session.haapi([
            "login", "--profile", "work", "--issuer", session.server.issuer, "--client-id", "haapi-secret",
            "--client-secret-file", try CLITests.write(session.secret, to: session.directory, name: "secret.txt"), "--answers", good,
        ])
        #expect(relogin.status == 0, "\(relogin.stderr)")
        #expect(try session.haapi(["token", "--profile", "work"]).status == 0)
    }

    /// Starts `count` `haapi` processes at once and waits for all of them.
    static func concurrently(_ count: Int, _ arguments: [String], home: URL) throws -> [CLITests.Run] {
        try CLITests.requireBinary()
        let launched = try (0..<count).map { _ in try HaapiCommand.prepare(arguments, home: home) }
        for run in launched { try run.process.run() }
        return try HaapiCommand.collect(launched)
    }
}
