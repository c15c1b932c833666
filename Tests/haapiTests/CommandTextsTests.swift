import Foundation
import HaapiCLICore
import OAuthCore
import Testing

/// The command line's own texts (Resources/Commands-*.strings): each key in English and Swedish,
/// with the same placeholders.
@Suite struct CommandTextsTests {
    @Test func everyKeyHasAnEnglishAndASwedishTextWithTheSamePlaceholders() throws {
        let (english, swedish) = (Texts.table("en"), Texts.table("sv"))
        #expect(english.texts.count == Texts.Key.allCases.count, "a text whose key is not in Texts.Key")
        #expect(swedish.texts.count == Texts.Key.allCases.count, "a text whose key is not in Texts.Key")
        func markers(_ text: String) -> Int { text.components(separatedBy: "%").count - 1 }
        for key in Texts.Key.allCases {
            let en = try #require(english.texts[key.rawValue], "no English text for \(key.rawValue)")
            let sv = try #require(swedish.texts[key.rawValue], "no Swedish text for \(key.rawValue)")
            #expect(markers(en) == markers(sv), "\(key.rawValue): \(en) / \(sv)")
        }
        #expect(english.texts[Texts.Key.commandWarning.rawValue] == "haapi: warning: %@")
        #expect(swedish.texts[Texts.Key.commandWarning.rawValue] == "haapi: varning: %@")
    }

    @Test func argumentsTakeThePlaceOfTheirMarkersAndAreNotFormattedAgain() {
        let line = Texts.line(.browserOpened, PrintableText("%@"), PrintableText("http://127.0.0.1:1/cb"))
        #expect(line.description.contains("%@") && line.description.contains("http://127.0.0.1:1/cb"))
        #expect(!line.description.contains(Texts.Key.browserOpened.rawValue), "the key, shown for want of a text")
    }
}
