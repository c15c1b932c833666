import Foundation

/// The UI kit's user-facing texts, by the `hui_*` keys of Curity's UI kit (the seeds'
/// `LocalizableStrings`).
///
/// A text comes from the app's own table when it has the key (on Apple platforms the main
/// bundle's `Localizable.strings` and `.stringsdict`, as an app translates any key), else from the
/// kit's table for the first of the user's languages it has (English and Swedish), else from
/// English. A key nobody has is shown as itself, so a missing translation is visible, never blank.
public struct LocalizableStrings: Sendable {
    /// The keys of single texts.
    public enum Key: String, CaseIterable, Sendable {
        /// The common button Back.
        case back = "hui_back"
        /// The common button Cancel.
        case cancel = "hui_cancel"
        /// The common button Done.
        case done = "hui_done"
        /// The common button OK.
        case ok = "hui_ok"
        /// The "or" between two choices.
        case or = "hui_or"
        /// The title of the question asked before leaving a login half way.
        case interruptingTitle = "hui_haapi_flow_interrupting_title"
        /// The message of that question: the login will have to start again.
        case interruptingMessage = "hui_haapi_flow_interrupting_message"
        /// The button that leaves the login.
        case interruptingConfirm = "hui_haapi_flow_interrupting_confirm"
        /// The button that stays in the login.
        case interruptingCancel = "hui_haapi_flow_interrupting_cancel"
        /// The message shown when the server made the login start over.
        case restartRequiredMessage = "hui_haapi_flow_restart_required_message"
        /// The title shown when a step offers no way to go on.
        case problemNoRoutes = "hui_problem_no_routes"
        /// Its message, with the step's name in place of `%@`.
        case problemNoRoutesMessage = "hui_problem_no_routes_message"
        /// The title shown when the login stopped on an error.
        case developerRuntimeTitle = "hui_dev_runtime_title"
        /// Its message, with the error in place of `%@`.
        case developerRuntimeMessage = "hui_dev_runtime_message"
        /// The title shown for a step this app cannot show.
        case developerUnsupportedTitle = "hui_dev_unsupported_title"
        /// Its message, with the step's name in place of `%@`.
        case developerUnsupportedMessage = "hui_dev_unsupported_message"
        /// The message shown when no installed app opens a link's scheme (`%@`).
        case appSchemeNotInstalled = "hui_app_scheme_is_not_installed"
        /// The title over BankID's QR code, to scan on another device.
        case bankIDInstructionTitle = "hui_bankid_instruction_title_1"
        /// The instructions under it.
        case bankIDInstructionBody = "hui_bankid_instruction_body_1"
        /// The button that copies a device flow's user code.
        case userCodeCopyButton = "hui_user_code_copy_button"
        /// The message shown when the device cannot use passkeys.
        case passkeysNotSupported = "hui_webauth_passkeys_not_supported"
        /// The message of the passkey choice (one on this device or in a password manager).
        case webAuthnPlatformMessage = "hui_webauthn_platform_message_text"
        /// The button of the passkey choice.
        case webAuthnPlatformButton = "hui_webauthn_platform_button_text"
        /// The message of the security-key choice.
        case webAuthnCrossPlatformMessage = "hui_webauthn_crossplatform_message_text"
        /// The button of the security-key choice.
        case webAuthnCrossPlatformButton = "hui_webauthn_crossplatform_button_text"
        /// The message shown once a passkey is registered.
        case webAuthnRegistrationSuccessMessage = "hui_webauthn_registration_success_message_text"
        /// The message shown when the account has no passkey here.
        case webAuthnNoCredentialsMessage = "hui_webauthn_no_credentials_message_text"
        /// The message shown when the passkey step was cancelled or timed out.
        case webAuthnRetryMessage = "hui_webauthn_retry_message_text"
        /// The button that tries the passkey step again.
        case webAuthnRetryButton = "hui_webauthn_retry_button_text"
        /// The message shown when the passkey could not be used, offering the browser.
        case webAuthnErrorMessage = "hui_webauthn_error_message_text"
        /// The button that goes on in the browser.
        case webAuthnErrorButton = "hui_webauthn_error_button_text"
        /// The message shown when the app's associated domains do not allow passkeys with the server.
        case webAuthnAppAssociationErrorMessage = "hui_webauthn_app_association_error_message_text"
        // This package's own texts (`haapi_*`), for the screens and the terminal.
        /// The heading over a choice of several items.
        case choose = "haapi_choose"
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
        /// The letters that mean yes in the user's language (``isYes(_:)`` reads them).
        case yesLetters = "haapi_yes_letters"
        /// The mark of a required field.
        case required = "haapi_required"
        /// The text of a field the server found invalid.
        case fieldInvalid = "haapi_field_invalid"
        /// The heading over the scopes of a consent form.
        case consentChooseScopes = "haapi_consent_choose_scopes"
        /// The text shown while polling.
        case waiting = "haapi_waiting"
        /// The text shown while polling, with what is awaited in place of `%@`.
        case waitingFor = "haapi_waiting_for"
        /// The button that polls at once.
        case checkNow = "haapi_check_now"
        /// The button of a step's way on that the server left untitled (a redirect, a continue).
        case continueLogin = "haapi_continue"
        /// The button of a login form that the server left untitled.
        case logIn = "haapi_log_in"
        /// The title of a user name field that the server left unlabelled.
        case fieldUsername = "haapi_field_username"
        /// The title of a password field that the server left unlabelled.
        case fieldPassword = "haapi_field_password"
        /// The title of an email address field that the server left unlabelled.
        case fieldEmail = "haapi_field_email"
        /// The title of a phone number field that the server left unlabelled.
        case fieldPhone = "haapi_field_phone"
        /// What VoiceOver says of an image of the server's that has no title.
        case imageFromServer = "haapi_image_from_server"
        /// In place of an image that is not shown: its URL is neither `https` nor a `data:` image.
        case imageNotHTTPS = "haapi_image_not_https"
        /// In place of an image that is not shown: it is too large.
        case imageTooLarge = "haapi_image_too_large"
        /// In place of an image that is not shown: its bytes are no image.
        case imageNotAnImage = "haapi_image_not_an_image"
        /// In place of an image that is not shown: the server did not send it.
        case imageNotLoaded = "haapi_image_not_loaded"
        /// What a screen is, for a gallery of screens: a form (`haapi preview`'s index).
        case screenForm = "haapi_screen_form"
        /// A choice of authenticator.
        case screenSelector = "haapi_screen_selector"
        /// A wait.
        case screenPolling = "haapi_screen_polling"
        /// BankID.
        case screenBankID = "haapi_screen_bankid"
        /// Passkeys.
        case screenWebAuthn = "haapi_screen_webauthn"
        /// A problem.
        case screenProblem = "haapi_screen_problem"
        /// Any other step.
        case screenGeneric = "haapi_screen_generic"
        /// The text shown when a request is tried again, with the cause in place of `%@`.
        case retrying = "haapi_retrying"
        /// The button that opens BankID on this device.
        case bankIDOpenOnThisDevice = "haapi_bankid_open_on_this_device"
        /// The text that offers to scan BankID's QR code on another device.
        case bankIDScanOnOtherDevice = "haapi_bankid_scan_on_other_device"
        /// The terminal's line over a QR code.
        case qrCodeShown = "haapi_qr_code_shown"
        /// The terminal's line when `qrencode` is missing to draw a QR code.
        case qrCodeNeedsQrencode = "haapi_qr_code_needs_qrencode"
        /// The button that goes on with the login in a browser.
        case continueInBrowser = "haapi_continue_in_browser"
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
        /// What VoiceOver says of a checked box.
        case checked = "haapi_checked"
        /// What VoiceOver says of an unchecked box.
        case notChecked = "haapi_not_checked"
        /// What VoiceOver says of the button that shows a password.
        case showPassword = "haapi_show_password"
        /// What VoiceOver says of the button that hides a password.
        case hidePassword = "haapi_hide_password"
        /// What VoiceOver says of a field with an error: the field's label, then the error.
        case fieldError = "haapi_field_error"
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
        // The command line's errors, demo lines and status.
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

    /// The keys of texts with a count in them (`.stringsdict` plurals).
    public enum PluralKey: String, CaseIterable, Sendable {
        /// The time to wait, in minutes.
        case pollingMinutes = "hui_polling_minutes"
        /// The time to wait, in seconds.
        case pollingSeconds = "hui_polling_seconds"
        /// The time left to wait, in minutes and seconds.
        case pollingMinutesRemaining = "hui_polling_minutes_remaining"
        /// The time left to wait, in seconds.
        case pollingSecondsRemaining = "hui_polling_seconds_remaining"
    }

    /// The languages the kit has tables for.
    public static let kitLanguages = ["en", "sv"]

    /// The kit's language in use: the first of the user's languages it has, else English.
    public let language: String
    private let texts: [String: String]
    private let plurals: [String: Plural]
    private let appTable: @Sendable (String) -> String?

    /// The texts for `languages` (most preferred first; default: the user's, see
    /// ``preferredLanguages``), with `appTable` looked up first (default: the main bundle's
    /// `Localizable` table on Apple platforms, none elsewhere).
    public init(languages: [String] = LocalizableStrings.preferredLanguages, appTable: (@Sendable (String) -> String?)? = nil) {
        let language = UserLanguages.negotiate(languages, available: Self.kitLanguages) ?? "en"
        self.language = language
        texts = Self.kitTables[language]?.texts ?? [:]
        plurals = Self.kitTables[language]?.plurals ?? [:]
        self.appTable = appTable ?? Self.mainBundleTable
    }

    /// The text of `key`.
    public func string(_ key: Key) -> String { string(forKey: key.rawValue) }

    /// The text of `key` with `arguments` in place of its `%@` (in order) or `%1$@`, `%2$@`, ...
    /// (by position, as a translation may reorder them).
    public func string(_ key: Key, _ arguments: String...) -> String {
        Placeholders.fill(string(key), arguments)
    }

    /// Whether `reply` to a yes-or-no question means yes (`y`, or `j` in Swedish, whatever the case).
    public func isYes(_ reply: String) -> Bool {
        guard let first = reply.trimmingCharacters(in: .whitespaces).lowercased().first else { return false }
        return string(.yesLetters).lowercased().contains(first) || first == "y"
    }

    /// The text of any key (one an app adds for its own screens too).
    public func string(forKey key: String) -> String {
        appTable(key) ?? texts[key] ?? Self.kitTables["en"]?.texts[key] ?? key
    }

    /// The text of `key` for `count` ("1 minute", "3 minutes"); `more` fills the format's
    /// further `%d`s in order (`hui_polling_minutes_remaining` takes the seconds too).
    public func string(_ key: PluralKey, count: Int, _ more: Int...) -> String {
        string(forPluralKey: key.rawValue, count: count, more)
    }

    /// The text of any plural key (one a theme names), as ``string(_:count:_:)``.
    public func string(forPluralKey key: String, count: Int, _ more: Int...) -> String {
        string(forPluralKey: key, count: count, more)
    }

    private func string(forPluralKey key: String, count: Int, _ more: [Int]) -> String {
        if let format = appTable(key) {
            return String(format: format, locale: Locale(identifier: language), arguments: ([count] + more).map { $0 as CVarArg })
        }
        guard let plural = plurals[key] ?? Self.kitTables["en"]?.plurals[key] else {
            return ([key, String(count)] + more.map(String.init)).joined(separator: " ")
        }
        return plural.text(for: count, more)
    }

    /// The time left to wait, `seconds` of it: minutes and seconds from a minute up, else
    /// seconds ("2 minutes and 3 seconds left", "45 seconds left"), by the keys given (a theme's).
    public func timeLeft(
        seconds: Int, minutesKey: String = PluralKey.pollingMinutesRemaining.rawValue,
        secondsKey: String = PluralKey.pollingSecondsRemaining.rawValue
    ) -> String {
        let seconds = max(0, seconds)
        return seconds >= 60
            ? string(forPluralKey: minutesKey, count: seconds / 60, [seconds % 60]) : string(forPluralKey: secondsKey, count: seconds, [])
    }

    /// The user's languages, most preferred first (``/OAuthCore/UserLanguages/preferred``).
    public static var preferredLanguages: [String] { UserLanguages.preferred }

    // MARK: Tables

    /// One plural: the format per CLDR category. English and Swedish have `one` and `other`.
    struct Plural: Sendable {
        let formats: [String: String]

        /// The form for `count`, its first `%d` filled with `count` and the next with `more`, in order.
        func text(for count: Int, _ more: [Int] = []) -> String {
            let format = (count == 1 ? formats["one"] : nil) ?? formats["other"] ?? "%d"
            var values = ([count] + more).makeIterator()
            return format.components(separatedBy: "%d").enumerated()
                .map { index, part in index == 0 ? part : String(values.next() ?? 0) + part }.joined()
        }
    }

    struct Table: Sendable {
        var texts: [String: String] = [:]
        var plurals: [String: Plural] = [:]
    }

    /// The kit's tables, read once from its resources.
    static let kitTables: [String: Table] = Dictionary(uniqueKeysWithValues: kitLanguages.map { ($0, table(language: $0)) })

    static func table(language: String) -> Table {
        let (strings, stringsdict): ([UInt8], [UInt8])
        switch language {
        case "sv": (strings, stringsdict) = (PackageResources.Localizable_sv_strings, PackageResources.Localizable_sv_stringsdict)
        default: (strings, stringsdict) = (PackageResources.Localizable_en_strings, PackageResources.Localizable_en_stringsdict)
        }
        var table = Table()
        table.texts = (try? PropertyListSerialization.propertyList(from: Data(strings), format: nil)) as? [String: String] ?? [:]
        if let entries = (try? PropertyListSerialization.propertyList(from: Data(stringsdict), format: nil)) as? [String: [String: Any]] {
            for (key, entry) in entries {
                // One variable per entry, named by its NSStringLocalizedFormatKey (`%#@value@`).
                guard let variable = entry.first(where: { $0.key != "NSStringLocalizedFormatKey" })?.value as? [String: Any] else {
                    continue
                }
                table.plurals[key] = Plural(formats: variable.compactMapValues { $0 as? String }.filter { !$0.key.hasPrefix("NSString") })
            }
        }
        return table
    }

    /// The main bundle's `Localizable` table, where an app translates or rewords any key.
    private static let mainBundleTable: @Sendable (String) -> String? = { key in
        #if canImport(Darwin)
            let missing = "\u{0}missing"
            let text = Bundle.main.localizedString(forKey: key, value: missing, table: nil)
            return text == missing ? nil : text
        #else
            return nil
        #endif
    }
}
