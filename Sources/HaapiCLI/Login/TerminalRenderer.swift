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
    func run(parameters: OAuthAuthorizationParameters?) async throws -> KitOAuthTokenModel {
        await viewModel.start(parameters: parameters)
        while true {
            if let outcome = viewModel.oAuthModel {
                if let tokens = outcome as? KitOAuthTokenModel { return tokens }
                guard let error = outcome as? KitOAuthErrorModel else { throw CLIFailure("login failed: the flow ended with \(type(of: outcome))") }
                if error.error == "access_denied" && (error.source == .client || Self.offersCancel(viewModel.shownStep)) {
                    throw CLIFailure("login cancelled")
                }
                throw CLIFailure("login failed: \(error.error)\(error.errorDescription.map { ": \($0)" } ?? "")")
            }
            if let error = viewModel.error {
                if error.isRetryable && retries < 2 && !Task.isCancelled {
                    retries += 1
                    message(strings.string(.retrying, error.title), .warn)
                    try await Task.sleep(for: .milliseconds(500))
                    await viewModel.retry()
                    continue
                }
                if let problem = error.problem {
                    // The server's messages, each in its class's style; the failure names the problem.
                    let title = problem.title ?? strings.string(.developerRuntimeTitle)
                    for line in problem.messageItems where line.text != title { message(line.text ?? "", Self.problemStyle(line)) }
                    throw CLIFailure("login failed: \(title)\(Self.lockoutNote(problem))")
                }
                throw CLIFailure("login failed: \(Self.describe(error))\(Hints.after(error))")
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

    private func render(_ model: any UIModel) async throws {
        if terminal.takeInterrupt() { throw Interrupted() }
        printMessages(model)
        if let problem = viewModel.problemModel {
            let title = problem.title ?? strings.string(.developerRuntimeTitle)
            message(title, .error)
            for line in problem.messageItems where line.text != title { message(line.text ?? "", Self.problemStyle(line)) }
            for line in Self.invalidFieldLines(problem, items: HaapiFlowViewModel.interactionItems(of: model)) { message(line, .error) }
            if isScripted {
                throw CLIFailure("the server refused the answers: \(title)")
            }
        }
        switch model {
        case let selector as KitSelectorModel:
            try await chooseOption(selector.title ?? strings.string(.chooseAuthenticator), selector.selectorItems.compactMap { $0 as? KitSelectorItem })
        case let bankID as KitBankIdModel:
            if shownBankIDToken != Self.bankIDOrder(bankID) {
                // Once per BankID order: the step repeats at every poll.
                shownBankIDToken = Self.bankIDOrder(bankID)
                showBankID(bankID)
            }
            if let polling = bankID.polling {
                try await wait(polling)
            } else {
                // Continuing polls for BankID's answer; the error action is "BankID on another device".
                try await offer(model, forms: Self.forms(bankID.otherItems), defaultIndex: 0)
            }
        case let polling as KitPollingModel:
            try await wait(polling)
        case let browser as KitExternalBrowserModel:
            try await openBrowser(browser)
        case let webAuthn as KitWebAuthnModel:
            // A terminal has no platform authenticator: take the server's browser fallback.
            guard let fallback = viewModel.passkeysBrowserFallback(of: webAuthn) else {
                throw CLIFailure("login failed: passkeys need a platform authenticator, and the browser fallback is off or not offered")
            }
            message(strings.string(.passkeysInBrowser), .info)
            await viewModel.submit(form: fallback, parameters: [:])
        case let operation as KitGenericOperationModel:
            let forms = Self.forms(operation.interactionModel?.interactionItems ?? [])
            let name = operation.actionModel.name.rawValue
            guard !forms.isEmpty else {
                throw CLIFailure("login failed: the client operation \(name) cannot be performed in a terminal, and the step offers nothing else")
            }
            message(strings.string(.operationNotInTerminal, name), .warn)
            try await offer(model, forms: forms, defaultIndex: operation.actionModel.continueActions.isEmpty ? nil : 0)
        case let form as KitFormModel where form.step is UserConsentStep:
            let forms = Self.forms(form.interactionItems)
            guard let consent = forms.first(where: { $0.kind == .userConsent }) ?? forms.first(where: { !$0.isCancel }) else {
                throw CLIFailure("the consent step has no consent form")
            }
            if !form.messageItems.contains(where: { $0.messageStyleAttribute == .heading }) {
                message(strings.string(.consentHeading, viewModel.configuration.haapiConfiguration.clientId), .heading)
            }
            for box in consent.fields.compactMap({ $0 as? KitCheckboxItem }) {
                Stderr.line("  • " + PrintableText(Self.checkboxText(box)) + (box.isReadOnly ? terminal.styled(" (\(strings.string(.required)))", .dim) : ""))
            }
            try await offer(model, forms: [consent] + forms.filter { $0.key != consent.key }, byAction: true, isConsent: true)
        case let form as any FormModel:
            try await offer(model, forms: Self.forms(form.interactionItems))
        case let continued as any ContinueSameModel:
            try await offer(model, forms: Self.forms(continued.formModel?.interactionItems ?? []))
        case let generic as KitGenericModel:
            if let selector = generic.selectorModel as? KitSelectorModel {
                try await chooseOption(selector.title ?? strings.string(.choose), selector.selectorItems.compactMap { $0 as? KitSelectorItem })
            } else {
                try await offer(model, forms: Self.forms(generic.formModel?.interactionItems ?? []))
            }
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

    /// The buttons among a model's elements: each submits its form with the values of its fields.
    static func forms(_ items: [any InteractionItemModel]) -> [KitButtonItem] { items.compactMap { $0 as? KitButtonItem } }

    /// What identifies a BankID order (its start token, else its QR code's data).
    static func bankIDOrder(_ model: KitBankIdModel) -> String? { model.autoStartURL?.absoluteString ?? model.qrData }

    private var lastMessages: [String] = []
    private var shownBankIDToken: String?
    private var lastText = ""

    private func printMessages(_ model: any UIModel) {
        let items = ScreenBuilder.messageItems(of: model)
        let texts = items.map { $0.text ?? "" }
        if model is any PollingModel, texts == lastMessages { return }
        lastMessages = texts
        for item in items { message(item.text ?? "", item.messageStyleAttribute) }
        for image in (model as? any KitStepModel)?.context.images ?? [] where image.isQRCode {
            message(strings.string(.qrCodeOffered, image.text ?? image.href), .info)
        }
    }

    /// Prints a line of (possibly server-sent, so escaped) text in a message style.
    func message(_ unsafeText: String, _ style: MessageStyleAttribute) {
        let text = PrintableText(unsafeText)
        switch style {
        case .heading: Stderr.line(terminal.styled(text, .bold, .blue))
        case .info: Stderr.line(terminal.styled(text, .cyan))
        case .warn: Stderr.line(terminal.styled(strings.string(.warningLabel) + " ", .yellow, .bold) + terminal.styled(text, .yellow))
        case .error: Stderr.line(terminal.styled(strings.string(.errorLabel) + " ", .red, .bold) + terminal.styled(text, .red))
        case .username, .recipientofcommunication: Stderr.line(terminal.styled(text, .bold))
        case .content, .usercode: Stderr.line(text)
        }
    }

    // MARK: Forms and menus

    private enum Entry {
        case form(KitButtonItem)
        case link(any LinkItemModel)
        /// Consent's form, with a question per scope before it is submitted.
        case choosingBoxes(KitButtonItem, title: String)
    }

    /// The menu of `entries`; forms are named by their title, or with `byAction` by their
    /// button (consent's "Accept" and "Deny" say more than the forms' titles).
    private static func choices(_ entries: [Entry], byAction: Bool = false) -> [ChoiceOption] {
        entries.map { entry in
            switch entry {
            case .form(let form): return ChoiceOption(title: byAction ? form.label : form.title ?? form.label, names: [form.kind.rawValue, form.label])
            case .link(let link): return ChoiceOption(title: link.text ?? link.href, names: [link.rel, link.href].filter { !$0.isEmpty })
            case .choosingBoxes(_, let title): return ChoiceOption(title: title, names: ["choose"])
            }
        }
    }

    /// The fields an invalid-input problem names, each with the server's complaint: shown with
    /// the problem, before the user chooses what to do again.
    static func invalidFieldLines(_ problem: KitProblemModel, items: [any InteractionItemModel]) -> [String] {
        problem.invalidFields.map { invalid in
            let label = items.first { $0.key == invalid.name }?.label ?? invalid.name
            return "\(label): \(invalid.detail.literal.isEmpty ? invalid.reason ?? "invalid" : invalid.detail.literal)"
        }
    }

    /// A checkbox as text: its label, and the value it stands for when that says more
    /// (`profile: Your name, username and locale` for a consent scope).
    static func checkboxText(_ box: KitCheckboxItem) -> String {
        let value = box.value
        guard !value.isEmpty, value != "on", value.caseInsensitiveCompare(box.label) != .orderedSame else { return box.label }
        return "\(value): \(box.label)"
    }

    /// What Enter answers at a field's prompt: its value, but never a secret, and never what the
    /// server just refused (a wrong one-time code must be typed anew). After incorrect
    /// credentials only a username is kept; after invalid input, the fields not named in it.
    static func promptDefault(_ field: KitInputTextItem, problem: KitProblemModel?) -> String? {
        let value = field.value
        guard !value.isEmpty, !field.inputConfiguration.isSecure else { return nil }
        let typed = value != field.initialValue
        guard typed, let problem else { return value }
        if field.error != nil { return nil }
        if problem.invalidFields.isEmpty && field.inputConfiguration.contentType != .username { return field.initialValue.isEmpty ? nil : field.initialValue }
        return value
    }

    /// For a lockout whose texts give no duration: says so, and what the user can do.
    static func lockoutNote(_ problem: KitProblemModel) -> String {
        guard problem.type == .tooManyAttemptsProblem else { return "" }
        let texts = [problem.title ?? ""] + problem.messageItems.compactMap(\.text)
        if texts.contains(where: { $0.contains(where: \.isNumber) }) { return "" }
        return " (the server does not say for how long: try again later, or ask its administrators to unlock the account)"
    }

    /// A problem's message in its own class's style; one without a known class is an error.
    static func problemStyle(_ line: any InfoMessageModel) -> MessageStyleAttribute {
        guard let kit = line as? KitInfoMessage else { return line.messageStyleAttribute }
        return MessageStyleAttribute(knownClassList: kit.classList) ?? .error
    }

    /// Offers the forms (and links) of a step: one form is filled in directly; several make a
    /// menu, whose answer on Enter (and for a script without a matching choice) is `defaultIndex`.
    /// Consent (`isConsent`) is asked once: its scopes were listed, and accepting grants the
    /// checked ones; a person at the terminal may instead choose them one by one.
    private func offer(_ model: any UIModel, forms: [KitButtonItem], defaultIndex: Int? = nil, byAction: Bool = false, isConsent: Bool = false) async throws {
        let primary = forms.filter { !$0.isCancel }
        var entries = primary.map(Entry.form) + ScreenBuilder.linkItems(of: model).map(Entry.link)
        if isConsent, !isScripted, let accept = primary.first, accept.fields.contains(where: { ($0 as? KitCheckboxItem)?.isReadOnly == false }) {
            entries.insert(.choosingBoxes(accept, title: strings.string(.consentChooseScopes)), at: 1)
        }
        entries += forms.filter(\.isCancel).map(Entry.form)
        guard !entries.isEmpty else {
            let step = viewModel.shownStep.flatMap { UnsupportedStepError($0).errorDescription } ?? "the step offers nothing to do"
            throw CLIFailure("login failed: \(step)")
        }
        let chosen: Entry
        if entries.count == 1 || (primary.count == 1 && !isScripted && !terminal.isInteractive) {
            chosen = entries[0]
        } else if let defaultIndex {
            chosen = entries[try await choose(strings.string(.chooseAction), Self.choices(entries, byAction: byAction), defaultIndex: defaultIndex)]
        } else {
            chosen = entries[try await choose(strings.string(.chooseAction), Self.choices(entries, byAction: byAction), defaultIndex: primary.count == 1 ? 0 : nil)]
        }
        switch chosen {
        case .link(let link): await viewModel.followLink(link.link)
        case .form(let form):
            if form.isCancel {
                await submit(form, [:])
                return
            }
            let values = try await fill(form, problem: viewModel.problemModel, asksCheckboxes: !isConsent)
            await submit(form, values)
        case .choosingBoxes(let form, _):
            await submit(form, try await fill(form, problem: viewModel.problemModel))
        }
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
        await viewModel.submit(form: model, parameters: values)
    }

    /// Asks for every input field of a form; `problemShown` is the server's complaint about the last answers.
    private func fill(_ form: KitButtonItem, problem problemShown: KitProblemModel?, asksCheckboxes: Bool = true) async throws -> [String: String] {
        var values: [String: String] = [:]
        let formName = form.title ?? form.kind.rawValue
        for field in form.fields {
            // The server's complaint about a field goes with its prompt.
            let error = Self.error(of: field)
            let complaint = error.map { terminal.styled(" (" + PrintableText($0.isEmpty ? "invalid" : $0) + ")", .red) } ?? ""
            if let error, isScripted || field is KitSelectItem { message("\(field.label): \(error.isEmpty ? "invalid" : error)", .error) }
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
                    let hint = strings.string(box.isChecked ? .yesNoDefaultYes : .yesNoDefaultNo)
                    Stderr.write(terminal.styled(PrintableText(Self.checkboxText(box)), .bold) + complaint + terminal.styled(" \(hint) ", .bold))
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
                        throw CLIFailure("the answers have no value for the field \"\(text.key)\" (\(text.label)) of the form \"\(formName)\"")
                    }
                } else {
                    let current = Self.promptDefault(text, problem: problemShown)
                    let prompt = terminal.styled(PrintableText(text.label), .bold) + complaint
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
                Stderr.line(terminal.styled(strings.string(.waitingForAnswerFile, name, path), .dim))
                announced = true
            }
            if terminal.takeInterrupt() { throw Interrupted() }
            if Date() > deadline {
                throw CLIFailure("the answer to the field \"\(name)\" did not appear in \(path) within \(OutsideNumber.wholeSeconds(FieldAnswer.fileWaitLimit)) s")
            }
            try await Task.sleep(for: .milliseconds(100))
        }
    }

    private func chooseOption(_ question: String, _ options: [KitSelectorItem]) async throws {
        let choices = options.map { option in
            // The last path segment of the option's href is the server's authenticator id (`username-password`).
            let id = option.formActionModel.flatMap { URL(string: $0.href)?.lastPathComponent }.flatMap { $0.isEmpty || $0 == "/" ? nil : $0 }
            return ChoiceOption(title: option.title, names: [option.type, id, option.option.kind.rawValue].compactMap { $0 })
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
                Stderr.line(PrintableText("\(question): \(options[index].title)"))
                return index
            }
            if let defaultIndex { return defaultIndex }
            if consumesChoices, choiceIndex < answers.choices.count {
                throw CLIFailure("the answer \"\(answers.choices[choiceIndex])\" matches no option of \"\(question)\" (options: \(names))")
            }
            throw CLIFailure("the answers have no choice for \"\(question)\" (options: \(names))")
        }
        Stderr.line(terminal.styled(PrintableText(question), .bold))
        // Titles only: the names an --answers file may use (`login`, `external-browser`) are the
        // server's ids, which a person at the terminal has no use for.
        for (index, option) in options.enumerated() {
            Stderr.line("  \(index + 1)) \(PrintableText(option.title))")
        }
        while true {
            Stderr.write(terminal.styled("\(strings.string(.choose)) 1-\(options.count)\(defaultIndex.map { " [\($0 + 1)]" } ?? ""): ", .bold))
            let line = try await terminal.readLine().trimmingCharacters(in: .whitespaces)
            if line.isEmpty, let defaultIndex { return defaultIndex }
            if let number = Int(line), (1...options.count).contains(number) { return number - 1 }
            if let index = options.firstIndex(where: { $0.matches(line) }) { return index }
            message(strings.string(.chooseNumber, String(options.count)), .warn)
        }
    }

    // MARK: Polling

    private func wait(_ polling: KitPollingModel) async throws {
        let start = Date()
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
                let text = polling.recipient.map { strings.string(.waitingFor, $0) } ?? strings.string(.waiting)
                // The time left is drawn with the spinner; without colour the line is printed only when its text changes.
                var timeLeft = ""
                if let remaining = polling.maxWaitRemainingTime {
                    let left = ScreenBuilder.wholeSeconds(remaining - Date().timeIntervalSince(start))
                    timeLeft = " (" + strings.timeLeft(seconds: left) + ")"
                }
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

    /// Prints BankID as the kit's screen shows it (``ScreenBuilder``): on this device the link
    /// that starts the app; on another, only the QR code (its data as text without `qrencode`)
    /// and the help.
    private func showBankID(_ model: KitBankIdModel) {
        for item in viewModel.haapiUIKitApplication.screenBuilder.screen(for: model).content {
            switch item {
            case .button(let button):
                guard case .open(let url) = button.action else { continue }
                Stderr.line(PrintableText(button.title + ":"))
                Stderr.line("  " + terminal.styled(PrintableText(url.absoluteString), .bold))
            case .qrCode(let data?, _):
                Stderr.line("\(strings.string(.bankIDScanOnOtherDevice)):")
                if let code = QRCodeText.render(data) {
                    Stderr.write(code)
                } else {
                    Stderr.line("  " + terminal.styled(PrintableText(data), .bold))
                    Stderr.line(terminal.styled(strings.string(.qrCodeNeedsQrencode), .dim))
                }
            case .qrCode(nil, let image?):
                Stderr.line("\(strings.string(.bankIDScanOnOtherDevice)): \(image.href.hasPrefix("data:") ? image.text ?? "" : image.href)")
            case .expandable(let title, let body):
                Stderr.line(terminal.styled(PrintableText(title + ": " + body.replacingOccurrences(of: "\n", with: " ")), .dim))
            default:
                continue
            }
        }
    }

    private func openBrowser(_ model: KitExternalBrowserModel) async throws {
        // The browser comes back to a listener that lives for this one return (OIDCClient's, as for --browser logins).
        let listener: LoopbackRedirectListener
        do { listener = try await LoopbackRedirectListener.start(port: 0, path: "/callback", page: ReturnPage.make(strings: strings)) } catch {
            throw CLIFailure("login failed: cannot listen for the browser's return: \((error as? any IdsvrError)?.errorDescription ?? "\(error)")")
        }
        let redirectURI = "http://127.0.0.1:\(listener.port)/callback"
        let returned = LockedValue<URL?>(nil)
        let waiter = Task {
            let url = await listener.redirect()
            returned.withLock { $0 = url }
        }
        do {
            try await waitForBrowser(model, redirectURI: redirectURI, returned: returned)
        } catch {
            waiter.cancel()
            await listener.close()
            throw error
        }
        await listener.close()
        if let back = returned.withLock({ $0 }) { await viewModel.resumeExternalBrowser(url: back) }
    }

    /// Opens the browser on the operation's URL and waits until it comes back to `redirectURI`.
    private func waitForBrowser(_ model: KitExternalBrowserModel, redirectURI: String, returned: LockedValue<URL?>) async throws {
        guard let url = model.url(redirectingTo: redirectURI) else {
            throw CLIFailure("login failed: the external-browser href \(PrintableText(model.href)) is not a URL")
        }
        guard SystemBrowserLauncher.isOpenable(url) else {
            throw CLIFailure("login failed: the server asked to open a \(PrintableText(url.scheme ?? "")) URL; only https, and http to a loopback address, are opened")
        }
        Stderr.line("\(strings.string(.continueInBrowser)):")
        Stderr.line("  " + terminal.styled(PrintableText(url.absoluteString), .bold))
        let launched: LaunchedBrowser?
        do { launched = try await browser.launch(url) } catch {
            // No browser will come back: a script ends now, a person can still open the URL.
            if isScripted { throw CLIFailure("login failed: \((error as? OIDCError)?.message ?? "\(error)")") }
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
                message("\(what); open the URL yourself", .warn)
                launched = nil
            }
            if Date() > deadline { throw CLIFailure("login failed: the browser did not come back to \(redirectURI) in time") }
            try await Task.sleep(for: .milliseconds(100))
        }
    }
}
