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
        /// The letters that mean yes in the user's language (``isYes(_:)`` reads them).
        case yesLetters = "haapi_yes_letters"
        /// The mark of a required field.
        case required = "haapi_required"
        /// The text of a field the server found invalid.
        case fieldInvalid = "haapi_field_invalid"
        /// The text shown while polling.
        case waiting = "haapi_waiting"
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
        /// The button that opens BankID on this device.
        case bankIDOpenOnThisDevice = "haapi_bankid_open_on_this_device"
        /// The button that goes on with the login in a browser.
        case continueInBrowser = "haapi_continue_in_browser"
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
    private let plurals: [String: StringTable.Plural]
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

    /// The kit's tables, read once from its resources.
    static let kitTables: [String: StringTable] = [
        "en": StringTable(strings: PackageResources.Localizable_en_strings, stringsdict: PackageResources.Localizable_en_stringsdict),
        "sv": StringTable(strings: PackageResources.Localizable_sv_strings, stringsdict: PackageResources.Localizable_sv_stringsdict),
    ]

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
