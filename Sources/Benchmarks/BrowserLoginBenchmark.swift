import Foundation
import OAuthCore
import OAuthTransportNIO
import OIDCClient

/// OIDCClient against a real OpenID Provider (Glewlwyd, from `Scripts/op/up.sh`): browser
/// logins with the headless browser of `Scripts/op/browser.sh`, the code exchange and refresh
/// requests on their own, and one refresh for 1000 concurrent callers.
enum BrowserLoginBenchmark {
    /// Times the token endpoint's requests and counts them.
    final class TimingTransport: HTTPTransport {
        let base: any HTTPTransport
        let tokenRequests = LockedValue<[Double]>([])
        init(_ base: any HTTPTransport) { self.base = base }
        func send(_ request: TransportRequest) async throws -> TransportResponse {
            let start = ContinuousClock.now
            let response = try await base.send(request)
            if request.url.path.hasSuffix("/token") {
                let elapsed = BrowserLoginBenchmark.milliseconds(since: start)
                tokenRequests.withLock { $0.append(elapsed) }
            }
            return response
        }
        func takeTimes() -> [Double] {
            tokenRequests.withLock { times in
                defer { times = [] }
                return times
            }
        }
    }

    struct Result {
        var loginMilliseconds: [Double] = []
        var codeExchangeMilliseconds: [Double] = []
        var refreshMilliseconds: [Double] = []
        var singleFlightCallers = 0
        var singleFlightRequests = 0
        var singleFlightMilliseconds = 0.0
    }

    static func run(opEnv: String, browserScript: String, logins: Int = 10, refreshes: Int = 30) async throws -> Result {
        let settings = try readEnv(opEnv)
        guard let issuer = settings["OP_ISSUER"].flatMap(URL.init(string:)), let id = settings["OP_CONF_CLIENT_ID"],
            let secret = settings["OP_CONF_CLIENT_SECRET"], let redirect = settings["OP_CLI_REDIRECT_URI"].flatMap(URL.init(string:))
        else { throw BenchmarkFailure("\(opEnv) lacks OP_ISSUER, OP_CONF_CLIENT_ID, OP_CONF_CLIENT_SECRET or OP_CLI_REDIRECT_URI") }
        let jar = FileManager.default.temporaryDirectory.appendingPathComponent("haapi-bench-cookies-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: jar) }
        let agent = LoopbackUserAgent(
            browserCommand: ["env", "OP_BROWSER_JAR=\(jar.path)", "bash", browserScript], listen: LoopbackRedirectListener.factory)
        let transport = TimingTransport(try AsyncHTTPClientTransport())
        let client = OIDCClient(
            configuration: OIDCConfiguration(
                issuer: issuer, clientAuthentication: .clientSecretBasic(clientID: id, secret: secret), redirectURI: redirect,
                scopes: ["openid", "offline_access"]),
            transport: transport)
        try await client.discover()

        var result = Result()
        for _ in 0..<logins {
            let start = ContinuousClock.now
            try await client.login(using: agent)
            result.loginMilliseconds.append(milliseconds(since: start))
            result.codeExchangeMilliseconds += transport.takeTimes()
        }
        for _ in 0..<refreshes {
            try await client.refresh()
        }
        result.refreshMilliseconds = transport.takeTimes()

        // 1000 callers want a token at once; the one the client holds is about to expire.
        guard var state = try await client.authState else { throw BenchmarkFailure("no session after the logins") }
        state.accessTokenExpiresAt = Date().addingTimeInterval(5)
        try await client.setAuthState(state)
        result.singleFlightCallers = 1000
        let start = ContinuousClock.now
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<result.singleFlightCallers {
                group.addTask { _ = try await client.validAccessToken(minimumLifetime: 30) }
            }
            try await group.waitForAll()
        }
        result.singleFlightMilliseconds = milliseconds(since: start)
        result.singleFlightRequests = transport.takeTimes().count
        try? await client.revoke()
        return result
    }

    static func milliseconds(since start: ContinuousClock.Instant) -> Double {
        let (seconds, attoseconds) = (ContinuousClock.now - start).components
        return Double(seconds) * 1e3 + Double(attoseconds) / 1e15
    }

    /// `KEY='value'` lines, as Scripts/op/provision.sh writes them.
    static func readEnv(_ path: String) throws -> [String: String] {
        var values: [String: String] = [:]
        for line in try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n") where line.contains("=") {
            let parts = line.split(separator: "=", maxSplits: 1)
            var value = parts.count > 1 ? String(parts[1]) : ""
            if value.hasPrefix("'") { value = String(value.dropFirst().dropLast()) }
            values[String(parts[0])] = value
        }
        return values
    }
}
