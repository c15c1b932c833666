import Foundation
import OAuthCore
import Testing

@Suite("Adding to a URL's query")
struct QueryTests {
    @Test func parametersGoAfterTheQueryAndBeforeTheFragment() {
        let url = URL(string: "https://op.example/authorize?prompt=login#top")!
        let added = url.appendingQuery([("scope", "openid profile"), ("state", "a+b&c=d/é")])
        #expect(added.absoluteString == "https://op.example/authorize?prompt=login&scope=openid%20profile&state=a%2Bb%26c%3Dd%2F%C3%A9#top")
        // Read back by the same decoder a server uses, every value is what was sent.
        let query = FormURLEncoding.decode(URLComponents(url: added, resolvingAgainstBaseURL: false)?.percentEncodedQuery ?? "")
        #expect(query.map(\.0) == ["prompt", "scope", "state"] && query.map(\.1) == ["login", "openid profile", "a+b&c=d/é"])
    }

    @Test func aURLWithoutAQueryGetsOneAndNothingAddedChangesNothing() {
        let url = URL(string: "https://as.example/token/cat")!
        #expect(url.appendingQuery([("client_id", "app")]).absoluteString == "https://as.example/token/cat?client_id=app")
        #expect(url.appendingQuery([]) == url)
    }
}

@Suite("Reading a URL's query")
struct QueryParameterTests {
    @Test func theFirstParameterOfANameWinsFormDecoded() {
        let url = URL(string: "app:/cb?code=a%2Bb&state=s+1&state=second&empty=&flag#state=fragment")!
        #expect(url.queryParameter("state") == "s 1")
        #expect(url.queryParameter("code") == "a+b")
        #expect(url.queryParameter("empty") == "" && url.queryParameter("flag") == "")
        #expect(url.queryParameter("missing") == nil)
        #expect(url.queryParameters.map(\.0) == ["code", "state", "state", "empty", "flag"])
    }
}
