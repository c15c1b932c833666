import Foundation
import OAuthCore

/// The command line's own texts in the user's language (English or Swedish, from `LANGUAGE`,
/// `LC_ALL`, `LC_MESSAGES` or `LANG`): the `haapi_*` keys of its own tables, `Commands-en.strings`
/// and `Commands-sv.strings` (the kit's screens have theirs). Loaded at the first text needed, so
/// a `haapi token` that prints only its token never reads them.
package enum Texts {
    /// The keys of the command line's texts.
    package enum Key: String, CaseIterable, Sendable {
        /// The heading over a choice of authenticators.
        case chooseAuthenticator = "haapi_choose_authenticator"
        /// The heading over a choice of actions.
        case chooseAction = "haapi_choose_action"
        /// The terminal's prompt for a number, 1 to `%@`.
        case chooseNumber = "haapi_choose_number"
        /// The terminal's yes-or-no hint when no is the default (`[y/N]`).
        case yesNoDefaultNo = "haapi_yes_no_default_no"
        /// The terminal's yes-or-no hint when yes is the default (`[Y/n]`).
        case yesNoDefaultYes = "haapi_yes_no_default_yes"
        /// The heading over the scopes of a consent form.
        case consentChooseScopes = "haapi_consent_choose_scopes"
        /// The text shown while polling, with what is awaited in place of `%@`.
        case waitingFor = "haapi_waiting_for"
        /// The text shown when a request is tried again, with the cause in place of `%@`.
        case retrying = "haapi_retrying"
        /// The text that offers to scan BankID's QR code on another device.
        case bankIDScanOnOtherDevice = "haapi_bankid_scan_on_other_device"
        /// The terminal's line over a QR code.
        case qrCodeShown = "haapi_qr_code_shown"
        /// The terminal's line when `qrencode` is missing to draw a QR code.
        case qrCodeNeedsQrencode = "haapi_qr_code_needs_qrencode"
        /// The terminal's line once a browser is opened: the opener, then where it will come back.
        case browserOpened = "haapi_browser_opened"
        /// The terminal's line when no browser could be started.
        case browserNotStarted = "haapi_browser_not_started"
        /// The terminal's line for a client operation (`%@`) a terminal cannot perform.
        case operationNotInTerminal = "haapi_operation_not_in_terminal"
        /// The terminal's line while it waits for an answer (`%@`) to be written in a file (`%@`).
        case waitingForAnswerFile = "haapi_waiting_for_answer_file"
        /// The terminal's `error:` label.
        case errorLabel = "haapi_error_label"
        /// The terminal's `warning:` label.
        case warningLabel = "haapi_warning_label"
        /// The title of the page a browser shows after a login, back from it to the terminal.
        case returnSignedInTitle = "haapi_return_signed_in_title"
        /// That page's text after a login.
        case returnSignedIn = "haapi_return_signed_in"
        /// The title of that page when the login failed.
        case returnFailedTitle = "haapi_return_failed_title"
        /// That page's text when the login failed.
        case returnFailed = "haapi_return_failed"
        /// The title of that page after a logout.
        case returnSignedOutTitle = "haapi_return_signed_out_title"
        /// That page's text after a logout.
        case returnSignedOut = "haapi_return_signed_out"
        /// The demo's hint: the user name and password to log in with.
        case demoLogInAs = "haapi_demo_log_in_as"
        /// The demo's hint on BankID's personal number and on where its messages appear.
        case demoMessagesHint = "haapi_demo_messages_hint"
        /// The command line's error line (`haapi: error: %@`).
        case commandError = "haapi_error"
        /// The command line's warning line (`haapi: warning: %@`).
        case commandWarning = "haapi_warning"
        /// The error when the server refused the answers given on the command line.
        case refusedAnswers = "haapi_refused_answers"
        /// The demo's line naming the development server's address.
        case demoServer = "haapi_demo_server"
        /// The demo's heading over the access token's claims.
        case demoClaims = "haapi_demo_claims"
        /// The demo's line when the access token is not a JWT.
        case demoNotJwt = "haapi_demo_not_jwt"
        /// The demo's heading over the userinfo, with its address in place of `%@`.
        case demoUserinfo = "haapi_demo_userinfo"
        /// `haapi status`'s first line: the profile, its state, and as whom.
        case statusLine = "haapi_status_line"
        /// The "as whom" part of that line.
        case statusAs = "haapi_status_as"
        /// The state of a profile with a valid access token.
        case stateLoggedIn = "haapi_state_logged_in"
        /// The state of a profile whose access token expired but can be refreshed.
        case stateRefreshable = "haapi_state_refreshable"
        /// The state of a profile that needs a login.
        case stateLoginNeeded = "haapi_state_login_needed"
        /// The state of a profile that logged out.
        case stateLoggedOut = "haapi_state_logged_out"
        /// The state of a profile name that does not exist.
        case stateMissing = "haapi_state_missing"
        /// The state of a profile that cannot be read.
        case stateBroken = "haapi_state_broken"
        /// `haapi status`'s issuer line, with the client ID.
        case statusIssuer = "haapi_status_issuer"
        /// `haapi status`'s scope line.
        case statusScope = "haapi_status_scope"
        /// The scope shown when the server gave none.
        case statusScopeNone = "haapi_status_scope_none"
        /// `haapi status`'s expiry line.
        case statusExpires = "haapi_status_expires"
        /// An expiry to come: the time, then how long until it.
        case statusExpiresIn = "haapi_status_expires_in"
        /// An expiry that is past.
        case statusExpired = "haapi_status_expired"
        /// An expiry the server did not give.
        case statusExpiresUnknown = "haapi_status_expires_unknown"
        /// `haapi status`'s token binding line.
        case statusBinding = "haapi_status_binding"
        /// A DPoP binding, with the key's thumbprint.
        case statusBindingDpop = "haapi_status_binding_dpop"
        /// No binding: a Bearer token.
        case statusBindingBearer = "haapi_status_binding_bearer"
        /// `haapi status`'s refresh token line.
        case statusRefresh = "haapi_status_refresh"
        /// A refresh token is kept.
        case statusRefreshKept = "haapi_status_refresh_kept"
        /// No refresh token is kept.
        case statusRefreshNone = "haapi_status_refresh_none"
        /// `haapi status`'s line on where the secrets are kept.
        case statusSecrets = "haapi_status_secrets"
        /// The secrets are in the Secret Service keyring.
        case secretsKeyring = "haapi_secrets_keyring"
        /// The secrets are in the macOS Keychain.
        case secretsKeychain = "haapi_secrets_keychain"
        /// The secrets are in files only the user can read.
        case secretsFiles = "haapi_secrets_files"
        /// The login summary: when.
        case summaryLoggedIn = "haapi_summary_logged_in"
        /// The login summary: as whom and when.
        case summaryLoggedInAs = "haapi_summary_logged_in_as"
        /// The login summary: the token's type.
        case summaryToken = "haapi_summary_token"
        /// The login summary: the token, and its lifetime in seconds.
        case summaryExpiresIn = "haapi_summary_expires_in"
        /// The login summary: the scope.
        case summaryScope = "haapi_summary_scope"
        /// The login summary: a refresh token came too.
        case summaryRefreshToken = "haapi_summary_refresh_token"
        /// The login summary: the profile it is kept in.
        case summaryKeptIn = "haapi_summary_kept_in"
        /// The login summary: the profile, and the store of its secrets.
        case summaryKeptInKeyring = "haapi_summary_kept_in_keyring"
        /// `haapi refresh`: the profile whose tokens were refreshed.
        case refreshed = "haapi_refreshed"
        /// `haapi refresh`: the server sent the same refresh token again.
        case refreshSameToken = "haapi_refresh_same_token"
        /// `haapi refresh`: the server sent a new refresh token.
        case refreshRotated = "haapi_refresh_rotated"
        /// A command names a profile that does not exist: its name, and the profiles there are.
        case noSuchProfile = "haapi_no_such_profile"
        /// The login summary: the tokens are not kept.
        case summaryNotKept = "haapi_summary_not_kept"
        /// The demo server's message carrying a one-time code: to whom, by what, the code.
        case messageOneTimeCode = "haapi_message_one_time_code"
        /// The demo server's message carrying the link that approves a login.
        case messageApprovalLink = "haapi_message_approval_link"
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

    /// The text of `key` with `arguments` in place of its `%@` (in order) or `%1$@`, `%2$@`, ...;
    /// a key neither table has is shown as itself.
    package static func string(_ key: Key, _ arguments: String...) -> String {
        Placeholders.fill(tables.chosen.texts[key.rawValue] ?? tables.english.texts[key.rawValue] ?? key.rawValue, arguments)
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
