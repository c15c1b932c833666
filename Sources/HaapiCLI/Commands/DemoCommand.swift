import ArgumentParser
import Foundation
import HaapiCLICore
import HaapiDevServer
import HaapiPreview
import HaapiUI
import OAuthCore
import OAuthTransportNIO
import OIDCClient
import ServiceLifecycle

/// `haapi demo`: the development server in-process, a terminal login against it, the token's claims and userinfo.
struct DemoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Start the development server in this process, log in against it in the terminal, print the token's claims and userinfo.",
        discussion: helpText(
            examples:
                "haapi demo",
            "haapi demo --client secret   # a selector of every simulated authenticator"))

    enum Client: String, ExpressibleByArgument, CaseIterable {
        case attested, secret
    }

    @Option(
        help: "The demo client: attested (software attestation, username/password) or secret (client secret, a selector of authenticators)."
    )
    var client: Client = .attested
    @OptionGroup var interaction: InteractionOptions
    @OptionGroup var log: LogOptions

    func run() async throws {
        log.apply(moreTags: SdkFollowUpTag.allCases)
        let terminal = Terminal()
        let answers = try interaction.loadAnswers(terminal: terminal)
        let state: ServerState
        var configuration = DevServerConfiguration(host: "127.0.0.1", port: 0)
        if let style = ScreenPage.kitStyleForServerPages { configuration.pageStyle = style }
        // What a real server would text or push to the user is shown as a message to them here.
        configuration.userMessages = { message in Stderr.line(terminal.styled(Self.describe(message), .bold, .yellow)) }
        do { state = try await ServerState.open(configuration: configuration) } catch {
            throw CLIFailure("cannot start the development server: \(error)")
        }
        let (listening, continuation) = AsyncStream<URL>.makeStream()
        let app = try DevServer.makeApplication(state: state) {
            continuation.yield($0)
            continuation.finish()
        }
        let group = ServiceGroup(configuration: .init(services: [app], gracefulShutdownSignals: [], logger: .init(label: "haapi-demo")))
        let result: Result<Void, any Error> = await withTaskGroup(of: Void.self) { tasks in
            tasks.addTask { try? await group.run() }
            var iterator = listening.makeAsyncIterator()
            let outcome: Result<Void, any Error>
            if let issuer = await iterator.next() {
                do { outcome = .success(try await demo(issuer: issuer, state: state, answers: answers, terminal: terminal)) } catch {
                    outcome = .failure(error)
                }
            } else {
                outcome = .failure(CLIFailure("the development server did not start"))
            }
            await group.triggerGracefulShutdown()
            await tasks.waitForAll()
            return outcome
        }
        try? await state.store.close()
        try result.get()
    }

    /// A message the server "sends" the user, as the demo shows it.
    static func describe(_ message: OutOfBandMessage) -> String {
        switch message {
        case .oneTimeCode(let channel, let username, let recipient, let code):
            return Texts.string(.messageOneTimeCode, username, channel, recipient, code)
        case .approvalLink(let username, let purpose, let link):
            return Texts.string(.messageApprovalLink, username, purpose, link.absoluteString)
        }
    }

    private func demo(issuer: URL, state: ServerState, answers: Answers?, terminal: Terminal) async throws {
        Stderr.line(terminal.styled(Texts.line(.demoServer, "\(issuer.absoluteString)"), .dim))
        var settings = ProfileConfiguration(
            issuer: issuer.absoluteString, clientID: "haapi-\(client.rawValue)", redirectUri: "haapi://callback",
            scope: "openid profile email offline_access")
        try await ConnectionOptions.discover(issuer: issuer.absoluteString, into: &settings)
        settings.baseURL = issuer.absoluteString
        switch client {
        case .attested:
            settings.strategy = .attestation
            settings.attestation = .software
        case .secret:
            settings.strategy = .secret
            settings.clientSecret = try await state.store.get(ClientRecord.self, kind: "client", id: "haapi-secret")?.clientSecret
        }
        Stderr.line(terminal.styled(Texts.string(.demoLogInAs, SeedData.username, SeedData.password), .bold, .green))
        if client == .secret {
            Stderr.line(terminal.styled(Texts.string(.demoMessagesHint, SeedData.personalNumber), .green))
        }
        let outcome = try await LoginSession(
            configuration: settings, answers: answers, browserCommand: interaction.browserCommand, name: "demo"
        )
        .run(terminal: terminal)
        // The tokens in a session in memory: the demo keeps nothing.
        let session = try settings.tokenSession(storage: InMemoryStorage(), storageKey: "demo")
        let tokens: AuthState
        let info: UserInfo?
        do {
            tokens = try await session.start(
                with: try outcome.tokens.response.tokenSuccessResponse(), dpop: outcome.dpop, nonce: outcome.nonce)
            info = settings.userinfoEndpoint == nil ? nil : try await session.userInfo()
        } catch {
            throw CLIFailure("the tokens the login ended with are unusable: \((error as? any IdsvrError)?.errorDescription ?? "\(error)")")
        }
        Stderr.line(LoginCommand.summary(tokens, issuer: issuer.absoluteString, keptIn: nil))
        Stdout.line(Texts.line(.demoClaims))
        // Time claims as dates, as `haapi token --decode` shows them.
        if let claims = JWTText.readable(tokens.accessToken)?["claims"] {
            Stdout.json(claims)
        } else {
            Stdout.line(Texts.line(.demoNotJwt))
        }
        if let info, let userinfo = settings.userinfoEndpoint {
            Stdout.line(Texts.line(.demoUserinfo, "\(userinfo)"))
            Stdout.json(.object(info.claims))
        }
    }
}
