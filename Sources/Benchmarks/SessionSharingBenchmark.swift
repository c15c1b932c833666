import Foundation
import HaapiDevServer
import HaapiSDK
import OAuthCore
import OAuthTransportNIO
import ServiceLifecycle

/// One token session shared by many callers who all want more than a token lives (900 s at
/// `haapi server`; they ask for 100 000 s): 20 `haapi token` processes on one profile, then
/// 1000 tasks of this process on the same storage. Each group asks at once: the profile's lock
/// is held, as a refresh elsewhere would hold it, until every caller waits for it, then
/// released. Counted at the server: the refresh requests each group made (target 1). Timed:
/// each caller's wait from the release to its token.
enum SessionSharingBenchmark {
    struct Group {
        let callers: Int
        let refreshes: Int
        /// From the release of the lock to each caller's token, sorted.
        let waitMilliseconds: [Double]
    }

    struct Result {
        let processes: Group
        let tasks: Group
    }

    static func run(haapi: String, processes: Int = 20, tasks: Int = 1000) async throws -> Result {
        let refreshes = LockedValue(0)
        let state = try await ServerState.open(
            configuration: DevServerConfiguration(requestLog: { line in
                if line.contains("grant_type=refresh_token 200") { refreshes.withLock { $0 += 1 } }
            }))
        let (stream, continuation) = AsyncStream<URL>.makeStream()
        let app = try DevServer.makeApplication(state: state) { continuation.yield($0) }
        let group = ServiceGroup(configuration: .init(services: [app], logger: .init(label: "bench")))
        let server = Task { try await group.run() }
        defer { server.cancel() }
        var iterator = stream.makeAsyncIterator()
        guard let issuer = await iterator.next() else { throw CancellationError() }
        guard let secret = try await state.store.get(ClientRecord.self, kind: "client", id: "haapi-secret")?.clientSecret else {
            throw BenchmarkFailure("no seeded haapi-secret client")
        }

        // A HAAPI login; its tokens start the session of a `haapi` profile.
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("haapi-bench-session-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: home) }
        let storage = try FileStorage(directory: home.appendingPathComponent("profiles/bench"))
        let settings: [String: String] = [
            "issuer": issuer.absoluteString, "clientID": "haapi-secret", "clientSecret": secret, "strategy": "secret",
            "redirectUri": "haapi://callback", "scope": "openid offline_access",
        ]
        try storage.write(key: "config.json", data: try JSONSerialization.data(withJSONObject: settings))
        let configuration = HaapiConfiguration(
            name: "bench-session", clientId: "haapi-secret", baseURL: issuer,
            tokenEndpointURL: issuer.appendingPathComponent("oauth/token"),
            authorizationEndpointURL: issuer.appendingPathComponent("oauth/authorize"), appRedirect: "haapi://callback",
            clientAuthenticationMethod: ClientAuthenticationMethodSecret(secret))
        let transport = try AsyncHTTPClientTransport()
        let accessor: any HaapiAccessor = try await HaapiAccessorBuilder(haapiConfiguration: configuration)
            .setAccessStrategy(.clientCredentials).setTransport(transport).setStorage(InMemoryStorage()).build()
        let tokens = try await LoginBenchmark.login(accessor, scopes: ["openid", "offline_access"])
        let authentication = ClientAuthentication.clientSecretBasic(clientID: "haapi-secret", secret: secret)
        let session = TokenSession(
            clientID: "haapi-secret", provider: OpenIDProvider(issuer: issuer, transport: transport), storage: storage,
            storageKey: "tokens.json", clientAuthentication: { authentication })
        try await session.start(with: tokens, dpop: accessor.haapiManager.dpop)
        accessor.close()
        let lock = try storage.lock(for: "tokens.json")

        // 20 processes.
        var before = refreshes.withLock { $0 }
        var launched: [(process: Process, err: URL)] = []
        let exits = LockedValue<[ContinuousClock.Instant]>([])
        var released = ContinuousClock.now
        try await lock.withLock(timeout: 10, whileWaiting: nil) {
            for index in 0..<processes {
                let err = home.appendingPathComponent("process-\(index).err")
                _ = FileManager.default.createFile(atPath: err.path, contents: nil)
                let process = Process()
                process.executableURL = URL(fileURLWithPath: haapi)
                process.arguments = ["token", "--profile", "bench", "--min-ttl", "100000", "--log-level", "debug"]
                process.environment = ["HAAPI_HOME": home.path, "PATH": "/usr/bin:/bin"]
                process.standardInput = FileHandle.nullDevice
                process.standardOutput = FileHandle.nullDevice
                process.standardError = try FileHandle(forWritingTo: err)
                process.terminationHandler = { _ in exits.withLock { $0.append(ContinuousClock.now) } }
                try process.run()
                launched.append((process, err))
            }
            let deadline = Date().addingTimeInterval(120)
            while Date() < deadline {
                let waiting = try launched.filter { try String(contentsOf: $0.err, encoding: .utf8).contains("waiting for the lock of") }
                    .count
                if waiting == processes { break }
                try await Task.sleep(for: .milliseconds(20))
            }
            released = ContinuousClock.now
        }
        for (process, _) in launched {
            while process.isRunning { try await Task.sleep(for: .milliseconds(5)) }
            guard process.terminationStatus == 0 else { throw BenchmarkFailure("haapi token exited with \(process.terminationStatus)") }
        }
        while exits.withLock({ $0.count }) < processes { try await Task.sleep(for: .milliseconds(5)) }
        let processWaits = exits.withLock { $0 }.map { milliseconds(released, $0) }
        let processGroup = Group(callers: processes, refreshes: refreshes.withLock { $0 } - before, waitMilliseconds: processWaits.sorted())

        // 1000 tasks of this process.
        before = refreshes.withLock { $0 }
        let started = LockedValue(0)
        let releasedAt = LockedValue(ContinuousClock.now)
        let waits = try await withThrowingTaskGroup(of: Double.self) { group in
            try await lock.withLock(timeout: 10, whileWaiting: nil) {
                for _ in 0..<tasks {
                    group.addTask {
                        started.withLock { $0 += 1 }
                        _ = try await session.validAccessToken(minimumLifetime: 100_000)
                        return milliseconds(releasedAt.withLock { $0 }, ContinuousClock.now)
                    }
                }
                while started.withLock({ $0 }) < tasks { try await Task.sleep(for: .milliseconds(5)) }
                try await Task.sleep(for: .milliseconds(200))
                releasedAt.withLock { $0 = ContinuousClock.now }
            }
            var waits: [Double] = []
            for try await wait in group { waits.append(wait) }
            return waits
        }
        let taskGroup = Group(callers: tasks, refreshes: refreshes.withLock { $0 } - before, waitMilliseconds: waits.sorted())

        await group.triggerGracefulShutdown()
        _ = await server.result
        try await state.store.close()
        return Result(processes: processGroup, tasks: taskGroup)
    }

    static func milliseconds(_ from: ContinuousClock.Instant, _ to: ContinuousClock.Instant) -> Double {
        let (seconds, attoseconds) = (to - from).components
        return Double(seconds) * 1e3 + Double(attoseconds) / 1e15
    }
}
