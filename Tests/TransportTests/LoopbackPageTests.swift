import Foundation
import OAuthCore
import OAuthTransportNIO
import Testing

/// The page the loopback listener shows the browser says what happened: a sign-in, a sign-in
/// that failed, or a sign-out (issue 27: the logged-out page was titled "Signed in").
@Suite struct LoopbackPageTests {
    @Test(arguments: [
        ("/callback", "code=c0de&state=s1", "<title>Signed in</title>"),
        // A HAAPI browser step comes back with its nonce: the login goes on (issue 38: it said "Signed out").
        ("/callback", "_resume_nonce=n0nce", "<title>Signed in</title>"),
        ("/callback", "error=access_denied&state=s1", "<title>Sign-in not completed</title>"),
        ("/logged-out", "state=s1", "<title>Signed out</title>"),
    ])
    func thePageSaysWhatHappened(path: String, query: String, title: String) async throws {
        let listener = try await LoopbackRedirectListener.start(port: 0, path: path)
        let transport = try AsyncHTTPClientTransport()
        let url = try #require(URL(string: "http://127.0.0.1:\(listener.port)\(path)?\(query)"))
        let response = try await transport.send(TransportRequest(method: "GET", url: url))
        let page = String(decoding: response.body, as: UTF8.self)
        #expect(response.status == 200)
        #expect(page.contains(title), "\(page)")
        #expect(await listener.redirect() == url)
        await listener.close()
    }
}
