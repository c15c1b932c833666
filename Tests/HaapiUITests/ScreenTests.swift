import Foundation
import HaapiSDK
import HaapiUI
import Testing

/// Which screen shows each response of Curity's UI kit examples, the SDK's fixtures and (when
/// present) the captured Curity responses, with which elements in which order, texts and styles.
@Suite @MainActor struct ScreenTests {
    static let uiKit = Documents.packageRoot.appendingPathComponent("Tests/HaapiUITests/Fixtures/ui-kit", isDirectory: true)
    static let english = ScreenBuilder(strings: LocalizableStrings(languages: ["en"], appTable: { _ in nil }))
    static let swedish = ScreenBuilder(strings: LocalizableStrings(languages: ["sv"], appTable: { _ in nil }))

    static func screen(_ directory: URL, _ name: String, builder: ScreenBuilder = english, factory: KitDataMapper = factory) throws
        -> Screen
    {
        switch try Documents.load(directory, name) {
        case .representation(let step): return builder.screen(for: try factory.model(step))
        case .problem(let problem): return builder.screen(for: KitProblemModel(problem))
        }
    }

    /// A short, readable form of an element, for tables of expected screens.
    static func describe(_ item: ScreenItem) -> String {
        switch item {
        case .message(let text, let style): return "\(style.replacingOccurrences(of: "MessageView.", with: "")): \(text)"
        case .text(let text): return "text: \(text)"
        case .section(let title): return "section: \(title)"
        case .textField(let field):
            return
                "field \(field.name) \(field.contentType.rawValue)\(field.isSecure ? " secure" : "")\(field.error.map { " error: \($0)" } ?? "")"
        case .checkbox(let box): return "checkbox \(box.name)\(box.isChecked ? " checked" : "")\(box.isReadonly ? " readonly" : "")"
        case .picker(let picker): return "picker \(picker.name) (\(picker.options.count))"
        case .button(let button): return "\(button.role.rawValue) button: \(button.title)"
        case .tabs(let titles, let selected): return "tabs \(titles) at \(selected)"
        case .loadingIndicator: return "loading"
        case .countdown(let countdown): return "countdown: \(countdown.text)"
        case .image(let name, _): return "image \(name)"
        case .qrCode(let data, let image): return "qr \(data != nil ? "data" : image != nil ? "image" : "none")"
        case .serverImage(let image): return "picture \(image.href.prefix(5) == "data:" ? "data" : image.href)"
        case .expandable(let title, _): return "expandable: \(title)"
        case .link(let title, _): return "link: \(title)"
        }
    }

    static func describe(_ screen: Screen) -> [String] { screen.items.map(describe) }

    // MARK: Every document

    /// Every response document, by folder: Curity's UI kit examples, the SDK's fixtures, the captured Curity responses.
    static var everyDocument: [(URL, [String])] {
        [uiKit, Documents.fixtures, Documents.captured].map { ($0, Documents.files(in: $0)) }
    }

    /// Whatever the step, its screen keeps every message, every link, every field a user fills
    /// in of its content's forms, and a button for each of those forms.
    @Test func everyScreenKeepsTheStepsMessagesLinksFieldsAndButtons() throws {
        var seen = 0
        for (directory, names) in Self.everyDocument {
            for name in names {
                let response: HaapiDocument
                do {
                    response = try Documents.load(directory, name)
                } catch {
                    // Only the fixture of a step type no SDK knows is refused (its own tests check how).
                    #expect(name == "unknown-step-type.json", "\(name) does not read: \(error)")
                    continue
                }
                seen += 1
                switch response {
                case .representation(let step):
                    let model = try factory.model(step)
                    let screen = Self.english.screen(for: model)
                    let described = Self.describe(screen)
                    // What to expect is read from the document itself, not from the code that makes screens.
                    let document = try Self.messagesAndLinks(directory.appendingPathComponent(name))
                    let shown = screen.messages.compactMap { if case .message(let text, _) = $0 { text } else { nil } }
                    for text in document.messages {
                        #expect(shown.contains(text), "\(name): the message \"\(text)\" is not on the screen: \(described)")
                    }
                    // An image link (a QR code, an activation code) is drawn as an image, any other as a link.
                    #expect(
                        screen.links.count == document.links.count,
                        "\(name): \(document.links) links sent, \(screen.links.count) on the screen")
                    for image in document.images {
                        #expect(
                            screen.items.contains { Self.draws(image, $0) },
                            "\(name): the image \(image.prefix(60)) is not on the screen: \(described)")
                    }
                    if let form = model as? KitFormModel {
                        for button in form.buttons {
                            for field in button.fields {
                                #expect(screen.items.contains { Self.names(field.key, $0) }, "\(name): field \(field.key)")
                            }
                            #expect(
                                screen.buttons.contains { $0.action == .submit(button) },
                                "\(name): the button of \(button.label) in \(described)")
                        }
                    }
                    if let selector = model as? KitSelectorModel, selector.presentation == .list {
                        #expect(
                            screen.buttons.filter { if case .select = $0.action { true } else { false } }.count
                                == selector.selectorItems.count, "\(name)")
                    }
                    // At most one primary button: the step's main way on.
                    #expect(screen.buttons.filter { $0.role == .primary }.count <= 1, "\(name): \(described)")
                case .problem(let problem):
                    let screen = Self.english.screen(for: KitProblemModel(problem))
                    #expect(screen.kind == .problem)
                    #expect(
                        screen.messages.first
                            == .message(text: problem.title?.literal ?? "Something went wrong", style: "MessageView.Error"), "\(name)")
                    #expect(screen.links.count == problem.links.count)
                }
            }
        }
        #expect(seen >= 60, "the documents were read")
    }

    /// The texts of a response's messages, and the targets of its links (images apart), read
    /// from its JSON with Foundation's parser (the package's models are what is under test): the
    /// top-level `messages` and `links`, where every step type keeps them. A link is an image
    /// when its media type is an image's (HAAPI's `type`) or its target is a `data:image/` URL.
    static func messagesAndLinks(_ file: URL) throws -> (messages: [String], links: [String], images: [String]) {
        let json = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any], "\(file.lastPathComponent) is not an object")
        let messages = (json["messages"] as? [[String: Any]] ?? []).compactMap { $0["text"] as? String }
        var links: [String] = []
        var images: [String] = []
        for link in json["links"] as? [[String: Any]] ?? [] {
            let href = link["href"] as? String ?? ""
            let isImage = (link["type"] as? String)?.lowercased().hasPrefix("image/") == true || href.lowercased().hasPrefix("data:image/")
            if isImage { images.append(href) } else { links.append(href) }
        }
        return (messages, links, images)
    }

    /// Whether `item` draws the image at `href`.
    static func draws(_ href: String, _ item: ScreenItem) -> Bool {
        switch item {
        case .qrCode(_, let image?), .serverImage(let image): return image.href == href
        default: return false
        }
    }

    /// No screen shows a raw value of its response: an action's kind or template, a type, a
    /// link's relation, a view name, an authenticator type, unless the server itself sent that
    /// string as a text (a title, a label, a message). Both are read from the response's JSON.
    @Test func noScreenShowsAKindTemplateTypeOrRelation() throws {
        var checked = 0
        for (directory, names) in Self.everyDocument {
            for name in names {
                guard let json = try? JSONSerialization.jsonObject(with: Data(contentsOf: directory.appendingPathComponent(name))),
                    let screen = try? Self.screen(directory, name)
                else { continue }
                let (raw, texts) = Self.rawValuesAndTexts(json)
                for shownScreen in [screen, try Self.screen(directory, name, builder: Self.swedish)] {
                    let shown = shownScreen.items.flatMap(Self.texts)
                    for text in shown where raw.contains(text) && !texts.contains(text) {
                        Issue.record("\(name): \"\(text)\" is a raw value on the screen: \(Self.describe(screen))")
                    }
                }
                checked += 1
            }
        }
        #expect(checked >= 60)
    }

    /// The raw values of a response (kinds, templates, types, relations, view names,
    /// authenticator types) and its texts (titles, labels, messages, placeholders).
    static func rawValuesAndTexts(_ json: Any) -> (raw: Set<String>, texts: Set<String>) {
        var raw: Set<String> = []
        var texts: Set<String> = []
        func walk(_ value: Any) {
            if let object = value as? [String: Any] {
                for (key, member) in object {
                    if let text = member as? String {
                        if ["kind", "template", "type", "rel", "viewName", "authenticatorType", "name"].contains(key) { raw.insert(text) }
                        if ["title", "actionTitle", "text", "label", "placeholder", "detail", "description"].contains(key) {
                            texts.insert(text)
                        }
                    }
                    walk(member)
                }
            } else if let array = value as? [Any] {
                array.forEach(walk)
            }
        }
        walk(json)
        return (raw, texts)
    }

    /// The texts an element shows.
    static func texts(_ item: ScreenItem) -> [String] {
        switch item {
        case .message(let text, _), .text(let text), .section(let text): return [text]
        case .textField(let field): return [field.label] + (field.placeholder.map { [$0] } ?? [])
        case .checkbox(let box): return [box.label]
        case .picker(let picker): return [picker.label] + picker.options.map(\.label)
        case .button(let button): return [button.title]
        case .tabs(let titles, _): return titles
        case .expandable(let title, let body): return [title, body]
        case .link(let title, _): return [title]
        case .countdown(let countdown): return [countdown.text]
        case .loadingIndicator, .image, .qrCode, .serverImage: return []
        }
    }

    static func names(_ field: String, _ item: ScreenItem) -> Bool {
        switch item {
        case .textField(let text): return text.name == field
        case .checkbox(let box): return box.name == field
        case .picker(let picker): return picker.name == field
        default: return false
        }
    }

    // MARK: Screens, element by element

    @Test func aLoginFormHasItsFieldsWithAutoFillTypesThenItsButtonThenItsLinks() throws {
        let screen = try Self.screen(Self.uiKit, "html-form-login.json")
        #expect(screen.kind == .form && screen.kind.themeSection == "FormViewController")
        #expect(
            Self.describe(screen) == [
                "field userName username", "field password password secure", "primary button: Login",
                "link: Forgot your password?", "link: Forgot your username?", "link: Create account",
            ])
        #expect(screen.textFields.allSatisfy { $0.style == "InputTextField" && $0.value == nil })
        #expect(screen.buttons.first?.style == "ActionableButton.Primary")
        // A theme that names another text field section styles every field with it.
        let outlined = try Theme.kit.merging(ThemeTests.plist(["huiTextField": "InputTextField.Outlined"]))
        let themed = try Self.screen(
            Self.uiKit, "html-form-login.json", builder: ScreenBuilder(strings: Self.english.strings, theme: outlined))
        #expect(themed.textFields.allSatisfy { $0.style == "InputTextField.Outlined" })
        _ = try HaapiUIViewControllerStyle(theme: outlined)
    }

    @Test func everyKindOfFieldHasItsElement() throws {
        #expect(
            Self.describe(try Self.screen(Self.uiKit, "form-different-inputs.json")) == [
                "picker character (2)", "field something none", "checkbox accept", "checkbox always-checked checked readonly",
                "primary button: Submit",
            ])
        // A one-time code, its recipient above it; the form's second action is a secondary button.
        #expect(
            Self.describe(try Self.screen(Self.uiKit, "html-form-account-activation-otp.json")) == [
                "Heading: Activate Account", "Info: An email with a one time password has been sent to you.",
                "Info: If you did not receive an email, check your spam folder.", "field otp oneTimeCode", "primary button: Activate",
                "secondary button: Send a new activation email",
            ])
    }

    @Test func consentShowsWhoAsksAndEachScopeThenAcceptAndCancel() throws {
        #expect(
            Self.describe(try Self.screen(Self.uiKit, "user-consent.json")) == [
                "Heading: Haapi Public Client", "Content: wants to access your account:", "Username: testuser",
                "Content: The following permissions are requested by the above app. Please review these and consent if it is OK.",
                "checkbox consent.claim.sub checked readonly", "checkbox consent.scope.read checked readonly",
                "primary button: Submit Consent",
                "text button: Cancel",
            ])
    }

    @Test func aSelectorIsAListOfButtonsOrTabsWithTheFirstOptionShown() throws {
        let list = try Self.screen(Self.uiKit, "authentication-select-authenticator.json")
        #expect(list.kind == .selector)
        // The selector's title heads it (the step has no heading of its own).
        #expect(
            Self.describe(list) == [
                "Heading: Login", "secondary button: Google", "secondary button: TOTP", "secondary button: Username/password",
                "secondary button: Email",
                "secondary button: SMS",
            ])
        let tabs = KitDataMapper(presentation: .tabs, appRedirect: "app://cb", baseURL: URL(string: "https://idsvr.example")!)
        let tabbed = try Self.screen(Self.uiKit, "authentication-select-authenticator.json", factory: tabs)
        #expect(
            Self.describe(tabbed) == [
                "Heading: Login", #"tabs ["Google", "TOTP", "Username/password", "Email", "SMS"] at 0"#, "primary button: Google",
            ])
        // Duo's nested selector: one button per device.
        #expect(
            Self.describe(try Self.screen(Self.uiKit, "duo-select-device-nested-selector.json")) == [
                "Heading: Device selection", "secondary button: Phone 1 (+XX XXX XXX 204)", "secondary button: Phone 2 (+XX XXX XXX 305)",
                "link: Register new device",
            ])
    }

    @Test func pollingWaitsWithASpinnerTheTimeLeftAndCancel() throws {
        #expect(
            Self.describe(try Self.screen(Self.uiKit, "sms-polling-pending.json")) == [
                "Content: Please authenticate using the SMS sent to: xxxxxx7890", "loading", "text button: Restart",
                "link: Register or change phone number",
            ])
        // The SDK's fixture says how long is left: in minutes and seconds from a minute up.
        let timed = try Self.screen(Documents.fixtures, "polling-pending.json")
        #expect(timed.kind == .polling)
        #expect(
            timed.items.contains {
                if case .countdown(let countdown) = $0 {
                    countdown.text == "2 minutes and 23 seconds left" && countdown.seconds == 143
                } else {
                    false
                }
            }, "\(Self.describe(timed))")
        let swedish = try Self.screen(Documents.fixtures, "polling-pending.json", builder: Self.swedish)
        #expect(
            swedish.items.contains {
                if case .countdown(let countdown) = $0 { countdown.text == "2 minuter och 23 sekunder kvar" } else { false }
            }, "\(Self.describe(swedish))")
        // Without automatic polling the user checks.
        let manual = KitDataMapper(autoPollingDuration: 0, appRedirect: "app://cb", baseURL: URL(string: "https://idsvr.example")!)
        let checked = try Self.screen(Self.uiKit, "sms-polling-pending.json", factory: manual)
        #expect(checked.buttons.first == ScreenItem.Button(title: "Check now", role: .primary, action: .poll))
        #expect(
            try Self.screen(Self.uiKit, "sms-polling-pending.json", builder: Self.swedish, factory: manual).buttons.first?.title
                == "Kontrollera nu")
    }

    /// A QR code means BankID on another device: the code and its help, never a button for an
    /// app this device may not have, and nothing opens by itself.
    @Test func bankIDOnAnotherDeviceShowsTheQRCodeWithHelpThenWaits() throws {
        let screen = try Self.screen(Self.uiKit, "bankid-polling-pending.json")
        #expect(screen.kind == .bankID && screen.kind.themeSection == "BankIdViewController")
        #expect(
            Self.describe(screen) == [
                "Content: Scan the QR code with your BankID app", "image hui_ic_bankid_login_symbol", "qr image",
                "expandable: Scan the QR code", "loading",
                "text button: Cancel",
            ])
        #expect(screen.openOnAppear == nil)
        let swedish = Self.describe(try Self.screen(Self.uiKit, "bankid-polling-pending.json", builder: Self.swedish))
        #expect(swedish.contains("expandable: Skanna QR-koden") && !swedish.contains { $0.contains("Öppna BankID") }, "\(swedish)")
    }

    @Test func passkeysOfferEachKindTheServerAllowsThenTheFallback() throws {
        // Any authenticator (`credentialCreationOptions`): this device's passkey or a security key,
        // as Curity's kit offers them. The browser fallback (the error action, kind `redirect`) is
        // not there: it comes after a failure, when allowed.
        let passkey = try Self.screen(Self.uiKit, "webauthn-registration-passkey-client-operation.json")
        #expect(passkey.kind == .webAuthn)
        #expect(
            Self.describe(passkey) == [
                "Content: Use a passkey saved on this device or in your password manager.", "primary button: Use a passkey",
                "Content: Use a security key that you plug in or hold near this device.", "secondary button: Use a security key",
                "link: Return to login",
            ])
        #expect(passkey.buttons.map(\.action) == [.passkey(.platform), .passkey(.crossPlatform)])
        // This device's or a security key: both, the device's first.
        let both = try Self.screen(Self.uiKit, "webauthn-registration-any-device-client-operation.json", builder: Self.swedish)
        #expect(both.buttons.prefix(2).map(\.action) == [.passkey(.platform), .passkey(.crossPlatform)])
        #expect(both.buttons.prefix(2).map(\.title) == ["Använd en lösennyckel", "Använd en säkerhetsnyckel"], "\(Self.describe(both))")
    }

    /// Curity's captured BankID choice sends two forms whose buttons both say "Login": each
    /// reads its action's own title, so that the user can tell them apart.
    @Test func theBankIDChoiceHasTwoDistinctTitles() throws {
        let screen = try Self.screen(Documents.captured, "bankIdSelectSameOrOtherDevice.json")
        #expect(
            screen.buttons.map(\.title) == [
                "Login with BankID installed on this device", "Login with BankID installed on a different device",
            ])
    }

    @Test func anInvalidInputProblemPutsItsComplaintsUnderTheFields() throws {
        let step = try Documents.step(Self.uiKit, "html-form-login.json")
        let problem = try Documents.problem(Self.uiKit, "problem-invalid-input.json")
        let screen = Self.english.screen(for: try factory.model(step), problem: KitProblemModel(problem))
        let described = Self.describe(screen)
        // The complaint about the password goes under it; those about fields the form does not
        // have stay in the messages.
        #expect(
            described == [
                "Error: Invalid Input", "Error: Some of the provided information is invalid. Please check and try again.",
                "Error: Username is required and cannot be empty", "Error: Please enter a valid email address", "field userName username",
                "field password password secure error: Password must be at least 8 characters long and contain at least one number",
                "primary button: Login", "link: Forgot your password?", "link: Forgot your username?", "link: Create account",
            ])
        // On its own, the same problem lists every complaint.
        let alone = try Self.screen(Self.uiKit, "problem-invalid-input.json")
        #expect(
            Self.describe(alone) == [
                "Error: Invalid Input", "Error: Some of the provided information is invalid. Please check and try again.",
                "Error: Username is required and cannot be empty", "Error: Please enter a valid email address",
                "Error: Password must be at least 8 characters long and contain at least one number",
            ])
        #expect(alone.kind.themeSection == "ProblemViewController")
    }

    /// Curity's captured responses.
    @Test
    func capturedCurityResponsesShowTheirScreens() throws {
        let bankID = try Self.screen(Documents.captured, "bankIdSameDeviceClientOperation.json")
        #expect(bankID.kind == .bankID)
        // BankID's app on this device, then the way on when the app does not bring the user back.
        #expect(
            Array(Self.describe(bankID).dropFirst().prefix(3)) == [
                "primary button: Open BankID on this device", "text: or",
                "secondary button: If you are not redirected automatically, click here to continue authenticating",
            ], "\(Self.describe(bankID))")
        let selector = try Self.screen(Documents.captured, "selectAuthenticationWithLinks.json")
        #expect(selector.kind == .selector && selector.buttons.count == 2)
        #expect(
            Self.describe(selector).suffix(3) == ["link: Forgot your password?", "link: Forgot your username?", "link: Create account"])
        #expect(Self.describe(try Self.screen(Documents.captured, "pollingStep.json")) == ["loading", "text button: Cancel"])
        let form = try Documents.step(Documents.captured, "usernamePassword.json")
        let errors = try Documents.problem(Documents.captured, "usernamePasswordFormErrors.json")
        let corrected = Self.describe(Self.english.screen(for: try factory.model(form), problem: KitProblemModel(errors)))
        #expect(corrected.first == "Error: Form Errors", "\(corrected)")
        #expect(corrected.contains("field userName username error: You have to enter your username"), "\(corrected)")
        #expect(corrected.contains("field password password secure error: You have to enter your password"), "\(corrected)")
    }

    @Test func autoFillTypesFollowTheFieldsTypeKindAndName() throws {
        func type(_ field: String) throws -> ScreenItem.TextField.ContentType {
            let step =
                #"{"type": "authentication-step", "actions": [{"template": "form", "kind": "login", "model": {"href": "/a", "method": "POST", "fields": ["#
                + field + "]}}]}"
            guard case .representation(let representation) = try HaapiModel.response(from: Data(step.utf8)),
                let field = representation.formActions.first?.model.fields.first
            else { throw CancellationError() }
            return KitDataMapper.contentType(field)
        }
        #expect(try type(#"{"type": "username", "name": "userName"}"#) == .username)
        #expect(try type(#"{"type": "password", "name": "password"}"#) == .password)
        #expect(try type(#"{"type": "password", "name": "newPassword"}"#) == .newPassword)
        #expect(try type(#"{"type": "text", "name": "otp"}"#) == .oneTimeCode)
        #expect(try type(#"{"type": "text", "name": "contact", "kind": "email"}"#) == .emailAddress)
        #expect(try type(#"{"type": "text", "name": "mobileNumber"}"#) == .telephoneNumber)
        #expect(try type(#"{"type": "text", "name": "something"}"#) == .none)
    }
}
