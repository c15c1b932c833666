import Foundation
import HaapiDevServer
import HaapiSDK
import HaapiServerTesting
import HaapiTesting
import HaapiUI
import Testing

/// What the kit decides where a user feels it, pinned on the portable screen value: which
/// screen shows a step (problems included), fields' content types, keyboards and return keys,
/// BankID on this or another device, countdowns, passkey failures, texts and accessibility.
@Suite @MainActor struct KitBehaviourTests {
    static let english = ScreenTests.english
    static let swedish = ScreenTests.swedish

    /// The screen of an inline step document.
    /// The screen of a step, mapped and built in `builder`'s language (the mapper titles what the server left untitled).
    static func screen(_ json: String, builder: ScreenBuilder = english) throws -> Screen {
        guard case .representation(let step) = try HaapiModel.response(from: Data(json.utf8)) else { throw CancellationError() }
        var mapper = factory
        mapper.strings = builder.strings
        return builder.screen(for: try mapper.model(step))
    }

    static func form(kind: String, fields: String) -> String {
        #"{"type": "authentication-step", "actions": [{"template": "form", "kind": ""# + kind
            + #"", "model": {"href": "/a", "method": "POST", "actionTitle": "Go", "fields": ["# + fields + "]}}]}"
    }

    // MARK: Forms

    @Test func aRegistrationOrResetPasswordIsANewPasswordWithRules() throws {
        let fields = #"{"type": "username", "name": "userName"}, {"type": "password", "name": "password", "minLength": 8}"#
        for (kind, expected) in [
            ("user-register", ScreenItem.TextField.ContentType.newPassword), ("password-reset", .newPassword), ("login", .password),
        ] {
            let screen = try Self.screen(Self.form(kind: kind, fields: fields))
            let password = try #require(screen.textFields.last)
            #expect(password.contentType == expected, "\(kind)")
            #expect(password.isSecure && password.showsSecureEntryToggle)
            #expect((password.passwordRules?.contains("minlength: 8")) == (expected == .newPassword ? true : nil), "\(kind)")
        }
    }

    @Test func oneTimeCodesTakeLettersAndNumbersTakeANumberPad() throws {
        let screen = try Self.screen(
            Self.form(kind: "login", fields: #"{"type": "text", "name": "otp"}, {"type": "text", "name": "pin", "kind": "number"}"#))
        let (code, pin) = (screen.textFields[0], screen.textFields[1])
        #expect(code.contentType == .oneTimeCode && code.keyboard == .text)
        #expect(pin.keyboard == .number)
    }

    @Test func returnGoesToTheNextFieldThenSubmitsAndTheFirstEmptyFieldHasFocus() throws {
        let screen = try ScreenTests.screen(ScreenTests.uiKit, "html-form-login.json")
        let (user, password) = (screen.textFields[0], screen.textFields[1])
        #expect(user.returnKey == .next && password.returnKey == .go)
        #expect(screen.afterReturn(in: user.name) == .field(password.name))
        guard case .submit(let action)? = screen.afterReturn(in: password.name) else {
            Issue.record("the last field does not submit")
            return
        }
        #expect(screen.buttons.first { $0.role == .primary }?.action == action)
        #expect(screen.focus == user.name)
    }

    @Test func returnWhileARequestRunsSubmitsNothingButStillMovesOn() throws {
        let screen = try ScreenTests.screen(ScreenTests.uiKit, "html-form-login.json")
        let (user, password) = (screen.textFields[0], screen.textFields[1])
        // The buttons are disabled while the request runs; the return key must be too, or a
        // one-shot action is sent twice.
        #expect(screen.afterReturn(in: password.name, isLoading: true) == .waitForRequest)
        #expect(screen.afterReturn(in: user.name, isLoading: true) == .field(password.name))
        guard case .submit? = screen.afterReturn(in: password.name, isLoading: false) else {
            Issue.record("the last field does not submit once the request is over")
            return
        }
    }

    @Test func theFocusGoesToTheFieldTheServerComplainedAbout() throws {
        let form = try Documents.step(ScreenTests.uiKit, "html-form-login.json")
        let errors = try Documents.problem(ScreenTests.uiKit, "problem-invalid-input.json")
        let screen = Self.english.screen(for: try factory.model(form), problem: KitProblemModel(errors))
        #expect(screen.focus == screen.textFields.first { $0.error != nil }?.name)
        let field = try #require(screen.textFields.first { $0.error != nil })
        let said = Self.english.accessibility(of: .textField(field))
        #expect(said.label == "\(field.label). Error: \(field.error ?? "")" && said.announcement == field.error)
    }

    // MARK: Accessibility and icons

    @Test func aCheckboxSaysItsStateAndWaitsSayWhatTheyAre() throws {
        let english = Self.english
        let screen = try Self.screen(
            Self.form(kind: "login", fields: #"{"type": "checkbox", "name": "terms", "label": "Accept", "checked": true}"#))
        let checkbox = try #require(screen.content.first { $0.fieldName == "terms" })
        #expect(english.accessibility(of: checkbox).value == "Checked")
        #expect(Self.swedish.accessibility(of: checkbox).value == "Markerad")
        #expect(english.accessibility(of: .loadingIndicator).label == "Waiting")
        let countdown = english.accessibility(of: .countdown(.init(text: "5 seconds left", seconds: 5)))
        #expect(countdown.label == "5 seconds left" && countdown.updatesFrequently)
    }

    @Test func authenticatorsInASelectorHaveTheirIcons() throws {
        let screen = try ScreenTests.screen(ScreenTests.uiKit, "authentication-select-authenticator.json")
        let icons = screen.buttons.compactMap(\.icon)
        #expect(!icons.isEmpty && icons.count == screen.buttons.filter { if case .select = $0.action { true } else { false } }.count)
        #expect(icons.allSatisfy { $0.hasPrefix("hui_ic_authenticator_") && AuthenticatorIcons.symbol(for: $0) != nil })
        #expect(AuthenticatorIcons.symbol(for: AuthenticatorIcons.imageName(for: "sms")) == "message")
        #expect(AuthenticatorIcons.symbol(for: AuthenticatorIcons.imageName(for: "no-such-type")) == AuthenticatorIcons.fallbackSymbol)
        #expect(AuthenticatorIcons.symbol(for: "hui_ic_warning") == nil)
    }

    // MARK: Texts

    @Test func theTimeLeftIsInMinutesAndSeconds() {
        #expect(Self.english.timeLeft(seconds: 143) == "2 minutes and 23 seconds left")
        #expect(Self.english.timeLeft(seconds: 61) == "1 minute and 1 seconds left")
        #expect(Self.english.timeLeft(seconds: 45) == "45 seconds left")
        #expect(Self.english.timeLeft(seconds: 1) == "1 second left")
        #expect(Self.swedish.timeLeft(seconds: 143) == "2 minuter och 23 sekunder kvar")
        #expect(Self.english.timeLeft(seconds: -5) == "0 seconds left")
    }

    /// Curity's five keys with an argument take it here too, and the code gives it: an app that
    /// copies its Curity translations never shows a raw `%@`.
    @Test func keysTakeCuritysArguments() {
        let withArgument: Set<LocalizableStrings.Key> = [
            .appSchemeNotInstalled, .developerRuntimeMessage, .developerUnsupportedMessage, .problemNoRoutesMessage, .bankIDInstructionBody,
        ]
        for strings in [Self.english.strings, Self.swedish.strings] {
            for key in LocalizableStrings.Key.allCases where key.rawValue.hasPrefix("hui_") {
                let count = strings.string(key).components(separatedBy: "%@").count - 1
                #expect(count == (withArgument.contains(key) ? 1 : 0), "\(strings.language) \(key.rawValue)")
            }
            #expect(
                !strings.string(.appSchemeNotInstalled, "bankid").contains("%@")
                    && strings.string(.appSchemeNotInstalled, "bankid").contains("bankid"))
        }
        let unsupported = Self.english.alert(for: HaapiFlowError(failure: HaapiUIKitError.unsupported(cause: "the step kind X")))
        #expect(unsupported == ("This step cannot be shown", "This app cannot show the step kind X."))
        let runtime = Self.english.alert(for: HaapiFlowError(failure: HaapiUIKitError.illegalState("x")))
        #expect(
            runtime.title == "Something went wrong" && runtime.message.hasPrefix("The login stopped: ") && !runtime.message.contains("%@"))
    }

    /// Every `hui_*` key is shown somewhere: named by the code that shows it (outside the table
    /// itself and the theme's defaults), or drawn through the theme key that names it.
    @Test func everyCurityKeyIsShownSomewhere() throws {
        let sources = Documents.packageRoot.appendingPathComponent("Sources")
        var code = ""
        let files = FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil)?.allObjects.compactMap { $0 as? URL } ?? []
        #expect(files.count > 100, "the sources are where the test expects them")
        for file in files
        where file.pathExtension == "swift" && !["LocalizableStrings.swift", "ViewControllerStyles.swift"].contains(file.lastPathComponent)
        {
            code += SwiftSourceText.code(try String(contentsOf: file, encoding: .utf8)) + "\n"
        }
        // Shown through the theme's key for it (an app's theme may point it elsewhere).
        let throughTheme: [LocalizableStrings.Key: String] = [.webAuthnRegistrationSuccessMessage: "registrationSuccessMessageTextKey"]
        for key in LocalizableStrings.Key.allCases where key.rawValue.hasPrefix("hui_") {
            #expect(Self.names(code, key) || throughTheme[key].map { Self.names(code, $0) } == true, "\(key.rawValue) is never shown")
        }
    }

    /// Whether `code` (comments and literals removed) names the string key `key` where a text
    /// is looked up: an argument of the lookups that take a key (`string(.ok)`, the command
    /// line's `line(.ok)`, `webAuthnText(\\.path, .webAuthnErrorButton)`) or `Key.ok`. A call of
    /// that name (`server.cancel()`), a case of another enum (`style: .cancel`,
    /// `[ActionKind] = [.cancel]`) and a word that only contains it (`look`, `for`) are not.
    static func names(_ code: String, _ key: LocalizableStrings.Key) -> Bool {
        code.contains(
            try! Regex(
                "(?:(?:^|[^A-Za-z0-9_])Key\\.|(?:^|[^A-Za-z0-9_])(?:string|line|webAuthnText)\\((?:[^()]*?,)?\\s*\\.)\(key)(?![A-Za-z0-9_])(?!\\s*\\()"
            ))
    }

    /// Whether `code` reads the theme key `themeKey` (`keys.registrationSuccessMessageTextKey`).
    static func names(_ code: String, _ themeKey: String) -> Bool {
        code.contains(try! Regex("[A-Za-z0-9_)?!]\\.\(themeKey)(?![A-Za-z0-9_])(?!\\s*(=(?!=)|\\())"))
    }

    /// The matcher of the test above, on code written here: look-alikes are not uses.
    @Test func aKeyIsNamedOnlyByCodeThatUsesIt() {
        let lookAlikes = SwiftSourceText.code(
            """
            // Look for the OK button, or cancel.
            server.cancel()
            UIAlertAction(title: title, style: .cancel)
            static let knownCases: [ActionKind] = [.cancel, .login, .back]
            let text = "strings.string(.ok)"
            func back() {}
            back()
            """)
        for key: LocalizableStrings.Key in [.ok, .cancel, .or, .back] {
            #expect(!Self.names(lookAlikes, key), "\(key) named by look-alikes")
        }
        #expect(Self.names(SwiftSourceText.code("alert.addAction(UIAlertAction(title: strings.string(.cancel), style: .cancel))"), .cancel))
        #expect(Self.names(SwiftSourceText.code("let or = LocalizableStrings.Key.or.rawValue"), .or))
        #expect(Self.names(SwiftSourceText.code("webAuthnText(\\.errorButtonTextKey, .webAuthnErrorButton)"), .webAuthnErrorButton))
        #expect(Self.names(SwiftSourceText.code("let title = \"\\(strings.string(.ok))!\""), .ok), "an interpolation is code")
        #expect(!Self.names(SwiftSourceText.code("keys.registrationSuccessMessageTextKey = x"), "registrationSuccessMessageTextKey"))
        #expect(Self.names(SwiftSourceText.code("show(keys.registrationSuccessMessageTextKey)"), "registrationSuccessMessageTextKey"))
    }

    @Test func aStepWithNoWayOnSaysSo() throws {
        let screen = try Self.screen(
            #"{"type": "authentication-step", "actions": [], "messages": [{"text": "Nothing here", "classList": ["heading"]}]}"#)
        #expect(screen.items.contains(.message(text: "No way to go on", style: "MessageView.Heading")))
        #expect(
            screen.items.contains(.message(text: "Nothing here offers no way to go on. Start the login again.", style: "MessageView.Error"))
        )
    }

    @Test func aUserCodeCanBeCopied() throws {
        let screen = try Self.screen(
            #"{"type": "authentication-step", "actions": [], "messages": [{"text": "ABCD-EFGH", "classList": ["userCode"]}]}"#)
        #expect(screen.buttons.contains(ScreenItem.Button(title: "Copy", role: .text, action: .copy("ABCD-EFGH"))))
    }

    /// VoiceOver: a heading message and a form's title are headings; an error is announced as
    /// it appears; focus goes to the first field the server complained about, else to a
    /// form-level error ("Incorrect credentials"), else nowhere.
    @Test func headingsAreHeadingsAndErrorsAreSaidAndFocused() throws {
        let heading = Self.english.accessibility(of: .message(text: "Log in", style: "MessageView.Heading"))
        #expect(heading.isHeader && heading.announcement == nil)
        #expect(Self.english.accessibility(of: .section("With BankID")).isHeader)
        let error = Self.english.accessibility(of: .message(text: "Incorrect credentials", style: "MessageView.Error"))
        #expect(!error.isHeader && error.announcement == "Incorrect credentials")
        #expect(!Self.english.accessibility(of: .message(text: "Hello", style: "MessageView.Info")).isHeader)

        let form = try Documents.step(ScreenTests.uiKit, "html-form-login.json")
        let wrong = try Documents.problem(Documents.captured, "incorrectCredentialsProblem.json")
        let failed = Self.english.screen(for: try factory.model(form), problem: KitProblemModel(wrong))
        guard case .message(let text, "MessageView.Error")? = Self.english.accessibilityFocus(of: failed) else {
            Issue.record("no form-level error took the focus: \(ScreenTests.describe(failed))")
            return
        }
        #expect(text == wrong.title?.literal)
        let invalid = try Documents.problem(ScreenTests.uiKit, "problem-invalid-input.json")
        let complained = Self.english.screen(for: try factory.model(form), problem: KitProblemModel(invalid))
        #expect(Self.english.accessibilityFocus(of: complained)?.fieldName == "password", "the field's complaint comes first")
        #expect(Self.english.accessibilityFocus(of: Self.english.screen(for: try factory.model(form))) == nil)
        #expect(ScreenAccessibility.minimumTarget == 44)
    }

    /// Image names are Curity's (its kit's asset catalog): an app's images under those names are
    /// found. An authenticator type's hyphens are underscores there.
    @Test func imageNamesAreCuritys() {
        #expect(AuthenticatorIcons.imageName(for: "sign-in-with-apple") == "hui_ic_authenticator_sign_in_with_apple")
        #expect(AuthenticatorIcons.imageName(for: "freja-eid") == "hui_ic_authenticator_freja_eid")
        #expect(
            AuthenticatorIcons.symbol(for: "hui_ic_authenticator_html_form") == "person.text.rectangle",
            "the kit's own symbol for a known type")
        #expect(AuthenticatorIcons.symbol(for: "hui_ic_authenticator_some_new_type") == AuthenticatorIcons.fallbackSymbol)
        #expect(ScreenBuilder.bankIDLogo == "hui_ic_bankid_login_symbol" && Images.symbol(for: ScreenBuilder.bankIDLogo) != nil)
        #expect((Images.revealPassword, Images.hidePassword) == ("hui_ic_eye", "hui_ic_eye_crossed"))
    }

    /// The opt-in MFA's recovery codes (`["info", "userCode"]`, ten of them): each in the user
    /// code's style, then one button that copies them all, a line each, as Curity's kit does.
    @Test func recoveryCodesAreUserCodesWithOneCopyButton() throws {
        let codes = (1...10).map { String(format: "%04d-%04d", $0, $0 * 7) }
        let messages = codes.map { #"{"text": "\#($0)", "classList": ["info", "userCode"]}"# }.joined(separator: ", ")
        let screen = try Self.screen(
            #"{"type": "authentication-step", "messages": [{"text": "Your recovery codes", "classList": ["info", "heading"]}, "#
                + messages
                + #"], "actions": [{"template": "form", "kind": "continue", "model": {"href": "/next", "method": "POST", "actionTitle": "I saved them"}}]}"#
        )
        #expect(
            screen.messages.first == .message(text: "Your recovery codes", style: "MessageView.Heading"),
            "a heading that is also info is a heading")
        let shown = screen.messages.compactMap { if case .message(let text, "MessageView.UserCode") = $0 { text } else { nil } }
        #expect(shown == codes)
        #expect(
            screen.buttons.filter { if case .copy = $0.action { true } else { false } } == [
                ScreenItem.Button(title: "Copy", role: .text, action: .copy(codes.joined(separator: "\n")))
            ])
    }

    /// Untitled actions: the kit's word for a kind it knows, in the user's language; nothing for
    /// one it does not know that asks for nothing; a link without a title shows where it goes,
    /// not its relation; an authenticator without a title is not offered.
    @Test func anUntitledActionIsNamedByTheKitOrNotDrawn() throws {
        let step =
            #"{"type": "authentication-step", "actions": ["#
            + #"{"template": "form", "kind": "redirect", "model": {"href": "/a", "method": "GET"}},"#
            + #"{"template": "form", "kind": "some-new-kind", "model": {"href": "/b", "method": "POST"}},"#
            + #"{"template": "form", "kind": "cancel", "model": {"href": "/c", "method": "POST"}}],"#
            + #""links": [{"href": "https://help.example/guide", "rel": "help"}]}"#
        #expect(
            ScreenTests.describe(try Self.screen(step)) == [
                "primary button: Continue", "text button: Cancel", "link: https://help.example/guide",
            ])
        #expect(
            ScreenTests.describe(try Self.screen(step, builder: Self.swedish)).prefix(2) == [
                "primary button: Fortsätt", "text button: Avbryt",
            ])
        let selector =
            #"{"type": "authentication-step", "actions": [{"template": "selector", "kind": "authenticator-selector", "title": "Choose", "model": {"options": ["#
            + #"{"template": "form", "kind": "select-authenticator", "title": "Password", "properties": {"authenticatorType": "html-form"}, "model": {"href": "/p", "method": "GET"}},"#
            + #"{"template": "form", "kind": "select-authenticator", "properties": {"authenticatorType": "sms"}, "model": {"href": "/s", "method": "GET"}}]}}]}"#
        #expect(try Self.screen(selector).buttons.map(\.title) == ["Password"])
    }

    // MARK: Passkeys

    @Test func aPasskeyFailureLeadsToRetryMessageOrFallback() {
        let table: [(PasskeyFailure, Bool, PasskeyFailureOutcome)] = [
            (.cancelled, true, .retry), (.cancelled, false, .retry), (.noCredentials, true, .noCredentials),
            (.appAssociation, false, .appAssociation),
            (.notSupported, true, .fallback), (.notSupported, false, .unavailable), (.failed("x"), true, .fallback),
            (.failed("x"), false, .unavailable),
        ]
        for (failure, allowed, expected) in table {
            #expect(PasskeyFailureOutcome(failure, fallbackAllowed: allowed) == expected, "\(failure) allowed: \(allowed)")
        }
    }

    /// On the dev server's passkey step: a cancel offers a retry; a failure offers the browser
    /// only when the configuration allows it, and the browser opens only on the user's tap.
    @Test func passkeyFailuresOnTheDevServersStep() async throws {
        try await RunningServer.with { server in
            for allowed in [true, false] {
                let flow = try await FlowHarness.make(server, client: .secret, bound: false) { $0.setUsePasskeysBrowserFallback(allowed) }
                await flow.viewModel.start()
                try await flow.choose("webauthn")
                await flow.viewModel.submit(
                    interactionActionModel: try #require(try flow.requireModel().button(kind: .login)), parameters: ["userName": "demo"])
                await flow.viewModel.submit(
                    interactionActionModel: try #require(try flow.requireModel().button(kind: .login)),
                    parameters: ["password": "Password1"])
                let operation = try #require(try flow.requireModel() as? KitWebAuthnModel)
                #expect(operation.browserFallback != nil)
                #expect((flow.viewModel.passkeysBrowserFallback(of: operation) != nil) == allowed, "allowed: \(allowed)")

                #expect(flow.viewModel.passkeyDidFail(.cancelled, kind: .platform) == .retry)
                let retry = Self.english.screen(for: try flow.requireModel())
                #expect(retry.buttons.first == ScreenItem.Button(title: "Try again", role: .primary, action: .passkey(.platform)))

                let outcome = flow.viewModel.passkeyDidFail(.failed("no authenticator answered"), kind: .platform)
                #expect(outcome == (allowed ? .fallback : .unavailable))
                let failed = Self.english.screen(for: try flow.requireModel())
                #expect(failed.buttons.contains { $0.action == .passkeyFallback } == allowed, "\(ScreenTests.describe(failed))")
                #expect(flow.model is KitWebAuthnModel, "nothing is sent before the user taps")

                await flow.viewModel.takePasskeyFallback()
                #expect(
                    (flow.model is KitWebAuthnModel) == !allowed,
                    "the fallback is taken only when allowed: \(String(describing: flow.model))")
                #expect(flow.viewModel.passkeyDidFail(.cancelled, kind: .platform) == (allowed ? .nothing : .retry))
                await flow.close()
            }
        }
    }

    // MARK: BankID

    @Test func bankIDOnThisDeviceOpensByItselfAndOnAnotherShowsOnlyTheQRCode() async throws {
        try await RunningServer.with { server in
            for sameDevice in [true, false] {
                let flow = try await DevServerShapesTests.harness(server)
                await flow.viewModel.start()
                try await flow.choose("bankid")
                let kind = ActionKind(rawValue: sameDevice ? "bankid-same-device" : "bankid-other-device")
                await flow.viewModel.submit(
                    interactionActionModel: try #require(try flow.requireModel().button(kind: kind)),
                    parameters: ["personalnumber": SeedData.personalNumber])
                let bankID = try await waitFor(timeout: .seconds(45)) { () -> KitBankIdModel? in
                    guard let bankID = flow.model as? KitBankIdModel, sameDevice || bankID.polling != nil else { return nil }
                    return bankID
                }
                let screen = Self.english.screen(for: bankID)
                let opens = screen.buttons.contains { if case .open = $0.action { true } else { false } }
                let qr = screen.items.contains { if case .qrCode = $0 { true } else { false } }
                #expect(screen.kind == .bankID && screen.content.first == .image(name: ScreenBuilder.bankIDLogo, label: "BankID"))
                if sameDevice {
                    #expect(screen.openOnAppear == bankID.autoStartURL && screen.openOnAppear != nil)
                    #expect(opens && !qr && screen.focus == nil)
                    #expect(screen.items.contains(.text("or")), "\(ScreenTests.describe(screen))")
                } else {
                    #expect(screen.openOnAppear == nil && !opens && qr, "\(ScreenTests.describe(screen))")
                    let countdown = screen.items.compactMap { if case .countdown(let countdown) = $0 { countdown } else { nil } }.first
                    #expect(countdown?.showsProgress == true && countdown?.fractionLeft != nil)
                    let help = screen.items.compactMap { if case .expandable(_, let body) = $0 { body } else { nil } }.first ?? ""
                    #expect(!help.contains("%@") && (help.contains("seconds") || help.contains("minutes")), "\(help)")
                }
                await flow.close()
            }
        }
    }

    /// Back from BankID or another app: the wait is polled at once, not at its next tick.
    @Test func comingBackToTheAppPollsAtOnce() async throws {
        try await RunningServer.with { server in
            let flow = try await FlowHarness.make(server, client: .secret, bound: false, stripsPollingInterval: true) {
                $0.setAutoPollingDuration(duration: 600)
            }
            await flow.viewModel.start()
            try await flow.choose("polling")
            await flow.viewModel.submit(
                interactionActionModel: try #require(try flow.requireModel().button(kind: .login)), parameters: ["userName": "demo"])
            #expect(try flow.requireModel() is KitPollingModel)
            try await server.answerApproval()
            await flow.viewModel.pollAfterReturn()
            #expect(flow.viewModel.oAuthModel?.tokens != nil)
            await flow.close()
        }
    }

    // MARK: Problems

    /// A problem that ends the attempt gets the problem screen; closing it reports the error
    /// without asking "are you sure?".
    @Test func aProblemThatEndsTheAttemptGetsTheProblemScreen() async throws {
        try await RunningServer.with(DevServerConfiguration(approvalTimeout: .seconds(1))) { server in
            let flow = try await DevServerShapesTests.harness(server)
            let result = RecordingResult()
            flow.viewModel.haapiFlowResult = result
            await flow.viewModel.start()
            try await flow.choose("bankid")
            let other = try #require(try flow.requireModel().button(kind: ActionKind(rawValue: "bankid-other-device")))
            await flow.viewModel.submit(interactionActionModel: other, parameters: ["personalnumber": "200001011234"])
            _ = try await waitFor(timeout: .seconds(45)) { flow.viewModel.error }
            let problem = try #require(flow.model as? any ProblemModel)
            let screen = Self.english.screen(for: problem)
            #expect(screen.kind == .problem)
            #expect(
                screen.items.contains(.message(text: "The BankID order was not signed in time", style: "MessageView.Error")),
                "\(ScreenTests.describe(screen))")
            #expect(result.errors == 0)
            await flow.viewModel.cancel()
            #expect(!flow.viewModel.isConfirmingInterruption && result.errors == 1)
            await flow.close()
        }
    }
}

/// Counts what a flow reports.
@MainActor final class RecordingResult: HaapiFlowResult {
    var errors = 0
    var models = 0
    func didReceiveOAuthModel(_ oAuthModel: any OAuthModel) { models += 1 }
    func didReceiveError(_ error: any Error) { errors += 1 }
}
