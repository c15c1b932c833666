import Foundation
import OAuthCore

/// The command line's own texts in the user's language (English or Swedish, from `LANGUAGE`,
/// `LC_ALL`, `LC_MESSAGES` or `LANG`), from tables of its own, `Commands-en.strings` and
/// `Commands-sv.strings` (the kit's screens have theirs). Loaded at the first text needed, so
/// a `haapi token` that prints only its token never reads them.
package enum Texts {
    /// The keys of the command line's texts: each is its text's key in the tables, where its
    /// English text says what it is.
    package enum Key: String, CaseIterable, Sendable {
        // The login in the terminal: menus, questions, waits, the browser, QR codes and answer files.
        case chooseAuthenticator, chooseAction, chooseNumber, yesNoDefaultNo, yesNoDefaultYes, consentChooseScopes, waitingFor, retrying,
            bankIDScanOnOtherDevice, qrCodeShown, qrCodeNeedsQrencode, browserOpened, browserNotStarted, operationNotInTerminal,
            waitingForAnswerFile, errorLabel, warningLabel, refusedAnswers
        // The page the browser shows when it comes back to the terminal.
        case returnSignedInTitle, returnSignedIn, returnFailedTitle, returnFailed, returnSignedOutTitle, returnSignedOut
        // `haapi demo`, and the messages its server sends the user.
        case demoLogInAs, demoMessagesHint, demoServer, demoClaims, demoNotJwt, demoUserinfo, messageOneTimeCode, messageApprovalLink
        // Every command's error and warning lines.
        case commandError, commandWarning
        // `haapi status` and `haapi profiles`: a profile's state and what it holds.
        case statusLine, statusAs, stateLoggedIn, stateRefreshable, stateLoginNeeded, stateLoggedOut, stateMissing, stateBroken,
            statusIssuer, statusScope, statusScopeNone, statusExpires, statusExpiresIn, statusExpired, statusExpiresUnknown,
            statusBinding, statusBindingDpop, statusBindingBearer, statusRefresh, statusRefreshKept, statusRefreshNone, statusSecrets,
            secretsKeyring, secretsKeychain, secretsFiles, noSuchProfile
        // What a login and a refresh say they did.
        case summaryLoggedIn, summaryLoggedInAs, summaryToken, summaryExpiresIn, summaryScope, summaryRefreshToken, summaryKeptIn,
            summaryKeptInKeyring, summaryNotKept, refreshed, refreshSameToken, refreshRotated
    }

    /// The languages the command line has tables for.
    package static let languages = ["en", "sv"]

    /// The language in use: the first of the user's languages there is a table for, else English.
    package static let language = UserLanguages.negotiate(UserLanguages.preferred, available: languages) ?? "en"

    /// The table of `language` (one of ``languages``; English for any other).
    package static func table(_ language: String) -> StringTable {
        StringTable(strings: language == "sv" ? PackageResources.Commands_sv_strings : PackageResources.Commands_en_strings)
    }

    /// The table of ``language``, and English for a key it lacks: read at the first text asked.
    private static let tables: (chosen: StringTable, english: StringTable) = {
        let english = table("en")
        return (language == "en" ? english : table(language), english)
    }()

    /// The text of `key` in `language` (default ``language``), with `arguments` in place of its
    /// `%@` (in order) or `%1$@`, `%2$@`, ...; English for a key the language lacks, and the key
    /// itself for one neither table has.
    package static func string(_ key: Key, in language: String = Texts.language, _ arguments: String...) -> String {
        let chosen = language == Texts.language ? tables.chosen : table(language)
        return Placeholders.fill(chosen.texts[key.rawValue] ?? tables.english.texts[key.rawValue] ?? key.rawValue, arguments)
    }

    /// The text of `key` with `arguments` in place of its placeholders: our own words, with
    /// arguments already printable (escaped where they came from outside).
    package static func line(_ key: Key, _ arguments: PrintableText...) -> PrintableText {
        PrintableText(own: Placeholders.fill(string(key), arguments.map(\.description)))
    }

    /// Writes a warning to standard error, prefixed as every warning of the command line is
    /// (`haapi: warning: `, in the user's language).
    package static func warn(_ text: PrintableText) { Stderr.line(line(.commandWarning, text)) }
}
