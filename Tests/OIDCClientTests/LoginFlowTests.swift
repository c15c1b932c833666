import Foundation
import HaapiServerTesting
import HaapiTesting
import OAuthCore
import OAuthTransportNIO
import OIDCClient
import Testing

@Suite("OIDCClient against the test provider: the flow that should work")
struct LoginFlowTests {
    @Test func loginSendsPKCEStateNonceAndKeepsAValidatedSession() async throws {
        let provider = try await TestOpenIDProvider.start()
        defer { Task { await provider.stop() } }
        let storage = InMemoryStorage()
        let client = try provider.client(storage: storage)
        let browser = RedirectFollowingBrowser()
        let state = try await client.login(
            using: LoopbackUserAgent(launcher: browser, listen: LoopbackRedirectListener.factory),
            options: AuthorizationOptions(
                prompt: "login", maxAge: 600, acrValues: ["urn:acr:password"], loginHint: "alice",
                additionalParameters: [("ui_locales", "sv"), ("state", "attacker-chosen")]))
        let sent = try #require(provider.authorizeRequests.first)
        #expect(sent["response_type"] == "code")
        #expect(sent["code_challenge_method"] == "S256")
        #expect(sent["code_challenge"]?.count == 43)
        #expect(sent["scope"] == "openid profile")
        #expect(sent["prompt"] == "login" && sent["max_age"] == "600" && sent["acr_values"] == "urn:acr:password")
        #expect(sent["login_hint"] == "alice" && sent["ui_locales"] == "sv")
        // An extra parameter never replaces the security parameters.
        #expect(sent["state"] != "attacker-chosen" && (sent["state"]?.count ?? 0) >= 43)
        #expect((sent["nonce"]?.count ?? 0) >= 43)
        let redirect = try #require(sent["redirect_uri"].flatMap(URL.init(string:)))
        #expect(redirect.host == "127.0.0.1" && redirect.path == "/callback" && (redirect.port ?? 0) > 0)
        #expect(state.subject == TestOpenIDProvider.subject)
        #expect(state.idTokenClaims?.subject == TestOpenIDProvider.subject && state.idTokenClaims?[string: "nonce"] == sent["nonce"])
        #expect(state.refreshToken != nil && state.idToken != nil && !state.isDPoPBound)
        // Saved, and readable by a new client on the same storage (an app restart).
        let saved = try JSONDecoder().decode(AuthState.self, from: try #require(try storage.read(key: "oidc-auth-state")))
        #expect(saved == state)
        let restarted = try provider.client(storage: storage)
        #expect(try await restarted.authState == state)
        #expect(try await restarted.validAccessToken().value == state.accessToken)
    }

    @Test func userInfoIsAboutTheLoggedInUser() async throws {
        let provider = try await TestOpenIDProvider.start()
        defer { Task { await provider.stop() } }
        let client = try provider.client()
        try await client.login(using: LoopbackUserAgent(launcher: RedirectFollowingBrowser(), listen: LoopbackRedirectListener.factory))
        let info = try await client.userInfo()
        #expect(info.subject == TestOpenIDProvider.subject)
        #expect(info[string: "email"] == "user@example.test")
    }

    @Test func refreshRotatesTheRefreshToken() async throws {
        let provider = try await TestOpenIDProvider.start()
        defer { Task { await provider.stop() } }
        let client = try provider.client()
        let first = try await client.login(
            using: LoopbackUserAgent(launcher: RedirectFollowingBrowser(), listen: LoopbackRedirectListener.factory))
        let second = try await client.refresh()
        #expect(second.accessToken != first.accessToken)
        #expect(second.refreshToken != first.refreshToken && second.refreshToken != nil)
        #expect(second.subject == first.subject)
        // The new refresh token is the one kept: a second refresh works.
        let third = try await client.refresh()
        #expect(third.refreshToken != second.refreshToken)
        #expect(provider.tokenRequests("refresh_token") == 2)
    }

    @Test func manyConcurrentRefreshesSendOneRequest() async throws {
        let provider = try await TestOpenIDProvider.start()
        defer { Task { await provider.stop() } }
        // The refresh's answer is held until every caller has asked: on a loaded machine a caller
        // that started late would otherwise find the refresh over and rightly refresh again.
        let gate = LockedValue(true)
        let client = try provider.client(transport: try slowTokenRequests(heldBy: gate))
        try await client.login(using: LoopbackUserAgent(launcher: RedirectFollowingBrowser(), listen: LoopbackRedirectListener.factory))
        gate.withLock { $0 = false }
        let asked = LockedValue(0)
        let tokens = try await withThrowingTaskGroup(of: String.self) { group in
            for _ in 0..<20 {
                group.addTask {
                    asked.withLock { $0 += 1 }
                    return try await client.refresh().accessToken
                }
            }
            while asked.withLock({ $0 }) < 20 { try await Task.sleep(for: .milliseconds(10)) }
            try await Task.sleep(for: .milliseconds(300))
            gate.withLock { $0 = true }
            return try await group.reduce(into: Set<String>()) { $0.insert($1) }
        }
        #expect(tokens.count == 1)
        #expect(provider.tokenRequests("refresh_token") == 1)
    }

    @Test func expiredAccessTokenIsRefreshedBeforeUse() async throws {
        let provider = try await TestOpenIDProvider.start { $0.accessTokenLifetime = 10 }
        defer { Task { await provider.stop() } }
        let client = try provider.client()
        let state = try await client.login(
            using: LoopbackUserAgent(launcher: RedirectFollowingBrowser(), listen: LoopbackRedirectListener.factory))
        // 10 s left is less than the 30 s asked for: refreshed.
        let token = try await client.validAccessToken(minimumLifetime: 30)
        #expect(token.value != state.accessToken)
        #expect(provider.tokenRequests("refresh_token") == 1)
        // Enough left: not refreshed again.
        _ = try await client.validAccessToken(minimumLifetime: 5)
        #expect(provider.tokenRequests("refresh_token") == 1)
    }

    @Test func invalidGrantEndsTheSessionAndRemovesTheTokens() async throws {
        let provider = try await TestOpenIDProvider.start()
        defer { Task { await provider.stop() } }
        let storage = InMemoryStorage()
        let client = try provider.client(storage: storage)
        try await client.login(using: LoopbackUserAgent(launcher: RedirectFollowingBrowser(), listen: LoopbackRedirectListener.factory))
        provider.change { $0.refreshError = "invalid_grant" }
        let error = await #expect(throws: OIDCError.self) { try await client.refresh() }
        #expect(error?.code == .loginRequired)
        #expect(error?.recoverySuggestion == .newHaapiFlow)
        #expect(try await client.authState == nil)
        #expect(storage.keys.isEmpty)
        let next = await #expect(throws: OIDCError.self) { try await client.validAccessToken() }
        #expect(next?.code == .loginRequired)
    }

    @Test func otherRefreshErrorsKeepTheSession() async throws {
        let provider = try await TestOpenIDProvider.start()
        defer { Task { await provider.stop() } }
        let client = try provider.client()
        try await client.login(using: LoopbackUserAgent(launcher: RedirectFollowingBrowser(), listen: LoopbackRedirectListener.factory))
        provider.change { $0.refreshError = "temporarily_unavailable" }
        let error = await #expect(throws: OIDCError.self) { try await client.refresh() }
        #expect(error?.code == .tokenRequestFailed && error?.serverError == "temporarily_unavailable")
        #expect(error?.recoverySuggestion == .retryable(condition: .now) && error?.retryAfter == nil)
        #expect(try await client.authState != nil)
    }

    @Test func apiClientRefreshesOnceForManyConcurrent401s() async throws {
        let provider = try await TestOpenIDProvider.start()
        defer { Task { await provider.stop() } }
        let client = try provider.client(transport: try slowTokenRequests())
        try await client.login(using: LoopbackUserAgent(launcher: RedirectFollowingBrowser(), listen: LoopbackRedirectListener.factory))
        let api = AuthorizedHTTPClient(client: client, transport: try AsyncHTTPClientTransport())
        let resource = provider.url("/api/resource")
        #expect(try await api.send(TransportRequest(url: resource)).status == 200)
        provider.invalidateAccessTokens()
        let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<10 { group.addTask { try await api.send(TransportRequest(url: resource)).status } }
            return try await group.reduce(into: [Int]()) { $0.append($1) }
        }
        #expect(statuses == Array(repeating: 200, count: 10))
        #expect(provider.tokenRequests("refresh_token") == 1)
        #expect(provider.apiAuthorizations.allSatisfy { $0.hasPrefix("Bearer ") })
    }

    @Test func apiClientRefreshesOnceAndRetriesOnceThenReturnsThe401() async throws {
        let provider = try await TestOpenIDProvider.start()
        defer { Task { await provider.stop() } }
        let client = try provider.client()
        try await client.login(using: LoopbackUserAgent(launcher: RedirectFollowingBrowser(), listen: LoopbackRedirectListener.factory))
        // An API that refuses every token: one refresh, one retry, then its 401 is the answer.
        let api = ScriptedTransport(repeating: {
            TransportResponse(status: 401, headers: ["WWW-Authenticate": "Bearer error=\"invalid_token\""], url: $0.url)
        })
        let response = try await AuthorizedHTTPClient(client: client, transport: api)
            .send(TransportRequest(url: provider.url("/api/resource")))
        #expect(response.status == 401)
        #expect(api.sent.count == 2)
        #expect(provider.tokenRequests("refresh_token") == 1)
        let tokens = api.sent.compactMap { $0.headers["Authorization"] }
        #expect(tokens.count == 2 && tokens[0] != tokens[1])
    }

    @Test func revokeRevokesBothTokensAndRemovesTheSession() async throws {
        let provider = try await TestOpenIDProvider.start()
        defer { Task { await provider.stop() } }
        let client = try provider.client()
        let state = try await client.login(
            using: LoopbackUserAgent(launcher: RedirectFollowingBrowser(), listen: LoopbackRedirectListener.factory))
        try await client.revoke()
        #expect(provider.revoked == [state.refreshToken!, state.accessToken])
        #expect(try await client.authState == nil)
    }

    @Test func endSessionSendsTheHintAndChecksTheStateThatComesBack() async throws {
        let provider = try await TestOpenIDProvider.start()
        defer { Task { await provider.stop() } }
        let client = try provider.client()
        let state = try await client.login(
            using: LoopbackUserAgent(launcher: RedirectFollowingBrowser(), listen: LoopbackRedirectListener.factory))
        try await client.endSession(
            using: LoopbackUserAgent(launcher: RedirectFollowingBrowser(), listen: LoopbackRedirectListener.factory))
        let request = try #require(provider.endSessionRequests.first)
        #expect(request["id_token_hint"] == state.idToken)
        #expect(request["client_id"] == TestOpenIDProvider.clientID)
        #expect(request["post_logout_redirect_uri"]?.hasPrefix("http://127.0.0.1:") == true)
        #expect((request["state"]?.count ?? 0) >= 43)
        #expect(try await client.authState == nil)
    }

    @Test func dpopBindsTheCodeAndTheTokens() async throws {
        let provider = try await TestOpenIDProvider.start()
        defer { Task { await provider.stop() } }
        let client = try provider.client { $0.useDPoP = true }
        let state = try await client.login(
            using: LoopbackUserAgent(launcher: RedirectFollowingBrowser(), listen: LoopbackRedirectListener.factory))
        let holder = try #require(try await client.dpopHolder())
        #expect(state.isDPoPBound)
        #expect(provider.authorizeRequests.first?["dpop_jkt"] == holder.thumbprint)
        #expect(state.dpopKey?.d != nil)
        _ = try await client.userInfo()
        #expect(provider.apiAuthorizations.last?.hasPrefix("DPoP ") == true)
        // The refresh proves possession of the same key (the provider checks the proof's signature).
        let refreshed = try await client.refresh()
        #expect(refreshed.isDPoPBound && refreshed.dpopKey == state.dpopKey)
    }

    @Test func parSendsTheParametersBehindTheBrowsersBack() async throws {
        let provider = try await TestOpenIDProvider.start { $0.parSupported = true }
        defer { Task { await provider.stop() } }
        let client = try provider.client { $0.usePushedAuthorizationRequests = true }
        let browser = RedirectFollowingBrowser()
        try await client.login(using: LoopbackUserAgent(launcher: browser, listen: LoopbackRedirectListener.factory))
        let opened = try #require(browser.opened.withLock { $0.first })
        let query = try #require(URLComponents(url: opened, resolvingAgainstBaseURL: false)?.queryItems)
        #expect(Set(query.map(\.name)) == ["client_id", "request_uri"])
        #expect(provider.authorizeRequests.first?["code_challenge_method"] == "S256")
    }

    /// A refused push keeps the server's answer as its cause: its OAuth error decides the
    /// recovery, and a busy server's `Retry-After` reaches the app.
    @Test func aRefusedPushKeepsTheServersAnswer() async throws {
        let provider = try await TestOpenIDProvider.start { $0.parSupported = true }
        defer { Task { await provider.stop() } }
        let client = try provider.client { $0.usePushedAuthorizationRequests = true }
        func refusal(_ answer: Reply) async -> OIDCError? {
            provider.change { $0.parRefusal = answer }
            return await #expect(throws: OIDCError.self) {
                try await client.login(
                    using: LoopbackUserAgent(launcher: RedirectFollowingBrowser(), listen: LoopbackRedirectListener.factory))
            }
        }
        let refused = await refusal(.json(400, #"{"error":"consent_required","error_description":"ask first"}"#))
        #expect(refused?.code == .authorizationError && refused?.serverError == "consent_required")
        #expect((refused?.cause as? OAuthErrorResponse)?.statusCode == 400)
        #expect(refused?.recoverySuggestion == .newHaapiFlow)
        let unavailable = await refusal(.text(503, "down for maintenance", headers: [("Retry-After", "9")]))
        #expect(unavailable?.code == .authorizationError && unavailable?.serverError == nil)
        #expect((unavailable?.cause as? UnexpectedResponseError)?.body == Data("down for maintenance".utf8))
        #expect(unavailable?.retryAfter == 9 && unavailable?.recoverySuggestion == .retryable(condition: .now))
        #expect(provider.authorizeRequests.isEmpty, "the browser was never opened")
    }

    @Test func dynamicRegistrationGivesAClientThatCanLogIn() async throws {
        let provider = try await TestOpenIDProvider.start()
        defer { Task { await provider.stop() } }
        let transport = try AsyncHTTPClientTransport()
        let metadata = try await ProviderMetadata.discover(issuer: URL(string: provider.issuer)!, transport: transport)
        let registered = try await DynamicClientRegistration.register(
            ClientRegistrationRequest(redirectURIs: [URL(string: "http://127.0.0.1/callback")!], clientName: "test"),
            metadata: metadata, transport: transport)
        #expect(registered.clientID == TestOpenIDProvider.clientID)
        #expect(registered.raw["token_endpoint_auth_method"] == "none")
        #expect(registered.raw["application_type"] == "native")
        let client = try provider.client { $0.clientAuthentication = registered.clientAuthentication }
        #expect(
            try await client.login(using: LoopbackUserAgent(launcher: RedirectFollowingBrowser(), listen: LoopbackRedirectListener.factory))
                .subject
                == TestOpenIDProvider.subject)
        let refused = await #expect(throws: OIDCError.self) {
            try await DynamicClientRegistration.register(
                ClientRegistrationRequest(redirectURIs: []), metadata: metadata, transport: transport)
        }
        #expect(refused?.code == .registrationFailed && refused?.serverError == "invalid_redirect_uri")
    }
}

/// A transport that slows token requests by 300 ms, so that concurrent callers overlap on the
/// wire; with a `gate`, each also waits until the test opens it (at most 10 s).
private func slowTokenRequests(heldBy gate: LockedValue<Bool>? = nil) throws -> InterceptingTransport {
    InterceptingTransport(try AsyncHTTPClientTransport()) { request in
        guard request.url.path.hasSuffix("/token") else { return nil }
        try await Task.sleep(for: .milliseconds(300))
        let deadline = ContinuousClock.now + .seconds(10)
        while let gate, !gate.withLock({ $0 }), ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(10)) }
        return nil
    }
}
