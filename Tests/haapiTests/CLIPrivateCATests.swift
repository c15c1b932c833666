import Foundation
import HaapiTesting
import Testing

/// Issue 38, item 1: a server on https with a private CA (`haapi server --tls-cert`, as a local
/// Curity server runs on https://localhost:8443). Without the CA the login says what is wrong
/// with the certificate and how to trust it; `--cacert` trusts it and the profile keeps it;
/// `HAAPI_CA_FILE` does the same for one command.
@Suite(.ownThreads) struct CLIPrivateCATests {
    /// The tests' CA, and the certificate for 127.0.0.1 and localhost it signs (``TestPKI``),
    /// written as PEM files in `directory`.
    static func privateCA(in directory: URL) throws -> (ca: URL, certificate: URL, key: URL) {
        let pki = TestPKI.shared
        let files = (
            directory.appendingPathComponent("ca.pem"), directory.appendingPathComponent("server.pem"),
            directory.appendingPathComponent("server-key.pem")
        )
        try Data(try pki.ca.certificatePEM.utf8).write(to: files.0)
        try Data(try pki.server.certificatePEM.utf8).write(to: files.1)
        try Data(pki.server.keyPEM.utf8).write(to: files.2)
        return files
    }

    @Test func aPrivateCAIsNamedWhenUntrustedAndTrustedWithCacert() throws {
        let directory = try HaapiCommand.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let files = try Self.privateCA(in: directory)
        let server = try CLITests.ServerProcess(
            directory: directory, arguments: ["--tls-cert", files.certificate.path, "--tls-key", files.key.path])
        defer { server.stop() }
        #expect(server.issuer.hasPrefix("https://127.0.0.1:"), "\(server.issuer)")
        let secretFile = directory.appendingPathComponent("secret")
        try Data(try #require(server.secret(of: "haapi-secret")).utf8).write(to: secretFile)
        let answers = directory.appendingPathComponent("answers.json")
        try Data(#"{"fields": {"userName": "demo", "password": "Password1"}, "choices": ["username-password"]}"#.utf8).write(to: answers)
        let login = [
            "login", "--issuer", server.issuer, "--client-id", "haapi-secret", "--client-secret-file", secretFile.path, "--answers",
            answers.path,
        ]

        // Untrusted: the certificate's problem, and the way to trust it.
        let refused = try CLITests.haapi(login, home: directory)
        #expect(refused.status != 0)
        #expect(
            refused.stderr.contains("the server's certificate is issued by CN=swift-haapi Test CA, which is not trusted here"),
            "\(refused.stderr)")
        #expect(refused.stderr.contains("--cacert FILE"), "\(refused.stderr)")

        // --cacert: the login works, and the profile keeps the CA for the next commands.
        let trusted = try CLITests.haapi(login + ["--cacert", files.ca.path], home: directory)
        #expect(trusted.status == 0, "\(trusted.stderr)")
        #expect(trusted.stderr.contains("Logged in as demo"), "\(trusted.stderr)")
        let config = try String(contentsOf: directory.appendingPathComponent("home/profiles/default/config.json"), encoding: .utf8)
        #expect(config.contains(files.ca.path), "\(config)")
        let userinfo = try CLITests.haapi(["userinfo"], home: directory)
        #expect(userinfo.status == 0 && userinfo.stdout.contains("\"sub\" : \"demo\""), "\(userinfo.stderr)")

        // HAAPI_CA_FILE (or SSL_CERT_FILE) at login, in another profile: kept, so that the
        // profile's later commands reach the server without it (issue 56, item 8).
        let fromEnvironment = try CLITests.haapi(
            login + ["--profile", "env"], home: directory, environment: ["SSL_CERT_FILE": files.ca.path])
        #expect(fromEnvironment.status == 0, "\(fromEnvironment.stderr)")
        let later = try CLITests.haapi(["userinfo", "--profile", "env"], home: directory)
        #expect(later.status == 0, "\(later.stderr)")

        // A CA file that is not the server's: the hint is about that file, not to give one.
        let unrelated = directory.appendingPathComponent("other-ca.pem")
        try Data(try TestPKI.shared.otherCA.certificatePEM.utf8).write(to: unrelated)
        let otherCA = try CLITests.haapi(login + ["--profile", "other", "--cacert", unrelated.path], home: directory)
        #expect(
            otherCA.status != 0 && otherCA.stderr.contains("vouch for") && !otherCA.stderr.contains("give its PEM file with --cacert"),
            "\(otherCA.stderr)")

        // A CA file that is not one is said by name before anything is sent.
        let notPEM = directory.appendingPathComponent("not.pem")
        try Data("hello".utf8).write(to: notPEM)
        let bad = try CLITests.haapi(login + ["--profile", "bad", "--cacert", notPEM.path], home: directory)
        #expect(bad.status != 0 && bad.stderr.contains("holds no PEM certificate"), "\(bad.stderr)")
    }
}
