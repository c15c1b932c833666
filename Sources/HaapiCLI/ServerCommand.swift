import ArgumentParser
import Foundation
import OAuthCore
import HaapiDevServer
import HaapiDriver

/// `haapi server`: the HAAPI-compatible development server.
struct ServerCommand: AsyncParsableCommand, HandlesItsOwnSignals {
    static let configuration = CommandConfiguration(
        commandName: "server",
        abstract: "Run the HAAPI-compatible development server (state in SQLite).",
        discussion: """
            Prints one line `listening on http://HOST:PORT` (https with --tls-cert) when ready. Stop it with Ctrl-C (SIGINT) or SIGTERM. \
            With --log-requests it also prints `request: METHOD PATH STATUS` for each request answered \
            (`request: POST /oauth/token grant_type=refresh_token 200` at the token endpoint) and \
            `otp: CODE for USERNAME` for each one-time code it "sends", and `approve: URL for USERNAME` for \
            each approval a polling, Duo push or BankID login waits for (open the URL and press Approve).

            Examples:
              haapi server
              haapi server --port 0 --log-requests   # a free port; the line `listening on URL` says which
              haapi server --print-config
              haapi server --port 8443 --tls-cert server.pem --tls-key server-key.pem
            """)

    @Option(help: "The address to bind. Anything but loopback exposes development credentials.") var host = "127.0.0.1"
    @Option(help: "The port; 0 picks a free one.") var port = 8080
    @Option(help: "The SQLite database (default: $XDG_DATA_HOME/swift-haapi/server.sqlite).") var database: String?
    @Flag(help: "Require DPoP nonces.") var requireDpopNonce = false
    @Flag(help: "Print a line on standard output for each request answered, one-time code sent and approval asked for.") var logRequests = false
    @Flag(help: "Print the issuer, users and clients of the database as JSON and exit.") var printConfig = false
    @Option(help: ArgumentHelp(
        "A PEM certificate (chain) to serve https with: a private CA's, or a self-signed one (clients then trust it with `haapi login --cacert`).",
        valueName: "file"))
    var tlsCert: String?
    @Option(help: ArgumentHelp("The certificate's private key, in PEM (unencrypted).", valueName: "file")) var tlsKey: String?
    @Flag(help: ArgumentHelp(
        "Hash passwords with one PBKDF2 round, not 210,000, so that a benchmark measures the client, not the server's key derivation. Makes passwords cheap to guess: loopback only, never for real users."))
    var insecurePasswordHashingForBenchmarks = false

    private var passwordHashing: PasswordHashing { insecurePasswordHashingForBenchmarks ? .insecureForBenchmarks : .standard }

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port must be 1 to 65535 (or 0 for a free one), not \(port)") }
        if (tlsCert == nil) != (tlsKey == nil) { throw ValidationError("give --tls-cert and --tls-key together") }
    }

    /// The certificate and key of --tls-cert and --tls-key, when given.
    private func tls() throws -> DevServerTLS? {
        guard let tlsCert, let tlsKey else { return nil }
        func read(_ path: String, _ what: String) throws -> String {
            do { return try String(contentsOfFile: path, encoding: .utf8) } catch {
                throw CLIFailure("cannot read the \(what) \(path): \(error.localizedDescription)")
            }
        }
        do {
            return try DevServerTLS(certificateChainPEM: try read(tlsCert, "certificate"), privateKeyPEM: try read(tlsKey, "private key"))
        } catch let error as DevServerError {
            throw CLIFailure(PrintableText(error.description))
        }
    }

    func run() async throws {
        let path = database ?? Self.defaultDatabasePath()
        if printConfig {
            let configuration = try await DevServer.printableConfiguration(databasePath: path, passwordHashing: passwordHashing)
            Stdout.json(configuration)
            return
        }
        let tls = try tls()
        if !Loopback.isHost(host) {
            Stderr.write("""
                ********** WARNING: binding \(host), not loopback. **********
                ********** This development server has well-known demo credentials\(tls == nil ? " and no TLS" : ""); do not expose it. **********

                """)
        }
        if insecurePasswordHashingForBenchmarks {
            Stderr.line("WARNING: passwords are hashed for benchmarks (one PBKDF2 round): cheap to guess.")
        }
        do {
            try await serve(path, tls: tls)
        } catch let error as DevServerError {
            throw CLIFailure(PrintableText(error.description))
        }
    }

    private func serve(_ path: String, tls: DevServerTLS?) async throws {
        var configuration = configuration(databasePath: path)
        configuration.tls = tls
        try await DevServer.run(configuration: configuration) { issuer in
            Self.writeLine("listening on \(issuer.absoluteString)")
        }
    }

    private func configuration(databasePath: String) -> DevServerConfiguration {
        var configuration = DevServerConfiguration(
            host: host, port: port, databasePath: databasePath, requiresDPoPNonce: requireDpopNonce,
            requestLog: logRequests ? Self.writeLine : nil)
        configuration.passwordHashing = passwordHashing
        return configuration
    }

    /// One line, written straight to the file descriptor so it is seen at once, even through a pipe.
    @Sendable static func writeLine(_ line: String) { Stdout.line(PrintableText(line)) }

    static func defaultDatabasePath() -> String {
        let directory = DefaultStorage.dataDirectory
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        return directory.appendingPathComponent("server.sqlite").path
    }
}
