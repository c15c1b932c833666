import Foundation
import HaapiDevServer
import HaapiSDK
import HaapiServerTesting
import HaapiTesting
import HaapiUI
import OAuthCore
import Testing

/// Each step the development server sends, as the kit's screen shows it, for a user whose
/// language is Swedish: the server words its labels, titles and problems in the language the
/// SDK asks for (`Accept-Language`), and the kit its own texts (`hui_*`, `haapi_*`).
@Suite("The development server's steps as the kit's screens, in Swedish")
@MainActor struct DevServerScreensTests {
    static let swedish = ScreenBuilder(strings: LocalizableStrings(languages: ["sv"], appTable: { _ in nil }))

    static func harness(
        _ server: RunningServer, scopes: [String] = ["openid"], acceptLanguage: String = "sv-SE, en;q=0.5",
        uiLocales: [String] = []
    ) async throws -> FlowHarness {
        try await FlowHarness.make(server, client: .secret, scopes: scopes, bound: false, stripsPollingInterval: true) {
            $0.setAutoPollingDuration(duration: 0.05).setHttpHeadersProvider { ["Accept-Language": acceptLanguage] }
            if !uiLocales.isEmpty {
                $0.setOauthAuthorizationParamsProvider {
                    OAuthAuthorizationParameters(scopes: scopes, state: "ui-state", uiLocales: uiLocales)
                }
            }
        }
    }

    /// The screen shown now, described element by element.
    static func screen(_ flow: FlowHarness, sourceLocation: SourceLocation = #_sourceLocation) throws -> Screen {
        swedish.screen(for: try flow.requireModel(sourceLocation: sourceLocation), problem: flow.viewModel.problemModel)
    }

    static func described(_ flow: FlowHarness, sourceLocation: SourceLocation = #_sourceLocation) throws -> [String] {
        ScreenTests.describe(try screen(flow, sourceLocation: sourceLocation))
    }

    static func form(_ flow: FlowHarness, _ kind: String) throws -> KitButtonItem {
        try #require(try flow.requireModel().button(kind: ActionKind(rawValue: kind)))
    }

    @Test func theSelectorTheLoginFormItsProblemsAndConsent() async throws {
        try await RunningServer.with { server in
            let flow = try await Self.harness(server, scopes: ["openid", "profile"])
            await flow.viewModel.start()
            #expect(try Self.screen(flow).kind == .selector)
            #expect(
                try Self.described(flow) == [
                    "Heading: Välj inloggningsmetod", "secondary button: Användarnamn och lösenord", "secondary button: Engångskod",
                    "secondary button: Godkänn i telefonen", "secondary button: Logga in med webbläsaren",
                    "secondary button: Logga in med webbläsaren (äldre startsteg)", "secondary button: Duo", "secondary button: BankID",
                    "secondary button: Lösennyckel",
                ])

            try await flow.choose("html-form")
            #expect(
                try Self.described(flow) == [
                    "field userName username", "field password password secure", "primary button: Logga in", "link: Glömt lösenordet?",
                    "link: Skapa konto",
                ])
            #expect(try Self.screen(flow).textFields.map(\.label) == ["Användarnamn", "Lösenord"])

            try await flow.login(password: "wrong")
            #expect(try Self.described(flow).first == "Error: Felaktiga inloggningsuppgifter")
            await flow.viewModel.submit(interactionActionModel: try Self.form(flow, "login"), parameters: ["userName": "", "password": ""])
            #expect(
                try Self.described(flow).prefix(3) == [
                    "Error: Fel i formuläret", "field userName username error: Du måste ange ditt användarnamn",
                    "field password password secure error: Du måste ange ditt lösenord",
                ])

            try await flow.login()
            #expect(
                try Self.described(flow) == [
                    "Heading: Demo App ber om tillgång till ditt konto", "checkbox consent_profile checked", "primary button: Godkänn",
                    "text button: Neka",
                ])
            let consent = try Self.screen(flow)
            #expect(
                consent.items.compactMap { if case .checkbox(let box) = $0 { box.label } else { nil } } == [
                    "Ditt namn, användarnamn och språk"
                ])
            await flow.viewModel.submit(
                interactionActionModel: try Self.form(flow, "user-consent"), parameters: ["consent_profile": "profile"])
            #expect(try await flow.outcome().tokens != nil)
            await flow.close()
        }
    }

    @Test func oneTimeCodesPollingAndDuo() async throws {
        try await RunningServer.with { server in
            let flow = try await Self.harness(server)
            await flow.viewModel.start()
            try await flow.choose("sms")
            #expect(try Self.described(flow) == ["field userName username", "primary button: Skicka kod"])
            #expect(try Self.screen(flow).textFields.map(\.placeholder) == ["användarnamn"])
            await flow.viewModel.submit(interactionActionModel: try Self.form(flow, "login"), parameters: ["userName": "demo"])
            #expect(
                try Self.described(flow) == [
                    "Info: En kod skickades till +XX XXX XXX 000", "field otp oneTimeCode", "primary button: Verifiera",
                ])
            #expect(try Self.screen(flow).textFields.map(\.label) == ["Engångskod"])
            await flow.close()
        }
        try await RunningServer.with { server in
            let flow = try await Self.harness(server)
            await flow.viewModel.start()
            try await flow.choose("polling")
            #expect(try Self.described(flow) == ["field userName username", "primary button: Skicka förfrågan"])
            await flow.viewModel.submit(interactionActionModel: try Self.form(flow, "login"), parameters: ["userName": "demo"])
            #expect(try Self.screen(flow).kind == .polling)
            // What to do, to whom it was sent, and how long is left (issue 38, item 6).
            let waiting = try Self.described(flow)
            #expect(waiting.count == 5, "\(waiting)")
            #expect(
                Array(waiting.prefix(3)) == [
                    "Info: Öppna begäran som skickats till dig och godkänn inloggningen där.", "RecipientOfCommunication: +XX XXX XXX 000",
                    "loading",
                ], "\(waiting)")
            #expect(
                waiting.dropFirst(3).first?.wholeMatch(of: /countdown: (2 minuter|1 minut och [0-9]+ sekunder?) kvar/) != nil, "\(waiting)")
            #expect(waiting.last == "text button: Avbryt", "\(waiting)")
            await flow.close()
        }
        try await RunningServer.with { server in
            let flow = try await Self.harness(server)
            await flow.viewModel.start()
            try await flow.choose("duo")
            await flow.viewModel.submit(interactionActionModel: try Self.form(flow, "login"), parameters: ["userName": "demo"])
            #expect(
                try Self.described(flow) == [
                    "Heading: Välj enhet", "secondary button: Telefon (+XX XXX XXX 000)", "secondary button: Surfplatta",
                ])
            await flow.close()
        }
    }

    /// Two forms that both ask for a personal number say which BankID each starts.
    @Test func bankIDHereOrOnAnotherDevice() async throws {
        try await RunningServer.with { server in
            let flow = try await Self.harness(server)
            await flow.viewModel.start()
            try await flow.choose("bankid")
            #expect(
                try Self.described(flow) == [
                    "section: Logga in med BankID på den här enheten", "field personalnumber username", "primary button: Logga in",
                    "section: Logga in med BankID på en annan enhet", "field personalnumber username", "secondary button: Logga in",
                ])
            #expect(try Self.screen(flow).textFields.map(\.placeholder) == ["ååååmmddnnnn", "ååååmmddnnnn"])
            await flow.viewModel.submit(
                interactionActionModel: try Self.form(flow, "bankid-other-device"), parameters: ["personalnumber": "1990"])
            #expect(try Self.described(flow).contains("field personalnumber username error: Ett personnummer har 12 siffror: ååååmmddnnnn"))
            await flow.viewModel.submit(
                interactionActionModel: try Self.form(flow, "bankid-other-device"), parameters: ["personalnumber": SeedData.personalNumber])
            #expect(try Self.screen(flow).kind == .bankID)
            // Another device: the QR code, its help and the time it is shown, never the app's button.
            let described = try Self.described(flow)
            #expect(
                described.filter { !$0.hasPrefix("countdown") } == [
                    "Info: Skanna QR-koden med BankID-appen", "image hui_ic_bankid_login_symbol", "qr data", "expandable: Skanna QR-koden",
                    "loading",
                    "text button: Avbryt",
                ])
            #expect(described.contains { $0.hasPrefix("countdown: ") && $0.hasSuffix("sekunder kvar") }, "\(described)")
            await flow.close()
        }
    }

    @Test func creatingAnAccount() async throws {
        try await RunningServer.with { server in
            let flow = try await Self.harness(server)
            await flow.viewModel.start()
            try await flow.choose("html-form")
            await flow.viewModel.followLink(
                try #require(ScreenBuilder.linkItems(of: try flow.requireModel()).first { $0.rel == "register-create" }).link)
            #expect(
                try Self.described(flow) == [
                    "Heading: Skapa ett konto", "field userName username", "field password newPassword secure", "field name none",
                    "field email emailAddress", "field phone telephoneNumber", "primary button: Skapa konto",
                ])
            #expect(
                try Self.screen(flow).textFields.map(\.label) == [
                    "Användarnamn", "Lösenord", "Fullständigt namn", "E-post", "Telefonnummer (en kod skickas dit)",
                ])
            await flow.viewModel.submit(
                interactionActionModel: try Self.form(flow, "user-register"),
                parameters: [
                    "userName": "nils", "password": "Password1", "name": "Nils", "email": "nils@example.test", "phone": "+46701234567",
                ])
            #expect(
                try Self.described(flow) == [
                    "Info: Ett meddelande skickades till +XX XXX XXX 567: ange koden i det för att skapa kontot", "field code oneTimeCode",
                    "primary button: Bekräfta",
                ])
            await flow.close()
        }
    }

    /// A language the server does not have gets English; `ui_locales` on the authorization
    /// request wins over `Accept-Language` for that request.
    @Test func otherLanguagesGetEnglishAndUILocalesWins() async throws {
        try await RunningServer.with { server in
            let flow = try await Self.harness(server, acceptLanguage: "de-DE, fr;q=0.8")
            await flow.viewModel.start()
            #expect(
                try Self.described(flow).prefix(2) == ["Heading: Select Authentication Method", "secondary button: Username and password"])
            await flow.close()
        }
        try await RunningServer.with { server in
            let flow = try await Self.harness(server, acceptLanguage: "en", uiLocales: ["sv-SE", "en"])
            await flow.viewModel.start()
            #expect(
                try Self.described(flow).prefix(2) == ["Heading: Välj inloggningsmetod", "secondary button: Användarnamn och lösenord"])
            await flow.close()
        }
    }
}
