import Foundation
import HaapiSDK
import HaapiServerTesting
import HaapiTesting
import OAuthCore
import OAuthTransportNIO
import Testing

@testable import HaapiDevServer

#if canImport(Glibc)
    import Glibc
#endif

/// The findings of the second security review about the development server (issue 28), each
/// kept closed by a test named after its item (the README's hardening table lists them).
@Suite("The device grant and approval links refuse misuse")
struct DeviceGrantMisuseTests {
    /// Quick password checks and no wait between polls: these tests sign in and poll often.
    static var configuration: DevServerConfiguration {
        var configuration = DevServerConfiguration()
        configuration.passwordHashing = .insecureForBenchmarks
        configuration.deviceCodeInterval = 0
        return configuration
    }

    /// A device login of `browser-app` asking for `scope`: its device code and user code.
    static func authorize(
        _ server: RunningServer, _ http: AsyncHTTPClientTransport, scope: String = "openid profile email offline_access"
    ) async throws -> (deviceCode: String, userCode: String) {
        let answer = try await http.send(
            .form(
                server.issuer.appendingPathComponent("oauth/device_authorization"),
                parameters: [("client_id", "browser-app"), ("scope", scope)]))
        let json = try JSONValue(parsing: answer.body)
        return (try #require(json["device_code"]?.stringValue), try #require(json["user_code"]?.stringValue))
    }

    /// One poll of the token endpoint with `deviceCode`: the tokens, or the OAuth error.
    static func poll(_ server: RunningServer, _ http: AsyncHTTPClientTransport, _ deviceCode: String) async throws -> JSONValue {
        let answer = try await http.send(
            .form(
                server.issuer.appendingPathComponent("oauth/token"),
                parameters: [("grant_type", TokenGrant.deviceCodeGrantType), ("device_code", deviceCode), ("client_id", "browser-app")]))
        return try JSONValue(parsing: answer.body)
    }

    /// Item 1: `/device` shows which client asks for which scopes once the user signed in, and
    /// only the user's Approve on that page approves (with the scopes left checked); a Deny needs
    /// the same sign-in; the page is answered once.
    @Test func theDeviceLoginShowsWhoAsksForWhatAndNeedsConfirmation() async throws {
        try await RunningServer.with(Self.configuration) { server in
            let http = try AsyncHTTPClientTransport()
            let device = server.issuer.appendingPathComponent("device")
            let login = try await Self.authorize(server, http)

            // A Deny without credentials refuses nothing.
            let bareDeny = try await Browser.post(device, [("user_code", login.userCode), ("decision", "deny")])
            #expect(bareDeny.status == 400)
            #expect(try await Self.poll(server, http, login.deviceCode)["error"]?.stringValue == "authorization_pending")

            // The one-step approval of before (code, credentials, approve) approves nothing: it
            // shows what is asked, by whom, and asks.
            let consent = try await Browser.post(
                device,
                [("user_code", login.userCode), ("userName", SeedData.username), ("password", SeedData.password), ("decision", "approve")])
            let page = String(decoding: consent.body, as: UTF8.self)
            #expect(consent.status == 200)
            #expect(page.contains("<strong>browser-app</strong>"), "\(page)")
            #expect(page.contains("<strong>\(login.userCode)</strong>"), "\(page)")
            for scope in ["openid", "profile", "email", "offline_access"] { #expect(page.contains(scope), "\(scope): \(page)") }
            #expect(page.contains("If someone sent you this code, choose Deny"))
            #expect(try await Self.poll(server, http, login.deviceCode)["error"]?.stringValue == "authorization_pending")

            // Approved with only "profile" left checked: the tokens carry what the user confirmed.
            let approved = try await Browser.answerDeviceConsent(consent, issuer: server.issuer, scopes: ["profile"])
            #expect(approved.status == 200)
            let tokens = try await Self.poll(server, http, login.deviceCode)
            #expect(tokens["scope"]?.stringValue == "openid profile", "\(tokens)")
            // The consent page is answered once.
            let again = try await Browser.answerDeviceConsent(consent, issuer: server.issuer, approve: false)
            #expect(again.status == 400)
            #expect(String(decoding: again.body, as: UTF8.self).contains("already answered"))

            // Deny, after signing in, refuses the device.
            let refused = try await Self.authorize(server, http)
            let asked = try await Browser.signInForDevice(
                server.issuer, code: refused.userCode, username: SeedData.username, password: SeedData.password)
            #expect(try await Browser.answerDeviceConsent(asked, issuer: server.issuer, approve: false).status == 200)
            #expect(try await Self.poll(server, http, refused.deviceCode)["error"]?.stringValue == "access_denied")
        }
    }

    /// Item 2: tries are counted per source address in a fixed window, so a burst of junk codes
    /// from another address neither closes the page for the victim nor keeps it closed.
    @Test func aJunkBurstFromAnotherAddressLeavesTheVictimsCodeWorking() async throws {
        // A window longer than the burst however loaded the machine (a full test run on two cores
        // once took over a minute for these 30 posts, and the window reset half way).
        var configuration = Self.configuration
        configuration.deviceCodeTryWindow = .seconds(600)
        try await RunningServer.with(configuration) { server in
            let http = try AsyncHTTPClientTransport()
            let login = try await Self.authorize(server, http)
            let port = try #require(server.issuer.port)
            var statuses: [Int] = []
            for guess in 0..<(server.state.configuration.deviceCodeTriesPerMinute + 10) {
                let form = FormURLEncoding.encode([
                    ("user_code", String(format: "BCDF%04d", guess)), ("userName", "demo"), ("password", "x"),
                ])
                statuses.append(try await onThread { try Self.post(form, to: "/device", port: port, from: "127.0.0.2") })
            }
            #expect(statuses.prefix(20).allSatisfy { $0 == 400 }, "\(statuses)")
            #expect(statuses.suffix(10).allSatisfy { $0 == 429 }, "\(statuses)")

            // The victim, from 127.0.0.1, gets to the consent page and approves.
            let consent = try await Browser.signInForDevice(
                server.issuer, code: login.userCode, username: SeedData.username, password: SeedData.password)
            #expect(consent.status == 200, "\(String(decoding: consent.body, as: UTF8.self))")
            #expect(try await Browser.answerDeviceConsent(consent, issuer: server.issuer).status == 200)
            #expect(try await Self.poll(server, http, login.deviceCode)["access_token"] != nil)
        }
    }

    /// Item 2: a fixed window's counter expires when its first count said, however often it is
    /// counted since; the lockout's sliding one lasts from its last count.
    @Test func aRateLimitWindowIsFixed() async throws {
        let store = try await RecordStore.open(path: nil)
        // A window of 1 s, longer when a loaded machine let it pass before the second count:
        // the outcome counts only when both counts fell inside the first window.
        for window in [1.0, 4, 16] {
            let first = Date().addingTimeInterval(window)
            for kind in [RecordStore.CounterWindow.fixed, .sliding] {
                #expect(try await store.increment(kind: "tries \(window)", id: "\(kind)", expiresAt: first, window: kind) == 1)
                _ = try await store.increment(
                    kind: "tries \(window)", id: "\(kind)", expiresAt: Date().addingTimeInterval(3600), window: kind)
            }
            guard Date() < first else { continue }
            try await Task.sleep(until: .now + .seconds(first.timeIntervalSinceNow + 0.2))
            #expect(
                try await store.increment(kind: "tries \(window)", id: "fixed", expiresAt: Date().addingTimeInterval(60), window: .fixed)
                    == 1)
            #expect(
                try await store.increment(
                    kind: "tries \(window)", id: "sliding", expiresAt: Date().addingTimeInterval(60), window: .sliding) == 3)
            try await store.close()
            return
        }
        try await store.close()
        Issue.record("the machine never counted twice within 16 s")
    }

    /// Item 3: a client's device logins are capped: the 1001st gets `temporarily_unavailable`.
    @Test func liveDeviceCodesAreCappedPerClient() async throws {
        try await RunningServer.with(Self.configuration) { server in
            let http = try AsyncHTTPClientTransport()
            let url = server.issuer.appendingPathComponent("oauth/device_authorization")
            let cap = server.state.configuration.maxDeviceCodesPerClient
            #expect(cap == 1000)
            // Four at a time: each sees fewer than the cap stored, so all of them are accepted.
            let accepted = try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<4 {
                    group.addTask {
                        var count = 0
                        for _ in 0..<(cap / 4) {
                            if try await http.send(.form(url, parameters: [("client_id", "browser-app")])).status == 200 { count += 1 }
                        }
                        return count
                    }
                }
                return try await group.reduce(0, +)
            }
            #expect(accepted == cap)
            let refused = try await http.send(.form(url, parameters: [("client_id", "browser-app")]))
            #expect(refused.status == 429)
            let error = try JSONValue(parsing: refused.body)
            #expect(error["error"]?.stringValue == "temporarily_unavailable")
            #expect(error["error_description"]?.stringValue?.contains("too many device logins") == true, "\(error)")
        }
    }

    /// Item 4: an approval and polls at the same moment: every approval survives (50 runs, five
    /// at a time: the test process's one HTTP client keeps eight connections to a host).
    @Test func aPollNeverErasesAnApproval() async throws {
        var configuration = Self.configuration
        // 50 sign-ins from one address, of one user: neither a rate limit nor the lockout is tested here.
        configuration.deviceCodeTriesPerMinute = 1000
        configuration.lockoutAfterFailures = 1000
        try await RunningServer.with(configuration) { server in
            let http = try AsyncHTTPClientTransport()
            /// One run: an approval, and polls before, during and after it until the tokens come.
            @Sendable func run() async throws -> String {
                let login = try await Self.authorize(server, http)
                let consent = try await Browser.signInForDevice(
                    server.issuer, code: login.userCode, username: SeedData.username, password: SeedData.password)
                guard String(decoding: consent.body, as: UTF8.self).contains("name=\"consent\"") else {
                    return "no consent page: \(consent.status)"
                }
                let answered = LockedValue<ContinuousClock.Instant?>(nil)
                let approving = Task {
                    let status = try await Browser.answerDeviceConsent(consent, issuer: server.issuer).status
                    answered.withLock { $0 = .now }
                    return status
                }
                while true {
                    let answer = try await Self.poll(server, http, login.deviceCode)
                    if answer["access_token"] != nil {
                        let status = try await approving.value
                        return status == 200 ? "approved" : "the approval answered \(status)"
                    }
                    guard answer["error"]?.stringValue == "authorization_pending" else { return "a poll answered \(answer)" }
                    // Still pending 10 s (a ceiling) after the approval answered: it was lost.
                    if let at = answered.withLock({ $0 }), ContinuousClock.now - at > .seconds(10) {
                        return "still pending after the approval answered \(try await approving.value): the approval was lost"
                    }
                }
            }
            var outcomes: [String] = []
            for _ in 0..<(50 / 5) {
                outcomes += try await withThrowingTaskGroup(of: String.self) { group in
                    for _ in 0..<5 { group.addTask { try await run() } }
                    return try await group.reduce(into: [String]()) { $0.append($1) }
                }
            }
            #expect(outcomes.filter { $0 != "approved" } == [], "of \(outcomes.count) runs")
            #expect(outcomes.count == 50)
        }
    }

    /// Also noticed: approval links are capped per user (push bombing), and their page says who
    /// asks, when and from where, and what to do when it is not the user.
    @Test func approvalLinksAreCappedPerUserAndShowWhoAsks() async throws {
        try await RunningServer.with(Self.configuration) { server in
            var steps: [(HaapiTestClient, PollingStep)] = []
            for _ in 0..<(server.state.configuration.maxPendingApprovalsPerUser + 1) {
                let client = try HaapiTestClient(server, clientId: "haapi-secret")
                let selector = try expectStep(await client.manager.start(), AuthenticatorSelectorStep.self)
                let start = try expectStep(await client.manager.submit(try selector.option("polling")), InteractiveFormStep.self)
                let step = try expectStep(
                    await client.manager.submitForm(try start.form(kind: .login), parameters: ["userName": SeedData.username]),
                    PollingStep.self)
                steps.append((client, step))
            }
            // Three links; the fourth login waits as one for an unknown name does.
            let links = try await server.state.pendingApprovalLinks()
            #expect(links.count == 3)
            let (last, step) = try #require(steps.last)
            #expect(try expectStep(await last.manager.poll(step), PollingStep.self).pollingProperties.status == .pending)

            let page = String(decoding: try await Browser.get(try #require(links.first)).body, as: UTF8.self)
            #expect(page.contains("haapi-secret is logging in as <strong>demo</strong>"), "\(page)")
            #expect(page.contains("from the address 127.0.0.1") && page.contains("asked at 20"), "\(page)")
            #expect(page.contains("If you are not signing in yourself right now, choose Deny"))
        }
    }

    /// Posts `form` to `path` on the loopback `port` from the local address `source` (another
    /// loopback address, as another machine), and reads the status of the answer.
    static func post(_ form: String, to path: String, port: Int, from source: String) throws -> Int {
        struct SocketFailure: Error { let step: String }
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { throw SocketFailure(step: "socket") }
        defer { close(socket) }
        var local = sockaddr_in()
        local.sin_family = sa_family_t(AF_INET)
        local.sin_addr.s_addr = inet_addr(source)
        let bound = withUnsafePointer(to: &local) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0 else { throw SocketFailure(step: "bind") }
        guard withLoopbackAddress(port: port, { connect(socket, $0, $1) }) == 0 else { throw SocketFailure(step: "connect") }
        var timeout = timeval(tv_sec: 20, tv_usec: 0)
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let request =
            "POST \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nContent-Type: application/x-www-form-urlencoded\r\n"
            + "Content-Length: \(form.utf8.count)\r\nConnection: close\r\n\r\n\(form)"
        _ = request.withCString { send(socket, $0, strlen($0), 0) }
        var received = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = recv(socket, &buffer, buffer.count, 0)
            guard count > 0 else { break }
            received += buffer[0..<count]
        }
        let statusLine = String(decoding: received.prefix(while: { $0 != 13 }), as: UTF8.self)
        guard let status = statusLine.split(separator: " ").dropFirst().first.flatMap({ Int($0) }) else {
            throw SocketFailure(step: "read: \(statusLine)")
        }
        return status
    }
}
