import DevServerTestSupport
import Foundation
import HaapiDevServer
import SharedTestState
import Testing

/// The device authorization grant (RFC 8628) from the command line.
@Suite("haapi login --device", .ownThreads)
struct CLIDeviceLoginTests {
    /// `haapi login --device` against `haapi server`: the terminal shows the address and the
    /// code, the user approves on another device, and the profile is logged in.
    @Test func haapiLoginDeviceKeepsTheTokensInTheProfile() throws {
        let directory = try CLITests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let server = try CLITests.ServerProcess(directory: directory)
        defer { server.stop() }
        try HaapiCommand.requireBinary()
        let launched = try HaapiCommand.prepare(
            ["login", "--device", "--issuer", server.issuer, "--client-id", "browser-app", "--scope", "openid profile offline_access"],
            home: directory)
        try launched.process.run()
        let errors = launched.standardErrorFile
        Phone.approveDeviceLoginWhenShown(
            in: { (try? String(contentsOf: errors, encoding: .utf8)) ?? "" }, username: SeedData.username, password: SeedData.password)
        let run = try #require(try HaapiCommand.collect([launched], timeout: 60).first)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("Waiting for the approval..."), "\(run.stderr)")
        #expect(run.stderr.contains("Logged in as demo"), "\(run.stderr)")
        let status = try CLITests.haapi(["status", "--json"], home: directory)
        #expect(status.status == 0, "\(status.stderr)")
        #expect(status.stdout.contains("\"subject\" : \"demo\""), "\(status.stdout)")
        #expect(server.lines(prefix: "request: POST /oauth/token grant_type=urn:ietf:params:oauth:grant-type:device_code 200").count == 1)
    }
}
