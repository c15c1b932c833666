import Foundation
import HaapiSDK
import HaapiServerTesting
import HaapiTesting
import OAuthCore
import OAuthTransportNIO
import Testing

@testable import HaapiDevServer

/// The development server's findings of the third security review (issue 35), each kept closed
/// by a test named after it.
@Suite("Long input, probing by timing and racing answers at the development server")
struct HostileRequestTests {
    /// Quick password checks: these tests sign in often.
    static var configuration: DevServerConfiguration {
        var configuration = DevServerConfiguration()
        configuration.passwordHashing = .insecureForBenchmarks
        return configuration
    }

    // MARK: Item 1: translation is linear

    /// Item 1 (medium): the passkey step puts any user name into "%@ has no passkey yet". Made of
    /// that sentence's own words, a name of 380 kB was translated once per repetition, each time
    /// over the whole rest (quadratic, and a recursion 20,000 deep: the stack overflowed). Now
    /// the sentence is translated, then filled once: the name comes back as typed.
    @Test func translatingALongUserNameIsLinearAndLeavesTheNameAsTyped() async throws {
        let name = "x" + String(repeating: " has no passkey yet", count: 20_000)
        let started = ContinuousClock.now
        let document = ServerLanguage.$current.withValue("sv") {
            ServerTexts.localized(Steps.webAuthnConfirm(username: name), to: "sv")
        }
        let elapsed = ContinuousClock.now - started
        let text = try #require(document["messages"]?.arrayValue?.first?["text"]?.stringValue)
        #expect(text.count == name.count + " har ingen lösennyckel ännu".count)
        #expect(text == name + " har ingen lösennyckel ännu", "the name is kept as typed, none of its words translated")
        // A ceiling for a loaded machine, not a measurement: the old recursion never got here.
        #expect(elapsed < .seconds(20), "\(elapsed)")
    }

    /// Item 1: a whole text is still looked up on the way out (``ServerTexts/localized(_:to:)``),
    /// so no filled sentence may ever equal a text of the table: each translation of a sentence
    /// with markers has fixed parts that no English text of the table has in that order. (English
    /// answers are not looked up: English has no table.)
    @Test func noFilledSentenceCanBeTakenForATextToTranslate() throws {
        let table = try #require(ServerTexts.tables["sv"]).texts
        /// The fixed parts of a sentence around its markers (`%@`, `%1$@`...).
        func fixedParts(_ sentence: String) -> [String] {
            var parts: [String] = []
            var rest = Substring(sentence)
            while let marker = rest.firstMatch(of: /%(?:[1-9][0-9]?\$)?@/) {
                parts.append(String(rest[..<marker.range.lowerBound]))
                rest = rest[marker.range.upperBound...]
            }
            return parts + [String(rest)]
        }
        /// Whether `text` can be `parts` with something in between each.
        func fills(_ text: String, _ parts: [String]) -> Bool {
            guard let first = parts.first, let last = parts.last, text.hasPrefix(first), text.hasSuffix(last) else { return false }
            var rest = Substring(text.dropFirst(first.count))
            for middle in parts.dropFirst().dropLast() where !middle.isEmpty {
                guard let found = rest.range(of: middle) else { return false }
                rest = rest[found.upperBound...]
            }
            return rest.count >= last.count
        }
        let sentences = table.filter { fixedParts($0.key).count > 1 }.map(\.value)
        #expect(sentences.count >= 10, "the sentences with markers are found")
        for sentence in sentences {
            let parts = fixedParts(sentence)
            let taken = table.keys.filter { $0 != sentence && fills($0, parts) }
            #expect(taken.isEmpty, "a filling of \"\(sentence)\" could be translated as \(taken)")
        }
    }

    // MARK: Item 2: bounded input

    /// The session of a new HAAPI flow of `haapi-attested` (username and password only).
    static func haapiSession(_ client: HaapiTestClient) async throws -> String {
        let query = "?client_id=haapi-attested&response_type=code&redirect_uri=\(HaapiTestClient.appRedirect)&scope=openid"
        let authorize = try await client.send("GET", "/oauth/authorize" + query)
        return try #require(authorize.headers["Set-Session-Id"])
    }

    /// Item 2: a user name past 256 bytes, a password past 4 KiB, are refused with a 400
    /// `invalid-input` problem naming each field, before anything is done with them (no failed
    /// attempt is counted for the name); a name at the bound is checked as any other.
    @Test func aTooLongUserNameOrFormValueIsRefusedNamingTheField() async throws {
        try await RunningServer.with(Self.configuration) { server in
            let client = try HaapiTestClient(server)
            let session = try await Self.haapiSession(client)
            let path = HaapiPaths.usernamePassword
            let longName = String(repeating: "å", count: 129)  // 258 bytes, 129 characters
            let refused = try await client.send("POST", path, sessionID: session, form: [("userName", longName), ("password", "x")])
            #expect(refused.status == 400)
            #expect(refused.headers["Content-Type"] == "application/problem+json")
            let problem = try JSONValue(parsing: refused.body)
            #expect(problem["type"]?.stringValue == "https://curity.se/problems/invalid-input", "\(problem)")
            let fields = try #require(problem["invalidFields"]?.arrayValue)
            #expect(fields.map { $0["name"]?.stringValue } == ["userName"])
            #expect(fields.first?["detail"]?.stringValue == "Too long: at most 256 bytes")
            #expect(
                try await server.state.store.get(Int.self, kind: Credentials.failuresKind, id: longName) == nil, "no attempt was counted")

            let both = try await client.send(
                "POST", path, sessionID: session, form: [("userName", longName), ("password", String(repeating: "p", count: 4097))])
            let named = try #require(try JSONValue(parsing: both.body)["invalidFields"]?.arrayValue).map { $0["name"]?.stringValue }
            #expect(both.status == 400 && named == ["password", "userName"])

            // At the bounds: an ordinary wrong password, counted.
            let atBound = String(repeating: "n", count: InputBounds.name)
            let wrong = try await client.send(
                "POST", path, sessionID: session,
                form: [("userName", atBound), ("password", String(repeating: "p", count: InputBounds.other))])
            #expect(try JSONValue(parsing: wrong.body)["type"]?.stringValue == "https://curity.se/problems/incorrect-credentials")
            #expect(try await server.state.store.get(Int.self, kind: Credentials.failuresKind, id: atBound) == 1)
        }
    }

    /// Item 2: the browser's pages answer a too long field with a 400 page naming it (a too long
    /// field name is not repeated back), and the authorization request with `invalid_request`.
    @Test func aTooLongFieldOfAPageOrOfTheAuthorizationRequestIsRefusedNamingIt() async throws {
        try await RunningServer.with(Self.configuration) { server in
            let device = server.issuer.appendingPathComponent("device")
            let longName = String(repeating: "n", count: InputBounds.name + 1)
            let page = try await Browser.post(device, [("user_code", "BCDF-GHJK"), ("userName", longName), ("password", "x")])
            #expect(page.status == 400)
            let html = String(decoding: page.body, as: UTF8.self)
            #expect(html.contains("The field userName is too long: at most 256 bytes"), "\(html)")

            let longField = String(repeating: "f", count: InputBounds.parameterName + 1)
            let unnamed = try await Browser.post(device, [(longField, "x")])
            let unnamedHTML = String(decoding: unnamed.body, as: UTF8.self)
            #expect(unnamed.status == 400 && unnamedHTML.contains("A field&#39;s name is too long: at most 256 bytes"), "\(unnamedHTML)")
            #expect(!unnamedHTML.contains(longField))

            let state = String(repeating: "s", count: InputBounds.other + 1)
            let authorize = try await Browser.get(
                URL(
                    string: server.issuer.absoluteString
                        + "/oauth/authorize?client_id=browser-app&response_type=code&redirect_uri=http://127.0.0.1/callback&scope=openid&state=\(state)"
                )!)
            let refusal = String(decoding: authorize.body, as: UTF8.self)
            #expect(
                authorize.status == 400 && refusal.contains("invalid_request: state is longer than 4096 bytes"), "\(refusal.prefix(600))")
        }
    }

    // MARK: Item 3: the decoy costs what a stored hash costs

    /// Item 3 (info): `--insecure-password-hashing-for-benchmarks` over a database of real hashes
    /// checked a known user's password with 210,000 rounds and an unknown one's with 1, so the
    /// time told which names exist. The decoy now has the rounds of the costliest stored hash
    /// (or the configured ones if more), and follows hashes stored since the start.
    @Test func anUnknownUsersDecoyCostsWhatAStoredHashCosts() async throws {
        let (directory, path) = try PasswordHashingTests.temporaryDatabase()
        defer { try? FileManager.default.removeItem(at: directory) }
        try await ServerState.open(configuration: DevServerConfiguration(databasePath: path)).store.close()
        var cheap = DevServerConfiguration(databasePath: path)
        cheap.passwordHashing = .insecureForBenchmarks
        let overRealHashes = try await ServerState.open(configuration: cheap)
        let demo = try #require(try await overRealHashes.user(SeedData.username))
        #expect(PasswordHash.rounds(of: demo.passwordHash) == PasswordHashing.standard.rounds)
        #expect(PasswordHash.rounds(of: Credentials.decoy(overRealHashes)) == PasswordHash.rounds(of: demo.passwordHash))
        try await overRealHashes.store.close()

        // A benchmark database: one round for everyone, until an account gets a real hash.
        try await RunningServer.with(Self.configuration) { server in
            #expect(PasswordHash.rounds(of: Credentials.decoy(server.state)) == 1)
            let account = UserRecord(
                username: "new", password: "Password2", name: "New", email: "new@example.test", phone: "+46 70 000 00 01")
            server.state.raiseDecoyRounds(toThoseOf: account.passwordHash)
            #expect(PasswordHash.rounds(of: Credentials.decoy(server.state)) == PasswordHash.rounds(of: account.passwordHash))
            // An unknown name is refused as before, by the decoy.
            guard case .incorrect = try await Credentials.check(username: "nobody", password: "Password1", state: server.state) else {
                Issue.record("an unknown name was not refused")
                return
            }
        }
    }

    // MARK: Item 4: an approval is answered once

    /// Item 4: the approval page's answer read the record, then wrote it: two answers at once
    /// (Approve and Deny from two tabs) could both be told they took effect, the last one
    /// winning. Now it is one compare-and-swap, as the device consent's: of eight answers at
    /// once, exactly one takes effect, the others get the page "unknown, already answered", and
    /// the login ends as the one that took effect said.
    @Test func concurrentAnswersToOneApprovalLetExactlyOneWin() async throws {
        var configuration = Self.configuration
        configuration.maxPendingApprovalsPerUser = 100
        try await RunningServer.with(configuration) { server in
            for round in 0..<6 {
                let client = try HaapiTestClient(server, clientId: "haapi-secret")
                let selector = try expectStep(await client.manager.start(), AuthenticatorSelectorStep.self)
                let start = try expectStep(await client.manager.submit(try selector.option("polling")), InteractiveFormStep.self)
                let step = try expectStep(
                    await client.manager.submitForm(try start.form(kind: .login), parameters: ["userName": SeedData.username]),
                    PollingStep.self)
                let link = try #require(try await server.state.pendingApprovalLinks().first)
                // Eight answers, approve and deny in turn (the test's HTTP client keeps eight connections to a host).
                let pages = try await withThrowingTaskGroup(of: (approve: Bool, status: Int, body: String).self) { group in
                    for index in 0..<8 {
                        let approve = (index + round) % 2 == 0
                        group.addTask {
                            let page = try await Browser.post(link, [("decision", approve ? "approve" : "deny")])
                            return (approve, page.status, String(decoding: page.body, as: UTF8.self))
                        }
                    }
                    return try await group.reduce(into: []) { $0.append($1) }
                }
                let winners = pages.filter { $0.status == 200 }
                #expect(winners.count == 1, "round \(round): \(pages.map { ($0.approve, $0.status) })")
                #expect(pages.filter { $0.status == 404 && $0.body.contains("already answered") }.count == pages.count - 1)
                guard let winner = winners.first else { continue }
                #expect(winner.body.contains(winner.approve ? "<h1>Approved</h1>" : "<h1>Denied</h1>"))
                let outcome = await client.manager.poll(step)
                if winner.approve {
                    #expect(try expectStep(outcome, PollingStep.self).pollingProperties.status == .done, "round \(round)")
                } else {
                    try expectProblem(outcome, .authenticationFailedProblem)
                }
            }
        }
    }

    // MARK: Review 4: names the server does not serve

    /// Review 4, finding 2: a page that points a name of its own at this machine (DNS
    /// rebinding) gets its browser's requests refused with 421 before any route, the gallery's
    /// and the endpoints' alike; `localhost`, IP addresses, the bound host and `--public-url`'s
    /// host are served.
    @Test func aRequestForANameTheServerDoesNotServeIsRefused() async throws {
        try await RunningServer.with(Self.configuration) { server in
            let port = try #require(server.issuer.port)
            func status(_ host: String, _ path: String) throws -> String {
                let url = "http://127.0.0.1:\(port)\(path)"
                return try Subprocess.run("/usr/bin/curl", ["-s", "-o", "/dev/null", "-w", "%{http_code}", "-H", "Host: \(host)", url])
                    .output
            }
            for path in ["/.well-known/openid-configuration", "/preview"] {
                #expect(try status("attacker.example:\(port)", path) == "421", "\(path)")
                #expect(try status("127.0.0.1.nip.io:\(port)", path) == "421", "\(path): a name that resolves to loopback is still a name")
            }
            for host in ["localhost:\(port)", "127.0.0.1:\(port)", "[::1]:\(port)", "app.localhost"] {
                #expect(try status(host, "/.well-known/openid-configuration") == "200", "\(host)")
            }
        }
        // With --public-url, its host is served too, in any case.
        var configuration = Self.configuration
        configuration.publicURL = URL(string: "https://idsvr.example:8443")
        let check = HostCheckMiddleware<DevServerRequestContext>(configuration: configuration)
        #expect(check.serves("IDSVR.example:8443") && check.serves("idsvr.example") && !check.serves("other.example"))
    }
}
