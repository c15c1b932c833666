import Foundation
import HaapiCLICore
import HaapiSDK
import HaapiUI
import OAuthCore
import OAuthTransportNIO
import OIDCClient

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
    /// The person chose the consent screen's cancel (Deny).
    private var declinedConsent = false
    /// The form last submitted: after the server refuses its answers, it is asked again directly.
    private var lastSubmittedForm: String?

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
    func run(parameters: OAuthAuthorizationParameters?) async throws -> KitOAuthTokenModel {
        await viewModel.start(parameters: parameters)
        while true {
            if let outcome = viewModel.oAuthModel {
                if let tokens = outcome as? KitOAuthTokenModel { return tokens }
                guard let error = outcome as? KitOAuthErrorModel else {
                    throw CLIFailure("login failed: the flow ended with \(type(of: outcome))")
                }
                if error.error == "access_denied" && declinedConsent {
                    throw CLIFailure("access denied: the consent was declined, so the server issued no tokens (access_denied)")
                }
                if error.error == "access_denied" && (error.source == .client || Self.offersCancel(viewModel.shownStep)) {
                    throw CLIFailure("login cancelled")
                }
                throw CLIFailure("login failed: \(error.error)\(error.errorDescription.map { ": \($0)" } ?? "")")
            }
            if let error = viewModel.error {
                if error.isRetryable && retries < 2 && !Task.isCancelled {
                    retries += 1
                    message(Texts.string(.retrying, error.title), .warn)
                    try await Task.sleep(for: .milliseconds(500))
                    await viewModel.retry()
                    continue
                }
                if let problem = error.problem {
                    // The problem's screen, but its title: the failure names the problem.
                    let title = problem.title ?? strings.string(.developerRuntimeTitle)
                    for item in viewModel.haapiUIKitApplication.screenBuilder.screen(for: problem).messages.dropFirst() {
                        for line in text.lines(item) { Stderr.line(line) }
                    }
                    throw CLIFailure("login failed: \(title)\(Self.lockoutNote(problem))")
                }
                throw CLIFailure(
                    "login failed: \(Self.describe(error))\(Hints.after(error, unwrapping: { ($0 as? HaapiFlowError)?.underlyingError }))")
            }
            guard let model = viewModel.uiModel else { throw CLIFailure("login failed: the flow did not start") }
            do {
                try await render(model)
            } catch is Interrupted {
                try await interrupt()
            }
        }
    }

    /// Whether `step` offers a cancel action (a cancellation then ends in the server's `access_denied`).
    static func offersCancel(_ step: (any HaapiRepresentation)?) -> Bool {
        guard let step else { return false }
        let operation = (step as? any ClientOperationStep)?.operationModel
        return (step.allActions + (operation?.continueActions ?? []) + (operation?.errorActions ?? [])).contains { $0.kind == .cancel }
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
            Stderr.write(
                "\n" + terminal.styled("\(strings.string(.interruptingTitle)) \(Texts.string(.yesNoDefaultNo)) ", .yellow, .bold))
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

    /// The kit's screen of `model`, with the server's complaint about the last answers.
    private func screen(of model: any UIModel) -> Screen {
        viewModel.haapiUIKitApplication.screenBuilder.screen(for: model, problem: viewModel.problemModel)
    }

    /// Draws `model`'s screen (``ScreenText``), then acts on it: a menu of its buttons and
    /// links, prompts for the chosen form's fields, a wait, or the browser.
    private func render(_ model: any UIModel) async throws {
        if terminal.takeInterrupt() { throw Interrupted() }
        let screen = screen(of: model)
        if !(model is KitExternalBrowserModel) { show(screen, of: model) }
        if let problem = viewModel.problemModel, isScripted {
            throw CLIFailure(Texts.line(.refusedAnswers, PrintableText(problem.title ?? strings.string(.developerRuntimeTitle))))
        }
        switch model {
        case let bankID as KitBankIdModel:
            if let polling = bankID.polling {
                try await wait(polling, screen)
            } else {
                // Continuing polls for BankID's answer; the error action is "BankID on another device".
                try await offer(screen, of: model, defaultIndex: 0)
            }
        case let polling as KitPollingModel:
            try await wait(polling, screen)
        case let browser as KitExternalBrowserModel:
            try await openBrowser(browser, screen)
        case let webAuthn as KitWebAuthnModel:
            // A terminal has no platform authenticator: the kit's screen for a device without
            // one, whose way on is the browser fallback when the step and the configuration allow it.
            guard webAuthn.failure != nil else {
                viewModel.passkeyDidFail(.notSupported, kind: webAuthn.kinds.first ?? .any)
                return
            }
            guard webAuthn.failure == .fallback else {
                throw CLIFailure("login failed: passkeys need a platform authenticator, and the browser fallback is off or not offered")
            }
            try await offer(screen, of: model, defaultIndex: 0)
        case let operation as KitGenericOperationModel:
            let name = operation.actionModel.name.rawValue
            guard !Self.menu(screen, of: model).isEmpty else {
                throw CLIFailure(
                    "login failed: the client operation \(name) cannot be performed in a terminal, and the step offers nothing else")
            }
            Stderr.line(text.message(Texts.string(.operationNotInTerminal, name), .warn))
            try await offer(screen, of: model, defaultIndex: operation.actionModel.continueActions.isEmpty ? nil : 0)
        case let form as KitFormModel where form.step is UserConsentStep:
            try await offer(screen, of: model, isConsent: true)
        case is any FormModel, is any ContinueSameModel, is KitGenericModel, is KitSelectorModel:
            try await offer(screen, of: model)
        case is any AuthorizationRequestModel:
            // The view model exchanges the code; after an automatic poll that exchange may still
            // be under way when this model shows: wait for its outcome, which the loop handles.
            let deadline = Date().addingTimeInterval(60)
            while viewModel.oAuthModel == nil && viewModel.error == nil {
                if terminal.takeInterrupt() { throw Interrupted() }
                guard Date() < deadline else { throw CLIFailure("login failed: the authorization response ended without tokens") }
                try await Task.sleep(for: .milliseconds(50))
            }
        default:
            throw CLIFailure("login failed: the step's model \(type(of: model)) cannot be shown in a terminal")
        }
    }

    /// How the screen is drawn as text.
    var text: ScreenText { ScreenText(strings: strings, colour: terminal.usesColour) }

    private var shownLines: [PrintableText] = []
    private var shownBankIDOrder: String?
    private var lastText = ""

    /// Prints the screen's lines. A wait's screen comes again at every poll: it is printed when
    /// its lines change, and BankID's once per order (its QR code stays on screen).
    private func show(_ screen: Screen, of model: any UIModel, opening: (URL) -> URL = { $0 }) {
        let lines = text.lines(screen, menuTitles: Set(Self.menu(screen, of: model).map(\.title)), opening: opening)
        if let bankID = model as? KitBankIdModel {
            let order = bankID.autoStartURL?.absoluteString ?? bankID.qrData
            if order == shownBankIDOrder { return }
            shownBankIDOrder = order
        } else if model is any PollingModel, lines == shownLines {
            return
        }
        shownLines = lines
        for line in lines { Stderr.line(line) }
    }

    // MARK: Menus and forms

    /// What a person can do on a screen, as a menu.
    private enum Entry {
        case form(KitButtonItem)
        case select(KitSelectorItem)
        case link(any LinkItemModel)
        case passkeyFallback
        /// Consent's form, with a question per scope before it is submitted.
        case choosingBoxes(KitButtonItem)
    }

    /// The menu of a screen, in its order: its buttons (those a terminal can act on) and links.
    /// Tabs are one entry per option (the first option's own content shows when it is chosen).
    private static func menu(_ screen: Screen, of model: any UIModel) -> [(entry: Entry, title: String)] {
        var entries: [(entry: Entry, title: String)] = []
        var inTabs = false
        for item in screen.content + screen.links {
            switch item {
            case .tabs:
                let options = (model as? any SelectorModel)?.selectorItems.compactMap { $0 as? KitSelectorItem } ?? []
                entries += options.map { (.select($0), $0.title) }
                inTabs = true
            case .button(let button):
                switch button.action {
                case .submit(let form as KitButtonItem) where !(inTabs && !form.isCancel): entries.append((.form(form), button.title))
                case .select(let option as KitSelectorItem) where !inTabs: entries.append((.select(option), button.title))
                case .follow(let link): entries.append((.link(link), button.title))
                case .passkeyFallback: entries.append((.passkeyFallback, button.title))
                default: continue
                }
            case .link(let title, .follow(let link)):
                entries.append((.link(link), title))
            default:
                continue
            }
        }
        // Two buttons of one title ("Login" under each way to use BankID) are told apart by their forms' titles.
        let titles = entries.map(\.title)
        return entries.map { entry in
            guard case .form(let form) = entry.entry, let title = form.title, titles.filter({ $0 == entry.title }).count > 1 else {
                return entry
            }
            return (entry.entry, title)
        }
    }

    /// The names an `--answers` choice may use for an entry besides its title.
    private static func names(_ entry: Entry) -> [String] {
        switch entry {
        case .form(let form): return [form.kind.rawValue, form.label, form.title].compactMap { $0 }
        case .select(let option):
            // The last path segment of the option's href is the server's authenticator id (`username-password`).
            let id = option.formActionModel.flatMap { URL(string: $0.href)?.lastPathComponent }.flatMap {
                $0.isEmpty || $0 == "/" ? nil : $0
            }
            return [option.type, id, option.option.kind.rawValue].compactMap { $0 }
        case .link(let link): return [link.rel, link.href].filter { !$0.isEmpty }
        case .passkeyFallback: return ["browser", "fallback"]
        case .choosingBoxes: return ["choose"]
        }
    }

    /// Offers what `screen` lets a person do: one thing is done directly; several make a menu,
    /// whose answer on Enter (and for a script without a matching choice) is `defaultIndex`,
    /// else the only primary entry. Consent (`isConsent`) is asked once: its scopes were listed,
    /// and accepting grants the checked ones; a person at the terminal may instead choose them
    /// one by one.
    private func offer(_ screen: Screen, of model: any UIModel, defaultIndex: Int? = nil, isConsent: Bool = false) async throws {
        var entries = Self.menu(screen, of: model)
        // The screen's own ways on, not its links nor a cancel.
        let primary = entries.filter {
            switch $0.entry {
            case .form(let form): !form.isCancel
            case .link: false
            case .select, .passkeyFallback, .choosingBoxes: true
            }
        }
        if isConsent, !isScripted, case .form(let accept)? = primary.first?.entry,
            accept.fields.contains(where: { ($0 as? KitCheckboxItem)?.isReadOnly == false })
        {
            entries.insert((.choosingBoxes(accept), Texts.string(.consentChooseScopes)), at: 1)
        }
        guard !entries.isEmpty else {
            let step = viewModel.shownStep.flatMap { UnsupportedStepError($0).errorDescription } ?? "the step offers nothing to do"
            throw CLIFailure("login failed: \(step)")
        }
        let chosen: Entry
        let refused =
            viewModel.problemModel == nil
            ? nil
            : entries.first {
                if case .form(let form) = $0.entry { form.key == lastSubmittedForm && !form.isCancel } else { false }
            }
        if let refused {
            // The server refused what was typed: the same form again, as a person expects.
            chosen = refused.entry
        } else if entries.count == 1 || (primary.count == 1 && !isScripted && !terminal.isInteractive) {
            chosen = primary.first?.entry ?? entries[0].entry
        } else {
            let options = entries.map { ChoiceOption(title: $0.title, names: Self.names($0.entry)) }
            // A selector asks its own question (its title, which its screen shows as a heading).
            let question =
                (model as? any SelectorModel).map { $0.title ?? Texts.string(.chooseAuthenticator) } ?? Texts.string(.chooseAction)
            let asked = screen.messages.contains { if case .message(question, _) = $0 { true } else { false } }
            chosen =
                entries[try await choose(question, options, defaultIndex: defaultIndex ?? (primary.count == 1 ? 0 : nil), asked: asked)]
                .entry
        }
        switch chosen {
        case .link(let link): await viewModel.followLink(link.link)
        // The view model shows what a nested option holds (its options, or its form's fields)
        // as the next model; the loop renders that in turn.
        case .select(let option): await viewModel.select(option)
        case .passkeyFallback: await viewModel.takePasskeyFallback()
        case .form(let form) where form.isCancel:
            declinedConsent = isConsent
            await submit(form, [:])
        case .form(let form): await submit(form, try await fill(form, problem: viewModel.problemModel, asksCheckboxes: !isConsent))
        case .choosingBoxes(let form): await submit(form, try await fill(form, problem: viewModel.problemModel))
        }
    }

    /// Prints a line of the terminal's own (or server-sent, so escaped) text in a message style.
    func message(_ unsafeText: String, _ style: MessageStyleAttribute) { Stderr.line(text.message(unsafeText, style)) }

    /// What Enter answers at a field's prompt: its value, but never a secret, and never what the
    /// server just refused (a wrong one-time code must be typed anew). After incorrect
    /// credentials only a username is kept; after invalid input, the fields not named in it.
    static func promptDefault(_ field: KitInputTextItem, problem: KitProblemModel?) -> String? {
        let value = field.value
        guard !value.isEmpty, !field.inputConfiguration.isSecure else { return nil }
        let typed = value != field.initialValue
        guard typed, let problem else { return value }
        if field.error != nil { return nil }
        if problem.invalidFields.isEmpty && field.inputConfiguration.contentType != .username {
            return field.initialValue.isEmpty ? nil : field.initialValue
        }
        return value
    }

    /// For a lockout whose texts give no duration: says so, and what the user can do.
    static func lockoutNote(_ problem: KitProblemModel) -> String {
        guard problem.type == .tooManyAttemptsProblem else { return "" }
        let texts = [problem.title ?? ""] + problem.messageItems.compactMap(\.text)
        if texts.contains(where: { $0.contains(where: \.isNumber) }) { return "" }
        return " (the server does not say for how long: try again later, or ask its administrators to unlock the account)"
    }

    /// Submits `form` with `values`, kept in its fields as a screen keeps what was typed (for the
    /// prompts' defaults if the server refuses them).
    private func submit(_ form: KitButtonItem, _ values: [String: String]) async {
        for field in form.fields {
            guard let value = values[field.key] else { continue }
            switch field {
            case let text as KitInputTextItem: text.value = value
            case let box as KitCheckboxItem: box.isChecked = !value.isEmpty
            case let select as KitSelectItem: select.selectedPosition = select.options.firstIndex { $0.1 == value }
            default: break
            }
        }
        guard let model = form.formActionModel else { return }
        lastSubmittedForm = form.key
        await viewModel.submit(form: model, parameters: values)
    }

    /// Asks for every input field of a form; `problemShown` is the server's complaint about the last answers.
    private func fill(_ form: KitButtonItem, problem problemShown: KitProblemModel?, asksCheckboxes: Bool = true) async throws -> [String:
        String]
    {
        var values: [String: String] = [:]
        let formName = form.title ?? form.kind.rawValue
        for field in form.fields {
            // The server's complaint about a field goes with its prompt.
            let error = Self.error(of: field)
            let complaint = error.map { terminal.styled(" (" + PrintableText($0.isEmpty ? "invalid" : $0) + ")", .red) } ?? ""
            switch field {
            case let select as KitSelectItem:
                let options = select.options.map { ChoiceOption(title: $0.0, names: [$0.1]) }
                if let answer = try await answer(for: select.key) {
                    values[select.key] = select.options.first { $0.1 == answer || $0.0 == answer }?.1 ?? answer
                } else {
                    let question = "\(select.label) (field \"\(select.key)\" of form \"\(formName)\")"
                    let index = try await choose(question, options, defaultIndex: select.selectedPosition, consumesChoices: false)
                    values[select.key] = select.options[index].1
                }
            case let box as KitCheckboxItem:
                if box.isReadOnly { continue }
                if isScripted, let answer = try await answer(for: box.key) {
                    values[box.key] = ["", "false", "no", "off", "0"].contains(answer.lowercased()) ? "" : box.value
                } else if isScripted || !asksCheckboxes {
                    // Not asked: the box as the server checked it.
                    values[box.key] = box.isChecked ? box.value : ""
                } else {
                    let hint = Texts.string(box.isChecked ? .yesNoDefaultYes : .yesNoDefaultNo)
                    Stderr.write(terminal.styled(PrintableText(box.label), .bold) + complaint + terminal.styled(" \(hint) ", .bold))
                    let reply = try await terminal.readLine().trimmingCharacters(in: .whitespaces).lowercased()
                    let checked = reply.isEmpty ? box.isChecked : strings.isYes(reply)
                    values[box.key] = checked ? box.value : ""
                }
            case let text as KitInputTextItem:
                if let answer = try await answer(for: text.key) {
                    values[text.key] = answer
                } else if isScripted {
                    if !text.value.isEmpty {
                        values[text.key] = text.value
                    } else {
                        throw CLIFailure(
                            "the answers have no value for the field \"\(text.key)\" (\(text.label)) of the form \"\(formName)\"")
                    }
                } else {
                    let current = Self.promptDefault(text, problem: problemShown)
                    let prompt =
                        terminal.styled(PrintableText(text.label), .bold) + complaint
                        + terminal.styled(PrintableText(current.map { " [\($0)]" } ?? "") + ": ", .bold)
                    Stderr.write(prompt)
                    let line = try await terminal.readLine(secret: text.inputConfiguration.isSecure)
                    values[text.key] = line.isEmpty ? (current ?? "") : line
                }
            default:
                continue
            }
        }
        return values
    }

    /// The server's complaint about a field's last value (empty when it gave no text), if any.
    static func error(of field: any InteractionItemModel) -> String? {
        switch field {
        case let text as KitInputTextItem: return text.error
        case let box as KitCheckboxItem: return box.error
        case let select as KitSelectItem: return select.error
        default: return nil
        }
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
                Stderr.line(terminal.styled(Texts.string(.waitingForAnswerFile, name, path), .dim))
                announced = true
            }
            if terminal.takeInterrupt() { throw Interrupted() }
            if Date() > deadline {
                throw CLIFailure(
                    "the answer to the field \"\(name)\" did not appear in \(path) within \(OutsideNumber.wholeSeconds(FieldAnswer.fileWaitLimit)) s"
                )
            }
            try await Task.sleep(for: .milliseconds(100))
        }
    }

    /// A numbered menu; from the answers, the next choice (matched by name or title).
    /// `asked`: the screen above shows the question already.
    private func choose(
        _ question: String, _ options: [ChoiceOption], defaultIndex: Int?, consumesChoices: Bool = true, asked: Bool = false
    ) async throws -> Int {
        // The options come from the server: none is a message, not a menu of `1-0`, and a
        // default it names must be one of them.
        guard !options.isEmpty else { throw CLIFailure("login failed: the server asks \"\(question)\" but offers nothing to choose") }
        let defaultIndex = defaultIndex.flatMap { options.indices.contains($0) ? $0 : nil }
        let names = ChoiceOption.describe(options)
        if let answers {
            if consumesChoices, choiceIndex < answers.choices.count,
                let index = options.firstIndex(where: { $0.matches(answers.choices[choiceIndex]) })
            {
                choiceIndex += 1
                Stderr.line(PrintableText("\(question): \(options[index].title)"))
                return index
            }
            if let defaultIndex { return defaultIndex }
            if consumesChoices, choiceIndex < answers.choices.count {
                throw CLIFailure("the answer \"\(answers.choices[choiceIndex])\" matches no option of \"\(question)\" (options: \(names))")
            }
            throw CLIFailure("the answers have no choice for \"\(question)\" (options: \(names))")
        }
        if !asked { Stderr.line(terminal.styled(PrintableText(question), .bold)) }
        // Titles only: the names an --answers file may use (`login`, `external-browser`) are the
        // server's ids, which a person at the terminal has no use for.
        for (index, option) in options.enumerated() {
            Stderr.line("  \(index + 1)) \(PrintableText(option.title))")
        }
        while true {
            Stderr.write(
                terminal.styled("\(strings.string(.choose)) 1-\(options.count)\(defaultIndex.map { " [\($0 + 1)]" } ?? ""): ", .bold))
            let line = try await terminal.readLine().trimmingCharacters(in: .whitespaces)
            if line.isEmpty, let defaultIndex { return defaultIndex }
            if let number = Int(line), number >= 1, number <= options.count { return number - 1 }
            if let index = options.firstIndex(where: { $0.matches(line) }) { return index }
            message(Texts.string(.chooseNumber, String(options.count)), .warn)
        }
    }

    // MARK: Polling

    /// The screen's spinner and countdown, drawn as a status line that counts down while the
    /// step waits; a step the view model does not poll by itself is polled after two seconds.
    private func wait(_ polling: KitPollingModel, _ screen: Screen) async throws {
        let start = Date()
        let countdown = screen.content.lazy.compactMap { if case .countdown(let countdown) = $0 { countdown } else { nil } }.first
        let builder = viewModel.haapiUIKitApplication.screenBuilder
        let frames = ["|", "/", "-", "\\"]
        var frame = 0
        defer { terminal.endStatus() }
        // The step changes when a poll answers something other than this same pending step.
        var changed = false
        let watcher = viewModel.$uiModel.dropFirst().sink { model in
            if let current = model as? any PollingModel, current.isEqualTo(polling) { return }
            changed = true
        }
        defer { watcher.cancel() }
        // Ctrl-C while waiting asks first; a poll the terminal makes is a request, cancelled at once.
        let pollsNow = try await Interrupts.whileWaitingForTheUser { () async throws -> Bool in
            while true {
                if terminal.takeInterrupt() { throw Interrupted() }
                if viewModel.oAuthModel != nil || viewModel.error != nil || changed { return false }
                let text = polling.recipient.map { Texts.string(.waitingFor, $0) } ?? strings.string(.waiting)
                // The time left is drawn with the spinner; without colour the line is printed only when its text changes.
                let timeLeft =
                    countdown.map {
                        " (" + builder.timeLeft(seconds: max(0, $0.seconds - ScreenBuilder.wholeSeconds(Date().timeIntervalSince(start))))
                            + ")"
                    } ?? ""
                if terminal.usesColour {
                    terminal.status(terminal.styled(frames[frame % frames.count], .cyan) + " \(text)\(timeLeft)")
                    frame += 1
                } else if text != lastText {
                    lastText = text
                    terminal.status(PrintableText(text + timeLeft))
                }
                if !polling.isAutomatic, !viewModel.isLoading, Date().timeIntervalSince(start) > 2 { return true }
                try await Task.sleep(for: .milliseconds(150))
            }
        }
        if pollsNow { await viewModel.poll() }
    }

    // MARK: Client operations

    private func openBrowser(_ model: KitExternalBrowserModel, _ screen: Screen) async throws {
        // The browser comes back to a listener that lives for this one return (OIDCClient's, as for --browser logins).
        let listener: LoopbackRedirectListener
        do {
            listener = try await LoopbackRedirectListener.start(
                port: 0, path: "/callback", page: ReturnPage.make(language: strings.language))
        } catch {
            throw CLIFailure(
                "login failed: cannot listen for the browser's return: \((error as? any IdsvrError)?.errorDescription ?? "\(error)")")
        }
        let redirectURI = "http://127.0.0.1:\(listener.port)/callback"
        let returned = LockedValue<URL?>(nil)
        let waiter = Task {
            let url = await listener.redirect()
            returned.withLock { $0 = url }
        }
        do {
            try await waitForBrowser(model, screen, redirectURI: redirectURI, returned: returned)
        } catch {
            waiter.cancel()
            await listener.close()
            throw error
        }
        await listener.close()
        if let back = returned.withLock({ $0 }) { await viewModel.resumeExternalBrowser(url: back) }
    }

    /// Opens the browser on the operation's URL and waits until it comes back to `redirectURI`.
    private func waitForBrowser(_ model: KitExternalBrowserModel, _ screen: Screen, redirectURI: String, returned: LockedValue<URL?>)
        async throws
    {
        guard let url = model.url(redirectingTo: redirectURI) else {
            throw CLIFailure("login failed: the external-browser href \(PrintableText(model.href)) is not a URL")
        }
        guard SystemBrowserLauncher.isOpenable(url) else {
            throw CLIFailure(
                "login failed: the server asked to open a \(PrintableText(url.scheme ?? "")) URL; only https, and http to a loopback address, are opened"
            )
        }
        // The screen's button opens the URL that comes back here.
        show(screen, of: model, opening: { _ in url })
        let launched: LaunchedBrowser?
        do { launched = try await browser.launch(url) } catch {
            // No browser will come back: a script ends now, a person can still open the URL.
            if isScripted { throw CLIFailure("login failed: \((error as? OIDCError)?.message ?? "\(error)")") }
            launched = nil
        }
        if let launched {
            Stderr.line(terminal.styled(Texts.string(.browserOpened, launched.command, redirectURI), .dim))
        } else {
            Stderr.line(terminal.styled(Texts.string(.browserNotStarted), .dim))
        }
        let deadline = Date().addingTimeInterval(isScripted ? 60 : 600)
        try await Interrupts.whileWaitingForTheUser {
            try await waitForReturn(launched: launched, redirectURI: redirectURI, returned: returned, until: deadline)
        }
    }

    private func waitForReturn(launched: LaunchedBrowser?, redirectURI: String, returned: LockedValue<URL?>, until deadline: Date)
        async throws
    {
        var launched = launched
        while returned.withLock({ $0 }) == nil {
            if terminal.takeInterrupt() { throw Interrupted() }
            if let failed = launched, let status = failed.failureStatus {
                // A browser that failed will not come back: a script ends now, a person can still open the URL.
                let what = "the browser command \(failed.command) exited with status \(status)"
                if isScripted { throw CLIFailure("login failed: \(what)") }
                message("\(what); open the URL yourself", .warn)
                launched = nil
            }
            if Date() > deadline { throw CLIFailure("login failed: the browser did not come back to \(redirectURI) in time") }
            try await Task.sleep(for: .milliseconds(100))
        }
    }
}
