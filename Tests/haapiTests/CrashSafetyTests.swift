import Foundation
import HaapiTesting
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `haapi token` killed (SIGKILL) at random moments of a refresh with rotation: after every
/// kill the profile still gives a valid token without a new login.
@Suite("Crash safety of the token store", .serialized, .ownThreads)
struct CrashSafetyTests {
    @Test func aKilledRefreshNeverCostsTheLogin() async throws {
        let session = try CLITokenTests.LoggedIn()
        // How long a refreshing `haapi token` takes here, so that the kills land all along it.
        try session.ageTokens()
        let timed = try session.haapi(["token", "--min-ttl", "60"])
        #expect(timed.status == 0, "\(timed.stderr)")
        var span = max(timed.seconds * 1.2, 0.05)

        var generator = SystemRandomNumberGenerator()
        var killed = 0
        for round in 0..<100 {
            try session.ageTokens()
            let process = HaapiCommand.process(
                ["token", "--min-ttl", "60"], home: session.directory, stdout: FileHandle.nullDevice, stderr: FileHandle.nullDevice)
            try process.run()
            usleep(UInt32(Double.random(in: 0..<span, using: &generator) * 1_000_000))
            // The span follows how long a refresh takes now (the machine's load changes): shorter
            // after a process that ended before its kill, a little longer after a kill, so that
            // about four kills in five land while it runs, all along it.
            if process.isRunning {
                kill(process.processIdentifier, SIGKILL)
                killed += 1
                span = min(span * 1.05, 10)
            } else {
                span = max(span * 0.8, 0.01)
            }
            process.waitUntilExit()

            let check = try session.haapi(["token", "--min-ttl", "60"])
            #expect(check.status == 0, "round \(round): \(check.stderr)")
            guard check.status == 0 else { break }
            try await session.expectValidAccessToken(check.stdout.trimmingCharacters(in: .newlines))
        }
        #expect(killed > 30, "most rounds must kill the process while it runs (killed \(killed) of 100)")
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: session.tokensFile.deletingLastPathComponent().path)
        // Besides an abandoned temporary file, only the settings, the tokens and their lock file.
        #expect(Set(leftovers.filter { !$0.hasPrefix(".tmp-") }) == ["config.json", "tokens.json", ".lock-tokens.json"], "\(leftovers)")
    }
}
