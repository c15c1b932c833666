import Foundation
import HaapiDevServer
import HaapiDriver
import HaapiSDK
import NIOConcurrencyHelpers
import OAuthCore
import ServiceLifecycle
import OAuthTransportNIO

/// Full username/password logins against an in-process `haapi server` over loopback: from the
/// HAAPI access token to the code exchange, through the real client stack.
enum LoginBenchmark {
    /// Counts the HTTP requests that reach the network.
    final class CountingTransport: HTTPTransport {
        let base: any HTTPTransport
        let count = NIOLockedValueBox(0)
        init(_ base: any HTTPTransport) { self.base = base }
        func send(_ request: TransportRequest) async throws -> TransportResponse {
            count.withLockedValue { $0 += 1 }
            return try await base.send(request)
        }
    }

    struct Result {
        let logins: Int
        let seconds: Double
        let latencies: [Double]
        let requestsPerLogin: Double
    }

    static func run(logins: Int = 100) async throws -> Result {
        let state = try await ServerState.open(configuration: DevServerConfiguration())
        let (stream, continuation) = AsyncStream<URL>.makeStream()
        let app = DevServer.makeApplication(state: state) { continuation.yield($0) }
        let group = ServiceGroup(configuration: .init(services: [app], logger: .init(label: "bench")))
        let server = Task { try await group.run() }
        var iterator = stream.makeAsyncIterator()
        guard let issuer = await iterator.next() else { throw CancellationError() }
        guard let keyJWK = try await state.store.get(JWK.self, kind: "client-key", id: "haapi-jwt") else {
            throw HaapiError.illegalState(message: "no seeded private_key_jwt client")
        }
        let method = try ClientAuthenticationMethodJWTAsymmetric(key: try JWSSigningKey(jwk: keyJWK))
        let transport = CountingTransport(try AsyncHTTPClientTransport())
        let clock = ContinuousClock()
        var latencies: [Double] = []
        let started = clock.now
        for index in 0..<logins {
            let configuration = HaapiConfiguration(
                name: "bench-\(index)", clientId: "haapi-jwt", baseURL: issuer,
                tokenEndpointURL: issuer.appendingPathComponent("oauth/token"),
                authorizationEndpointURL: issuer.appendingPathComponent("oauth/authorize"), appRedirect: "haapi://callback",
                clientAuthenticationMethod: method)
            let loginStart = clock.now
            let accessor: any HaapiAccessor = try await HaapiAccessorBuilder(haapiConfiguration: configuration)
                .setAccessStrategy(.clientCredentials).setTransport(transport).setStorage(InMemoryStorage()).build()
            try await login(accessor)
            let (seconds, attoseconds) = (clock.now - loginStart).components
            latencies.append(Double(seconds) * 1000 + Double(attoseconds) / 1e15)
            await accessor.close()
        }
        let elapsed = clock.now - started
        await group.triggerGracefulShutdown()
        _ = await server.result
        try await state.store.close()
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        return Result(
            logins: logins, seconds: seconds, latencies: latencies.sorted(),
            requestsPerLogin: Double(transport.count.withLockedValue { $0 }) / Double(logins))
    }

    /// One login: HAAPI token, authorization request (with its redirect), username/password, code exchange.
    /// - Returns: the tokens.
    @discardableResult
    static func login(_ accessor: any HaapiAccessor, scopes: [String] = ["openid"]) async throws -> TokenSuccessResponse {
        let manager = accessor.haapiManager
        var result = await manager.start(parameters: OAuthAuthorizationParameters(scopes: scopes))
        for _ in 0..<8 {
            switch result {
            case .representation(let form as InteractiveFormStep):
                guard let login = form.forms.first(where: { $0.kind == .login })?.form else { throw HaapiError.illegalState(message: "no login form") }
                result = await manager.submitForm(login, parameters: ["userName": SeedData.username, "password": "Password1"])
            case .representation(let selector as AuthenticatorSelectorStep):
                guard let password = selector.options.first(where: { $0.authenticatorType == "html-form" })?.action.form else {
                    throw HaapiError.illegalState(message: "no username/password option")
                }
                result = await manager.submitForm(password, parameters: [:])
            case .representation(let consent as UserConsentStep):
                guard let accept = consent.actions.first(where: { $0.kind == .userConsent })?.form else { throw HaapiError.illegalState(message: "no consent form") }
                result = await manager.submitForm(accept, parameters: [:])
            case .representation(let done as OAuthAuthorizationResponseStep):
                guard let code = done.oauthAuthorizationResponseProperties.code,
                    case .successfulToken(let tokens) = await accessor.oAuthTokenManager.fetchAccessToken(with: code, dpop: manager.dpop)
                else { throw HaapiError.illegalState(message: "the code exchange failed") }
                return tokens
            default:
                throw HaapiError.illegalState(message: "unexpected result \(result)")
            }
        }
        throw HaapiError.illegalState(message: "the login did not end")
    }
}
