import Foundation
import HaapiDriver
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

/// The findings of the security review of the development server (issue 17), each kept closed
/// by a test named after its item (the README's hardening table lists them).
@Suite("The development server refuses misuse")
struct DevServerMisuseTests {
    /// The login form of a new flow of `client`, and the manager that runs it.
    static func loginForm(_ client: HaapiTestClient) async throws -> FormActionModel {
        try expectStep(await client.manager.start(), InteractiveFormStep.self).form(kind: .login)
    }

    /// Item 1: a password reset proves control of the account with a code sent to its owner;
    /// without it nothing changes, and known and unknown names get the same answer.
    @Test func passwordResetNeedsTheCodeSentToTheOwner() async throws {
        try await RunningServer.with { server in
            let client = try HaapiTestClient(server)
            let login = try expectStep(await client.manager.start(), InteractiveFormStep.self)
            let reset = try expectStep(
                await client.manager.followLink(try #require(login.link(rel: "forgot-password"))), InteractiveFormStep.self)
            let resetForm = try reset.form(kind: .passwordReset)
            // The first form takes only a name: no password can be set with it.
            #expect(resetForm.fields.map(\.name) == ["userName"])
            let sent = try expectStep(
                await client.manager.submitForm(resetForm, parameters: ["userName": "demo", "password": "Hijacked-1"]),
                ContinueSameStep.self)
            let confirm = try #require(sent.continueActions.first?.form)
            // Guessing the code changes nothing; after five wrong codes the code is spent.
            for guess in ["000000", "111111", "222222", "333333", "444444"] {
                try expectProblem(
                    await client.manager.submitForm(confirm, parameters: ["code": guess, "password": "Hijacked-1"]),
                    .incorrectCredentialsProblem)
            }
            let code = try await sentCode(server, client.manager)
            try expectProblem(
                await client.manager.submitForm(confirm, parameters: ["code": code, "password": "Hijacked-1"]), .genericUserProblem)
            let user = try #require(try await server.state.user(SeedData.username))
            #expect(PasswordHash.verify(SeedData.password, against: user.passwordHash))

            // An unknown name: the same step and message, and no code is sent.
            let other = try HaapiTestClient(server)
            let otherLogin = try expectStep(await other.manager.start(), InteractiveFormStep.self)
            let otherReset = try expectStep(
                await other.manager.followLink(try #require(otherLogin.link(rel: "forgot-password"))), InteractiveFormStep.self)
            let unknown = try expectStep(
                await other.manager.submitForm(try otherReset.form(kind: .passwordReset), parameters: ["userName": "nobody"]),
                ContinueSameStep.self)
            #expect(unknown.messages.map(\.text) == sent.messages.map(\.text))
            let otherSession = try #require(await other.manager.currentSessionID)
            #expect(try await server.state.store.get(String.self, kind: "otp-test-hook", id: otherSession) == nil)
        }
    }

    /// Item 2: a waiting authenticator signs nobody in on a bare name: only the user's Approve,
    /// on the page of the link the server sent, ends the wait; a denial or no answer ends it in
    /// authentication-failed, and continuing before the approval is refused.
    @Test func aWaitingLoginEndsOnlyWithTheUsersApproval() async throws {
        func waiting(_ server: RunningServer) async throws -> (HaapiTestClient, PollingStep) {
            let client = try HaapiTestClient(server, clientId: "haapi-secret")
            let selector = try expectStep(await client.manager.start(), AuthenticatorSelectorStep.self)
            let start = try expectStep(await client.manager.submit(try selector.option("polling")), InteractiveFormStep.self)
            let step = try expectStep(
                await client.manager.submitForm(try start.form(kind: .login), parameters: ["userName": SeedData.username]), PollingStep.self
            )
            return (client, step)
        }
        try await RunningServer.with { server in
            // Approved: pending until then, done after, and the login completes.
            let (approved, first) = try await waiting(server)
            #expect(try expectStep(await approved.manager.poll(first), PollingStep.self).pollingProperties.status == .pending)
            let link = try #require(try await server.state.pendingApprovalLinks().first)
            let page = try await Browser.answerApproval(link)
            #expect(page.status == 200)
            #expect(try await Browser.get(link).status == 404, "a link is answered once")
            #expect(try await Browser.post(link, [("decision", "deny")]).status == 404, "a link is answered once")
            let done = try expectStep(await approved.manager.poll(first), PollingStep.self)
            #expect(done.pollingProperties.status == .done)

            // Another flow of the same user, not approved: the done step's continue is refused.
            let (early, pending) = try await waiting(server)
            let moveOn = try #require(done.mainAction.form)
            try expectProblem(await early.manager.submitForm(moveOn, parameters: [:]), .genericUserProblem)
            #expect(
                try expectStep(await approved.manager.poll(done), OAuthAuthorizationResponseStep.self).oauthAuthorizationResponseProperties
                    .code != nil)

            // Denied (as `curl -d decision=deny LINK` does): authentication-failed at the next poll.
            let denial = try #require(try await server.state.pendingApprovalLinks().first)
            #expect(try await Browser.post(denial, [("decision", "deny")]).status == 200)
            try expectProblem(await early.manager.poll(pending), .authenticationFailedProblem)
        }
        // Never answered: pending until the wait's time is up (1 s here), then
        // authentication-failed, and the link (read where the server "sent" it) is dead.
        let sent = LockedValue<[String]>([])
        var configuration = DevServerConfiguration(approvalTimeout: .seconds(1))
        configuration.requestLog = { line in if line.hasPrefix("approve: ") { sent.withLock { $0.append(line) } } }
        try await RunningServer.with(configuration) { server in
            let (ignored, step) = try await waiting(server)
            let line = try #require(sent.withLock { $0.first })
            let unanswered = try #require(URL(string: String(line.split(separator: " ")[1])))
            let ceiling = ContinuousClock.now + .seconds(30)
            var result = await ignored.manager.poll(step)
            while (result.representation as? PollingStep)?.pollingProperties.status == .pending, ContinuousClock.now < ceiling {
                try await Task.sleep(for: .milliseconds(100))
                result = await ignored.manager.poll(step)
            }
            try expectProblem(result, .authenticationFailedProblem)
            #expect(try await Browser.get(unanswered).status == 404)
        }
    }

    /// Item 3: a public client's browser flow needs S256 PKCE, and a client registered for HAAPI
    /// cannot take the browser flow (it would skip attestation and the bound code).
    @Test func publicClientsNeedPKCEAndHaapiClientsStayInHaapi() async throws {
        try await RunningServer.with { server in
            func authorize(_ client: String, pkce: Bool) async throws -> [String: String] {
                var url =
                    server.issuer.absoluteString + "/oauth/authorize?client_id=\(client)&response_type=code&scope=openid&state=s1"
                    + "&redirect_uri=" + FormURLEncoding.escape(client == "browser-app" ? "http://127.0.0.1/callback" : "haapi://callback")
                if pkce { url += "&code_challenge=\(PKCE().challenge)&code_challenge_method=S256" }
                let answer = try await Browser.get(URL(string: url)!)
                return Browser.query(try #require(answer.headers["Location"]))
            }
            let withoutPKCE = try await authorize("browser-app", pkce: false)
            let withPKCE = try await authorize("browser-app", pkce: true)
            let attested = try await authorize("haapi-attested", pkce: true)
            let secret = try await authorize("haapi-secret", pkce: true)
            #expect(withoutPKCE["error"] == "invalid_request")
            #expect(withPKCE["error"] == nil && withPKCE["code"] == nil)  // on to the login page, no error
            #expect(attested["error"] == "unauthorized_client")
            #expect(secret["error"] == "unauthorized_client")
        }
    }

    /// Item 15: a refresh asking for a narrower scope narrows that access token only; the new
    /// refresh token keeps the grant's scope (RFC 6749 §6).
    @Test func aNarrowedRefreshKeepsTheGrantsScope() async throws {
        try await RunningServer.with { server in
            let client = ClientAuthentication.none(clientID: "browser-app")
            let pkce = PKCE()
            let code = try await server.issueCode(scope: ["openid", "profile", "email", "offline_access"], pkce: pkce)
            guard
                case .success(let first) = try await server.requestToken(
                    .authorizationCode(code: code, redirectURI: "http://127.0.0.1/callback", codeVerifier: pkce.verifier), client),
                case .success(let narrowed) = try await server.requestToken(
                    .refreshToken(try #require(first.refreshToken), scope: "openid"), client),
                case .success(let again) = try await server.requestToken(.refreshToken(try #require(narrowed.refreshToken)), client)
            else {
                Issue.record("a token request failed")
                return
            }
            #expect(narrowed.scope == "openid")
            #expect(Set((again.scope ?? "").split(separator: " ").map(String.init)) == ["openid", "profile", "email", "offline_access"])
        }
    }

    /// Item 12: a DCR initial access token registers one client, however many requests race with it.
    @Test func anInitialAccessTokenRegistersOneClient() async throws {
        try await RunningServer.with { server in
            let template = try #require(try await server.state.client("haapi-dcr-template"))
            let authentication = ClientAuthentication.clientSecretBasic(
                clientID: template.clientId, secret: try #require(template.clientSecret))
            guard case .success(let initial) = try await server.requestToken(.clientCredentials(scope: "dcr"), authentication) else {
                Issue.record("no initial access token")
                return
            }
            let http = try AsyncHTTPClientTransport()
            let register = TransportRequest(
                method: "POST", url: server.issuer.appendingPathComponent("oauth/register"),
                headers: ["Authorization": "Bearer \(initial.accessToken)", "Content-Type": "application/json"],
                body: Data(#"{"software_id":"haapi-dcr-template"}"#.utf8))
            let statuses = await withTaskGroup(of: Int.self) { group in
                for _ in 0..<12 { group.addTask { (try? await http.send(register).status) ?? 0 } }
                return await group.reduce(into: [Int]()) { $0.append($1) }
            }
            // One registration; every other answer refuses the spent token. (A request a loaded
            // machine times out gets no answer, 0: it registered nothing either.)
            #expect(statuses.filter { $0 == 201 }.count == 1, "\(statuses)")
            #expect(statuses.filter { $0 != 201 && $0 != 0 }.allSatisfy { $0 == 401 }, "\(statuses)")
            #expect(statuses.filter { $0 == 401 }.count >= 6, "\(statuses)")
            let registered = try await server.state.store.all(ClientRecord.self, kind: "client").filter {
                $0.value.templateClientId == template.clientId
            }
            #expect(registered.count == 1)
        }
    }

    /// Item 14: pages cannot be framed or cached; an oversized body is a 413 and no answer
    /// carries an internal error's text.
    @Test func pagesAreHardenedAndErrorsSayNothingInternal() async throws {
        try await RunningServer.with { server in
            let authorize =
                server.issuer.absoluteString
                + "/oauth/authorize?client_id=browser-app&response_type=code&redirect_uri=http%3A%2F%2F127.0.0.1%2Fcallback&scope=openid"
                + "&code_challenge=\(PKCE().challenge)&code_challenge_method=S256"
            let start = try await Browser.get(URL(string: authorize)!)
            let location = try #require(start.headers["Location"])
            let page = try await Browser.get(try #require(URL(string: location, relativeTo: server.issuer)?.absoluteURL))
            #expect(page.status == 200)
            #expect(page.headers["X-Frame-Options"] == "DENY")
            #expect(page.headers["Content-Security-Policy"]?.contains("frame-ancestors 'none'") == true)
            #expect(page.headers["Cache-Control"] == "no-store")
            #expect(start.headers["Cache-Control"] == "no-store")

            let http = try AsyncHTTPClientTransport()
            let huge = Data(repeating: UInt8(ascii: "a"), count: 200 * 1024)
            for path in ["oauth/token", "oauth/revoke", "oauth/register"] {
                let answer = try await http.send(
                    TransportRequest(
                        method: "POST", url: server.issuer.appendingPathComponent(path),
                        headers: ["Content-Type": "application/x-www-form-urlencoded"], body: huge))
                #expect(answer.status == 413 || answer.status == 401, "\(path): \(answer.status)")
                let text = String(decoding: answer.body, as: UTF8.self)
                #expect(!text.contains("NIO") && !text.contains("Error("), "\(path): \(text)")
            }
            let token = try await http.send(
                TransportRequest(
                    method: "POST", url: server.issuer.appendingPathComponent("oauth/token"),
                    headers: ["Content-Type": "application/x-www-form-urlencoded"], body: huge))
            #expect(token.status == 413)
        }
    }

    /// Item 11: redirect URIs (and post-logout ones, which use the same check) match as strings,
    /// except a loopback IP redirect's port (RFC 8252 §7.3); no tricks pass.
    @Test(arguments: [
        ("http://127.0.0.1/callback", true), ("http://127.0.0.1:5555/callback", true), ("haapi://callback", true),
        ("http://user@127.0.0.1/callback", false), ("http://127.0.0.1:5555/callback#fragment", false),
        ("http://127.0.0.1:99999/callback", false),
        ("http://127.0.0.1:0/callback", false), ("http://127.0.0.1/%63allback", false), ("http://127.0.0.1/callback/../callback", false),
        ("http://127.0.0.1/callback?extra=1", false), ("http://localhost/callback", false),
        ("http://127.0.0.1\\@evil.example/callback", false),
        ("haapi://callback/", false), ("HAAPI://callback", false), ("haapi://callback?x=1", false), ("haapi://callback#x", false),
    ])
    func redirectURIsMatchExactly(_ uri: String, _ accepted: Bool) {
        let client = ClientRecord(
            clientId: "c", strategy: .browser, redirectUris: ["http://127.0.0.1/callback", "haapi://callback"], scope: [],
            issueTokenBoundAuthorizationCode: false, authenticators: [])
        #expect(client.accepts(redirectUri: uri) == accepted, "\(uri)")
    }

    /// Item 5: a connection whose request head, or body, does not arrive in time is closed.
    @Test(arguments: [
        "GET /oauth/jwks HTTP/1.1\r\nHost: 127.0.0.1\r\n",  // a head that never ends
        // a body that never ends
        "POST /oauth/token HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 100\r\n\r\ngrant_type",
    ])
    func slowRequestsAreCut(_ partial: String) async throws {
        var configuration = DevServerConfiguration()
        configuration.headerReadTimeout = .milliseconds(500)
        configuration.bodyReadTimeout = .milliseconds(500)
        try await RunningServer.with(configuration) { server in
            let port = try #require(server.issuer.port)
            let started = ContinuousClock.now
            // Waits (at most 20 s, a ceiling) for the server to close the connection.
            let closed = try await onThread { Self.sendAndWaitForClose(port: port, partial) }
            #expect(closed, "the server kept the connection open")
            #expect(ContinuousClock.now - started < .seconds(20))
        }
    }

    /// Connects, sends `text`, and reads until the server closes (`true`) or 20 s pass (`false`).
    static func sendAndWaitForClose(port: Int, _ text: String) -> Bool {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { return false }
        defer { close(socket) }
        guard withLoopbackAddress(port: port, { connect(socket, $0, $1) }) == 0 else { return false }
        var timeout = timeval(tv_sec: 20, tv_usec: 0)
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        _ = text.withCString { send(socket, $0, strlen($0), 0) }
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = recv(socket, &buffer, buffer.count, 0)
            if count == 0 { return true }  // closed by the server
            if count < 0 { return errno == ECONNRESET }  // reset counts too; a timeout does not
        }
    }

    /// Item 6: expired records are purged on a schedule, and what anyone may create without
    /// authentication is capped per client: unanswered attestation challenges and flows under way.
    @Test func expiredRecordsArePurgedAndPendingOnesCapped() async throws {
        var configuration = DevServerConfiguration()
        configuration.maxPendingChallengesPerClient = 3
        configuration.maxFlowSessionsPerClient = 2
        configuration.purgeInterval = .milliseconds(200)
        try await RunningServer.with(configuration) { server in
            try await server.state.store.put("x", kind: "dpop-jti", id: "stale", expiresAt: Date().addingTimeInterval(-1))
            // The purge runs every 200 ms; 30 s is a ceiling for a loaded machine.
            let deadline = ContinuousClock.now + .seconds(30)
            while try await server.state.store.storedCount(kind: "dpop-jti") > 0 {
                guard ContinuousClock.now < deadline else {
                    Issue.record("the expired record was never purged")
                    return
                }
                try await Task.sleep(for: .milliseconds(50))
            }

            let http = try AsyncHTTPClientTransport()
            func challenge(_ client: String) async throws -> Int {
                try await http.send(
                    TransportRequest(url: URL(string: server.issuer.absoluteString + "/oauth/token/cat?client_id=\(client)")!)
                ).status
            }
            var statuses: [Int] = []
            for _ in 0..<4 { statuses.append(try await challenge("haapi-attested")) }
            #expect(statuses == [200, 200, 200, 429])

            var flows: [Bool] = []
            for _ in 0..<3 {
                let client = try HaapiTestClient(server)
                flows.append(await client.manager.start().problem == nil)
            }
            #expect(flows == [true, true, false])
        }
    }

    /// Item 8: a one-time code, an approval to poll for and a passkey are answered the same way
    /// for a name nobody has as for a user's (the reset is item 1's test); nothing is sent for
    /// the unknown one, and its attempt ends in failure.
    @Test func knownAndUnknownNamesGetTheSameAnswers() async throws {
        try await RunningServer.with { server in
            /// The shape of an answer: its type, its kinds of actions, its messages with digits masked.
            func shape(_ result: HaapiResult) -> String {
                switch result {
                case .representation(let step):
                    let messages = step.messages.map {
                        $0.text.literal.replacingOccurrences(of: #"[0-9]"#, with: "9", options: .regularExpression)
                    }
                    let recipient = (step as? PollingStep)?.pollingProperties.recipientOfCommunication?.replacingOccurrences(
                        of: #"[0-9]"#, with: "9", options: .regularExpression)
                    return "\(step.type.rawValue) \(step.allActions.map(\.kind.rawValue)) \(messages) \(recipient ?? "")"
                case .problem(let problem): return "problem \(problem.type.rawValue)"
                case .error(let error): return "error \(error)"
                }
            }
            func answers(for name: String) async throws -> [String] {
                var shapes: [String] = []
                let client = try HaapiTestClient(server, clientId: "haapi-secret", tokenClientId: "haapi-secret")
                let selector = try expectStep(await client.manager.start(), AuthenticatorSelectorStep.self)
                // One-time code.
                let otp = try expectStep(await client.manager.submit(try selector.option("sms")), InteractiveFormStep.self)
                shapes.append(shape(await client.manager.submitForm(try otp.form(kind: .login), parameters: ["userName": name])))
                // Polling: started (approved, or not, on the phone; item 2's test).
                let again = try expectStep(await client.manager.start(), AuthenticatorSelectorStep.self)
                let polling = try expectStep(await client.manager.submit(try again.option("polling")), InteractiveFormStep.self)
                let pending = await client.manager.submitForm(try polling.form(kind: .login), parameters: ["userName": name])
                shapes.append(shape(pending))
                // Passkeys: the password step either way.
                let third = try expectStep(await client.manager.start(), AuthenticatorSelectorStep.self)
                let passkey = try expectStep(await client.manager.submit(try third.option("webauthn")), InteractiveFormStep.self)
                let next = await client.manager.submitForm(try passkey.form(kind: .login), parameters: ["userName": name])
                shapes.append(shape(next).replacingOccurrences(of: name, with: "NAME"))
                return shapes
            }
            let known = try await answers(for: SeedData.username)
            let unknown = try await answers(for: "nobody-here")
            #expect(known == unknown)
            #expect(!unknown.contains { $0.contains("invalid-input") })
        }
    }

    /// Item 8, account creation: a taken name gets the answer a free one gets (a code "sent" to
    /// the phone given); no code confirms it and the account is untouched. Of two creations of
    /// one free name, the first confirmed wins.
    @Test func creatingATakenNameLooksLikeCreatingAFreeOne() async throws {
        try await RunningServer.with { server in
            func create(_ name: String) async throws -> (HaapiTestClient, ContinueSameStep, FormActionModel) {
                let client = try HaapiTestClient(server)
                let login = try expectStep(await client.manager.start(), InteractiveFormStep.self)
                let registration = try expectStep(
                    await client.manager.followLink(try #require(login.link(rel: "register-create"))), InteractiveFormStep.self)
                let sent = try expectStep(
                    await client.manager.submitForm(
                        try registration.form(kind: .userRegister),
                        parameters: ["userName": name, "password": "Hijacked-1", "phone": "+46 70 000 11 22"]),
                    ContinueSameStep.self)
                return (client, sent, try #require(sent.continueActions.first?.form))
            }
            let (free, freeSent, freeConfirm) = try await create("newcomer")
            let (taken, takenSent, takenConfirm) = try await create(SeedData.username)
            #expect(freeSent.messages.map(\.text) == takenSent.messages.map(\.text))
            #expect(freeConfirm.fields.map(\.name) == takenConfirm.fields.map(\.name))

            // The taken name: no code was sent, any code fails as a wrong one does, the owner's account is as it was.
            let takenSession = try #require(await taken.manager.currentSessionID)
            #expect(try await server.state.store.get(String.self, kind: "otp-test-hook", id: takenSession) == nil)
            try expectProblem(await taken.manager.submitForm(takenConfirm, parameters: ["code": "123456"]), .incorrectCredentialsProblem)
            let owner = try #require(try await server.state.user(SeedData.username))
            #expect(PasswordHash.verify(SeedData.password, against: owner.passwordHash))

            // The free name, asked for twice: the first code confirmed creates it; the second, right as it is, fails.
            let (twin, _, twinConfirm) = try await create("newcomer")
            let twinCode = try await sentCode(server, twin.manager)
            _ = try expectStep(
                await free.manager.submitForm(freeConfirm, parameters: ["code": try await sentCode(server, free.manager)]),
                InteractiveFormStep.self)
            try expectProblem(await twin.manager.submitForm(twinConfirm, parameters: ["code": twinCode]), .incorrectCredentialsProblem)
            let created = try #require(try await server.state.user("newcomer"))
            #expect(created.phone == "+46 70 000 11 22")
        }
    }

    /// Item 9: a Session-Id is bound to the HAAPI token's key that started the flow: another
    /// instance of the same client presenting it gets mismatch-between-session-and-access-token.
    @Test func theSessionBelongsToTheTokensKey() async throws {
        try await RunningServer.with { server in
            let owner = try HaapiTestClient(server)
            let login = try expectStep(await owner.manager.start(), InteractiveFormStep.self).form(kind: .login)
            let sessionID = try #require(await owner.manager.currentSessionID)
            // Another instance of the client: its own HAAPI token and DPoP key, the owner's Session-Id.
            let thief = try HaapiTestClient(server)
            let url = try #require(URL(string: login.href, relativeTo: server.issuer)?.absoluteURL)
            let answer = try await HaapiTestClient.transport(token: thief.token, dpop: thief.dpop).send(
                .form(
                    url, parameters: [("userName", "demo"), ("password", SeedData.password)],
                    headers: ["Accept": "application/vnd.auth+json", "Session-Id": sessionID]))
            #expect(answer.status == 400)
            #expect(String(decoding: answer.body, as: UTF8.self).contains("mismatch-between-session-and-access-token"))
            // The owner goes on.
            let mine = await owner.manager.submitForm(login, parameters: ["userName": "demo", "password": SeedData.password])
            #expect(mine.problem == nil)
        }
    }

    /// Item 10: an expired ID token (or none) only identifies: nothing ends until the user
    /// confirms on the server's page, whose single-use form token a link cannot carry.
    @Test func anExpiredHintOnlyIdentifiesTheSignOutAsksTheUser() async throws {
        try await RunningServer.with { server in
            let pkce = PKCE()
            let code = try await server.issueCode(scope: ["openid", "offline_access"], pkce: pkce)
            guard
                case .success(let issued) = try await server.requestToken(
                    .authorizationCode(code: code, redirectURI: "http://127.0.0.1/callback", codeVerifier: pkce.verifier),
                    .none(clientID: "browser-app")),
                let idToken = issued.idToken
            else {
                Issue.record("no tokens")
                return
            }
            // The same ID token, expired: re-signed by the server with exp in the past.
            var claims = try #require(try JSONValue(parsing: try CompactJWS(idToken).payload).objectValue)
            claims["exp"] = .integer(Int(Date().timeIntervalSince1970) - 60)
            let expired = try server.state.signJWT(.object(claims))

            let http = try AsyncHTTPClientTransport()
            let query = FormURLEncoding.encode([
                ("id_token_hint", expired), ("post_logout_redirect_uri", "http://127.0.0.1/callback"), ("state", "s1"),
            ])
            let asked = try await http.send(
                TransportRequest(url: URL(string: server.issuer.absoluteString + "/oauth/end-session?" + query)!))
            #expect(asked.status == 200)
            #expect(try await server.state.verifyAccessToken(issued.accessToken) != nil, "nothing ended before the user confirmed")
            let form = try Browser.firstForm(String(decoding: asked.body, as: UTF8.self))
            let confirm = try #require(form.hidden.first { $0.0 == "confirm" })
            let endURL = server.issuer.appendingPathComponent("oauth/end-session")
            let confirmed = try await http.send(.form(endURL, parameters: [confirm]))
            #expect(confirmed.status == 303)
            #expect(confirmed.headers["Location"] == "http://127.0.0.1/callback?state=s1")
            #expect(try await server.state.verifyAccessToken(issued.accessToken) == nil)
            // The page's token is good once.
            #expect(try await http.send(.form(endURL, parameters: [confirm])).status == 400)
        }
    }

    /// Item 7: sixty wrong passwords at once get at most the lockout's number of comparisons.
    @Test func parallelWrongPasswordsAreCountedAtomically() async throws {
        try await RunningServer.with(DevServerConfiguration(lockoutAfterFailures: 5)) { server in
            // Five requests per client: each client's connection pool opens a connection for each at
            // once, so none waits in the pool (on a loaded machine such a wait can time out, and
            // then an answer goes missing from the count).
            let clients = try (0..<12).map { _ in try HaapiTestClient(server) }
            var forms: [FormActionModel] = []
            for client in clients { forms.append(try await Self.loginForm(client)) }
            let results = await withTaskGroup(of: HaapiResult.self) { group in
                for index in 0..<60 {
                    let client = clients[index % clients.count]
                    let form = forms[index % clients.count]
                    group.addTask { await client.manager.submitForm(form, parameters: ["userName": "demo", "password": "wrong-\(index)"]) }
                }
                return await group.reduce(into: [HaapiResult]()) { $0.append($1) }
            }
            let answers = results.map { $0.problem?.type }
            let others = results.filter { $0.problem == nil }.map { "\($0)" }
            #expect(answers.filter { $0 == .incorrectCredentialsProblem }.count == 5, "\(others)")
            #expect(answers.filter { $0 == .tooManyAttemptsProblem }.count == 55, "\(others)")
            // The message says how the owner gets back in.
            let locked = await clients[0].manager.submitForm(forms[0], parameters: ["userName": "demo", "password": SeedData.password])
            #expect(locked.problem?.title?.literal.contains("until its password is reset") == true)
        }
    }

    /// Item 13: the database (and SQLite's `-wal` and `-shm` beside it) is `0600`, and holds no
    /// password in clear: a salted PBKDF2 hash, also for users stored by earlier versions.
    @Test func databaseIsPrivateAndKeepsOnlyPasswordHashes() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("haapi-db-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("server.sqlite").path
        // A user as an earlier version stored it: the password in clear.
        let legacy = try await RecordStore.open(path: path)
        try await legacy.put(
            ["username": "olduser", "password": "Legacy-Secret-1", "name": "Old", "email": "", "phone": ""], kind: "user", id: "olduser")
        try await legacy.close()
        try await RunningServer.with(DevServerConfiguration(databasePath: path)) { server in
            let user = try #require(try await server.state.user("olduser"))
            #expect(user.passwordHash.hasPrefix("pbkdf2-sha512$210000$"))
            #expect(PasswordHash.verify("Legacy-Secret-1", against: user.passwordHash))
            for file in [path, path + "-wal", path + "-shm"] where FileManager.default.fileExists(atPath: file) {
                let mode = try #require(try FileManager.default.attributesOfItem(atPath: file)[.posixPermissions] as? Int)
                #expect(mode & 0o077 == 0, "\(file) is \(String(mode, radix: 8))")
            }
        }
        var bytes = Data()
        for file in [path, path + "-wal"] where FileManager.default.fileExists(atPath: file) {
            bytes += try Data(contentsOf: URL(fileURLWithPath: file))
        }
        for secret in ["Legacy-Secret-1", SeedData.password] {
            #expect(bytes.range(of: Data(secret.utf8)) == nil, "\(secret) is in the database file")
        }
    }
}
