import Foundation
import HaapiDevServer
import HaapiSDK
import HaapiServerTesting
import HaapiTesting
import OAuthCore
import OAuthTransportNIO
import Testing

/// The development server words its HAAPI steps, problems and pages in the language a request
/// asks for (`ui_locales`, then `Accept-Language`), English or Swedish, and says which.
@Suite struct ServerLanguageTests {
    static func get(_ server: RunningServer, _ path: String, language: String?) async throws -> (TransportResponse, String) {
        var headers: HeaderFields = [:]
        if let language { headers["Accept-Language"] = language }
        let response = try await AsyncHTTPClientTransport().send(
            TransportRequest(url: URL(string: server.issuer.absoluteString + path)!, headers: headers))
        return (response, String(decoding: response.body, as: UTF8.self))
    }

    @Test func theDevicePageSpeaksTheBrowsersLanguage() async throws {
        try await RunningServer.with { server in
            let (swedish, page) = try await Self.get(server, "/device", language: "sv-SE,sv;q=0.9,en;q=0.8")
            #expect(swedish.headers["Content-Language"] == "sv")
            #expect(page.contains(#"<html lang="sv">"#) && page.contains("<title>Logga in en enhet</title>"), "\(page)")
            #expect(page.contains("<label>Användarnamn <input") && page.contains(">Fortsätt</button>"), "\(page)")
            // The page's words, not its style sheet's selectors (`MessageView.Username`).
            #expect(!(page.components(separatedBy: "</style>").last ?? page).contains("Username"), "\(page)")

            let (english, englishPage) = try await Self.get(server, "/device", language: nil)
            #expect(english.headers["Content-Language"] == "en")
            #expect(englishPage.contains(#"<html lang="en">"#) && englishPage.contains("<title>Sign in a device</title>"), "\(englishPage)")

            // A language the server lacks is English; ui_locales wins over the header.
            #expect(try await Self.get(server, "/device", language: "de-DE, fr;q=0.5").1.contains("<title>Sign in a device</title>"))
            #expect(try await Self.get(server, "/device?ui_locales=sv%20en", language: "en").1.contains("<title>Logga in en enhet</title>"))
            // A malformed header is no language at all.
            #expect(try await Self.get(server, "/device", language: "sv;q=oops, ;;,").1.contains("<title>Sign in a device</title>"))
        }
    }

    @Test func aSignOutPageAndAnErrorPageAreTranslatedWithWhatTheyQuote() async throws {
        try await RunningServer.with { server in
            let (_, confirm) = try await Self.get(server, "/oauth/end-session?client_id=browser-app", language: "sv")
            #expect(confirm.contains("<title>Logga ut?</title>") && confirm.contains("browser-app ber om att logga ut dig."), "\(confirm)")
            #expect(confirm.contains(">Logga ut</button>"), "\(confirm)")
            let (failed, refused) = try await Self.get(server, "/oauth/end-session?id_token_hint=x.y.z", language: "sv")
            #expect(failed.status == 400)
            #expect(
                refused.contains("Utloggningen misslyckades")
                    && refused.contains("id_token_hint är inte en ID-token från den här servern."), "\(refused)")
        }
    }

    /// A HAAPI problem carries its language, and what the server quotes (a client id) stays as it is.
    @Test func aHaapiStepSaysItsLanguage() async throws {
        try await RunningServer.with { server in
            let client = try HaapiTestClient(server)
            let query =
                "?client_id=haapi-attested&response_type=code&redirect_uri=\(HaapiTestClient.appRedirect)&scope=openid&ui_locales=sv"
            let authorize = try await client.send("GET", "/oauth/authorize" + query)
            #expect(authorize.headers["Content-Language"] == "sv")
            let session = try #require(authorize.headers["Set-Session-Id"])
            // The flow keeps the authorization request's language, whatever later requests ask.
            let step = try await client.send("GET", "/authn/authenticate", sessionID: session)
            #expect(step.headers["Content-Language"] == "sv")
            let body = String(decoding: step.body, as: UTF8.self)
            #expect(body.contains(#""actionTitle":"Logga in""#) && body.contains(#""label":"Användarnamn""#), "\(body)")
            let problem = try await client.send(
                "POST", "/authn/authenticate/username-password", sessionID: session, form: [("userName", ""), ("password", "")])
            let text = String(decoding: problem.body, as: UTF8.self)
            #expect(
                problem.status == 400 && text.contains(#""title":"Fel i formuläret""#) && text.contains("Du måste ange ditt användarnamn"),
                "\(text)")
        }
    }
}
