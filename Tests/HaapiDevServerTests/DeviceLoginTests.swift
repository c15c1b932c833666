import Foundation
import HaapiServerTesting
import HaapiTesting
import OAuthCore
import OAuthTransportNIO
import OIDCClient
import Testing

@testable import HaapiDevServer

/// The device authorization grant (RFC 8628) end to end: OIDCClient against the development
/// server, the user answering on the server's `/device` page.
@Suite("Device login (RFC 8628)")
struct DeviceLoginTests {
    static func client(
        _ server: RunningServer, authentication: ClientAuthentication = .none(clientID: "browser-app")
    ) throws -> OIDCClient {
        OIDCClient(
            configuration: OIDCConfiguration(
                issuer: server.issuer, clientAuthentication: authentication,
                redirectURI: URL(string: "http://127.0.0.1/callback")!, scopes: ["openid", "profile", "offline_access"], useDPoP: true),
            transport: try AsyncHTTPClientTransport())
    }

    /// The user's answer on the device pages (the forms a browser posts): sign in with the code,
    /// then Approve or Deny on the consent page; the first page's answer when it is not that page.
    static func answer(_ server: RunningServer, code: String, password: String = SeedData.password, decision: String = "approve")
        async throws
        -> TransportResponse
    {
        let signedIn = try await Browser.signInForDevice(server.issuer, code: code, username: SeedData.username, password: password)
        guard String(decoding: signedIn.body, as: UTF8.self).contains("name=\"consent\"") else { return signedIn }
        return try await Browser.answerDeviceConsent(signedIn, issuer: server.issuer, approve: decision == "approve")
    }

    @Test func pendingSlowDownThenApprovedWithAValidatedIDTokenAndBoundTokens() async throws {
        // An interval no loaded machine takes between two polls in a row, so the second is too soon.
        var configuration = DevServerConfiguration()
        configuration.deviceCodeInterval = 30
        try await RunningServer.with(configuration) { server in
            let client = try Self.client(server)
            var authorization = try await client.startDeviceAuthorization()
            #expect(
                authorization.userCode.wholeMatch(of: /[B-DF-HJ-NP-TV-XZ]{4}-[B-DF-HJ-NP-TV-XZ]{4}/) != nil, "\(authorization.userCode)")
            #expect(authorization.verificationURI == server.issuer.appendingPathComponent("device"))
            #expect(authorization.verificationURIComplete?.query == "user_code=\(authorization.userCode)")
            #expect(authorization.interval == 30)

            // Not answered yet: pending; polled again at once: slow_down, and the interval grows.
            guard case .pending = try await client.poll(&authorization) else {
                Issue.record("expected pending")
                return
            }
            guard case .slowDown = try await client.poll(&authorization) else {
                Issue.record("expected slow_down")
                return
            }
            #expect(authorization.interval == 35)

            // A wrong password approves nothing; the page says so.
            let wrong = try await Self.answer(server, code: authorization.userCode, password: "wrong")
            #expect(wrong.status == 400)
            #expect(String(decoding: wrong.body, as: UTF8.self).contains("Incorrect username or password"))
            // The code as a person types it (lower case, no dash) and the right password.
            let typed = authorization.userCode.lowercased().replacingOccurrences(of: "-", with: "")
            #expect(try await Self.answer(server, code: typed).status == 200)
            // Once approved, the next poll gets the tokens (completeDeviceAuthorization's waiting is
            // exercised by the CLI's test and against Glewlwyd).
            guard case .approved(let state) = try await client.poll(&authorization) else {
                Issue.record("expected the tokens")
                return
            }
            #expect(state.subject == SeedData.username)
            #expect(state.tokenType == "DPoP")
            #expect(state.refreshToken != nil)
            #expect(try await client.userInfo().subject == SeedData.username)
            // The code is spent.
            #expect(try await Self.answer(server, code: authorization.userCode).status == 400)
        }
    }

    /// User codes are short, so the page slows guessing (RFC 8628 §5.1): past 20 tries in a
    /// minute from one address, even its right code is refused with 429 and `Retry-After`, and
    /// nothing is approved.
    @Test func guessingUserCodesIsSlowedDown() async throws {
        try await RunningServer.with(DevServerConfiguration()) { server in
            let client = try Self.client(server)
            var authorization = try await client.startDeviceAuthorization()
            for guess in 0..<server.state.configuration.deviceCodeTriesPerMinute {
                let wrong = try await Self.answer(server, code: String(format: "BCDF%04d", guess))
                #expect(wrong.status == 400)
                #expect(String(decoding: wrong.body, as: UTF8.self).contains("This code is unknown"))
            }
            let right = try await Self.answer(server, code: authorization.userCode)
            #expect(right.status == 429)
            #expect(right.headers["Retry-After"] == "60")
            #expect(String(decoding: right.body, as: UTF8.self).contains("Too many tries in the last minute"))
            guard case .pending = try await client.poll(&authorization) else {
                Issue.record("the refused try approved the login")
                return
            }
        }
    }

    @Test func anExpiredCodeIsATypedError() async throws {
        var configuration = DevServerConfiguration()
        configuration.deviceCodeInterval = 1
        configuration.deviceCodeLifetime = 2
        try await RunningServer.with(configuration) { server in
            let client = try Self.client(server)
            var late = try await client.startDeviceAuthorization()
            try await Task.sleep(for: .seconds(2.2))
            do {
                _ = try await client.poll(&late)
                Issue.record("an expired code was accepted")
            } catch let error as OIDCError {
                #expect(error.code == .deviceCodeExpired)
                #expect(error.recoverySuggestion == .newHaapiFlow)
            }
            // The server says expired_token too, to a client that asks anyway.
            let raw = try await AsyncHTTPClientTransport().send(
                .form(
                    server.issuer.appendingPathComponent("oauth/device_authorization"),
                    parameters: [("client_id", "browser-app"), ("scope", "openid")]))
            let deviceCode = try #require(try JSONValue(parsing: raw.body)["device_code"]?.stringValue)
            try await Task.sleep(for: .seconds(2.2))
            let answer = try await AsyncHTTPClientTransport().send(
                .form(
                    server.issuer.appendingPathComponent("oauth/token"),
                    parameters: [("grant_type", TokenGrant.deviceCodeGrantType), ("device_code", deviceCode), ("client_id", "browser-app")])
            )
            #expect(try JSONValue(parsing: answer.body)["error"]?.stringValue == "expired_token")
        }
    }

    @Test func aDeniedLoginIsAccessDenied() async throws {
        // An interval no loaded machine takes between two polls in a row, so the second is too soon.
        var configuration = DevServerConfiguration()
        configuration.deviceCodeInterval = 30
        try await RunningServer.with(configuration) { server in
            let client = try Self.client(server)
            var authorization = try await client.startDeviceAuthorization()
            #expect(try await Self.answer(server, code: authorization.userCode, decision: "deny").status == 200)
            do {
                _ = try await client.poll(&authorization)
                Issue.record("a denied login went on")
            } catch let error as OIDCError {
                #expect(error.code == .accessDenied)
                #expect(error.serverError == "access_denied")
            }
        }
    }

    /// A client registered for HAAPI keeps to HAAPI: an attested one cannot even authenticate
    /// there, and one with a secret is refused the grant.
    @Test func anAttestedHaapiClientCannotUseTheDeviceGrant() async throws {
        try await RunningServer.with { server in
            do {
                _ = try await Self.client(server, authentication: .none(clientID: "haapi-attested")).startDeviceAuthorization()
                Issue.record("an attested client got device codes")
            } catch let error as OIDCError {
                #expect(error.code == .deviceAuthorizationFailed)
                #expect(error.serverError == "invalid_client")
                // The server's answer is kept as the cause, and its OAuth error decides the recovery.
                #expect((error.cause as? OAuthErrorResponse)?.error == "invalid_client")
                guard case .unrecoverable(action: .modifyConfiguration) = error.recoverySuggestion else {
                    Issue.record("a refused client is not a configuration problem: \(error.recoverySuggestion)")
                    return
                }
            }
            let secret = try #require(try await server.state.client("haapi-secret")?.clientSecret)
            let confidential = try Self.client(server, authentication: .clientSecretBasic(clientID: "haapi-secret", secret: secret))
            do {
                _ = try await confidential.startDeviceAuthorization()
                Issue.record("a HAAPI client got device codes")
            } catch let error as OIDCError {
                #expect(error.serverError == "unauthorized_client")
            }
        }
    }
}
