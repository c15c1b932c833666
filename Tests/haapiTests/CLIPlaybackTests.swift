import Foundation
import HaapiTesting
import Testing

/// `haapi login --answers` through recorded Curity flows played by a ``PlaybackServer``: the
/// examples of Curity's curityio/ui-kit (in the package) and Curity's captured responses
/// (optional, outside it).
@Suite("haapi login through recorded Curity flows", .ownThreads)
struct CLIPlaybackTests {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let uiKit = packageRoot.appendingPathComponent("Tests/HaapiUITests/Fixtures/ui-kit", isDirectory: true)
    static let captured = packageRoot.appendingPathComponent("Tests/Fixtures/curity-captured", isDirectory: true)

    static func uiKit(_ name: String) throws -> String {
        try String(contentsOf: uiKit.appendingPathComponent(name + ".json"), encoding: .utf8)
    }
    static func captured(_ name: String) throws -> String {
        try String(contentsOf: captured.appendingPathComponent(name + ".json"), encoding: .utf8)
    }

    typealias Scene = PlaybackServer.Scene

    /// What a `haapi login` against a ``PlaybackServer`` left behind.
    struct PlaybackLogin {
        let run: CLITests.Run
        /// The requests the playback refused (a wrong turn of the client).
        let refusals: [String]
        let requests: [ReceivedRequest]
        /// The URLs the browser command was given.
        let opened: [String]
        /// Whether the login kept tokens in its profile.
        let keptTokens: Bool
    }

    /// Runs `haapi login --profile ci` against `scenes` with the answers `json`: with `--issuer`
    /// when the playback is an OpenID Provider (`identity`), else with its endpoints. The
    /// "browser" writes down each URL and fetches it with curl, following the server's redirect
    /// back to the command. `secret` are the client secret's arguments.
    static func playbackLogin(
        _ scenes: [Scene], hosts: [String] = ["https://localhost:8443"], identity: PlaybackServer.Identity? = nil, answers json: String?,
        secret: [String] = ["--client-secret", "playback-secret"], environment: [String: String] = [:], typed: String? = nil
    ) async throws -> PlaybackLogin {
        let directory = try CLITests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let record = directory.appendingPathComponent("opened")
        let browser = directory.appendingPathComponent("browser")
        try Data("#!/bin/sh\nprintf '%s\\n' \"$1\" >> '\(record.path)'\nexec curl -s -o /dev/null -L --max-time 20 \"$1\"\n".utf8).write(
            to: browser)
        try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: browser.path)
        // No answers file: the questions are asked in a terminal, where `typed` is typed.
        let answers = try json.map { ["--answers", try CLITests.write($0, to: directory)] } ?? []
        let playback = try await PlaybackServer.start(scenes, hosts: hosts, identity: identity)
        let url = playback.url
        let connection =
            identity == nil
            ? [
                "--base-url", url, "--token-endpoint", url + PlaybackServer.tokenPath, "--authorization-endpoint",
                url + PlaybackServer.authorizePath,
            ]
            : ["--issuer", url]
        let run: CLITests.Run
        do {
            run = try await onThread {
                try CLITests.haapi(
                    ["login", "--profile", "ci"] + connection + ["--client-id", "playback-client"] + secret
                        + answers + ["--browser-command", browser.path],
                    home: directory, environment: environment, typed: typed)
            }
        } catch {
            await playback.stop()
            throw error
        }
        let (refusals, requests) = (playback.refusals, playback.requests)
        await playback.stop()
        let opened = (try? String(contentsOf: record, encoding: .utf8))?.split(separator: "\n").map(String.init) ?? []
        let kept = FileManager.default.fileExists(atPath: directory.appendingPathComponent("home/profiles/ci/tokens.json").path)
        return PlaybackLogin(run: run, refusals: refusals, requests: requests, opened: opened, keptTokens: kept)
    }

    /// ``playbackLogin(_:hosts:identity:answers:secret:environment:typed:)``'s run and refusals.
    static func login(_ scenes: [Scene], hosts: [String] = ["https://localhost:8443"], answers json: String) async throws -> (
        CLITests.Run, [String]
    ) {
        let login = try await playbackLogin(scenes, hosts: hosts, answers: json)
        return (login.run, login.refusals)
    }

    static func expectLoggedIn(_ run: CLITests.Run, _ refusals: [String], sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(run.status == 0, "\(run.stderr)", sourceLocation: sourceLocation)
        #expect(run.stderr.contains("Logged in at"), "\(run.stderr)", sourceLocation: sourceLocation)
        #expect(refusals.isEmpty, "\(refusals)", sourceLocation: sourceLocation)
    }

    // MARK: curityio/ui-kit examples

    @Test func duoPasscodeIsAskedFromTheAnswers() async throws {
        let (run, refusals) = try await Self.login(
            [
                Scene(try Self.uiKit("duo-select-device-nested-selector")),
                Scene(
                    try Self.uiKit("oauth-authorization-response"), expecting: ("POST", "/authentication/authenticate/duo/select-device"),
                    requiring: ["device": "DPL9ZB1RC5I7DI4ANGW4", "factor": "passcode", "passcode": "424242"]),
            ],
            answers: #"{"choices": ["Phone 1 (+XX XXX XXX 204)", "Authenticate with passcode"], "fields": {"passcode": "424242"}}"#)
        Self.expectLoggedIn(run, refusals)
    }

    @Test func duoWithoutThePasscodeSaysWhichFieldIsMissing() async throws {
        let (run, _) = try await Self.login(
            [Scene(try Self.uiKit("duo-select-device-nested-selector"))],
            answers: #"{"choices": ["Phone 1 (+XX XXX XXX 204)", "Authenticate with passcode"]}"#)
        #expect(run.status != 0)
        #expect(run.stderr.contains(#"no value for the field "passcode""#), "\(run.stderr)")
    }

    /// A polling BankID step with a QR code is BankID on another device: the terminal shows the
    /// code (here the server's image), never this device's start link, and polls to the end.
    @Test func bankIDWhilePollingShowsTheQRCodeAndEnds() async throws {
        let (run, refusals) = try await Self.login(
            [
                Scene(try Self.uiKit("bankid-polling-pending")),
                Scene(try Self.uiKit("bankid-polling-done"), expecting: ("GET", "/poll")),
                Scene(try Self.uiKit("oauth-authorization-response"), expecting: ("GET", "/polldone")),
            ],
            answers: "{}")
        Self.expectLoggedIn(run, refusals)
        #expect(!run.stderr.contains("bankid:///?autostarttoken=test-token"), "\(run.stderr)")
        #expect(run.stderr.contains("https://example.com/qr-code.svg"), "\(run.stderr)")
    }

    /// BankID on another device with QR data: the terminal draws the code with qrencode. The
    /// ui-kit example, with the QR data a server sends for text renderers added to its arguments.
    @Test(.enabled(if: CLIPlaybackTests.hasQRencode, "qrencode is not installed (Scripts/test.sh installs it)"))
    func bankIDQRDataIsDrawnInTheTerminal() async throws {
        var pending = try JSONSerialization.jsonObject(with: Data(try Self.uiKit("bankid-polling-pending").utf8)) as! [String: Any]
        var actions = pending["actions"] as! [[String: Any]]
        var operation = actions[2]
        var model = operation["model"] as! [String: Any]
        var arguments = model["arguments"] as! [String: Any]
        arguments["qrCodeData"] =
            "bankid.67df3917-fa0d-44e5-b327-edcc928297f8.0.dc69358e712458a66a7525beef148ae8526b1c71610eff2c16cdffb4cdac9bf8"
        model["arguments"] = arguments
        operation["model"] = model
        actions[2] = operation
        pending["actions"] = actions
        let withQR = String(decoding: try JSONSerialization.data(withJSONObject: pending), as: UTF8.self)
        let (run, refusals) = try await Self.login(
            [
                Scene(withQR),
                Scene(try Self.uiKit("bankid-polling-done"), expecting: ("GET", "/poll")),
                Scene(try Self.uiKit("oauth-authorization-response"), expecting: ("GET", "/polldone")),
            ],
            answers: "{}")
        Self.expectLoggedIn(run, refusals)
        #expect(run.stderr.contains("scan this QR code with BankID on another device"), "\(run.stderr)")
        // qrencode's UTF8 output: rows of full and half blocks.
        #expect(
            run.stderr.split(separator: "\n").filter { $0.contains("█") && $0.contains("▀") || $0.contains("▄") }.count >= 10,
            "\(run.stderr)")
    }

    /// WebAuthn in a terminal: the browser fallback is taken.
    @Test func passkeysTakeTheBrowserFallback() async throws {
        let (run, refusals) = try await Self.login(
            [
                Scene(try Self.uiKit("webauthn-registration-passkey-client-operation")),
                Scene(
                    try Self.uiKit("oauth-authorization-response"), expecting: ("GET", "/authentication/authenticate/webauthn"),
                    requiring: ["_force_external_browser_flow": "true"]),
            ],
            answers: "{}")
        Self.expectLoggedIn(run, refusals)
        #expect(run.stderr.contains("You can go on in the browser instead"), "\(run.stderr)")
    }

    /// Each problem: the script stops with the server's title; an info message is not an error.
    @Test(arguments: [
        "problem-invalid-input", "problem-incorrect-credentials", "problem-too-many-attempts", "problem-authentication-failed",
        "problem-unexpected", "problem-generic-user-error",
    ])
    func aProblemStopsTheScriptWithTheServersTitle(_ name: String) async throws {
        let problem = try JSONSerialization.jsonObject(with: Data(try Self.uiKit(name).utf8)) as! [String: Any]
        let title = try #require(problem["title"] as? String)
        let (run, _) = try await Self.login(
            [Scene(try Self.uiKit("username-authentication-step")), Scene(try Self.uiKit(name), expecting: ("POST", "/auth/login"))],
            answers: #"{"fields": {"username": "someone"}}"#)
        #expect(run.status != 0)
        #expect(run.stderr.contains(title), "\(run.stderr)")
        // Curity's lockout says no duration: the terminal says so (issue 18, item 8).
        #expect(run.stderr.contains("the server does not say for how long") == (name == "problem-too-many-attempts"), "\(run.stderr)")
    }

    /// A message's class decides how it is shown: the too-many-attempts example with an `info`
    /// message added beside its `error` one.
    @Test func anInfoMessageOfAProblemIsNotPrintedAsAnError() async throws {
        var problem = try JSONSerialization.jsonObject(with: Data(try Self.uiKit("problem-too-many-attempts").utf8)) as! [String: Any]
        var messages = problem["messages"] as! [[String: Any]]
        messages.append(["text": "You can try again in 5 minutes.", "classList": ["info"]])
        problem["messages"] = messages
        let (run, _) = try await Self.login(
            [
                Scene(try Self.uiKit("username-authentication-step")),
                Scene(
                    String(decoding: try JSONSerialization.data(withJSONObject: problem), as: UTF8.self), expecting: ("POST", "/auth/login")
                ),
            ],
            answers: #"{"fields": {"username": "someone"}}"#)
        #expect(run.status != 0)
        let lines = run.stderr.split(separator: "\n").map(String.init)
        #expect(lines.contains("You can try again in 5 minutes."), "\(run.stderr)")
        #expect(lines.contains { $0.hasPrefix("error: You have exceeded") }, "\(run.stderr)")
        // The server said how long: nothing is added.
        #expect(!run.stderr.contains("does not say for how long"), "\(run.stderr)")
    }

    static let hasQRencode: Bool = {
        (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
            .contains { FileManager.default.isExecutableFile(atPath: "\($0)/qrencode") }
    }()
}

@Suite(
    "haapi login through the captured Curity flows", .ownThreads)
struct CLICapturedPlaybackTests {
    typealias Scene = PlaybackServer.Scene
    static func captured(_ name: String) throws -> String { try CLIPlaybackTests.captured(name) }

    @Test func passwordWithARedirectionStep() async throws {
        let (run, refusals) = try await CLIPlaybackTests.login(
            [
                Scene(try Self.captured("selectAuthenticationWithLinks")),
                Scene(try Self.captured("usernamePassword"), expecting: ("GET", "/dev/authn/authenticate/username")),
                Scene(
                    try Self.captured("redirectionStepRepresentation"), expecting: ("POST", "/dev/authn/authenticate/htmlSql"),
                    requiring: ["userName": "demo", "password": "Password1"]),
                Scene(try Self.captured("oauthAuthorizationResponse"), expecting: ("GET", "/dev/authn/authenticate")),
            ],
            hosts: ["https://785e77548e1e.ngrok.io"],
            answers: #"{"choices": ["username"], "fields": {"userName": "demo", "password": "Password1"}}"#)
        CLIPlaybackTests.expectLoggedIn(run, refusals)
    }

    @Test func duoPushPollsToDone() async throws {
        let (run, refusals) = try await CLIPlaybackTests.login(
            [
                Scene(try Self.captured("duo")),
                Scene(
                    try Self.captured("pollingStep"), expecting: ("POST", "/dev/authn/authenticate/duo1/select-device"),
                    requiring: ["factor": "push"]),
                Scene(try Self.captured("pollingStepDone"), expecting: ("GET", "/dev/authn/authenticate/duo1/device-poller")),
                Scene(
                    try Self.captured("oauthAuthorizationResponse"), expecting: ("POST", "/dev/authn/authenticate/duo1/device-poller"),
                    requiring: ["moveOn": "true"]),
            ],
            answers: #"{"choices": ["Galaxy (+XXX XXX XXX 815)", "push"]}"#)
        CLIPlaybackTests.expectLoggedIn(run, refusals)
    }

    @Test func duoPasscode() async throws {
        let (run, refusals) = try await CLIPlaybackTests.login(
            [
                Scene(try Self.captured("duo")),
                Scene(
                    try Self.captured("oauthAuthorizationResponse"), expecting: ("POST", "/dev/authn/authenticate/duo1/select-device"),
                    requiring: ["device": "DP5N54VPVTYII32TIANH", "factor": "passcode", "passcode": "123456"]),
            ],
            answers: #"{"choices": ["Fake (+XXX XXX XXX 789)", "passcode"], "fields": {"passcode": "123456"}}"#)
        CLIPlaybackTests.expectLoggedIn(run, refusals)
    }

    /// BankID on this device: the start link is printed, the continue action polls, the flow ends.
    @Test func bankIDSameDevice() async throws {
        let (run, refusals) = try await CLIPlaybackTests.login(
            [
                Scene(try Self.captured("bankIdSelectSameOrOtherDevice")),
                Scene(
                    try Self.captured("bankIdSameDeviceClientOperation"), expecting: ("POST", "/dev/authn/authenticate/bankid1/index"),
                    requiring: ["usesamedevice": "true"]),
                Scene(try Self.captured("pollingStep"), expecting: ("GET", "/dev/authn/authenticate/bankid1/poller")),
                Scene(try Self.captured("pollingStepDone"), expecting: ("GET", "/dev/authn/authenticate/duo1/device-poller")),
                Scene(try Self.captured("oauthAuthorizationResponse"), expecting: ("POST", "/dev/authn/authenticate/duo1/device-poller")),
            ],
            answers: #"{"choices": ["bankid-same-device"]}"#)
        CLIPlaybackTests.expectLoggedIn(run, refusals)
        #expect(run.stderr.contains("bankid:///?autostarttoken=04b7c1bd-6d7b-46c0-b8ed-00f5cf39688c&redirect=null"), "\(run.stderr)")
    }

    /// BankID on another device: the error action of the client operation is chosen, with the personal number.
    @Test func bankIDOtherDeviceFromTheClientOperation() async throws {
        let (run, refusals) = try await CLIPlaybackTests.login(
            [
                Scene(try Self.captured("bankIdSelectSameOrOtherDevice")),
                Scene(try Self.captured("bankIdSameDeviceClientOperation"), expecting: ("POST", "/dev/authn/authenticate/bankid1/index")),
                Scene(
                    try Self.captured("pollingStepDone"), expecting: ("POST", "/dev/authn/authenticate/bankid1/launch"),
                    requiring: ["personalnumber": "199001011234", "usesamedevice": "false"]),
                Scene(try Self.captured("oauthAuthorizationResponse"), expecting: ("POST", "/dev/authn/authenticate/duo1/device-poller")),
            ],
            answers: #"{"choices": ["bankid-same-device", "bankid-other-device"], "fields": {"personalnumber": "199001011234"}}"#)
        CLIPlaybackTests.expectLoggedIn(run, refusals)
    }

    /// The legacy `launch` step: the browser is opened on the launch URL and comes back with the nonce.
    @Test func legacyLaunchStep() async throws {
        let (run, refusals) = try await CLIPlaybackTests.login(
            [
                Scene(try Self.captured("launchExternalBrowser")),
                Scene(
                    try Self.captured("oauthAuthorizationResponse"), expecting: ("GET", "/dev/authn/authenticate/username"),
                    requiring: ["_resume_nonce": PlaybackServer.resumeNonce]),
            ],
            answers: "{}")
        CLIPlaybackTests.expectLoggedIn(run, refusals)
        #expect(run.stderr.contains("_launch_nonce="), "\(run.stderr)")
    }

    @Test func incorrectCredentialsStopTheScript() async throws {
        let (run, _) = try await CLIPlaybackTests.login(
            [
                Scene(try Self.captured("usernamePassword")),
                Scene(try Self.captured("incorrectCredentialsProblemWithMessages"), expecting: ("POST", "/dev/authn/authenticate/htmlSql")),
            ],
            answers: #"{"fields": {"userName": "demo", "password": "wrong"}}"#)
        #expect(run.status != 0)
        #expect(run.stderr.contains("the server refused the answers"), "\(run.stderr)")
    }
}
