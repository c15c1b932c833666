import Foundation
import HaapiDevServer
import HaapiDriver
import HaapiSDK
import OAuthCore
import OAuthTransportNIO
import OAuthTransportURLSession

#if canImport(Glibc)
    import Glibc
#endif

/// Username/password HAAPI logins, then refreshes, against a `haapi server` process over
/// loopback: from the HAAPI access token to the code exchange, through the real client stack.
/// The server runs in a process of its own, so the CPU time this process spends is the client's.
enum LoginBenchmark {
    /// Counts the HTTP requests that reach the network.
    final class CountingTransport: HTTPTransport {
        let base: any HTTPTransport
        let count = LockedValue(0)
        init(_ base: any HTTPTransport) { self.base = base }
        func send(_ request: TransportRequest) async throws -> TransportResponse {
            count.withLock { $0 += 1 }
            return try await base.send(request)
        }
    }

    /// The client's HTTP stack.
    enum Transport: String, CaseIterable {
        case asyncHTTPClient = "AsyncHTTPClient"
        case urlSession = "URLSession"

        func make() throws -> any HTTPTransport {
            switch self {
            case .asyncHTTPClient: return try AsyncHTTPClientTransport()
            case .urlSession: return try URLSessionTransport()
            }
        }
    }

    struct Result {
        let logins: Int
        let seconds: Double
        let latencies: [Double]
        let requestsPerLogin: Double
        /// This process's CPU time (user + system) per login, in milliseconds: the client's.
        let clientCPUPerLogin: Double
        let refreshLatencies: [Double]
        let clientCPUPerRefresh: Double
    }

    /// `logins` logins then `refreshes` refreshes, with `transport`, against a server that hashes
    /// passwords as it should or, with `cheapPasswordHash`, with one PBKDF2 round.
    static func run(haapi: String, transport kind: Transport, cheapPasswordHash: Bool, logins: Int, refreshes: Int) async throws -> Result {
        let server = try ServerProcess(haapi: haapi, cheapPasswordHash: cheapPasswordHash)
        defer { server.stop() }
        guard let client = server.clients.first(where: { ($0["clientId"] as? String) == "haapi-jwt" }),
            let jwk = client["privateKeyJwk"], let issuer = URL(string: server.issuer)
        else { throw HaapiError.illegalState(message: "the server printed no private_key_jwt client") }
        let key = try JWSSigningKey(jwk: try JWK(json: JSONSerialization.data(withJSONObject: jwk)))
        let method = try ClientAuthenticationMethodJWTAsymmetric(key: key)
        let transport = CountingTransport(try kind.make())
        // A configuration names one flow at a time: each login has its own.
        func configuration(_ name: String) -> HaapiConfiguration {
            HaapiConfiguration(
                name: name, clientId: "haapi-jwt", baseURL: issuer, tokenEndpointURL: issuer.appendingPathComponent("oauth/token"),
                authorizationEndpointURL: issuer.appendingPathComponent("oauth/authorize"), appRedirect: "haapi://callback",
                clientAuthenticationMethod: method)
        }
        // One warm-up login: connections, discovery of nothing, first-use costs.
        _ = try await loginOnce(configuration("bench-warm-up"), transport: transport, scopes: ["openid", "offline_access"])
        transport.count.withLock { $0 = 0 }

        var latencies: [Double] = []
        var lastTokens: (TokenSuccessResponse, Dpop?)?
        let cpuBefore = cpuMilliseconds()
        let started = ContinuousClock.now
        for index in 0..<logins {
            let loginStart = ContinuousClock.now
            lastTokens = try await loginOnce(configuration("bench-\(index)"), transport: transport, scopes: ["openid", "offline_access"])
            latencies.append(milliseconds(since: loginStart))
        }
        let seconds = milliseconds(since: started) / 1000
        let loginCPU = cpuMilliseconds() - cpuBefore
        let requests = transport.count.withLock { $0 }

        // Refreshes with rotation, on the tokens of the last login.
        guard let (tokens, dpop) = lastTokens, var refreshToken = tokens.refreshToken else {
            throw HaapiError.illegalState(message: "the login gave no refresh token")
        }
        let accessor: any OAuthAccessor = try await HaapiAccessorBuilder(haapiConfiguration: configuration("bench-refresh"))
            .setHaapiAccessorOption(option: .oauth).setAccessStrategy(.clientCredentials).setTransport(transport)
            .setStorage(InMemoryStorage()).build()
        var refreshLatencies: [Double] = []
        let refreshCPUBefore = cpuMilliseconds()
        for _ in 0..<refreshes {
            let refreshStart = ContinuousClock.now
            guard case .successfulToken(let refreshed) = await accessor.oAuthTokenManager.refreshAccessToken(with: refreshToken, dpop: dpop)
            else {
                throw HaapiError.illegalState(message: "a refresh failed")
            }
            refreshLatencies.append(milliseconds(since: refreshStart))
            refreshToken = refreshed.refreshToken ?? refreshToken
        }
        let refreshCPU = cpuMilliseconds() - refreshCPUBefore
        return Result(
            logins: logins, seconds: seconds, latencies: latencies.sorted(), requestsPerLogin: Double(requests) / Double(logins),
            clientCPUPerLogin: loginCPU / Double(logins), refreshLatencies: refreshLatencies.sorted(),
            clientCPUPerRefresh: refreshCPU / Double(max(refreshes, 1)))
    }

    /// A whole login with a new accessor (a new HAAPI token, a new DPoP key).
    private static func loginOnce(_ configuration: HaapiConfiguration, transport: any HTTPTransport, scopes: [String]) async throws -> (
        TokenSuccessResponse, Dpop?
    ) {
        let accessor: any HaapiAccessor = try await HaapiAccessorBuilder(haapiConfiguration: configuration)
            .setAccessStrategy(.clientCredentials).setTransport(transport).setStorage(InMemoryStorage()).build()
        do {
            let tokens = try await login(accessor, scopes: scopes)
            accessor.close()
            return (tokens, accessor.haapiManager.dpop)
        } catch {
            accessor.close()
            throw error
        }
    }

    static func milliseconds(since start: ContinuousClock.Instant) -> Double {
        let (seconds, attoseconds) = (ContinuousClock.now - start).components
        return Double(seconds) * 1000 + Double(attoseconds) / 1e15
    }

    /// User + system CPU time of this process so far, in milliseconds.
    static func cpuMilliseconds() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) * 1000 + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1000
    }

    /// `haapi server` on a free loopback port with a database of its own.
    final class ServerProcess {
        let process = Process()
        let directory: URL
        let issuer: String
        let clients: [[String: Any]]

        init(haapi: String, cheapPasswordHash: Bool) throws {
            directory = FileManager.default.temporaryDirectory.appendingPathComponent("haapi-bench-server-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let database = directory.appendingPathComponent("server.sqlite").path
            let hashing = cheapPasswordHash ? ["--insecure-password-hashing-for-benchmarks"] : []
            let printed = Process()
            printed.executableURL = URL(fileURLWithPath: haapi)
            printed.arguments = ["server", "--print-config", "--database", database] + hashing
            let configurationPipe = Pipe()
            printed.standardOutput = configurationPipe
            printed.standardError = FileHandle.nullDevice
            try printed.run()
            let configuration = configurationPipe.fileHandleForReading.readDataToEndOfFile()
            printed.waitUntilExit()
            clients = ((try JSONSerialization.jsonObject(with: configuration) as? [String: Any])?["clients"] as? [[String: Any]]) ?? []

            process.executableURL = URL(fileURLWithPath: haapi)
            process.arguments = ["server", "--port", "0", "--database", database] + hashing
            let output = Pipe()
            process.standardOutput = output
            process.standardError = FileHandle.nullDevice
            try process.run()
            // The first line is `listening on URL`.
            var line = Data()
            while let byte = try output.fileHandleForReading.read(upToCount: 1), !byte.isEmpty, byte != Data("\n".utf8) { line += byte }
            let text = String(decoding: line, as: UTF8.self)
            guard text.hasPrefix("listening on ") else {
                process.terminate()
                throw HaapiError.illegalState(message: "haapi server did not start: \(text)")
            }
            issuer = String(text.dropFirst("listening on ".count))
        }

        func stop() {
            if process.isRunning {
                process.terminate()
                process.waitUntilExit()
            }
            try? FileManager.default.removeItem(at: directory)
        }
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
                guard let login = form.actions.first(where: { $0.kind == .login })?.model else {
                    throw HaapiError.illegalState(message: "no login form")
                }
                result = await manager.submitForm(login, parameters: ["userName": SeedData.username, "password": "Password1"])
            case .representation(let selector as AuthenticatorSelectorStep):
                guard let password = selector.authenticators.first(where: { $0.type == "html-form" })?.action.model else {
                    throw HaapiError.illegalState(message: "no username/password option")
                }
                result = await manager.submitForm(password, parameters: [:])
            case .representation(let consent as UserConsentStep):
                guard let accept = consent.actions.first(where: { $0.kind == .userConsent })?.form else {
                    throw HaapiError.illegalState(message: "no consent form")
                }
                result = await manager.submitForm(accept, parameters: [:])
            case .representation(let done as OAuthAuthorizationResponseStep):
                guard let code = done.oauthAuthorizationResponseProperties.code,
                    case .successfulToken(let tokens) = await accessor.oAuthTokenManager.fetchAccessToken(with: code, dpop: manager.dpop)
                else { throw HaapiError.illegalState(message: "the code exchange failed") }
                return try tokens.tokenSuccessResponse()
            default:
                throw HaapiError.illegalState(message: "unexpected result \(result)")
            }
        }
        throw HaapiError.illegalState(message: "the login did not end")
    }
}
