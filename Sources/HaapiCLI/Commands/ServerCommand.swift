import ArgumentParser
import Foundation
import HaapiCLICore
import HaapiDevServer
import HaapiDriver
import HaapiPreview
import OAuthCore

/// `haapi server`: the HAAPI-compatible development server.
struct ServerCommand: AsyncParsableCommand, HandlesItsOwnSignals {
    static let configuration = CommandConfiguration(
        commandName: "server",
        abstract: "Run the HAAPI-compatible development server (state in SQLite).",
        discussion: helpText(
            """
            Prints one line `listening on http://HOST:PORT` (https with --tls-cert) when ready. Stop it with Ctrl-C (SIGINT) or SIGTERM. \
            With --log-requests it also prints `request: METHOD PATH STATUS` for each request answered \
            (`request: POST /oauth/token grant_type=refresh_token 200` at the token endpoint) and \
            `otp: CODE for USERNAME` for each one-time code it "sends", and `approve: URL for USERNAME` for \
            each approval a polling, Duo push or BankID login waits for (open the URL and press Approve).
            """,
            examples:
                "haapi server",
            "haapi server --port 0 --log-requests   # a free port; the line `listening on URL` says which",
            "haapi server --print-config",
            "haapi server --print-config --client haapi-secret > haapi-secret.json   # then: haapi login --config haapi-secret.json",
            "haapi server --host 0.0.0.0 --public-url http://192.168.1.20:8080   # for a phone on the same network",
            "haapi server --port 8443 --tls-cert server.pem --tls-key server-key.pem"))

    @Option(help: "The address to bind. Anything but loopback exposes development credentials.") var host = "127.0.0.1"
    @Option(help: "The port; 0 picks a free one.") var port = 8080
    @Option(help: "The SQLite database (default: $XDG_DATA_HOME/swift-haapi/server.sqlite).") var database: String?
    @Flag(help: "Require DPoP nonces.") var requireDpopNonce = false
    @Flag(help: "Print a line on standard output for each request answered, one-time code sent and approval asked for.") var logRequests =
        false
    @Flag(help: "Print the issuer, users and clients of the database as JSON and exit.") var printConfig = false
    @Option(
        help: ArgumentHelp(
            "With --print-config: print only this client's settings, as `haapi login --config FILE` reads them (its secret among them).",
            valueName: "client-id"))
    var client: String?
    @Option(
        help: ArgumentHelp(
            "The URL clients reach the server by, when not the address it binds (a phone on your network: --host 0.0.0.0 --public-url http://192.168.1.20:8080). The issuer and every URL the server hands out use it.",
            valueName: "url"))
    var publicUrl: String?
    @Option(
        help: ArgumentHelp(
            "A PEM certificate (chain) to serve https with: a private CA's, or a self-signed one (clients then trust it with `haapi login --cacert`).",
            valueName: "file"))
    var tlsCert: String?
    @Option(help: ArgumentHelp("The certificate's private key, in PEM (unencrypted).", valueName: "file")) var tlsKey: String?
    @Flag(
        help: ArgumentHelp(
            "Hash passwords with one PBKDF2 round, not 210,000, so that a benchmark measures the client, not the server's key derivation. Makes passwords cheap to guess: loopback only, never for real users."
        ))
    var insecurePasswordHashingForBenchmarks = false

    private var passwordHashing: PasswordHashing { insecurePasswordHashingForBenchmarks ? .insecureForBenchmarks : .standard }

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port must be 1 to 65535 (or 0 for a free one), not \(port)") }
        if (tlsCert == nil) != (tlsKey == nil) { throw ValidationError("give --tls-cert and --tls-key together") }
        if client != nil && !printConfig { throw ValidationError("--client goes with --print-config") }
        if try publicURL() != nil && port == 0 { throw ValidationError("give --port with --public-url: clients reach the port it names") }
    }

    /// --public-url: an http or https origin (a path would not reach the server's routes).
    private func publicURL() throws -> URL? {
        guard let publicUrl else { return nil }
        let trimmed = publicUrl.hasSuffix("/") ? String(publicUrl.dropLast()) : publicUrl
        guard let url = URL(string: trimmed), let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme),
            url.host?.isEmpty == false, url.path.isEmpty, url.query == nil, url.fragment == nil, url.user == nil
        else {
            throw ValidationError(
                "--public-url must be an http or https origin such as http://192.168.1.20:8080, not \(PrintableText(publicUrl))")
        }
        if (scheme == "https") != (tlsCert != nil) {
            Texts.warn(
                "--public-url is \(scheme) but the server serves \(tlsCert == nil ? "http" : "https"): a proxy in between must translate")
        }
        return url
    }

    /// The certificate and key of --tls-cert and --tls-key, when given.
    private func tls() throws -> DevServerTLS? {
        guard let tlsCert, let tlsKey else { return nil }
        func read(_ path: String, _ what: String) throws -> String {
            try InputFiles.text(path, "the \(what)", limit: InputFiles.Limit.small)
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
            if let client {
                Stdout.json(try Self.loginSettings(of: client, in: configuration))
            } else {
                Stdout.json(configuration)
            }
            return
        }
        let tls = try tls()
        if !Loopback.isHost(host) {
            Stderr.write(
                """
                ********** WARNING: binding \(host), not loopback. **********
                ********** This development server has well-known demo credentials\(tls == nil ? " and no TLS" : ""); do not expose it. **********

                """)
            if publicUrl == nil && ["0.0.0.0", "::", "[::]"].contains(host) {
                Stderr.line(
                    port == 0
                        ? "Its issuer names \(host), which no other machine can reach: choose a port (--port 8080) and give --public-url http://THIS-MACHINE'S-ADDRESS:8080."
                        : "Its issuer names \(host), which no other machine can reach: give --public-url http://THIS-MACHINE'S-ADDRESS:\(port)."
                )
            }
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
        let bound = publicUrl == nil ? "" : " (bound to \(host):\(port))"
        try await DevServer.run(configuration: configuration) { issuer in
            Self.writeLine("listening on \(issuer.absoluteString)\(bound)")
            // Where its users, clients and keys are (--database, else under $XDG_DATA_HOME or $HOME).
            Self.writeLine("database: \(path)")
        }
    }

    private func configuration(databasePath: String) -> DevServerConfiguration {
        var configuration = DevServerConfiguration(
            host: host, port: port, databasePath: databasePath, requiresDPoPNonce: requireDpopNonce,
            requestLog: logRequests ? Self.writeLine : nil)
        configuration.passwordHashing = passwordHashing
        if let style = ScreenPage.kitStyleForServerPages { configuration.pageStyle = style }
        configuration.publicURL = try? publicURL()
        return configuration
    }

    /// The settings `haapi login --config` takes for the client `clientID` of `configuration`
    /// (``DevServer/printableConfiguration(databasePath:passwordHashing:)``'s value), in a
    /// profile's keys: what the terminal needs to log in as that client.
    /// - Throws: a ``CLIFailure`` for an unknown client, or one the terminal cannot be (a key or DCR client).
    static func loginSettings(of clientID: String, in configuration: JSONValue) throws -> JSONValue {
        let clients = configuration["clients"]?.arrayValue ?? []
        let ids = clients.compactMap { $0["clientId"]?.stringValue }
        guard let client = clients.first(where: { $0["clientId"]?.stringValue == clientID }), let strategy = client["strategy"]?.stringValue
        else {
            throw CLIFailure("no client \(PrintableText(clientID)) in this server (its clients: \(ids.joined(separator: ", ")))")
        }
        var settings: [String: JSONValue] = [
            "issuer": configuration["issuer"] ?? .null, "clientId": .string(clientID), "scope": client["scope"] ?? .null,
        ]
        switch strategy {
        case "secret":
            settings["strategy"] = .string("secret")
            settings["clientSecret"] = client["clientSecret"]
            settings["redirectUri"] = client["redirectUri"]
        case "attestation":
            settings["strategy"] = .string("attestation")
            settings["attestation"] = .string("software")
            settings["redirectUri"] = client["redirectUri"]
        case "browser":
            settings["login"] = .string("browser")
        default:
            throw CLIFailure(
                "\(PrintableText(clientID)) is an app's client (\(PrintableText(strategy))), which the terminal cannot log in as: use haapi-secret, haapi-attested or browser-app"
            )
        }
        return .object(settings)
    }

    /// One line, written straight to the file descriptor so it is seen at once, even through a pipe.
    @Sendable static func writeLine(_ line: String) { Stdout.line(PrintableText(line)) }

    static func defaultDatabasePath() -> String {
        let directory = DefaultStorage.dataDirectory
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        return directory.appendingPathComponent("server.sqlite").path
    }
}
