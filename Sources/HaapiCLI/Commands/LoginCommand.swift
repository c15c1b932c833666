import ArgumentParser
import Foundation
import HaapiCLICore
import HaapiUI
import OAuthCore
import OIDCClient

/// `haapi login`: a HAAPI login in the terminal, or a browser login; the tokens are kept in the profile.
struct LoginCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "login",
        abstract: "Log in (a HAAPI flow in the terminal, or --browser) and keep the tokens in a profile.",
        discussion: helpText(
            """
            The connection settings come from the flags or --config FILE and are saved in the profile \
            ($HAAPI_HOME/profiles/NAME, default ~/.config/swift-haapi); later logins can omit them. \
            Tokens are never printed: a one-line summary goes to standard error.
            """,
            examples:
                "HAAPI_CLIENT_SECRET=S haapi login --issuer http://127.0.0.1:8080 --client-id haapi-secret",
            "haapi login --browser --issuer https://op.example --client-id native-app",
            "haapi login --device --issuer https://op.example --client-id native-app   # over SSH: a code to enter elsewhere",
            "haapi login --profile ci --answers answers.json   # a scripted login with the saved settings",
            "haapi login                                        # again, with the settings the profile saved"))

    @OptionGroup var profileOption: ProfileOption
    @Flag(help: "Log in through the browser (authorization code + PKCE, the redirect on a loopback listener) instead of HAAPI.")
    var browser = false
    @Flag(
        help:
            "Log in with a code entered on another device (RFC 8628 device authorization grant): for SSH sessions and machines with no browser."
    )
    var device = false
    @OptionGroup var connection: ConnectionOptions
    @OptionGroup var interaction: InteractionOptions
    @Option(
        help: ArgumentHelp(
            "Where the tokens and the client secret are kept: keyring (the macOS Keychain, or the desktop's Secret Service) or file (0600 files in the profile). Default: the profile's store, else $HAAPI_SECRET_STORE, else the keyring when one answers.",
            valueName: "store"))
    var secretStore: SecretStore?
    @Flag(help: "Print the profile's state as `haapi status --json` does (standard output) once logged in.") var json = false
    @Option(
        help: ArgumentHelp(
            "Keep each HAAPI response of the login in this folder (secrets masked), for `haapi preview --captured DIR`.", valueName: "dir"))
    var record: String?
    @OptionGroup var log: LogOptions

    func validate() throws {
        if browser && device { throw ValidationError("give --browser or --device, not both") }
        if record != nil && (browser || device) {
            throw ValidationError("--record keeps a HAAPI login's responses: it does not go with --browser or --device")
        }
    }

    func run() async throws {
        log.apply(moreTags: SdkFollowUpTag.allCases)
        let profile = profileOption.name
        try Profile.validate(profile)
        let existed = Profile.exists(profile)
        guard connection.isGiven || existed else {
            throw ValidationError(
                "the profile \"\(profile)\" has no connection settings yet: give them, as in "
                    + "`haapi login --profile \(profile) --issuer URL --client-id ID` (or --config FILE)")
        }
        // The folders opening the profile makes (the profile's, `profiles/`, HAAPI_HOME), deepest first.
        var made: [URL] = []
        var folder = Profile.folder.appendingPathComponent(profile)
        while !FileManager.default.fileExists(atPath: folder.path) && folder.path != "/" {
            made.append(folder)
            folder = folder.deletingLastPathComponent()
        }
        let store = try Profile.open(profile)
        // A login that fails saves nothing: a profile it created is removed again, and so are
        // the folders made for it, so a failed first login leaves no trace.
        do {
            try await login(profile: profile, store: store)
        } catch {
            if !existed { try? FileManager.default.removeItem(at: store.directory) }
            for folder in made.dropFirst() where (try? FileManager.default.contentsOfDirectory(atPath: folder.path))?.isEmpty == true {
                try? FileManager.default.removeItem(at: folder)
            }
            throw error
        }
    }

    private func login(profile: String, store: Profile) async throws {
        // Damaged settings block nothing when new ones are given: the login replaces them.
        let saved: ProfileConfiguration?
        do { saved = try store.readConfiguration(withClientSecret: true) } catch  where connection.isGiven { saved = nil } catch let failure
            as CLIFailure
            where secretStore == .file
        {
            // Moving off a keyring that cannot be read: the settings, without the secret it keeps.
            saved = try store.readConfiguration()
            Texts.warn(
                "\(failure.message); give the client secret again (--client-secret-file, HAAPI_CLIENT_SECRET) if the client needs one")
        }
        // A profile saved by a browser or device login logs in the same way again when no
        // settings are given; a browser login over SSH, with no display, asks for a code instead.
        let again = saved.flatMap { !connection.isGiven && !self.browser && !self.device ? $0 : nil }
        let overSSH = Self.hasNoBrowser(ProcessInfo.processInfo.environment)
        let device = self.device || again?.isDeviceLogin == true || (again?.isBrowserLogin == true && overSSH)
        let browser = self.browser || device || again?.isBrowserLogin == true
        if device && !self.device && again?.isDeviceLogin == false {
            Stderr.line("haapi: no browser here (an SSH session without a display): logging in with a code entered on another device")
        }
        let terminal = Terminal()
        // What is wrong with the files given is said before anything else, and before any request.
        let fromFile = try connection.configFile()
        let answers = browser ? nil : try interaction.loadAnswers(terminal: terminal)
        var settings = try await connection.resolve(saved: saved, fromFile: fromFile, browser: browser, device: device)
        let secrets = try chooseSecretStore(saved: saved)
        settings.secretStore = secrets == .keyring ? .keyring : nil
        let tokens: AuthState
        let kept = store.loginStorage(settings)
        do {
            tokens = try await login(
                settings: settings, store: store, storage: kept, profile: profile, device: device, browser: browser, terminal: terminal,
                answers: answers)
            if let record {
                let kept = ((try? FileManager.default.contentsOfDirectory(atPath: record)) ?? []).filter { $0.hasSuffix(".json") }.count
                Stderr.line(
                    PrintableText(
                        "haapi: kept \(kept) HAAPI responses in \(record) (secrets masked): `haapi preview --captured \(record) --out DIR` draws them"
                    ))
            }
        } catch {
            // A first login into the keyring that fails leaves no item there.
            if secrets == .keyring && saved?.secrets != .keyring { try? store.removeSecrets(from: .keyring) }
            throw error
        }
        // The server completed the login: a keyring that refused the tokens does not lose it.
        if let refusal = (kept as? LoginTokenStorage)?.refusal {
            settings.secretStore = nil
            Texts.warn(
                "\(Keyring.name) refused the tokens (\(PrintableText(refusal))), so they are kept in the profile's files (0600) instead. "
                    + "To use the keyring, unlock it and log in again with --secret-store keyring; to choose files from the start, "
                    + "--secret-store file or HAAPI_SECRET_STORE=file")
        }
        // The settings are saved with the tokens they got, never before.
        try store.writeConfiguration(settings, replacing: saved?.secrets)
        Stderr.line(Self.summary(tokens, issuer: settings.issuer ?? settings.baseURL ?? "", keptIn: profile, secrets: settings.secrets))
        if json { Stdout.json(await ProfileReport.read(profile).json) }
    }

    /// Where this login keeps its secrets: --secret-store, else where the profile keeps them,
    /// else the default for a new login (the keyring when one answers, else files).
    private func chooseSecretStore(saved: ProfileConfiguration?) throws -> SecretStore {
        if let secretStore { return try secretStore.checked(askedBy: "--secret-store keyring") }
        if let saved { return saved.secrets }
        return try SecretStore.forNewLogin()
    }

    private func login(
        settings: ProfileConfiguration, store: Profile, storage: any LockingStorage, profile: String, device: Bool, browser: Bool,
        terminal: Terminal,
        answers: Answers?
    ) async throws -> AuthState {
        // The new tokens replace the old under the profile's lock, so a `haapi token` refreshing
        // the previous login's tokens cannot write over them.
        if device {
            return try await BrowserLogin(configuration: settings, browserCommand: nil).runOnAnotherDevice(keepingIn: storage)
        } else if browser {
            return try await BrowserLogin(
                configuration: settings, browserCommand: interaction.browserCommand, startsBrowser: !interaction.noBrowser
            )
            .run(keepingIn: storage)
        } else {
            let outcome = try await LoginSession(
                configuration: settings, answers: answers, browserCommand: interaction.browserCommand, name: profile,
                record: record.map { URL(fileURLWithPath: $0, isDirectory: true) }
            )
            .run(terminal: terminal)
            let session = try store.session(settings, storage: storage)
            return try await store.reportingFailures(of: "keeping the tokens") {
                try await session.start(with: try outcome.tokens.response.tokenSuccessResponse(), dpop: outcome.dpop, nonce: outcome.nonce)
            }
        }
    }

    /// Whether this is an SSH session in which no browser can open: `SSH_CONNECTION` set, and
    /// (off macOS, where `open` needs a desktop session) no `DISPLAY` or `WAYLAND_DISPLAY`.
    static func hasNoBrowser(_ environment: [String: String]) -> Bool {
        guard environment["SSH_CONNECTION"]?.isEmpty == false, environment["BROWSER"] == nil else { return false }
        return (environment["DISPLAY"] ?? "").isEmpty && (environment["WAYLAND_DISPLAY"] ?? "").isEmpty
    }

    /// One line about a login: who, where, what token; and where the tokens are kept, if anywhere.
    static func summary(_ tokens: AuthState, issuer: String, keptIn profile: String?, secrets: SecretStore = .file) -> PrintableText {
        let at = PrintableText(issuer)
        var parts = [tokens.subject.map { Texts.line(.summaryLoggedInAs, PrintableText($0), at) } ?? Texts.line(.summaryLoggedIn, at)]
        parts.append(RefreshCommand.tokenAndExpiry(tokens))
        if let scope = tokens.scope { parts.append(Texts.line(.summaryScope, PrintableText(scope))) }
        if tokens.refreshToken != nil { parts.append(Texts.line(.summaryRefreshToken)) }
        parts.append(
            profile.map {
                secrets == .keyring
                    ? Texts.line(.summaryKeptInKeyring, PrintableText($0), SecretStore.keyring.described)
                    : Texts.line(.summaryKeptIn, PrintableText($0))
            } ?? Texts.line(.summaryNotKept))
        return PrintableText.joined(parts, separator: "; ")
    }
}
