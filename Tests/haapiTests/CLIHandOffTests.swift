import Foundation
import HaapiTesting
import Testing

/// The installed `haapi` (the `haapi-tokens` product) runs the commands on a profile's tokens
/// itself and hands every other one, as typed, to `haapi-full` beside it (links resolved), which
/// is the whole command line (the `haapi` product).
@Suite struct CLIHandOffTests {
    /// The two binaries to install: the built products, or the installed pair `HAAPI_TEST_BINARY` names.
    static var products: (tokens: URL, full: URL) {
        let folder = HaapiCommand.binary.deletingLastPathComponent()
        if ProcessInfo.processInfo.environment["HAAPI_TEST_BINARY"]?.isEmpty == false {
            return (HaapiCommand.binary, folder.appendingPathComponent("haapi-full"))
        }
        return (folder.appendingPathComponent("haapi-tokens"), HaapiCommand.binary)
    }

    /// `binary` as `name` in `folder`: a hard link, else a copy (a symbolic link would resolve to
    /// the folder of its target).
    static func place(_ binary: URL, as name: String, in folder: URL) throws -> URL {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let placed = folder.appendingPathComponent(name)
        do { try FileManager.default.linkItem(at: binary, to: placed) } catch { try FileManager.default.copyItem(at: binary, to: placed) }
        return placed
    }

    @Test func theTokenCommandsRunWithoutHaapiFullAndTheOthersSayWhatIsMissing() throws {
        try HaapiCommand.requireBinary()
        let directory = try HaapiCommand.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let lone = try Self.place(Self.products.tokens, as: "haapi", in: directory.appendingPathComponent("bin"))
        let environment: [String: String?] = ["HAAPI_HOME": directory.appendingPathComponent("home").path]
        let pkce = try Subprocess.run(lone, ["pkce"], environment: environment)
        #expect(pkce.status == 0 && pkce.output.contains("code_verifier="), "\(pkce.errors)")
        let token = try Subprocess.run(lone, ["token", "--profile", "none"], environment: environment)
        #expect(token.status == 4 && token.errors.contains("there is no profile \"none\""), "\(token.errors)")
        let expected = "haapi: error: this command is run by \(directory.path)/bin/haapi-full, which could not be started"
        for arguments in [["login", "--issuer", "https://as.example"], ["--help"], ["demo"]] {
            let run = try Subprocess.run(lone, arguments, environment: environment)
            #expect(run.status == 1 && run.errors.hasPrefix(expected), "\(arguments): \(run.errors)")
        }
    }

    @Test func everyOtherCommandLineGoesOnInHaapiFullThroughALink() throws {
        try HaapiCommand.requireBinary()
        let directory = try HaapiCommand.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let installed = directory.appendingPathComponent("install")
        let haapi = try Self.place(Self.products.tokens, as: "haapi", in: installed)
        _ = try Self.place(Self.products.full, as: "haapi-full", in: installed)
        // A link elsewhere on the PATH, as `ln -s` makes: haapi-full is found beside its target.
        let link = directory.appendingPathComponent("haapi")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: haapi)
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
