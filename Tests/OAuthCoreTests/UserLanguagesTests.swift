import OAuthCore
import Testing

/// The user's languages as tags and as an `Accept-Language` header, and the header read back
/// (RFC 9110 §12.5.4; tags per BCP 47).
@Suite struct UserLanguagesTests {
    @Test func systemNamesBecomeTags() {
        #expect(UserLanguages.languageTag("sv_SE.UTF-8") == "sv-SE")
        #expect(UserLanguages.languageTag("sv_SE@euro") == "sv-SE")
        #expect(UserLanguages.languageTag("en-US") == "en-US")
        #expect(UserLanguages.languageTag("sv") == "sv")
        #expect(UserLanguages.languageTag("zh-Hant-TW") == "zh-Hant-TW")
        // Nothing that is not a tag reaches a header: empty, a digit first, header syntax, too long.
        for name in ["", "1en", "en\r\nX-Injected: 1", "sv;q=1", "en--US", "abcdefghi", "en-US,fr", "ä"] {
            #expect(UserLanguages.languageTag(name) == nil, "\(name)")
        }
    }

    @Test func theHeaderListsEachTagOnceWithFallingWeights() {
        #expect(UserLanguages.acceptLanguage(["sv_SE.UTF-8", "en_GB.UTF-8", "en-US"]) == "sv-SE, en-GB;q=0.9, en-US;q=0.8")
        #expect(UserLanguages.acceptLanguage(["sv_SE.UTF-8", "sv-SE", "SV-se", "sv"]) == "sv-SE, sv;q=0.9")
        #expect(UserLanguages.acceptLanguage(["bad value", "fr"]) == "fr")
        #expect(UserLanguages.acceptLanguage([]) == nil)
        #expect(UserLanguages.acceptLanguage(["C", "x y"]) == nil)
        let many = UserLanguages.acceptLanguage(["a", "b", "c", "d", "e", "f", "g", "h"].map { "\($0)\($0)" })
        #expect(many == "aa, bb;q=0.9, cc;q=0.8, dd;q=0.7, ee;q=0.6, ff;q=0.5")
    }

    @Test func aHeaderIsReadByWeightThenOrder() {
        #expect(UserLanguages.ranges(acceptLanguage: "da, en-GB;q=0.8, en;q=0.7") == ["da", "en-gb", "en"])
        #expect(UserLanguages.ranges(acceptLanguage: "en;q=0.5, sv-SE, *;q=0.1") == ["sv-se", "en", "*"])
        // Weight 0 means "not this"; a malformed weight or range is left out, not guessed at.
        #expect(UserLanguages.ranges(acceptLanguage: "sv;q=0, en") == ["en"])
        #expect(UserLanguages.ranges(acceptLanguage: "sv;q=2, de;q=abc, ;q=1, fr") == ["fr"])
        #expect(UserLanguages.ranges(acceptLanguage: "") == [])
    }

    @Test func negotiationMatchesByPrimaryLanguage() {
        let available = ["en", "sv"]
        #expect(UserLanguages.negotiate(["sv-se"], available: available) == "sv")
        #expect(UserLanguages.negotiate(["sv_SE.UTF-8"], available: available) == "sv")
        #expect(UserLanguages.negotiate(["de", "fr", "sv"], available: available) == "sv")
        #expect(UserLanguages.negotiate(["*"], available: available) == "en")
        #expect(UserLanguages.negotiate(["de"], available: available) == nil)
        #expect(UserLanguages.negotiate([], available: available) == nil)
    }
}
