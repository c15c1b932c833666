import Foundation
import HaapiSDK
import HaapiUI
import OAuthCore
import OIDCClient
import OAuthTransportNIO

/// Runs a HAAPI flow in the terminal: renders each UI model of a ``HaapiFlowViewModel`` and
/// answers it from the keyboard or from ``Answers``.
@MainActor final class TerminalRenderer {
    let viewModel: HaapiFlowViewModel
    let terminal: Terminal
    let answers: Answers?
    let browser: SystemBrowserLauncher
    let baseURL: URL
    /// The texts, in the user's language (`LANG`): the application's, from the UI kit's table.
    var strings: LocalizableStrings { viewModel.haapiUIKitApplication.localizableStrings }
    private var choiceIndex = 0
    private var retries = 0

    init(viewModel: HaapiFlowViewModel, terminal: Terminal, answers: Answers?, browser: SystemBrowserLauncher, baseURL: URL) {
        self.viewModel = viewModel
        self.terminal = terminal
        self.answers = answers
        self.browser = browser
        self.baseURL = baseURL
    }

    /// Scripted (`--answers`) rather than interactive.
    var isScripted: Bool { answers != nil }

    /// Runs the flow to its end: the tokens, or a ``CLIFailure``.
    func run(parameters: OAuthAuthorizationParameters?) async throws -> OAuthTokenModel {
        await viewModel.start(parameters: parameters)
        while true {
            if let outcome = viewModel.oAuthModel {
                if let tokens = outcome.tokens { return tokens }
                guard let error = outcome.oauthError else { throw CLIFailure("login failed: the flow ended with \(type(of: outcome))") }
                if error.error == "access_denied" && error.source == .client || viewModel.uiModel?.cancelForm != nil && error.error == "access_denied" {
                    throw CLIFailure("login cancelled")
                }
                throw CLIFailure("login failed: \(error.error)\(error.errorDescription.map { ": \($0)" } ?? "")")
            }
            if let error = viewModel.error {
                if error.isRetryable && retries < 2 && !Task.isCancelled {
                    retries += 1
                    message(strings.string(.retrying, error.title), .warning)
                    try await Task.sleep(for: .milliseconds(500))
                    await viewModel.retry()
                    continue
                }
                if let problem = error.problem {
                    // The server's messages, each in its class's style; the failure names the problem.
                    let title = problem.title(in: strings)
                    for line in problem.messages where line.text != title { message(line.text, Self.problemStyle(line)) }
                    throw CLIFailure("login failed: " + TerminalText.safe(title) + Self.lockoutNote(problem))
                }
                throw CLIFailure("login failed: " + TerminalText.safe(Self.describe(error)) + Hints.after(error))
            }
            guard let model = viewModel.uiModel else { throw CLIFailure("login failed: the flow did not start") }
            do {
                try await render(model)
            } catch is Interrupted {
                try await interrupt()
            }
        }
    }

    /// A failure (not a problem: its messages are printed on their own) in one line.
    static func describe(_ error: HaapiFlowError) -> String {
        var text = error.title
        if let underlying = error.underlyingError {
            let detail = (underlying as? any IdsvrError).map { "\($0.failureReason)" } ?? String(describing: underlying)
            if detail != text { text += ": " + detail }
        }
        return text.split(whereSeparator: \.isNewline).joined(separator: " ")
    }

    // MARK: Ctrl-C

    /// Ctrl-C while the login waited for the user: asks first when the configuration says so,
    /// then abandons the flow (the server is told when the step offers a cancel action).
    private func interrupt() async throws {
        if viewModel.configuration.shouldConfirmFlowInterruption && terminal.isInteractive && !isScripted {
            await viewModel.cancel()
            Stderr.write("\n" + terminal.styled("\(strings.string(.interruptingTitle)) \(strings.string(.yesNoDefaultNo)) ", .yellow, .bold))
            let reply: String
            do { reply = try await terminal.readLine() } catch is Interrupted { reply = "y" }
            if strings.isYes(reply) {
                await viewModel.confirmCancel()
                throw CLIFailure.cancelled("login cancelled")
            }
            viewModel.dismissCancel()
            return
        }
        await viewModel.cancel()
        if viewModel.isConfirmingInterruption { await viewModel.confirmCancel() }
        throw CLIFailure.cancelled("login cancelled")
    }

    // MARK: Rendering

    private func render(_ model: UIModel) async throws {
        if terminal.takeInterrupt() { throw Interrupted() }
        printMessages(model)
        if let problem = model.problem {
            let title = problem.title(in: strings)
            message(title, .error)
            for line in problem.messages where line.text != title { message(line.text, Self.problemStyle(line)) }
            for line in Self.invalidFieldLines(problem, forms: model.forms + model.contentForms) { message(line, .error) }
            if isScripted {
                throw CLIFailure("the server refused the answers: \(title)")
            }
        }
        switch model.content {
        case .selector(let selector):
            try await chooseOption(selector.title ?? strings.string(.chooseAuthenticator), selector.options)
        case .polling(let polling):
            if case .bankID(let bankID)? = polling.clientOperation, shownBankIDToken != bankID.autoStartToken ?? bankID.qrData {
                // Once per BankID order: the step repeats at every poll.
                shownBankIDToken = bankID.autoStartToken ?? bankID.qrData
                showBankID(bankID)
            }
            try await wait(polling)
        case .clientOperation(let operation):
            try await perform(operation, in: model)
        case .consent(let consent):
            guard let form = consent.consent else { throw CLIFailure("the consent step has no consent form") }
            if model.heading == nil {
                message(strings.string(.consentHeading, viewModel.configuration.haapiConfiguration.clientId), .heading)
            }
            for field in form.inputFields where field.kind == .checkbox {
                Stderr.line("  • " + TerminalText.safe(Self.checkboxText(field)) + (field.isReadonly ? terminal.styled(" (\(strings.string(.required)))", .dim) : ""))
            }
            try await offer(model, forms: [form] + consent.forms.filter { $0 != form }, byAction: true, isConsent: true)
        case .form(let forms), .continueSameStep(let forms):
            try await offer(model, forms: forms)
        case .generic:
            if let selector = model.selectors.first {
                try await chooseOption(selector.title ?? strings.string(.choose), selector.options)
            } else {
                try await offer(model, forms: model.forms)
            }
        case .authorizationResponse:
            // The view model exchanges the code; after an automatic poll that exchange may still
            // be under way when this model shows: wait for its outcome, which the loop handles.
            let deadline = Date().addingTimeInterval(60)
            while viewModel.oAuthModel == nil && viewModel.error == nil {
                if terminal.takeInterrupt() { throw Interrupted() }
                guard Date() < deadline else { throw CLIFailure("login failed: the authorization response ended without tokens") }
                try await Task.sleep(for: .milliseconds(50))
            }
        }
    }

    private var lastMessages: [String] = []
    private var shownBankIDToken: String?
    private var lastText = ""

    private func printMessages(_ model: UIModel) {
        let texts = model.messages.map(\.text)
        if case .polling = model.content, texts == lastMessages { return }
        lastMessages = texts
        for item in model.messages { message(item.text, item.style) }
        for image in model.images where image.isQRCode {
            message(strings.string(.qrCodeOffered, image.title), .info)
        }
    }

    /// Prints a line of (possibly server-sent, so escaped) text in a message style.
    func message(_ unsafeText: String, _ style: MessageStyle) {
        let text = TerminalText.safe(unsafeText)
        switch style {
        case .heading: Stderr.line(terminal.styled(text, .bold, .blue))
        case .info: Stderr.line(terminal.styled(text, .cyan))
        case .warning: Stderr.line(terminal.styled(strings.string(.warningLabel) + " ", .yellow, .bold) + terminal.styled(text, .yellow))
        case .error: Stderr.line(terminal.styled(strings.string(.errorLabel) + " ", .red, .bold) + terminal.styled(text, .red))
        case .username, .recipient: Stderr.line(terminal.styled(text, .bold))
        case .other: Stderr.line(text)
        }
    }

    // MARK: Forms and menus

    private enum Entry {
        case form(FormModel)
        case link(LinkModel)
        /// Consent's form, with a question per scope before it is submitted.
        case choosingBoxes(FormModel, title: String)
    }

    /// The menu of `entries`; forms are named by their title, or with `byAction` by their
    /// button (consent's "Accept" and "Deny" say more than the forms' titles).
    private static func choices(_ entries: [Entry], byAction: Bool = false) -> [ChoiceOption] {
        entries.map { entry in
            switch entry {
            case .form(let form): return ChoiceOption(title: byAction ? form.actionTitle : form.title ?? form.actionTitle, names: [form.kind.rawValue, form.actionTitle])
            case .link(let link): return ChoiceOption(title: link.title, names: [link.rel, link.href].compactMap { $0 })
            case .choosingBoxes(_, let title): return ChoiceOption(title: title, names: ["choose"])
            }
        }
    }

    /// The fields an invalid-input problem names, each with the server's complaint: shown with
    /// the problem, before the user chooses what to do again.
    static func invalidFieldLines(_ problem: ProblemModel, forms: [FormModel]) -> [String] {
        problem.invalidFields.map { invalid in
            let label = forms.lazy.compactMap { $0.field(invalid.name)?.label }.first ?? invalid.name
            return "\(label): \(invalid.detail.literal.isEmpty ? invalid.reason ?? "invalid" : invalid.detail.literal)"
        }
    }

    /// A checkbox as text: its label, and the value it stands for when that says more
    /// (`profile: Your name, username and locale` for a consent scope).
    static func checkboxText(_ field: FieldModel) -> String {
        guard let value = field.field.value, !value.isEmpty, value != "on", value.caseInsensitiveCompare(field.label) != .orderedSame else {
            return field.label
        }
        return "\(value): \(field.label)"
    }

    /// What Enter answers at a field's prompt: its value, but never a secret, and never what the
    /// server just refused (a wrong one-time code must be typed anew). After incorrect
    /// credentials only a username is kept; after invalid input, the fields not named in it.
    static func promptDefault(_ field: FieldModel, problem: ProblemModel?) -> String? {
        guard let value = field.value, !value.isEmpty, !field.isSecure else { return nil }
        let typed = value != field.field.defaultValue
        guard typed, let problem else { return value }
        if field.error != nil { return nil }
        if problem.invalidFields.isEmpty && field.kind != .username { return field.field.defaultValue.flatMap { $0.isEmpty ? nil : $0 } }
        return value
    }

    /// For a lockout whose texts give no duration: says so, and what the user can do.
    static func lockoutNote(_ problem: ProblemModel) -> String {
        guard problem.type == .tooManyAttemptsProblem else { return "" }
        let texts = [problem.title] + problem.messages.map(\.text)
        if texts.contains(where: { $0.contains(where: \.isNumber) }) { return "" }
        return " (the server does not say for how long: try again later, or ask its administrators to unlock the account)"
    }

    /// A problem's message in its own class's style; one without a known class is an error.
    static func problemStyle(_ line: MessageModel) -> MessageStyle { line.knownStyle ?? .error }

    /// Offers the forms (and links) of a step: one form is filled in directly; several make a
    /// menu, whose answer on Enter (and for a script without a matching choice) is `defaultIndex`.
    /// Consent (`isConsent`) is asked once: its scopes were listed, and accepting grants the
    /// checked ones; a person at the terminal may instead choose them one by one.
    private func offer(_ model: UIModel, forms: [FormModel], defaultIndex: Int? = nil, byAction: Bool = false, isConsent: Bool = false) async throws {
        let primary = forms.filter { !$0.isCancel }
        var entries = primary.map(Entry.form) + model.links.map(Entry.link)
        if isConsent, !isScripted, let accept = primary.first, accept.inputFields.contains(where: { $0.kind == .checkbox && !$0.isReadonly }) {
            entries.insert(.choosingBoxes(accept, title: strings.string(.consentChooseScopes)), at: 1)
        }
        entries += forms.filter(\.isCancel).map(Entry.form)
        guard !entries.isEmpty else { throw CLIFailure("login failed: " + (UnsupportedStepError(model.representation).errorDescription ?? "unsupported step")) }
        let chosen: Entry
        if entries.count == 1 || (primary.count == 1 && !isScripted && !terminal.isInteractive) {
            chosen = entries[0]
        } else if let defaultIndex {
            chosen = entries[try await choose(strings.string(.chooseAction), Self.choices(entries, byAction: byAction), defaultIndex: defaultIndex)]
        } else {
            chosen = entries[try await choose(strings.string(.chooseAction), Self.choices(entries, byAction: byAction), defaultIndex: primary.count == 1 ? 0 : nil)]
        }
        switch chosen {
        case .link(let link): await viewModel.followLink(link)
        case .form(let form):
            if form.isCancel {
                await viewModel.submit(form)
                return
            }
            let values = try await fill(form, problem: model.problem, asksCheckboxes: !isConsent)
            await viewModel.submit(form, values: values)
        case .choosingBoxes(let form, _):
            await viewModel.submit(form, values: try await fill(form, problem: model.problem))
        }
    }

    /// Asks for every input field of a form; `problemShown` is the server's complaint about the last answers.
    private func fill(_ form: FormModel, problem problemShown: ProblemModel?, asksCheckboxes: Bool = true) async throws -> [String: String] {
        var values: [String: String] = [:]
        let formName = form.title ?? form.kind.rawValue
        for field in form.inputFields {
            // The server's complaint about a field goes with its prompt.
            let complaint = field.error.map { terminal.styled(" (" + TerminalText.safe($0.detail ?? $0.reason ?? "invalid") + ")", .red) } ?? ""
            if !complaint.isEmpty, isScripted || field.kind == .select { message("\(field.label): \(field.error?.detail ?? field.error?.reason ?? "invalid")", .error) }
            switch field.kind {
            case .select:
                let options = field.options.map { ChoiceOption(title: $0.label, names: [$0.value]) }
                if let answer = try await answer(for: field.name) {
                    values[field.name] = field.options.first { $0.value == answer || $0.label == answer }?.value ?? answer
                } else {
                    let selected = field.options.firstIndex(where: \.isSelected)
                    let index = try await choose("\(field.label) (field \"\(field.name)\" of form \"\(formName)\")", options, defaultIndex: selected, consumesChoices: false)
                    values[field.name] = field.options[index].value
                }
            case .checkbox:
                if field.isReadonly { continue }
                if isScripted, let answer = try await answer(for: field.name) {
                    values[field.name] = ["", "false", "no", "off", "0"].contains(answer.lowercased()) ? "" : (field.value ?? "on")
                } else if isScripted || !asksCheckboxes {
                    // Not asked: the box as the server checked it.
                    values[field.name] = field.isChecked ? (field.value ?? "on") : ""
                } else {
                    let hint = strings.string(field.isChecked ? .yesNoDefaultYes : .yesNoDefaultNo)
                    Stderr.write(terminal.styled(TerminalText.safe(Self.checkboxText(field)), .bold) + complaint + terminal.styled(" \(hint) ", .bold))
                    let reply = try await terminal.readLine().trimmingCharacters(in: .whitespaces).lowercased()
                    let checked = reply.isEmpty ? field.isChecked : strings.isYes(reply)
                    values[field.name] = checked ? (field.value ?? "on") : ""
                }
            default:
                if let answer = try await answer(for: field.name) {
                    values[field.name] = answer
                } else if isScripted {
                    if let value = field.value, !value.isEmpty {
                        values[field.name] = value
                    } else {
                        throw CLIFailure("the answers have no value for the field \"\(field.name)\" (\(field.label)) of the form \"\(formName)\"")
                    }
                } else {
                    let current = Self.promptDefault(field, problem: problemShown)
                    let prompt = terminal.styled(TerminalText.safe(field.label), .bold) + complaint
                        + terminal.styled(TerminalText.safe(current.map { " [\($0)]" } ?? "") + ": ", .bold)
                    Stderr.write(prompt)
                    let line = try await terminal.readLine(secret: field.isSecure)
                    values[field.name] = line.isEmpty ? (current ?? "") : line
                }
            }
        }
        return values
    }

    /// The scripted answer for the field `name`, if there is one; a file answer is waited for.
    private func answer(for name: String) async throws -> String? {
        guard let answer = answers?.fields[name] else { return nil }
        guard case .file(let path) = answer else { return answer.currentValue() }
        let deadline = Date().addingTimeInterval(FieldAnswer.fileWaitLimit)
        var announced = false
        while true {
            if let value = answer.currentValue() { return value }
            if !announced {
                Stderr.line(terminal.styled(strings.string(.waitingForAnswerFile, name, path), .dim))
                announced = true
            }
            if terminal.takeInterrupt() { throw Interrupted() }
            if Date() > deadline {
                throw CLIFailure("the answer to the field \"\(name)\" did not appear in \(path) within \(Int(FieldAnswer.fileWaitLimit)) s")
            }
            try await Task.sleep(for: .milliseconds(100))
        }
    }

    private func chooseOption(_ question: String, _ options: [SelectorOptionModel]) async throws {
        let choices = options.map { option in
            // The last path segment of the option's href is the server's authenticator id (`username-password`).
            let id = option.form.flatMap { URL(string: $0.form.href)?.lastPathComponent }.flatMap { $0.isEmpty || $0 == "/" ? nil : $0 }
            return ChoiceOption(title: option.title, names: [option.authenticatorType, id, option.kind.rawValue].compactMap { $0 })
        }
        // The view model shows what a nested option holds (its options, or its form's fields)
        // as the next model; the loop renders that in turn.
        await viewModel.select(options[try await choose(question, choices, defaultIndex: nil)])
    }

    /// A numbered menu; from the answers, the next choice (matched by name or title).
    private func choose(_ question: String, _ options: [ChoiceOption], defaultIndex: Int?, consumesChoices: Bool = true) async throws -> Int {
        let names = ChoiceOption.describe(options)
        if let answers {
            if consumesChoices, choiceIndex < answers.choices.count,
                let index = options.firstIndex(where: { $0.matches(answers.choices[choiceIndex]) })
            {
                choiceIndex += 1
                Stderr.line(TerminalText.safe("\(question): \(options[index].title)"))
                return index
            }
            if let defaultIndex { return defaultIndex }
            if consumesChoices, choiceIndex < answers.choices.count {
                throw CLIFailure("the answer \"\(answers.choices[choiceIndex])\" matches no option of \"\(question)\" (options: \(names))")
            }
            throw CLIFailure("the answers have no choice for \"\(question)\" (options: \(names))")
        }
        Stderr.line(terminal.styled(TerminalText.safe(question), .bold))
        // Titles only: the names an --answers file may use (`login`, `external-browser`) are the
        // server's ids, which a person at the terminal has no use for.
        for (index, option) in options.enumerated() {
            Stderr.line("  \(index + 1)) \(TerminalText.safe(option.title))")
        }
        while true {
            Stderr.write(terminal.styled("\(strings.string(.choose)) 1-\(options.count)\(defaultIndex.map { " [\($0 + 1)]" } ?? ""): ", .bold))
            let line = try await terminal.readLine().trimmingCharacters(in: .whitespaces)
            if line.isEmpty, let defaultIndex { return defaultIndex }
            if let number = Int(line), (1...options.count).contains(number) { return number - 1 }
            if let index = options.firstIndex(where: { $0.matches(line) }) { return index }
            message(strings.string(.chooseNumber, String(options.count)), .warning)
        }
    }

    // MARK: Polling

    private func wait(_ polling: PollingModel) async throws {
        let start = Date()
        let frames = ["|", "/", "-", "\\"]
        var frame = 0
        defer { terminal.endStatus() }
        // The step changes when a poll answers something other than this same pending step.
        var changed = false
        let watcher = viewModel.$uiModel.dropFirst().sink { model in
            if case .polling(let current)? = model?.content, current == polling { return }
            changed = true
        }
        defer { watcher.cancel() }
        // Ctrl-C while waiting asks first; a poll the terminal makes is a request, cancelled at once.
        let pollsNow = try await Interrupts.whileWaitingForTheUser { () async throws -> Bool in
            while true {
                if terminal.takeInterrupt() { throw Interrupted() }
                if viewModel.oAuthModel != nil || viewModel.error != nil || changed { return false }
                let text = polling.recipient.map { strings.string(.waitingFor, TerminalText.safe($0)) } ?? strings.string(.waiting)
                // The time left is drawn with the spinner; without colour the line is printed only when its text changes.
                var timeLeft = ""
                if let remaining = polling.remainingTime {
                    timeLeft = " (" + strings.string(.pollingSecondsRemaining, count: max(0, remaining - Int(Date().timeIntervalSince(start)))) + ")"
                }
                if terminal.usesColour {
                    terminal.status(terminal.styled(frames[frame % frames.count], .cyan) + " " + text + timeLeft)
                    frame += 1
                } else if text != lastText {
                    lastText = text
                    terminal.status(text + timeLeft)
                }
                if !polling.isAutomatic, !viewModel.isLoading, Date().timeIntervalSince(start) > 2 { return true }
                try await Task.sleep(for: .milliseconds(150))
            }
        }
        if pollsNow { await viewModel.poll() }
    }

    // MARK: Client operations

    /// Performs what a terminal can of a client operation, and offers the rest of what the step
    /// offers (its continue and error actions, cancel): a flow never stops here while the server
    /// offers a way on.
    private func perform(_ operation: ClientOperationModel, in model: UIModel) async throws {
        switch operation {
        case .externalBrowser(let browser):
            try await openBrowser(browser)
        case .bankID(let bankID):
            showBankID(bankID)
            // Continuing polls for BankID's answer; the error action is "BankID on another device".
            try await offer(model, forms: operationForms(operation, in: model), defaultIndex: 0)
        case .webAuthn(let webAuthn):
            // A terminal has no platform authenticator: take the server's browser fallback.
            guard let fallback = webAuthn.browserFallback else {
                throw CLIFailure("login failed: passkeys need a platform authenticator, and the step offers no browser fallback")
            }
            message(strings.string(.passkeysInBrowser), .info)
            await viewModel.submit(fallback)
        case .encap, .generic:
            let forms = operationForms(operation, in: model)
            guard !forms.isEmpty else {
                throw CLIFailure("login failed: the client operation \(Self.name(operation)) cannot be performed in a terminal, and the step offers nothing else")
            }
            message(strings.string(.operationNotInTerminal, Self.name(operation)), .warning)
            try await offer(model, forms: forms, defaultIndex: operation.actions.continueActions.isEmpty ? nil : 0)
        }
    }

    /// The operation's continue and error actions, then the step's other forms (its cancel among
    /// them) that do not repeat one of those.
    private func operationForms(_ operation: ClientOperationModel, in model: UIModel) -> [FormModel] {
        operation.actions.continueActions + operation.actions.errorActions + operation.actions.formsBeside(in: model)
    }

    /// Prints BankID's start link and, for another device, its QR code.
    private func showBankID(_ model: BankIDOperationModel) {
        if let url = model.autoStartURL {
            Stderr.line(strings.string(.bankIDOpenOnThisDevice) + ":")
            Stderr.line("  " + terminal.styled(TerminalText.safe(url.absoluteString), .bold))
        }
        if let data = model.qrData {
            Stderr.line(strings.string(.bankIDScanOnOtherDevice) + ":")
            if let code = QRCodeText.render(data) {
                Stderr.write(code)
            } else {
                Stderr.line(terminal.styled(strings.string(.qrCodeNeedsQrencode), .dim))
            }
        } else if let image = model.qrCode {
            Stderr.line(strings.string(.bankIDScanOnOtherDevice) + ": " + TerminalText.safe(image.href.hasPrefix("data:") ? image.title : image.href))
        }
    }

    private func openBrowser(_ model: ExternalBrowserOperationModel) async throws {
        guard let href = model.href else { throw CLIFailure("login failed: the external-browser operation has no href") }
        // The browser comes back to a listener that lives for this one return (OIDCClient's, as for --browser logins).
        let listener: LoopbackRedirectListener
        do { listener = try await LoopbackRedirectListener.start(port: 0, path: "/callback") } catch {
            throw CLIFailure("login failed: cannot listen for the browser's return: \((error as? any IdsvrError)?.errorDescription ?? "\(error)")")
        }
        let redirectURI = "http://127.0.0.1:\(listener.port)/callback"
        let returned = LockedValue<URL?>(nil)
        let waiter = Task {
            let url = await listener.redirect()
            returned.withLock { $0 = url }
        }
        do {
            try await waitForBrowser(href: href, redirectURI: redirectURI, returned: returned)
        } catch {
            waiter.cancel()
            await listener.close()
            throw error
        }
        await listener.close()
        if let back = returned.withLock({ $0 }) { await viewModel.resumeExternalBrowser(url: back) }
    }

    /// Opens the browser on the operation's URL and waits until it comes back to `redirectURI`.
    private func waitForBrowser(href: String, redirectURI: String, returned: LockedValue<URL?>) async throws {
        guard let url = ExternalBrowserOperationModel.launchURL(href: href, appRedirect: redirectURI, baseURL: baseURL) else {
            throw CLIFailure("login failed: the external-browser href \(TerminalText.safe(href)) is not a URL")
        }
        guard SystemBrowserLauncher.isOpenable(url) else {
            throw CLIFailure("login failed: the server asked to open a \(TerminalText.safe(url.scheme ?? "")) URL; only https, and http to a loopback address, are opened")
        }
        Stderr.line(strings.string(.continueInBrowser) + ":")
        Stderr.line("  " + terminal.styled(TerminalText.safe(url.absoluteString), .bold))
        let launched: LaunchedBrowser?
        do { launched = try await browser.launch(url) } catch {
            // No browser will come back: a script ends now, a person can still open the URL.
            if isScripted { throw CLIFailure("login failed: " + ((error as? OIDCError)?.message ?? "\(error)")) }
            launched = nil
        }
        if let launched {
            Stderr.line(terminal.styled(strings.string(.browserOpened, launched.command, redirectURI), .dim))
        } else {
            Stderr.line(terminal.styled(strings.string(.browserNotStarted), .dim))
        }
        let deadline = Date().addingTimeInterval(isScripted ? 60 : 600)
        try await Interrupts.whileWaitingForTheUser {
            try await waitForReturn(launched: launched, redirectURI: redirectURI, returned: returned, until: deadline)
        }
    }

    private func waitForReturn(launched: LaunchedBrowser?, redirectURI: String, returned: LockedValue<URL?>, until deadline: Date) async throws {
        var launched = launched
        while returned.withLock({ $0 }) == nil {
            if terminal.takeInterrupt() { throw Interrupted() }
            if let failed = launched, let status = failed.failureStatus {
                // A browser that failed will not come back: a script ends now, a person can still open the URL.
                let what = "the browser command \(failed.command) exited with status \(status)"
                if isScripted { throw CLIFailure("login failed: \(what)") }
                message("\(what); open the URL yourself", .warning)
                launched = nil
            }
            if Date() > deadline { throw CLIFailure("login failed: the browser did not come back to \(redirectURI) in time") }
            try await Task.sleep(for: .milliseconds(100))
        }
    }

    static func name(_ operation: ClientOperationModel) -> String {
        switch operation {
        case .externalBrowser: return "external-browser-flow"
        case .bankID: return "bankid"
        case .encap: return "encap-auto-activation"
        case .webAuthn: return "webauthn"
        case .generic(let model): return model.name.rawValue
        }
    }
}
