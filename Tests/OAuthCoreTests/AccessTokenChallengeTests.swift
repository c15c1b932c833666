import Foundation
import OAuthCore
import Testing

/// Reading a resource server's 401 (RFC 6750 §3, RFC 9449 §7.1).
@Suite struct AccessTokenChallengeTests {
    private func answer(_ status: Int, _ challenges: [String]) -> TransportResponse {
        var headers = HeaderFields()
        for challenge in challenges { headers.add(name: "WWW-Authenticate", value: challenge) }
        return TransportResponse(status: status, headers: headers, url: URL(string: "https://api.example/")!)
    }

    @Test func parametersQuotedOrNotAndOnlyWholeNames() throws {
        let quoted = try #require(
            AccessTokenChallenge(answer(401, [#"Bearer realm="api", error="invalid_token", error_description="the token expired""#])))
        #expect(quoted.error == "invalid_token" && quoted.errorDescription == "the token expired")
        let bare = try #require(AccessTokenChallenge(answer(401, ["DPoP algs=\"ES256\",error=use_dpop_nonce"])))
        #expect(bare.error == "use_dpop_nonce" && bare.errorDescription == nil)
        // `dpop_error=` or `xerror=` are other parameters; a second header still counts.
        let other = try #require(AccessTokenChallenge(answer(401, [#"Bearer xerror="no""#, #"DPoP error="invalid_token""#])))
        #expect(other.error == "invalid_token")
    }

    @Test func onlyA401IsAChallenge() {
        #expect(AccessTokenChallenge(answer(403, [#"Bearer error="insufficient_scope""#])) == nil)
        #expect(AccessTokenChallenge(answer(200, [])) == nil)
    }

    @Test(arguments: [
        ([#"Bearer error="invalid_token""#], true), (["DPoP"], true), ([], true),
        ([#"DPoP error="use_dpop_nonce""#], false), ([#"DPoP error="invalid_dpop_proof""#], false),
        ([#"Bearer error="insufficient_scope""#], false),
    ])
    func aNewTokenHelpsOnlyWhenTheTokenWasRefused(challenges: [String], helps: Bool) throws {
        #expect(try #require(AccessTokenChallenge(answer(401, challenges))).asksForNewToken == helps)
    }
}
