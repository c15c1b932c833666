import Foundation
import HaapiCLICore
import HaapiDriver
import HaapiSDK
import HaapiUI
import OAuthCore
import OAuthTransportNIO
import OIDCClient

/// One login: a view model for the connection settings, rendered in the terminal.
struct LoginSession {
    let configuration: ProfileConfiguration
    let answers: Answers?
    let browserCommand: String?
    let name: String
    /// Where `--record` keeps the login's HAAPI responses (`nil`: nowhere).
    var record: URL? = nil

    struct Outcome {
        let tokens: KitOAuthTokenModel
        let dpop: Dpop
        /// The nonce the authorization request carried: the ID token must carry it too.
        let nonce: String?
    }

    /// The view model's configuration for the settings.
    func uiConfiguration() throws -> HaapiUIKitConfiguration {
        guard let base = configuration.baseURL.flatMap(URL.init(string:)) ?? configuration.issuer.flatMap(URL.init(string:)),
            let token = configuration.tokenEndpoint.flatMap(URL.init(string:)),
            let authorize = configuration.authorizationEndpoint.flatMap(URL.init(string:))
        else {
            throw CLIFailure("the connection settings lack the base URL, token endpoint or authorization endpoint")
        }
        let scopes = configuration.scopes
        let haapi = HaapiConfiguration(
            name: "haapi-cli-\(name)-\(UUID().uuidString)", clientId: configuration.clientID, baseURL: base, tokenEndpointURL: token,
            authorizationEndpointURL: authorize, appRedirect: configuration.redirectUri,
            authorizationParametersProvider: { OAuthAuthorizationParameters(scopes: scopes) },
            revocationEndpointURL: configuration.revocationEndpoint.flatMap(URL.init(string:)))
        let binding: any TokenBoundConfiguration = configuration.dpop == false ? UnboundedTokenConfiguration() : BoundedTokenConfiguration()
        let builder = HaapiUIKitConfigurationBuilder(haapiConfiguration: haapi)
            .setStorage(InMemoryStorage())
            .setTransport(try transport())  // AsyncHTTPClient, as everywhere in the CLI
            .setTokenBoundConfiguration(configuration: binding)
        switch configuration.effectiveStrategy {
        case .secret:
            guard let secret = configuration.clientSecret else { throw CLIFailure("the strategy \"secret\" needs --client-secret") }
            builder.setClientAuthenticationMethod(method: ClientAuthenticationMethodSecret(secret)).setAccessStrategy(.clientCredentials)
        case .attestation:
            if configuration.attestation == .software {
                builder.setAttestationProvider(InsecureSoftwareAttestationProvider())
            }
        case .dynamicRegistration:
            break
        }
        return builder.build()
    }

    /// The login's transport: the CLI's, recording the HAAPI responses with `--record`.
    private func transport() throws -> any HTTPTransport {
        let announced = try AnnouncedTransport.make(for: configuration)
        return try record.map { try ResponseRecorder(base: announced, folder: $0) } ?? announced
    }

    /// Runs the flow; the view model is closed afterwards whatever happens.
    @MainActor func run(terminal: Terminal) async throws -> Outcome {
        // No secret and no attestation this machine can make: the builder could only say so in
        // the SDK's terms; the server tells which of the user's mistakes it is.
        if configuration.effectiveStrategy == .dynamicRegistration && !HaapiAccessorBuilder.platformAttestationProvider.isSupported {
            throw await ClientDiagnosis.missingCredentials(configuration)
        }
        let application = HaapiUIKitApplicationBuilder(haapiUIKitConfiguration: try uiConfiguration()).build()
        let viewModel = HaapiFlowViewModel(haapiUIKitApplication: application)
        let renderer = TerminalRenderer(
            viewModel: viewModel, terminal: terminal, answers: answers, browser: SystemBrowserLauncher(commandLine: browserCommand),
            baseURL: application.haapiUIKitConfiguration.haapiConfiguration.baseURL)
        defer { viewModel.stop() }
        do {
            let tokens = try await renderer.run(parameters: nil)
            guard let manager = viewModel.accessor?.haapiManager, let dpop = manager.dpop else {
                throw CLIFailure("login failed: the flow has no DPoP key")
            }
            let nonce = await manager.nonce
            await application.close()
            return Outcome(tokens: tokens, dpop: dpop, nonce: nonce)
        } catch {
            await application.close()
            throw error
        }
    }
}
