import Foundation
import HaapiDevServer
import HaapiServerTesting
import HaapiTesting
import Testing

@testable import HaapiCLI

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

        // Issue 38, item 11: the profile remembers the device login, so a plain `haapi login`
        // (over SSH, say) asks for a code again rather than opening a loopback browser.
        let config = try String(contentsOf: directory.appendingPathComponent("home/profiles/default/config.json"), encoding: .utf8)
        #expect(config.contains("\"login\" : \"device\""), "\(config)")
        let again = try HaapiCommand.prepare(["login"], home: directory)
        try again.process.run()
        let againErrors = again.standardErrorFile
        Phone.approveDeviceLoginWhenShown(
            in: { (try? String(contentsOf: againErrors, encoding: .utf8)) ?? "" }, username: SeedData.username, password: SeedData.password)
        let second = try #require(try HaapiCommand.collect([again], timeout: 60).first)
        #expect(second.status == 0 && second.stderr.contains("Logged in as demo"), "\(second.stderr)")
        #expect(server.lines(prefix: "request: POST /oauth/token grant_type=urn:ietf:params:oauth:grant-type:device_code 200").count == 2)
    }

    /// A browser login's profile, over SSH without a display, logs in with a code instead.
    @Test func sshWithoutADisplayHasNoBrowser() {
        #expect(LoginCommand.hasNoBrowser(["SSH_CONNECTION": "10.0.0.2 5000 10.0.0.1 22"]))
        #expect(!LoginCommand.hasNoBrowser(["SSH_CONNECTION": "10.0.0.2 5000 10.0.0.1 22", "DISPLAY": "localhost:10.0"]))
        #expect(!LoginCommand.hasNoBrowser(["SSH_CONNECTION": "10.0.0.2 5000 10.0.0.1 22", "BROWSER": "w3m"]))
        #expect(!LoginCommand.hasNoBrowser(["DISPLAY": ""]))
    }
}
