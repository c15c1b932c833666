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
        case back = "hui_back", cancel = "hui_cancel", done = "hui_done", ok = "hui_ok", or = "hui_or"
        case interruptingTitle = "hui_haapi_flow_interrupting_title"
        case interruptingMessage = "hui_haapi_flow_interrupting_message"
        case interruptingConfirm = "hui_haapi_flow_interrupting_confirm"
        case interruptingCancel = "hui_haapi_flow_interrupting_cancel"
        case restartRequiredMessage = "hui_haapi_flow_restart_required_message"
        case problemNoRoutes = "hui_problem_no_routes"
        case problemNoRoutesMessage = "hui_problem_no_routes_message"
        case developerRuntimeTitle = "hui_dev_runtime_title"
        case developerRuntimeMessage = "hui_dev_runtime_message"
        case developerUnsupportedTitle = "hui_dev_unsupported_title"
        case developerUnsupportedMessage = "hui_dev_unsupported_message"
        case appSchemeNotInstalled = "hui_app_scheme_is_not_installed"
        case bankIDInstructionTitle = "hui_bankid_instruction_title_1"
        case bankIDInstructionBody = "hui_bankid_instruction_body_1"
        case userCodeCopyButton = "hui_user_code_copy_button"
        case passkeysNotSupported = "hui_webauth_passkeys_not_supported"
        case webAuthnPlatformMessage = "hui_webauthn_platform_message_text"
        case webAuthnPlatformButton = "hui_webauthn_platform_button_text"
        case webAuthnCrossPlatformMessage = "hui_webauthn_crossplatform_message_text"
        case webAuthnCrossPlatformButton = "hui_webauthn_crossplatform_button_text"
        case webAuthnRegistrationSuccessMessage = "hui_webauthn_registration_success_message_text"
        case webAuthnNoCredentialsMessage = "hui_webauthn_no_credentials_message_text"
        case webAuthnRetryMessage = "hui_webauthn_retry_message_text"
        case webAuthnRetryButton = "hui_webauthn_retry_button_text"
        case webAuthnErrorMessage = "hui_webauthn_error_message_text"
        case webAuthnErrorButton = "hui_webauthn_error_button_text"
        case webAuthnAppAssociationErrorMessage = "hui_webauthn_app_association_error_message_text"
        // This package's own texts (`haapi_*`), for the screens and the terminal.
        case choose = "haapi_choose"
        case chooseAuthenticator = "haapi_choose_authenticator"
        case chooseAction = "haapi_choose_action"
        case chooseNumber = "haapi_choose_number"
        case yesNoDefaultNo = "haapi_yes_no_default_no"
        case yesNoDefaultYes = "haapi_yes_no_default_yes"
        case yesLetters = "haapi_yes_letters"
        case required = "haapi_required"
        case fieldInvalid = "haapi_field_invalid"
        case consentChooseScopes = "haapi_consent_choose_scopes"
        case waiting = "haapi_waiting"
        case waitingFor = "haapi_waiting_for"
        case checkNow = "haapi_check_now"
        case retrying = "haapi_retrying"
        case bankIDOpenOnThisDevice = "haapi_bankid_open_on_this_device"
        case bankIDScanOnOtherDevice = "haapi_bankid_scan_on_other_device"
        case qrCodeShown = "haapi_qr_code_shown"
        case qrCodeNeedsQrencode = "haapi_qr_code_needs_qrencode"
        case continueInBrowser = "haapi_continue_in_browser"
        case browserOpened = "haapi_browser_opened"
        case browserNotStarted = "haapi_browser_not_started"
        case operationNotInTerminal = "haapi_operation_not_in_terminal"
        case waitingForAnswerFile = "haapi_waiting_for_answer_file"
        case errorLabel = "haapi_error_label"
        case warningLabel = "haapi_warning_label"
        case checked = "haapi_checked"
        case notChecked = "haapi_not_checked"
        case showPassword = "haapi_show_password"
        case hidePassword = "haapi_hide_password"
        case fieldError = "haapi_field_error"
        case returnSignedInTitle = "haapi_return_signed_in_title"
        case returnSignedIn = "haapi_return_signed_in"
        case returnFailedTitle = "haapi_return_failed_title"
        case returnFailed = "haapi_return_failed"
        case returnSignedOutTitle = "haapi_return_signed_out_title"
        case returnSignedOut = "haapi_return_signed_out"
        case demoLogInAs = "haapi_demo_log_in_as"
        case demoMessagesHint = "haapi_demo_messages_hint"
        // The command line's errors, demo lines and status.
        case commandError = "haapi_error"
        case refusedAnswers = "haapi_refused_answers"
        case demoServer = "haapi_demo_server"
        case demoClaims = "haapi_demo_claims"
        case demoNotJwt = "haapi_demo_not_jwt"
        case demoUserinfo = "haapi_demo_userinfo"
        case statusLine = "haapi_status_line"
        case statusAs = "haapi_status_as"
        case stateLoggedIn = "haapi_state_logged_in"
        case stateRefreshable = "haapi_state_refreshable"
        case stateLoginNeeded = "haapi_state_login_needed"
        case stateLoggedOut = "haapi_state_logged_out"
        case stateMissing = "haapi_state_missing"
        case stateBroken = "haapi_state_broken"
        case statusIssuer = "haapi_status_issuer"
        case statusScope = "haapi_status_scope"
        case statusScopeNone = "haapi_status_scope_none"
        case statusExpires = "haapi_status_expires"
        case statusExpiresIn = "haapi_status_expires_in"
        case statusExpired = "haapi_status_expired"
        case statusExpiresUnknown = "haapi_status_expires_unknown"
        case statusBinding = "haapi_status_binding"
        case statusBindingDpop = "haapi_status_binding_dpop"
        case statusBindingBearer = "haapi_status_binding_bearer"
        case statusRefresh = "haapi_status_refresh"
        case statusRefreshKept = "haapi_status_refresh_kept"
        case statusRefreshNone = "haapi_status_refresh_none"
        case statusSecrets = "haapi_status_secrets"
        case secretsKeyring = "haapi_secrets_keyring"
        case secretsKeychain = "haapi_secrets_keychain"
        case secretsFiles = "haapi_secrets_files"
        case summaryLoggedIn = "haapi_summary_logged_in"
        case summaryLoggedInAs = "haapi_summary_logged_in_as"
        case summaryToken = "haapi_summary_token"
        case summaryExpiresIn = "haapi_summary_expires_in"
        case summaryScope = "haapi_summary_scope"
        case summaryRefreshToken = "haapi_summary_refresh_token"
        case summaryKeptIn = "haapi_summary_kept_in"
        case summaryKeptInKeyring = "haapi_summary_kept_in_keyring"
        case summaryNotKept = "haapi_summary_not_kept"
        case messageOneTimeCode = "haapi_message_one_time_code"
        case messageApprovalLink = "haapi_message_approval_link"
    }

    /// The keys of texts with a count in them (`.stringsdict` plurals).
    public enum PluralKey: String, CaseIterable, Sendable {
        case pollingMinutes = "hui_polling_minutes", pollingSeconds = "hui_polling_seconds"
        case pollingMinutesRemaining = "hui_polling_minutes_remaining", pollingSecondsRemaining = "hui_polling_seconds_remaining"
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
        if let format = appTable(key) { return String(format: format, locale: Locale(identifier: language), arguments: ([count] + more).map { $0 as CVarArg }) }
        guard let plural = plurals[key] ?? Self.kitTables["en"]?.plurals[key] else { return ([key, String(count)] + more.map(String.init)).joined(separator: " ") }
        return plural.text(for: count, more)
    }

    /// The time left to wait, `seconds` of it: minutes and seconds from a minute up, else
    /// seconds ("2 minutes and 3 seconds left", "45 seconds left"), by the keys given (a theme's).
    public func timeLeft(
        seconds: Int, minutesKey: String = PluralKey.pollingMinutesRemaining.rawValue, secondsKey: String = PluralKey.pollingSecondsRemaining.rawValue
    ) -> String {
        let seconds = max(0, seconds)
        return seconds >= 60 ? string(forPluralKey: minutesKey, count: seconds / 60, [seconds % 60]) : string(forPluralKey: secondsKey, count: seconds, [])
    }

    /// The user's languages, most preferred first (``UserLanguages/preferred``).
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
                guard let variable = entry.first(where: { $0.key != "NSStringLocalizedFormatKey" })?.value as? [String: Any] else { continue }
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
