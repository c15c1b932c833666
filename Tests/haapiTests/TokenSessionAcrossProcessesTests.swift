import Foundation
import HaapiSDK
import HaapiTesting
import OAuthTransportNIO
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One session shared by processes: `haapi` processes and tasks of this process, all on one
/// profile's tokens.json, asking at once, against `haapi server` (which rotates refresh tokens
/// and revokes the grant on reuse), its request log counting the refreshes.
@Suite("TokenSession across processes", .serialized, .ownThreads)
struct TokenSessionAcrossProcessesTests {
    static let refreshLine = "request: POST /oauth/token grant_type=refresh_token"

    /// The logged-in profile's storage and a session on it, as `haapi` opens it.
    static func session(_ loggedIn: CLITokenTests.LoggedIn) throws -> (storage: FileStorage, session: TokenSession) {
        let storage = try FileStorage(directory: loggedIn.tokensFile.deletingLastPathComponent())
        let authentication = ClientAuthentication.clientSecretBasic(clientID: "haapi-secret", secret: loggedIn.secret)
        let session = TokenSession(
            clientID: "haapi-secret",
            provider: OpenIDProvider(issuer: URL(string: loggedIn.server.issuer)!, transport: try AsyncHTTPClientTransport()),
            storage: storage, storageKey: "tokens.json", clientAuthentication: { authentication })
        return (storage, session)
    }

    /// ``HaapiCommand/atOnce(holding:processes:_:home:environment:tasks:joined:_:)`` on the
    /// profile, `session`'s tasks all waiting for the one refresh before the lock is let go: a
    /// task that came later would rightly refresh again, for its own minimum lifetime.
    static func atOnce(
        _ loggedIn: CLITokenTests.LoggedIn, storage: FileStorage, session: TokenSession, processes: Int, _ arguments: [String], tasks: Int,
        _ call: @escaping @Sendable () async throws -> String
    ) async throws -> HaapiCommand.AtOnce {
        try CLITests.requireBinary()
        return try await HaapiCommand.atOnce(
            holding: try storage.lock(for: "tokens.json"), processes: processes, arguments, home: loggedIn.directory, tasks: tasks,
            joined: { _ = try await session.authState }, call)
    }

    @Test func processesAndTasksAskingForMoreThanATokenLivesMakeOneRefresh() async throws {
        let loggedIn = try CLITokenTests.LoggedIn()
        let (storage, session) = try Self.session(loggedIn)
        let old = try #require(try loggedIn.storedTokens()?["accessToken"] as? String)
        // The server's tokens live 900 s; every caller wants 100 000.
        let outcome = try await Self.atOnce(
            loggedIn, storage: storage, session: session, processes: 8, ["token", "--min-ttl", "100000"], tasks: 200
        ) {
            try await session.validAccessToken(minimumLifetime: 100_000).value
        }
        for run in outcome.processes {
            #expect(run.status == 0, "\(run.stderr)")
            #expect(run.stderr.contains("waiting for the lock of \"tokens.json\", held by process \(getpid())"), "\(run.stderr)")
        }
        let printed = Set(outcome.processes.map { $0.stdout.trimmingCharacters(in: .newlines) })
        let returned = Set(try outcome.tasks.map { try $0.get() })
        #expect(outcome.tasks.count == 200)
        #expect(printed.count == 1 && printed == returned, "every process and task has the one refresh's token")
        let token = try #require(printed.first)
        let stored = try loggedIn.storedTokens()?["accessToken"] as? String
        #expect(token != old && token == stored)
        try await loggedIn.expectValidAccessToken(token)
        #expect(loggedIn.server.lines(prefix: Self.refreshLine) == [Self.refreshLine + " 200"], "counted at the server: one refresh")

        // The rotated refresh token is the only live one, and it works, from a process and from here.
        let refresh = try loggedIn.haapi(["refresh"])
        #expect(refresh.status == 0, "\(refresh.stderr)")
        let renewed = try await session.refresh()
        try await loggedIn.expectValidAccessToken(renewed.accessToken)
        _ = loggedIn.server.waitForLine(prefix: Self.refreshLine + " 200", timeout: 5)
        #expect(loggedIn.server.lines(prefix: Self.refreshLine).count == 3)
    }

    @Test func aRefusedRefreshEndsTheSessionOnceForEveryProcessAndTask() async throws {
        let loggedIn = try CLITokenTests.LoggedIn()
        let (storage, session) = try Self.session(loggedIn)
        try await loggedIn.revokeAtServer(try #require(try loggedIn.storedTokens()?["refreshToken"] as? String), hint: "refresh_token")
        let outcome = try await Self.atOnce(
            loggedIn, storage: storage, session: session, processes: 6, ["token", "--min-ttl", "100000"], tasks: 100
        ) {
            try await session.validAccessToken(minimumLifetime: 100_000).value
        }
        for run in outcome.processes {
            #expect(run.status == 4)
            #expect(run.stdout.isEmpty)
            #expect(run.stderr.contains("login required"), "\(run.stderr)")
        }
        for result in outcome.tasks {
            guard case .failure(let error) = result, (error as? OIDCError)?.code == .loginRequired else {
                Issue.record("expected loginRequired, got \(result)")
                continue
            }
        }
        #expect(
            loggedIn.server.lines(prefix: Self.refreshLine) == [Self.refreshLine + " 400"], "one refused refresh, then nobody asked again")
        #expect(try loggedIn.storedTokens() == nil)
    }

    @Test func aLockHeldTooLongIsATypedErrorNamingTheHolder() async throws {
        let loggedIn = try CLITokenTests.LoggedIn()
        let storage = try FileStorage(directory: loggedIn.tokensFile.deletingLastPathComponent())
        let session = TokenSession(
            clientID: "haapi-secret",
            provider: OpenIDProvider(issuer: URL(string: loggedIn.server.issuer)!, transport: try AsyncHTTPClientTransport()),
            storage: storage, storageKey: "tokens.json", options: TokenSession.Options(lockTimeout: 0.3))
        try await storage.lock(for: "tokens.json").withLock(timeout: 5, whileWaiting: nil) {
            do {
                _ = try await session.refresh()
                Issue.record("refreshed under a held lock")
            } catch let error as StorageError {
                #expect(error.code == .lockTimeout)
                #expect(error.lockHolder?.processID == getpid())
                #expect(error.message.contains("by process \(getpid())"), "\(error.message)")
            }
        }
        #expect(loggedIn.server.lines(prefix: Self.refreshLine).isEmpty)
    }
}
