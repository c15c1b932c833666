import Foundation
import HaapiServerTesting
import HaapiTesting
import OAuthCore
import Testing

@testable import HaapiCLI

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `haapi login --answers` run as a CI job runs it, against `haapi server --log-requests`, through
/// each kind of step the server has: selector, one-time code, polling, consent and external browser.
@Suite("haapi login through each kind of step", .serialized, .ownThreads)
struct CLILoginTests {
    /// A server in a temporary directory, and the `haapi login` arguments of its `haapi-secret` client.
    /// Sendable: every stored property is a constant, and the server's output is behind a lock.
    final class Login: @unchecked Sendable {
        let directory: URL
        let server: CLITests.ServerProcess
        let secret: String

        init() throws {
            directory = try CLITests.temporaryDirectory()
            do {
                server = try CLITests.ServerProcess(directory: directory)
                secret = try #require(server.secret(of: "haapi-secret"))
            } catch {
                try? FileManager.default.removeItem(at: directory)
                throw error
            }
        }

        deinit {
            server.stop()
            try? FileManager.default.removeItem(at: directory)
        }

        /// `login --profile ci` with the secret client, `scope` and the answers `json`, and `extra` arguments.
        func run(answers json: String, scope: String = "openid", extra: [String] = []) throws -> CLITests.Run {
            let answers = try CLITests.write(json, to: directory, name: "answers-\(UUID().uuidString).json")
            return try CLITests.haapi(
                [
                    "login", "--profile", "ci", "--issuer", server.issuer, "--client-id", "haapi-secret", "--client-secret", secret,
                    "--scope", scope, "--answers", answers,
                ] + extra,
                home: directory)
        }

        /// The server's line for the code exchange, the last request of a login: once it is read,
        /// so are the lines of the requests before it.
        func codeExchangeLine() -> String? {
            server.waitForLine(prefix: "request: POST /oauth/token grant_type=authorization_code ", timeout: 10)
        }

        /// The tokens the login kept in the profile.
        func storedTokens() throws -> [String: Any] {
            let file = directory.appendingPathComponent("home/profiles/ci/tokens.json")
            return try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any] ?? [:]
        }
    }

    // MARK: Selector

    @Test func selectorTakesAChoiceInAnyCaseAndRefusesAnUnknownOneNamingTheOptions() throws {
        let login = try Login()
        let unknown = try login.run(answers: #"{"fields": {"userName": "demo", "password": "Password1"}, "choices": ["fingerprint"]}"#)
        #expect(unknown.status == 1)
        #expect(unknown.stderr.contains("\"fingerprint\" matches no option"), "stderr: \(unknown.stderr)")
        for name in ["username-password", "otp", "polling", "external-browser", "legacy-launch", "duo", "bankid", "webauthn"] {
            #expect(unknown.stderr.lowercased().contains(name), "the options name \(name): \(unknown.stderr)")
        }

        let run = try login.run(answers: #"{"fields": {"userName": "demo", "password": "Password1"}, "choices": ["USERNAME-PASSWORD"]}"#)
        #expect(run.status == 0, "stderr: \(run.stderr)")
        #expect(run.stderr.contains("Logged in as demo"))
        #expect(login.codeExchangeLine() == "request: POST /oauth/token grant_type=authorization_code 200")
        // A HAAPI token for each login, and one code exchange.
        #expect(
            login.server.lines(prefix: "request: POST /oauth/token ") == [
                "request: POST /oauth/token grant_type=client_credentials 200",
                "request: POST /oauth/token grant_type=client_credentials 200",
                "request: POST /oauth/token grant_type=authorization_code 200",
            ])
    }

    // MARK: Recording

    /// `--record DIR` keeps each HAAPI response of a real login, in order, private, with the
    /// login's secrets masked (the authorization code, hidden fields' values), and `haapi preview
    /// --captured DIR` draws them.
    @Test func aRecordedLoginIsKeptMaskedAndPreviews() throws {
        let login = try Login()
        let folder = login.directory.appendingPathComponent("recorded")
        let run = try login.run(
            answers: #"{"fields": {"userName": "demo", "password": "Password1"}, "choices": ["username-password"]}"#,
            extra: ["--record", folder.path])
        #expect(run.status == 0, "stderr: \(run.stderr)")
        #expect(run.stderr.contains("kept") && run.stderr.contains("haapi preview --captured"), "\(run.stderr)")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        #expect(
            files.first?.hasPrefix("01-") == true && files.contains { $0.hasSuffix("-authentication-step.json") }
                && files.last?.hasSuffix("-oauth-authorization-response.json") == true, "\(files)")
        #expect((try FileManager.default.attributesOfItem(atPath: folder.path)[.posixPermissions] as? Int) == 0o700)
        for file in files {
            let url = folder.appendingPathComponent(file)
            #expect((try FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? Int) == 0o600, "\(file)")
            let json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any], "\(file)")
            func walk(_ value: Any) {
                if let object = value as? [String: Any] {
                    if ["hidden", "context", "password"].contains(object["type"] as? String), let shown = object["value"] as? String {
                        #expect(shown == "masked", "\(file): a hidden field's value")
                    }
                    object.values.forEach(walk)
                } else if let array = value as? [Any] {
                    array.forEach(walk)
                }
            }
            walk(json)
        }
        let last = try #require(files.last)
        let response = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: folder.appendingPathComponent(last))) as? [String: Any])
        #expect((response["properties"] as? [String: Any])?["code"] as? String == "masked", "\(response)")
        let out = login.directory.appendingPathComponent("preview")
        let preview = try CLITests.haapi(["preview", "--captured", folder.path, "--out", out.path], home: login.directory)
        #expect(preview.status == 0 && preview.stdout.contains("wrote \(files.count) pages"), "\(preview.stdout) \(preview.stderr)")
    }

    /// What `--record` masks, on a response with each kind of secret: the values are gone, the
    /// shape (and so the screen) stays.
    @Test func recordingMasksEverySecretOfTheLogin() throws {
        let response = try JSONValue(
            parsing: Data(
                #"""
                {"type": "authentication-step", "properties": {"code": "c0de", "state": "st4te", "autoStartToken": "t0ken", "qrCodeData": "bankid.1.2"},
                 "links": [{"href": "data:image/png;base64,iVBORw0K", "rel": "qr-code"}, {"href": "https://idsvr.example/help?topic=login", "rel": "help"}],
                 "actions": [{"template": "form", "kind": "login", "model": {"href": "/authn?_resume_nonce=n0nce&lang=sv", "method": "POST",
                   "fields": [{"name": "csrf", "type": "hidden", "value": "s3cret"}, {"name": "userName", "type": "username", "value": "demo"}]}}]}
                """#.utf8))
        let masked = String(decoding: ResponseRecorder.masking(response).serialized(), as: UTF8.self)
        for secret in ["c0de", "st4te", "t0ken", "bankid.1.2", "iVBORw0K", "n0nce", "s3cret"] {
            #expect(!masked.contains(secret), "\(secret) is in \(masked)")
        }
        // What is no secret stays: the user name the user typed, a help link's query, the language.
        for kept in ["\"demo\"", "topic=login", "lang=sv", "\"userName\""] {
            #expect(masked.contains(kept), "\(kept) is gone from \(masked)")
        }
        #expect(
            ResponseRecorder.fileName(
                of: try JSONValue(parsing: Data(#"{"type": "https://curity.se/problems/incorrect-credentials"}"#.utf8)))
                == "incorrect-credentials")
        #expect(ResponseRecorder.fileName(of: try JSONValue(parsing: Data(#"{"type": "../../etc/passwd"}"#.utf8))) == "passwd")
        #expect(ResponseRecorder.fileName(of: try JSONValue(parsing: Data(#"{"type": "a b\u0000c"}"#.utf8))) == "a-b-c")
    }

    // MARK: Curity's shapes: Duo, BankID, the legacy launch step

    /// Duo: the device selector's device, then its passcode factor, whose field is asked (the
    /// passcode is read from a file once the server "showed it on the device").
    @Test func duoPasscodeThroughTheNestedSelector() throws {
        let login = try Login()
        let codeFile = login.directory.appendingPathComponent("duo.txt")
        let courier = Thread { [server = login.server] in
            guard let line = server.waitForLine(prefix: "duo: ", timeout: 60) else { return }
            try? Data("\(line.split(separator: " ")[1])\n".utf8).write(to: codeFile, options: .atomic)
        }
        courier.start()
        let run = try login.run(
            answers:
                #"{"fields": {"userName": "demo", "passcode": {"file": "duo.txt"}}, "choices": ["duo", "Phone (+XX XXX XXX 000)", "Enter a passcode"]}"#
        )
        #expect(run.status == 0, "stderr: \(run.stderr)")
        #expect(run.stderr.contains("Logged in as demo"))
        #expect(
            login.server.lines(prefix: "request: POST /authn/authenticate/duo/").map { $0.split(separator: " ")[2] } == [
                "/authn/authenticate/duo/devices", "/authn/authenticate/duo/select-device",
            ])
    }

    /// BankID on another device: the terminal prints the start link and draws the QR code, and
    /// polling ends the login.
    @Test(.enabled(if: CLIPlaybackTests.hasQRencode, "qrencode is not installed (Scripts/test.sh installs it)"))
    func bankIDOnAnotherDeviceShowsTheQRCode() throws {
        let login = try Login()
        Phone.approveWhenAsked(in: { [server = login.server] in server.lines(prefix: "approve: ").joined(separator: "\n") })
        let run = try login.run(answers: #"{"fields": {"personalnumber": "199001011234"}, "choices": ["bankid", "bankid-other-device"]}"#)
        #expect(run.status == 0, "stderr: \(run.stderr)")
        // Another device: its QR code, never a link to an app this device may not have.
        #expect(
            !run.stderr.contains("bankid:///?autostarttoken=") && !run.stderr.contains("Open BankID on this device"),
            "stderr: \(run.stderr)")
        #expect(run.stderr.contains("scan this QR code with BankID on another device"), "stderr: \(run.stderr)")
        #expect(run.stderr.contains("▀"), "stderr: \(run.stderr)")
    }

    /// BankID on this device: the client operation's continue action polls to the end.
    @Test func bankIDOnThisDevice() throws {
        let login = try Login()
        Phone.approveWhenAsked(in: { [server = login.server] in server.lines(prefix: "approve: ").joined(separator: "\n") })
        let run = try login.run(answers: #"{"fields": {"personalnumber": "199001011234"}, "choices": ["bankid", "bankid-same-device"]}"#)
        #expect(run.status == 0, "stderr: \(run.stderr)")
        #expect(run.stderr.contains("Open BankID on this device:"), "stderr: \(run.stderr)")
        #expect(login.server.lines(prefix: "request: GET /authn/authenticate/bankid/poll").count >= 1)
    }

    /// The legacy `launch` step: opened in the browser like the external-browser operation.
    @Test func legacyLaunchStepThroughTheBrowser() async throws {
        let login = try Login()
        let run = try await Self.externalBrowserLogin(login, choice: "legacy-launch")
        #expect(run.status == 0, "stderr: \(run.stderr)")
        #expect(run.stderr.contains("Logged in as demo"))
    }

    /// Passkeys in a terminal: no authenticator there, so the server's browser fallback is taken
    /// (after the password a first registration asks for) and the login ends in the browser.
    @Test func passkeysFallBackToTheBrowser() async throws {
        let login = try Login()
        let run = try await Self.externalBrowserLogin(login, choice: "webauthn", fields: #"{"userName": "demo", "password": "Password1"}"#)
        #expect(run.status == 0, "stderr: \(run.stderr)")
        #expect(run.stderr.contains("You can go on in the browser instead"), "stderr: \(run.stderr)")
        #expect(run.stderr.contains("Logged in as demo"))
    }

    // MARK: One-time code

    @Test func otpIsReadFromAFileTheAnswersNameOnceTheServerSentIt() throws {
        let login = try Login()
        let codeFile = login.directory.appendingPathComponent("otp.txt")
        // The person (or mail catcher) who receives the code: waits for it, takes a moment (so the
        // login usually waits for the file), then writes it in one go.
        let courier = Thread { [server = login.server] in
            guard let line = server.waitForLine(prefix: "otp: ", timeout: 60) else { return }
            let code = line.split(separator: " ")[1]
            usleep(500_000)
            try? Data("\(code)\n".utf8).write(to: codeFile, options: .atomic)
        }
        courier.start()
        let run = try login.run(answers: #"{"fields": {"userName": "demo", "otp": {"file": "otp.txt"}}, "choices": ["otp"]}"#)
        #expect(run.status == 0, "stderr: \(run.stderr)")
        #expect(run.stderr.contains("Logged in as demo"))
        #expect(login.codeExchangeLine() != nil)
        let sent = login.server.lines(prefix: "otp: ")
        #expect(sent.count == 1)
        #expect(sent.first?.wholeMatch(of: /otp: [0-9]{6} for demo/) != nil, "\(sent)")
        // The code was sent before it was verified.
        #expect(
            login.server.lines(prefix: "request: POST /authn/authenticate/otp/").map { $0.split(separator: " ")[2] } == [
                "/authn/authenticate/otp/send", "/authn/authenticate/otp/verify",
            ])
    }

    @Test func aWrongCodeInTheFileFailsNamingTheServersRefusal() throws {
        let login = try Login()
        try Data("not-the-code\n".utf8).write(to: login.directory.appendingPathComponent("otp.txt"))
        let run = try login.run(answers: #"{"fields": {"userName": "demo", "otp": {"file": "otp.txt"}}, "choices": ["otp"]}"#)
        #expect(run.status == 1)
        #expect(run.stderr.contains("the server refused the answers"), "stderr: \(run.stderr)")
        #expect(!run.stderr.contains("waiting for the answer"), "the file was there at once: \(run.stderr)")
    }

    @Test func aFieldAnswerThatIsNeitherAStringNorAFileFailsBeforeAnyRequest() throws {
        let login = try Login()
        let run = try login.run(answers: #"{"fields": {"otp": 123456}}"#)
        #expect(run.status == 1)
        #expect(run.stderr.contains("{\"file\": PATH}"), "stderr: \(run.stderr)")
        #expect(login.server.lines(prefix: "request: ").isEmpty, "nothing was asked of the server")
    }

    // MARK: Polling

    @Test func pollingWaitsUntilTheUserApproves() throws {
        let login = try Login()
        Phone.approveWhenAsked(in: { [server = login.server] in server.lines(prefix: "approve: ").joined(separator: "\n") })
        let run = try login.run(answers: #"{"fields": {"userName": "demo"}, "choices": ["polling"]}"#)
        #expect(run.status == 0, "stderr: \(run.stderr)")
        #expect(run.stderr.contains("Waiting for +XX XXX XXX 000"), "stderr: \(run.stderr)")
        // Issue 38, item 6: what to do, and how long is left (the server's maxWaitRemainingTime).
        #expect(run.stderr.contains("Open the request sent to you and approve the login there."), "stderr: \(run.stderr)")
        #expect(
            run.stderr.contains(/Waiting for \+XX XXX XXX 000 \((1 minute and [0-9]+ seconds?|2 minutes) left\)/), "stderr: \(run.stderr)")
        #expect(run.stderr.contains("Logged in as demo"))
        #expect(login.codeExchangeLine() != nil)
        // Polls until the approval, the last one done, then the POST that moves on.
        #expect(login.server.lines(prefix: "request: GET /authn/authenticate/polling/poll ").count >= 1)
        #expect(login.server.lines(prefix: "request: POST /authn/approve ") == ["request: POST /authn/approve 200"])
        #expect(
            login.server.lines(prefix: "request: POST /authn/authenticate/polling/poll ") == [
                "request: POST /authn/authenticate/polling/poll 200"
            ])
    }

    // MARK: Consent

    @Test func consentCheckboxesAreAnsweredByFieldName() throws {
        let login = try Login()
        let run = try login.run(
            answers: #"{"fields": {"userName": "demo", "password": "Password1", "consent_email": "no"}, "choices": ["username-password"]}"#,
            scope: "openid profile email")
        #expect(run.status == 0, "stderr: \(run.stderr)")
        #expect(run.stderr.contains("Demo App asks for access to your account"), "stderr: \(run.stderr)")
        #expect(try login.storedTokens()["scope"] as? String == "openid profile")
        #expect(login.codeExchangeLine() != nil)
        #expect(login.server.lines(prefix: "request: POST /authn/consent ") == ["request: POST /authn/consent 200"])
    }

    /// Issue 18: a wrong client secret says what to check and where the dev server shows its
    /// secrets, and the login saves nothing.
    @Test func aWrongSecretSaysWhatToCheckAndSavesNothing() throws {
        let login = try Login()
        let answers = try CLITests.write(
            #"{"fields": {"userName": "demo", "password": "Password1"}}"#, to: login.directory, name: "answers.json")
        let run = try CLITests.haapi(
            ["login", "--issuer", login.server.issuer, "--client-id", "haapi-secret", "--answers", answers],
            home: login.directory, environment: ["HAAPI_CLIENT_SECRET": "not-" + login.secret])
        #expect(run.status == 1)
        #expect(run.stderr.hasPrefix("haapi: error: login failed: "), "\(run.stderr)")
        #expect(run.stderr.contains("check --client-id and the secret"), "\(run.stderr)")
        #expect(run.stderr.contains("`haapi server --print-config` shows the development server's"), "\(run.stderr)")
        #expect(run.stderr.split(separator: "\n").count == 1, "one line: \(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: login.directory.appendingPathComponent("home/profiles/default").path))
    }

    /// Issue 38, item 13: a first login that fails (here on its --config file) leaves no empty
    /// folders behind: not the profile's, not `profiles/`, not HAAPI_HOME.
    @Test func aFailedFirstLoginLeavesNoFolders() throws {
        let directory = try CLITests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let config = directory.appendingPathComponent("bad.json")
        try Data(#"{"client_id": "x"}"#.utf8).write(to: config)
        let run = try CLITests.haapi(["login", "--config", config.path], home: directory)
        #expect(run.status != 0 && run.stderr.contains("did you mean \"clientId\""), "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("home").path), "HAAPI_HOME was left behind")
    }

    /// Issue 38, item 13: an issuer written another way than the server writes it (localhost
    /// for 127.0.0.1, a trailing slash) says which to give.
    @Test func anIssuerWrittenAnotherWaySaysWhichToGive() throws {
        let directory = try CLITests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let server = try CLITests.ServerProcess(directory: directory)
        defer { server.stop() }
        for issuer in [server.issuer.replacingOccurrences(of: "127.0.0.1", with: "localhost"), server.issuer + "/"] {
            let run = try CLITests.haapi(
                ["login", "--issuer", issuer, "--client-id", "haapi-public", "--browser", "--no-browser"], home: directory)
            #expect(run.status == 1, "\(run.stderr)")
            #expect(run.stderr.contains("the discovery document names the issuer \"\(server.issuer)\""), "\(run.stderr)")
            #expect(run.stderr.contains("give --issuer exactly as the server names itself"), "\(run.stderr)")
        }
    }

    @Test func consentCanBeDeniedWithTheCancelForm() throws {
        let login = try Login()
        let run = try login.run(
            answers: #"{"fields": {"userName": "demo", "password": "Password1"}, "choices": ["username-password", "cancel"]}"#,
            scope: "openid profile")
        #expect(run.status == 1)
        #expect(run.stderr.contains("Choose what to do: Deny"), "stderr: \(run.stderr)")
        // Issue 38, item 9: a declined consent is access denied, not a cancelled login.
        #expect(run.stderr.contains("haapi: error: access denied: the consent was declined"), "stderr: \(run.stderr)")
        // Denial is answered with an error-authorization-response problem.
        #expect(login.server.waitForLine(prefix: "request: POST /authn/cancel ", timeout: 10) == "request: POST /authn/cancel 400")
        #expect(login.server.lines(prefix: "request: POST /oauth/token grant_type=authorization_code").isEmpty)
    }

    // MARK: External browser

    /// An external-browser login: the "browser" is a script that writes down the URL it is asked
    /// to open; the test, as the person at the browser, opens the page, logs in, and is sent back
    /// to the command's loopback listener (`beforeReturning` runs with that URL first).
    static func externalBrowserLogin(
        _ login: Login, choice: String = "external-browser", fields: String = "{}", beforeReturning: (URL) throws -> Void = { _ in }
    ) async throws -> CLITests.Run {
        let opened = login.directory.appendingPathComponent("opened-url")
        let script = login.directory.appendingPathComponent("record-url")
        try Data("#!/bin/sh\nprintf '%s\\n' \"$1\" > '\(opened.path).tmp' && mv '\(opened.path).tmp' '\(opened.path)'\n".utf8).write(
            to: script)
        try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: script.path)

        let running = Task { [login] in
            try await onThread {
                try login.run(answers: #"{"choices": ["\#(choice)"], "fields": \#(fields)}"#, extra: ["--browser-command", script.path])
            }
        }
        let start = Date()
        while !FileManager.default.fileExists(atPath: opened.path) && Date().timeIntervalSince(start) < 60 {
            try await Task.sleep(for: .milliseconds(100))
        }
        let launch = try #require(
            URL(string: try String(contentsOf: opened, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)))
        let redirectURI = try #require(Browser.query(launch.absoluteString)["redirect_uri"])
        #expect(redirectURI.wholeMatch(of: /http:\/\/127\.0\.0\.1:[0-9]+\/callback/) != nil, "\(redirectURI)")
        let page = try await Browser.get(launch)
        #expect(page.status == 200)
        let form = try Browser.firstForm(page.bodyText)
        let action = try #require(URL(string: form.action, relativeTo: launch)?.absoluteURL)
        let answer = try await Browser.post(action, form.hidden + [("userName", "demo"), ("password", "Password1")])
        #expect(answer.status == 303)
        let back = try #require(answer.headers["Location"].flatMap(URL.init(string:)))
        #expect(back.absoluteString.hasPrefix(redirectURI + "?"))
        try beforeReturning(back)
        let landing = try await Browser.get(back)
        #expect(landing.status == 200)
        // The return page, in the kit's look: the login goes on in the terminal (a `_resume_nonce` return is no sign-out).
        #expect(
            landing.bodyText.contains("The login goes on in the terminal. You can close this window.")
                && landing.bodyText.contains("data-style=\"MessageView.Heading\""), "\(landing.bodyText.suffix(600))")

        let run = try await running.value
        #expect(run.stderr.contains("Opened with \(script.path)"), "stderr: \(run.stderr)")
        return run
    }

    @Test func externalBrowserComesBackToTheLoopbackListener() async throws {
        let login = try Login()
        let run = try await Self.externalBrowserLogin(login)
        #expect(run.status == 0, "stderr: \(run.stderr)")
        #expect(run.stderr.contains("Logged in as demo"))
        #expect(login.codeExchangeLine() != nil)
        #expect(
            login.server.lines(prefix: "request: POST /authn/authenticate/external-browser/resume ") == [
                "request: POST /authn/authenticate/external-browser/resume 200"
            ])
    }

    @Test func anIdleConnectionDoesNotHoldUpTheBrowsersReturn() async throws {
        // Browsers open connections ahead of need (Chrome's preconnect) and may leave one unused.
        let login = try Login()
        var idle: Int32 = -1
        defer { if idle >= 0 { close(idle) } }
        let run = try await Self.externalBrowserLogin(login) { back in
            idle = try Self.connect(port: try #require(back.port))
        }
        #expect(run.status == 0, "stderr: \(run.stderr)")
        #expect(run.seconds < 30, "not held until the browser's minute is up")
    }

    /// A TCP connection to 127.0.0.1:`port` that sends nothing.
    static func connect(port: Int) throws -> Int32 {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                #if canImport(Glibc)
                    Glibc.connect(descriptor, pointer, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
                #else
                    Darwin.connect(descriptor, pointer, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
                #endif
            }
        }
        guard descriptor >= 0, connected else {
            if descriptor >= 0 { close(descriptor) }
            throw CannotConnect(port: port)
        }
        return descriptor
    }

    struct CannotConnect: Error { let port: Int }

    @Test func aBrowserCommandThatFailsEndsAScriptedLoginAtOnce() throws {
        let login = try Login()
        let run = try login.run(answers: #"{"choices": ["external-browser"]}"#, extra: ["--browser-command", "false"])
        #expect(run.status == 1)
        #expect(run.stderr.contains("login failed: no browser could be started (false: exited with status 1)"), "stderr: \(run.stderr)")
        #expect(run.seconds < 30, "not the minute a browser that never comes back is given")
    }
}
