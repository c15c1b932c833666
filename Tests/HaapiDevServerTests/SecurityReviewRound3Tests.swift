import DevServerTestSupport
import Foundation
@testable import HaapiDevServer
import HaapiSDK
import OAuthCore
import OAuthTransportNIO
import Testing

/// The development server's findings of the third security review (issue 35), each kept closed
/// by a test named after it.
@Suite("Security review, round 3: the development server")
struct SecurityReviewRound3ServerTests {
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
}
