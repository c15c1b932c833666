import Foundation
import HaapiUI
import Testing

/// The kit's `hui_*` texts: English and Swedish tables, the app's table first, plurals.
@Suite struct LocalizableStringsTests {
    @Test func everyKeyHasAnEnglishAndASwedishText() {
        let english = LocalizableStrings(languages: ["en-US"], appTable: { _ in nil })
        let swedish = LocalizableStrings(languages: ["sv_SE.UTF-8"], appTable: { _ in nil })
        #expect(english.language == "en" && swedish.language == "sv")
        for key in LocalizableStrings.Key.allCases {
            // A key with no text comes back as itself: none may, in either language.
            #expect(english.string(key) != key.rawValue, "no English text for \(key.rawValue)")
            #expect(swedish.string(key) != key.rawValue, "no Swedish text for \(key.rawValue)")
        }
        for key in LocalizableStrings.PluralKey.allCases {
            #expect(!english.string(key, count: 2).contains("hui_"), "no English plural for \(key.rawValue)")
            #expect(!swedish.string(key, count: 2).contains("hui_"), "no Swedish plural for \(key.rawValue)")
        }
        #expect(english.string(.back) == "Back")
        #expect(swedish.string(.back) == "Tillbaka")
    }

    @Test func theFirstLanguageTheKitHasWinsAndEnglishIsTheFallback() {
        #expect(LocalizableStrings(languages: ["fi-FI", "sv-FI", "en"], appTable: { _ in nil }).language == "sv")
        #expect(LocalizableStrings(languages: ["de-DE"], appTable: { _ in nil }).language == "en")
        #expect(LocalizableStrings(languages: [], appTable: { _ in nil }).language == "en")
    }

    @Test func pluralsCountInBothLanguages() {
        let english = LocalizableStrings(languages: ["en"], appTable: { _ in nil })
        let swedish = LocalizableStrings(languages: ["sv"], appTable: { _ in nil })
        #expect(english.string(.pollingMinutes, count: 1) == "1 minute")
        #expect(english.string(.pollingMinutes, count: 3) == "3 minutes")
        #expect(english.string(.pollingSecondsRemaining, count: 0) == "0 seconds left")
        #expect(swedish.string(.pollingSeconds, count: 1) == "1 sekund")
        #expect(swedish.string(.pollingMinutesRemaining, count: 5, 7) == "5 minuter och 7 sekunder kvar")
        #expect(english.string(.pollingMinutesRemaining, count: 1) == "1 minute and 0 seconds left", "a missing count reads 0, never a gap")
    }

    @Test func theAppsTableWinsKeyByKeyAndAddsItsOwnKeys() {
        let table = ["hui_back": "Return", "hui_polling_minutes": "%d min", "app_greeting": "Welcome"]
        let strings = LocalizableStrings(languages: ["sv"], appTable: { table[$0] })
        #expect(strings.string(.back) == "Return")
        #expect(strings.string(.cancel) == "Avbryt")
        #expect(strings.string(.pollingMinutes, count: 4) == "4 min")
        #expect(strings.string(forKey: "app_greeting") == "Welcome")
        #expect(strings.string(forKey: "hui_unknown_key") == "hui_unknown_key")
    }
}

/// Texts with arguments, and yes-or-no answers, in both languages.
@Suite struct LocalizableStringsFormattingTests {
    @Test func argumentsTakeThePlaceOfTheirMarkersInOrderOrByPosition() {
        let english = LocalizableStrings(languages: ["en"], appTable: { _ in nil })
        let swedish = LocalizableStrings(languages: ["sv"], appTable: { _ in nil })
        #expect(english.string(.problemNoRoutesMessage, "The step") == "The step offers no way to go on. Start the login again.")
        #expect(swedish.string(.problemNoRoutesMessage, "Steget") == "Steget erbjuder inget sätt att fortsätta. Börja om inloggningen.")
        #expect(english.string(.fieldError, "Username", "Required") == "Username. Error: Required")
        #expect(swedish.string(.fieldError, "Användarnamn", "Krävs") == "Användarnamn. Fel: Krävs")
        // A translation may put the arguments in another order.
        let reordered = LocalizableStrings(languages: ["en"], appTable: { $0 == "haapi_field_error" ? "%2$@ (%1$@)" : nil })
        #expect(reordered.string(.fieldError, "Username", "Required") == "Required (Username)")
        // An argument holding a marker is not formatted again.
        #expect(english.string(.fieldError, "%@", "x") == "%@. Error: x")
    }

    @Test func yesIsTheLanguagesLetterOrY() {
        let english = LocalizableStrings(languages: ["en"], appTable: { _ in nil })
        let swedish = LocalizableStrings(languages: ["sv"], appTable: { _ in nil })
        #expect(english.isYes("y") && english.isYes(" Yes") && !english.isYes("j") && !english.isYes("") && !english.isYes("n"))
        #expect(swedish.isYes("j") && swedish.isYes("Ja") && swedish.isYes("y") && !swedish.isYes("nej") && !swedish.isYes(""))
    }
}
