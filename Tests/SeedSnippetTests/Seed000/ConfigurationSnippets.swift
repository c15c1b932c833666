import Foundation
import HaapiUI
import OAuthTransportNIO  // for the test's check of the bundle, not for the snippets
import OAuthTransportURLSession
import Testing

// Seed 000, "HaapiUIKitConfiguration options": token binding, client authentication methods
// and the application bundle, each snippet as printed inside the test that runs it.

// The free names of the snippets: the app's constants.
private var clientId: String { Constants.clientId }
private var baseURL: URL { Constants.baseURL }
private var tokenEndpointURL: URL { Constants.tokenEndpointURL }
private var authorizationEndpointURL: URL { Constants.authorizationEndpointURL }
private var appRedirectURIString: String { Constants.appRedirectURIString }

/// Runs a flow of `configuration` to its end, the user logging in, and gives how it ended.
@MainActor private func flowOutcome(_ configuration: HaapiUIKitConfiguration) async throws -> OAuthModel {
    let application = HaapiUIKitApplicationBuilder(haapiUIKitConfiguration: configuration).build()
    let viewModel = HaapiFlowViewModel(haapiUIKitApplication: application)
    await viewModel.start()
    let outcome = await Result(catching: { () async throws -> OAuthModel in try await logInDemoUser(viewModel); return try await waitFor { viewModel.oAuthModel } })
    await application.close()
    return try outcome.get()
}

extension SeedSnippets {
    @Suite("Seed 000: configuration options")
    @MainActor struct ConfigurationOptions {
        @Test("000-7: a secure-enclave key cannot be made here: dpopKeyCreationFailure; P-256 binds the tokens")
        func boundedTokenConfiguration() async throws {
            try await SnippetServer.with { server in
                try await server.addClient("seed-bound", strategy: .attestation, tokenBound: true)
                Constants.clientId = "seed-bound"
                // MARK: 000-7 (unchanged)
                var haapiUIKitConfiguration = HaapiUIKitConfigurationBuilder(clientId: clientId,
                baseUrl: baseURL,
                tokenEndpointUrl: tokenEndpointURL,
                authorizationEndpointUrl: authorizationEndpointURL,
                appRedirect: appRedirectURIString)
                .setTokenBoundConfiguration(configuration: BoundedTokenConfiguration(keyPairType: CryptoKeyType.secureEnclave))
                .build()
                // MARK: end of 000-7
                try await withDevelopmentAttestation {
                    // This machine has no Secure Enclave.
                    let viewModel = try HaapiFlowViewModel(haapiUIKitConfiguration: haapiUIKitConfiguration)
                    await viewModel.start()
                    guard case .dpopKeyCreationFailure? = viewModel.error?.underlyingError as? HaapiError else {
                        Issue.record("got \(String(describing: viewModel.error))"); return
                    }
                    // Seed 001's advice for a persistent failure: the P-256 key pair type.
                    haapiUIKitConfiguration.haapiConfiguration.tokenBoundConfiguration = BoundedTokenConfiguration(keyPairType: .p256)
                    let tokens = try #require(try await flowOutcome(haapiUIKitConfiguration) as? KitOAuthTokenModel)
                    #expect(tokens.isBound)
                    #expect(try await server.claims(of: tokens.accessToken)?.jkt != nil)
                }
            }
        }

        @Test("000-8: a server that issues token-bound codes refuses an unbound exchange: invalid_dpop_proof")
        func unboundAgainstATokenBoundServer() async throws {
            try await SnippetServer.with { server in
                try await server.addClient("seed-bound", strategy: .attestation, tokenBound: true)
                Constants.clientId = "seed-bound"
                let configuration = HaapiUIKitConfigurationBuilder(clientId: clientId, baseUrl: baseURL, tokenEndpointUrl: tokenEndpointURL,
                    authorizationEndpointUrl: authorizationEndpointURL, appRedirect: appRedirectURIString)
                    .setTokenBoundConfiguration(configuration: UnBoundedTokenConfiguration()).build()
                try await withDevelopmentAttestation {
                    // The server's answer, as the seed prints it.
                    let error = try #require(try await flowOutcome(configuration) as? OAuthErrorModel)
                    #expect(error.error == "invalid_dpop_proof")
                    #expect(error.errorDescription == "Missing DPoP Proof Token")
                }
            }
        }

        @Test("000-9: UnBoundedTokenConfiguration with a server that does not bind codes: unbound tokens")
        func unboundedTokenConfiguration() async throws {
            try await SnippetServer.with { server in
                // MARK: 000-9 (unchanged)
                var haapiUIKitConfiguration = HaapiUIKitConfigurationBuilder(clientId: clientId,
                baseUrl: baseURL,
                tokenEndpointUrl: tokenEndpointURL,
                authorizationEndpointUrl: authorizationEndpointURL,
                appRedirect: appRedirectURIString)
                .setTokenBoundConfiguration(configuration: UnBoundedTokenConfiguration())
                .build()
                // MARK: end of 000-9
                try await withDevelopmentAttestation {
                    let tokens = try #require(try await flowOutcome(haapiUIKitConfiguration) as? KitOAuthTokenModel)
                    #expect(!tokens.isBound)
                    #expect(try await server.claims(of: tokens.accessToken)?.jkt == nil)
                    // The table's other row for such a server: bound when the client binds.
                    haapiUIKitConfiguration.haapiConfiguration.tokenBoundConfiguration = BoundedTokenConfiguration()
                    let bound = try #require(try await flowOutcome(haapiUIKitConfiguration) as? KitOAuthTokenModel)
                    #expect(bound.isBound)
                }
            }
        }

        @Test("000-10: a client secret: this device, which cannot attest, gets HAAPI tokens by client credentials")
        func clientSecret() async throws {
            try await SnippetServer.with { server in
                try await server.addClient("seed-secret", secret: "foo", strategy: .secret, tokenBound: false)
                Constants.clientId = "seed-secret"
                // MARK: 000-10 (unchanged)
                let clientAuthenticationMethod = ClientAuthenticationMethodSecret("foo")
                // MARK: end of 000-10
                let configuration = HaapiUIKitConfigurationBuilder(clientId: clientId, baseUrl: baseURL, tokenEndpointUrl: tokenEndpointURL,
                    authorizationEndpointUrl: authorizationEndpointURL, appRedirect: appRedirectURIString)
                    .setClientAuthenticationMethod(method: clientAuthenticationMethod).build()
                let tokens = try #require(try await flowOutcome(configuration) as? OAuthTokenModel)
                #expect(try await server.claims(of: tokens.accessToken)?.clientId == "seed-secret")
            }
        }

        @Test("000-11: mutual TLS from bundled files, and with a pinned server key")
        func mutualTLS() throws {
            let pkcs12Filename = "client.p12"
            let passphrase = "seed-passphrase"
            let serverPEMFilename = "server.pem"
            // MARK: 000-11
            // Changed: a `)` too many at the end of the first statement removed.
            // using bundled certificates
            let clientAuthenticationMethod = try ClientAuthenticationMethodMTLS(pkcs12Filename: pkcs12Filename, pkcs12Passphrase: passphrase, serverPEMFilename: serverPEMFilename, isValidatingHostname: true, bundle: appBundle)
            // using server public key hash
            let mtlsClientAuth2 = try! ClientAuthenticationMethodMTLS(pkcs12Filename: pkcs12Filename, pkcs12Passphrase: passphrase, serverKeyPinnings: [KeyPinning(hostname: "192.168.1.107", publicKeyHash: "Kjuy4mT3fbeDozRNP6rTjWRYmbs79Begb5Roq+DUu7s=")], bundle: appBundle)
            // MARK: end of 000-11
            let bundled = try #require(clientAuthenticationMethod.tlsOptions)
            #expect(bundled.clientIdentity != nil)
            #expect(bundled.trustedRootsPEM == (try String(contentsOf: appBundle.url(forResource: "server.pem", withExtension: nil)!, encoding: .utf8)))
            #expect(bundled.validatesHostname)
            let pinned = try #require(mtlsClientAuth2.tlsOptions)
            #expect(pinned.keyPinnings == [KeyPinning(hostname: "192.168.1.107", publicKeyHash: "Kjuy4mT3fbeDozRNP6rTjWRYmbs79Begb5Roq+DUu7s=")])
            #expect(try clientAuthenticationMethod.clientAuthentication(clientID: "c").methodName == "tls_client_auth")
            // A wrong passphrase is found by the transport that opens the bundle (NIOSSL here; URLSession on
            // Linux cannot do mutual TLS at all); a file in neither the bundle nor the file system at once.
            let wrong = try ClientAuthenticationMethodMTLS(pkcs12Filename: pkcs12Filename, pkcs12Passphrase: "wrong", serverPEMFilename: serverPEMFilename, bundle: appBundle)
            let unreadable = #expect(throws: HTTPTransportError.self) { try AsyncHTTPClientTransport(configuration: .init(tls: try #require(wrong.tlsOptions))) }
            #expect(unreadable?.code == .invalidRequest)
            #expect(try AsyncHTTPClientTransport(configuration: .init(tls: bundled)).configuration.tls == bundled)
            let unsupported = #expect(throws: HTTPTransportError.self) { try URLSessionTransport(configuration: .init(tls: bundled)) }
            #expect(unsupported?.code == .unsupportedConfiguration)
            let missing = #expect(throws: CryptoImportError.self) {
                _ = try ClientAuthenticationMethodMTLS(pkcs12Filename: "missing.p12", pkcs12Passphrase: passphrase, bundle: appBundle)
            }
            guard case .invalidPath(let description)? = missing else { Issue.record("got \(String(describing: missing))"); return }
            #expect(description.contains("missing.p12") && missing?.recoverySuggestion == .unrecoverable(action: .modifyConfiguration(reason: description)))
        }

        @Test("000-12: client assertions: an RS256 key from the bundle logs in; the HS256 assertion verifies with the secret")
        func clientAssertions() async throws {
            try await SnippetServer.with { server in
                let rsaPrivateKeyPEM = "client-rsa-key.pem"
                // MARK: 000-12 (unchanged)
                // Asymmetric keypair
                let asymConfig = try ClientAuthenticationMethodJWTAsymmetric(pemFilename: rsaPrivateKeyPEM, signatureAlgorithm: .rs256, bundle: appBundle)
                // Symmetric keypair
                let secretKeyJWT = "_UQ49FAPrM0XOdjNROeVIrbfPvTzqVgfLBi66Nk0mIBttc9ZBakcC9ZiuAu9WCvg"
                let symConfig = ClientAuthenticationMethodJWTSymmetric(signatureAlgorithm: .hs256, secretKey: secretKeyJWT)
                // MARK: end of 000-12

                // "The Curity Identity Server is then configured with a way to get the public key."
                try await server.addClient("seed-jwt", publicKey: try #require(asymConfig.key.publicJWK))
                Constants.clientId = "seed-jwt"
                let configuration = HaapiUIKitConfigurationBuilder(clientId: clientId, baseUrl: baseURL, tokenEndpointUrl: tokenEndpointURL,
                    authorizationEndpointUrl: authorizationEndpointURL, appRedirect: appRedirectURIString)
                    .setClientAuthenticationMethod(method: asymConfig).build()
                let tokens = try #require(try await flowOutcome(configuration) as? OAuthTokenModel)
                #expect(try await server.claims(of: tokens.accessToken)?.clientId == "seed-jwt")

                var parameters: [(String, String)] = []
                var headers = HeaderFields()
                try symConfig.clientAuthentication(clientID: "seed-jwt").apply(to: &parameters, headers: &headers, recipient: .init(endpoint: tokenEndpointURL))
                let assertion = try #require(parameters.first { $0.0 == "client_assertion" }?.1)
                let verified = try VerifiedJWT(
                    assertion, key: JWSVerificationKey(hmacSecret: Data(secretKeyJWT.utf8)), allowedAlgorithms: [.hs256],
                    options: JWTValidationOptions(issuer: "seed-jwt", audience: tokenEndpointURL.absoluteString))
                #expect(verified.claims.subject == "seed-jwt")
            }
        }

        @Test("000-13: setApplicationBundle collects the device context for risk assessment")
        func applicationBundle() throws {
            // MARK: 000-13
            // Changed: the `...` of the initializer filled in.
            let configurationBuilder: HaapiUIKitConfigurationBuilder = HaapiUIKitConfigurationBuilder(clientId: "c", baseUrl: URL(string: "https://idsvr.example")!, tokenEndpointUrl: URL(string: "https://idsvr.example/token")!, authorizationEndpointUrl: URL(string: "https://idsvr.example/authorize")!, appRedirect: "app:/cb")
            configurationBuilder.setApplicationBundle(Bundle.main)
            // MARK: end of 000-13
            let context = try #require(configurationBuilder.build().haapiConfiguration.riskAssessmentConfiguration)
            #expect(context.applicationIdentifier == (Bundle.main.bundleIdentifier ?? ProcessInfo.processInfo.processName))
            #expect(!context.operatingSystemName.isEmpty && !context.operatingSystemVersion.isEmpty && !context.deviceModelName.isEmpty)
        }
    }
}
