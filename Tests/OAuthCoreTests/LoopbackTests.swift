import Foundation
import OAuthCore
import Testing

/// The one definition of loopback the package uses (RFC 8252 §7.3, §8.3).
@Suite struct LoopbackTests {
    @Test(arguments: ["127.0.0.1", "::1", "[::1]"])
    func ipLiteralsAreLoopbackEverywhere(_ host: String) {
        #expect(Loopback.isIPLiteral(host))
        #expect(Loopback.isHost(host))
    }

    @Test func localhostNamesThisMachineButIsNoIPLiteral() {
        // A server letting the port vary must not do it for a name that may resolve elsewhere.
        #expect(Loopback.isHost("LocalHost"))
        #expect(!Loopback.isIPLiteral("localhost"))
    }

    @Test(arguments: [nil, "", "example.com", "127.0.0.1.example.com", "localhost.example.com", "0.0.0.0", "::"])
    func otherHostsAreNot(_ host: String?) {
        #expect(!Loopback.isHost(host))
    }

    @Test func plainHTTPToThisMachineOnly() throws {
        #expect(Loopback.isHTTP(try #require(URL(string: "http://127.0.0.1:8443/cb"))))
        #expect(Loopback.isHTTP(try #require(URL(string: "HTTP://[::1]/cb"))))
        #expect(!Loopback.isHTTP(try #require(URL(string: "https://127.0.0.1/cb"))))
        #expect(!Loopback.isHTTP(try #require(URL(string: "http://idsvr.example/cb"))))
    }
}
