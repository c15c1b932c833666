import Foundation
import HaapiTesting
import OAuthCore
import Testing

/// The findings of the second security review about the client (issue 28), each kept closed by
/// a test named after its item (the README's hardening table lists them).
@Suite("haapi api keeps the token to its origins; extreme numbers are typed errors", .serialized, .ownThreads)
struct CLITokenOriginAndNumberTests {
    /// Item 5: `haapi api` sends the profile's token to the provider's origin only, unless the
    /// call (`--allow-origin`) or the profile (`haapi login --api-origin`) names another; a
    /// foreign URL is refused before anything is sent, so its 401 cannot start a refresh; plain
    /// http to another machine needs `--allow-insecure-http`, as for login.
    @Test func apiSendsTheTokenToTheProvidersOriginOnly() async throws {
        let session = try CLITokenTests.LoggedIn()
        let refreshes = "request: POST /oauth/token grant_type=refresh_token"
        try await withServer(reply: { _ in .text(401, "", headers: [("WWW-Authenticate", #"DPoP error="invalid_token""#)]) }) { foreign in
            let origin = "http://127.0.0.1:\(foreign.port)"
            let tokens = try session.storedTokens()?["accessToken"] as? String

            let refused = try session.haapi(["api", origin + "/collect"])
            #expect(refused.status == 2, "\(refused.stderr)")
            #expect(
                refused.stderr.contains("is not the provider's origin") && refused.stderr.contains("--allow-origin \(origin)"),
                "\(refused.stderr)")
            #expect(foreign.requests.isEmpty, "\(foreign.requests.map(\.headers))")
            #expect(session.server.lines(prefix: refreshes).isEmpty)
            // Issue 56, item 11: curl's -X names the method, and the hint names the origin as a person writes it.
            let method = try session.haapi(["api", "-X", "POST", "https://api.example/items"])
            #expect(
                method.status == 2 && method.stderr.contains("--allow-origin https://api.example for this call")
                    && !method.stderr.contains(":443"), "\(method.stderr)")
            #expect(try session.storedTokens()?["accessToken"] as? String == tokens)

            // Allowed for one call: sent (and its 401 refreshes once, as the user trusts it).
            let allowed = try session.haapi(["api", "--allow-origin", origin, origin + "/collect"])
            #expect(allowed.status == 1, "\(allowed.stderr)")
            #expect(foreign.requests.first?.headers["Authorization"].first?.hasPrefix("DPoP ") == true)
            // The next call without the flag is refused again: the flag was for one call.
            let count = foreign.requests.count
            #expect(try session.haapi(["api", origin + "/collect"]).status == 2)
            #expect(foreign.requests.count == count)

            // Kept in the profile by a login with --api-origin: allowed without the flag.
            let answers = try CLITests.write(
                #"{"fields": {"userName": "demo", "password": "Password1"}, "choices": ["username-password"]}"#, to: session.directory)
            let login = try session.haapi([
                "login", "--issuer", session.server.issuer, "--client-id", "haapi-secret", "--scope", "openid profile offline_access",
                "--answers", answers, "--client-secret", session.secret, "--api-origin", origin,
            ])
            #expect(login.status == 0, "\(login.stderr)")
            #expect(try session.haapi(["api", origin + "/collect"]).status == 1)
            #expect(foreign.requests.count > count)
        }

        // http to another machine is refused unless allowed, like login's, before anything is sent.
        let insecure = try session.haapi(["api", "--allow-origin", "http://api.example", "http://api.example/items"])
        #expect(insecure.status == 2)
        #expect(insecure.stderr.contains("--allow-insecure-http"), "\(insecure.stderr)")
        let notAnOrigin = try session.haapi(["api", "--allow-origin", "https://api.example/path", "https://api.example/path"])
        #expect(notAnOrigin.status == 2)
        #expect(notAnOrigin.stderr.contains("--allow-origin takes an origin"), "\(notAnOrigin.stderr)")
    }

    /// Item 6: a device authorization with an `expires_in` or an `interval` of 1e300 (which
    /// trapped converting to Int, and in Task.sleep) ends `haapi login --device` with a typed
    /// error naming the member, exit 1.
    @Test(arguments: [(#""expires_in": 1e300, "interval": 5"#, "expires_in"), (#""expires_in": 600, "interval": 1e300"#, "interval")])
    func aProvidersExtremeNumbersAreTypedErrors(_ numbers: String, _ member: String) async throws {
        try await withServer(reply: { request in
            let issuer = "http://" + (request.headers["Host"].first ?? "")
            switch request.path {
            case "/.well-known/openid-configuration":
                return .text(
                    200,
                    #"{"issuer":"\#(issuer)","authorization_endpoint":"\#(issuer)/authorize","token_endpoint":"\#(issuer)/token","device_authorization_endpoint":"\#(issuer)/device","jwks_uri":"\#(issuer)/jwks"}"#,
                    headers: [("Content-Type", "application/json")])
            case "/device":
                return .text(
                    200, #"{"device_code":"d","user_code":"BCDF-GHJK","verification_uri":"\#(issuer)/activate",\#(numbers)}"#,
                    headers: [("Content-Type", "application/json")])
            default:
                return .text(404, "")
            }
        }) { provider in
            let directory = try CLITests.temporaryDirectory()
            defer { try? FileManager.default.removeItem(at: directory) }
            let run = try CLITests.haapi(
                ["login", "--device", "--issuer", "http://127.0.0.1:\(provider.port)", "--client-id", "c"], home: directory)
            #expect(run.status == 1, "\(run.status): \(run.stderr)")
            #expect(run.stderr.contains("the device login failed") && run.stderr.contains("\(member) ("), "\(run.stderr)")
        }
    }
}
