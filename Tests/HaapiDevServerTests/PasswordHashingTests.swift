import Foundation
import HaapiServerTesting
import HaapiTesting
import Testing

@testable import HaapiDevServer

/// The benchmark-only password hashing of the dev server (issue 26): cheap when asked for, on
/// loopback only, and never mistaken for a standard database.
@Suite("Dev server password hashing")
struct PasswordHashingTests {
    static func temporaryDatabase() throws -> (directory: URL, path: String) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("haapi-hash-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return (directory, directory.appendingPathComponent("server.sqlite").path)
    }

    @Test func benchmarkHashingStoresOneRoundAndStillChecksPasswords() async throws {
        var configuration = DevServerConfiguration()
        configuration.passwordHashing = .insecureForBenchmarks
        try await RunningServer.with(configuration) { server in
            let demo = try #require(try await server.state.user(SeedData.username))
            #expect(demo.passwordHash.hasPrefix("pbkdf2-sha512$1$"))
            guard case .success = try await Credentials.check(username: SeedData.username, password: SeedData.password, state: server.state)
            else {
                Issue.record("the demo password was refused")
                return
            }
            guard case .incorrect = try await Credentials.check(username: SeedData.username, password: "wrong", state: server.state) else {
                Issue.record("a wrong password was accepted")
                return
            }
        }
    }

    @Test func theDefaultStaysTheStandardHash() async throws {
        #expect(DevServerConfiguration().passwordHashing == .standard)
        #expect(PasswordHashing.standard.rounds == 210_000)
        // A cheap hash matches nothing for a server that hashes as it should.
        let cheap = PasswordHash.make("Password1", hashing: .insecureForBenchmarks)
        #expect(PasswordHash.verify("Password1", against: cheap, hashing: .insecureForBenchmarks))
        #expect(!PasswordHash.verify("Password1", against: cheap))
        // Damaged stored hashes are refused, not derived with zero or negative rounds.
        for damaged in ["pbkdf2-sha512$0$AAAA$AAAA", "pbkdf2-sha512$-5$AAAA$AAAA", "pbkdf2-sha512$x$AAAA$AAAA", "md5$1$AAAA$AAAA"] {
            #expect(!PasswordHash.verify("Password1", against: damaged, hashing: .insecureForBenchmarks))
        }
    }

    @Test func benchmarkHashingIsRefusedOffLoopback() async throws {
        var configuration = DevServerConfiguration(host: "0.0.0.0")
        configuration.passwordHashing = .insecureForBenchmarks
        let error = await #expect(throws: DevServerError.self) { _ = try await ServerState.open(configuration: configuration) }
        #expect(error?.code == .insecurePasswordHashing)
    }

    @Test func aBenchmarkDatabaseIsRefusedByAStandardServer() async throws {
        let (directory, path) = try Self.temporaryDatabase()
        defer { try? FileManager.default.removeItem(at: directory) }
        var cheap = DevServerConfiguration(databasePath: path)
        cheap.passwordHashing = .insecureForBenchmarks
        try await ServerState.open(configuration: cheap).store.close()
        let error = await #expect(throws: DevServerError.self) {
            _ = try await ServerState.open(configuration: DevServerConfiguration(databasePath: path))
        }
        #expect(error?.code == .weaklyHashedDatabase)
        #expect(error?.description.contains("--insecure-password-hashing-for-benchmarks") == true)
        // With the flag again it opens.
        try await ServerState.open(configuration: cheap).store.close()
    }
}
