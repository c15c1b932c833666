import Foundation
import HaapiTesting
import Testing

/// `haapi` runs the commands on a profile's tokens itself and hands every other one, as typed,
/// to `haapi-full` beside it (links resolved).
@Suite struct CLIHandOffTests {
    /// `haapi` in a folder of its own (a hard link, else a copy), with no `haapi-full` beside it.
    static func lone(in directory: URL) throws -> URL {
        let lone = directory.appendingPathComponent("haapi")
        do { try FileManager.default.linkItem(at: HaapiCommand.binary, to: lone) } catch {
            try FileManager.default.copyItem(at: HaapiCommand.binary, to: lone)
        }
        return lone
    }

    @Test func theTokenCommandsRunWithoutHaapiFullAndTheOthersSayWhatIsMissing() throws {
        try HaapiCommand.requireBinary()
        let directory = try HaapiCommand.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let lone = try Self.lone(in: directory)
        let environment: [String: String?] = ["HAAPI_HOME": directory.appendingPathComponent("home").path]
        let pkce = try Subprocess.run(lone, ["pkce"], environment: environment)
        #expect(pkce.status == 0 && pkce.output.contains("code_verifier"), "\(pkce.errors)")
        let token = try Subprocess.run(lone, ["token", "--profile", "none"], environment: environment)
        #expect(token.status == 4 && token.errors.contains("there is no profile \"none\""), "\(token.errors)")
        for arguments in [["login", "--issuer", "https://as.example"], ["--help"], ["demo"]] {
            let run = try Subprocess.run(lone, arguments, environment: environment)
            let expected = "haapi: error: this command is run by \(directory.appendingPathComponent("haapi-full").path), which could not be started"
            #expect(run.status == 1 && run.errors.hasPrefix(expected), "\(arguments): \(run.errors)")
        }
    }

    @Test func everyOtherCommandLineGoesOnInHaapiFullThroughALink() throws {
        try HaapiCommand.requireBinary()
        let directory = try HaapiCommand.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        // A link elsewhere on the PATH, as an install with `ln -s` makes: haapi-full is found beside its target.
        let link = directory.appendingPathComponent("haapi")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: HaapiCommand.binary)
        let version = try Subprocess.run(link, ["--version"])
        #expect(version.status == 0 && version.output.trimmingCharacters(in: .whitespacesAndNewlines) == "0.1.0", "\(version.errors)")
        let help = try Subprocess.run(link, ["--help"])
        for command in ["login", "token", "demo", "server", "preview", "inspect", "completion"] {
            #expect(help.output.contains("  \(command) "), "\(command) in:\n\(help.output)")
        }
        let unknown = try Subprocess.run(link, ["tokn"])
        #expect(unknown.status == 2 && unknown.errors.contains("did you mean `haapi token`?"), "\(unknown.errors)")
    }
}
