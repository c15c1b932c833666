import Foundation
import Hummingbird
import HummingbirdCore
import HummingbirdTLS
import Logging
import NIOCore
import NIOSSL
import OAuthCore
import ServiceLifecycle

/// The HAAPI-compatible development server (`haapi server`).
public enum DevServer {
    /// The router with every route of the server.
    public static func makeRouter(state: ServerState) -> Router<DevServerRequestContext> {
        let router = Router(context: DevServerRequestContext.self)
        router.add(middleware: HostCheckMiddleware(configuration: state.configuration))
        if let log = state.configuration.requestLog { router.add(middleware: RequestLogMiddleware(log: { log($0.description) })) }
        router.add(middleware: LanguageMiddleware(pageStyle: state.configuration.pageStyle))
        DiscoveryRoutes.add(to: router, state: state)
        OAuthRoutes.add(to: router, state: state)
        HaapiRoutes.add(to: router, state: state)
        if let renderer = state.configuration.preview { StepGallery.add(to: router, renderer: renderer) }
        return router
    }

    /// The application; `onListening` is called with the issuer URL once the port is bound.
    /// - Throws: what HummingbirdTLS throws for the TLS settings.
    public static func makeApplication(
        state: ServerState, onListening: @escaping @Sendable (URL) -> Void = { _ in }
    ) throws -> some ApplicationProtocol {
        var logger = Logger(label: "haapi-server")
        logger.logLevel = .warning
        let configuration = state.configuration
        let http = HTTPServerBuilder.http1(
            configuration: .init(
                additionalChannelHandlers: [
                    RequestDeadlineHandler(
                        headerTimeout: .nanoseconds(configuration.headerReadTimeout.nanoseconds),
                        keepAliveTimeout: .nanoseconds(configuration.idleTimeout.nanoseconds),
                        bodyTimeout: .nanoseconds(configuration.bodyReadTimeout.nanoseconds))
                ],
                idleTimeout: .nanoseconds(configuration.idleTimeout.nanoseconds)))
        return Application(
            router: makeRouter(state: state),
            server: try configuration.tls.map { try .tls(http, tlsConfiguration: $0.configuration) } ?? http,
            configuration: ApplicationConfiguration(
                address: .hostname(configuration.host, port: configuration.port), serverName: "haapi-dev-server"),
            services: [PurgeService(state: state)],
            onServerRunning: { channel in
                let port = channel.localAddress?.port ?? configuration.port
                let host = configuration.host.contains(":") ? "[\(configuration.host)]" : configuration.host
                let issuer = configuration.publicURL ?? URL(string: "\(configuration.tls == nil ? "http" : "https")://\(host):\(port)")!
                state.setIssuer(issuer)
                try? await state.store.put(issuer.absoluteString, kind: "server", id: "issuer")
                onListening(issuer)
            },
            logger: logger)
    }

    /// Runs the server until SIGINT or SIGTERM.
    /// - Throws: ``DevServerError`` when the address cannot be bound; the store's errors.
    public static func run(configuration: DevServerConfiguration, onListening: @escaping @Sendable (URL) -> Void) async throws {
        let state = try await ServerState.open(configuration: configuration)
        do {
            try await makeApplication(state: state, onListening: onListening).runService()
        } catch {
            try? await state.store.close()
            throw DevServerError(binding: error, host: configuration.host, port: configuration.port) ?? error
        }
        try await state.store.close()
    }

    /// The seeded users and clients and the issuer, as `haapi server --print-config` prints them.
    public static func printableConfiguration(databasePath: String?, passwordHashing: PasswordHashing = .standard) async throws -> JSONValue
    {
        var configuration = DevServerConfiguration(databasePath: databasePath)
        configuration.passwordHashing = passwordHashing
        let state = try await ServerState.open(configuration: configuration)
        do {
            let result = try await printableConfiguration(state: state)
            try await state.store.close()
            return result
        } catch {
            try? await state.store.close()
            throw error
        }
    }

    private static func printableConfiguration(state: ServerState) async throws -> JSONValue {
        let users = try await state.store.all(UserRecord.self, kind: "user")
        let clients = try await state.store.all(ClientRecord.self, kind: "client").filter { $0.value.strategy != .registered }
        var clientValues: [JSONValue] = []
        for (_, client) in clients {
            var entry: [String: JSONValue] = [
                "clientId": .string(client.clientId), "strategy": .string(client.strategy.rawValue),
                "scope": .string(client.scope.joined(separator: " ")),
            ]
            if let secret = client.clientSecret { entry["clientSecret"] = .string(secret) }
            if let redirect = client.redirectUris.first { entry["redirectUri"] = .string(redirect) }
            if let key = try await state.store.get(JWK.self, kind: "client-key", id: client.clientId) {
                entry["privateKeyJwk"] = JSONValue(encodable: key)
            }
            clientValues.append(.object(entry))
        }
        let result: JSONValue = [
            "issuer": .string(state.issuer.absoluteString),
            // Passwords are kept hashed: only the seeded demo user's, a published development credential, can be shown.
            "users": .array(
                users.map { user in
                    var entry: [String: JSONValue] = ["username": .string(user.value.username)]
                    if user.value.username == SeedData.username,
                        PasswordHash.verify(
                            SeedData.password, against: user.value.passwordHash, hashing: state.configuration.passwordHashing)
                    {
                        entry["password"] = .string(SeedData.password)
                    }
                    return .object(entry)
                }),
            "clients": .array(clientValues),
        ]
        return result
    }
}

extension Duration {
    /// The duration in seconds, for `Date` arithmetic.
    var timeInterval: TimeInterval { TimeInterval(components.seconds) + TimeInterval(components.attoseconds) / 1e18 }

    /// The duration in whole nanoseconds (saturating).
    var nanoseconds: Int64 {
        let (seconds, attoseconds) = components
        let (product, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        return overflow ? .max : product + attoseconds / 1_000_000_000
    }
}

/// Deletes expired records every ``DevServerConfiguration/purgeInterval``, so that what anyone
/// may create without authentication (challenges, flows, DPoP `jti`s) cannot pile up.
struct PurgeService: Service {
    let state: ServerState

    func run() async throws {
        // Returns only when the server stops (its sleep is cancelled): a service that ended
        // earlier would stop the whole group.
        await cancelWhenGracefulShutdown {
            while true {
                do { try await Task.sleep(for: state.configuration.purgeInterval) } catch { return }
                do { try await state.store.purgeExpired() } catch { HaapiRoutes.logger.error("purging expired records failed: \(error)") }
            }
        }
    }
}

/// Why the server could not listen where it was asked to, in words a user can act on.
public struct DevServerError: Error, CustomStringConvertible, Sendable {
    /// What went wrong.
    public enum Code: String, Sendable {
        /// Another program listens on the port.
        case addressInUse = "address_in_use"
        /// The port needs privileges this user does not have.
        case permissionDenied = "permission_denied"
        /// The host is not an address of this machine.
        case addressUnavailable = "address_unavailable"
        /// Benchmark password hashing was asked for on an address other machines can reach.
        case insecurePasswordHashing = "insecure_password_hashing"
        /// The database holds passwords hashed for benchmarks, and the server hashes as it should.
        case weaklyHashedDatabase = "weakly_hashed_database"
        /// The certificate or key for https cannot be read, or do not belong together.
        case unreadableCertificate = "unreadable_certificate"
    }

    /// What went wrong.
    public let code: Code
    /// The host the server was asked to listen on (empty when the error is not about listening).
    public let host: String
    /// The port the server was asked to listen on (0 when the error is not about listening).
    public let port: Int
    /// What exactly is wrong, when the code alone does not say.
    public let detail: String?

    init(_ code: Code, host: String = "", port: Int = 0, detail: String? = nil) {
        self.code = code
        self.host = host
        self.port = port
        self.detail = detail
    }

    /// The error a failed bind is, or `nil` when `error` is something else.
    init?(binding error: any Error, host: String, port: Int) {
        guard let error = error as? IOError else { return nil }
        switch error.errnoCode {
        case EADDRINUSE: code = .addressInUse
        case EACCES: code = .permissionDenied
        case EADDRNOTAVAIL: code = .addressUnavailable
        default: return nil
        }
        self.host = host
        self.port = port
        detail = nil
    }

    /// What went wrong and what to do about it, in one line: another port, another host, the flag to give.
    public var description: String {
        switch code {
        case .addressInUse:
            return
                "port \(port) on \(host) is in use (another program listens there); choose another with --port N, or --port 0 for a free one"
        case .permissionDenied:
            return "port \(port) on \(host) needs privileges this user does not have; choose a port above 1023, or --port 0 for a free one"
        case .addressUnavailable:
            return "\(host) is not an address of this machine; give --host 127.0.0.1 or another local address"
        case .insecurePasswordHashing:
            return "benchmark password hashing makes passwords cheap to guess: it is refused on \(host); bind loopback (--host 127.0.0.1)"
        case .weaklyHashedDatabase:
            return "this database's passwords were hashed for benchmarks (--insecure-password-hashing-for-benchmarks): "
                + "start with that flag again, or give a new --database"
        case .unreadableCertificate:
            return "cannot serve https: \(detail ?? "the certificate or key cannot be read") (--tls-cert FILE, --tls-key FILE)"
        }
    }
}

/// The certificate the development server presents for https (`haapi server --tls-cert FILE
/// --tls-key FILE`): a private CA's, or a self-signed one, for apps and tools that need https
/// (a phone, associated domains, a client that refuses http).
public struct DevServerTLS: Sendable {
    let configuration: TLSConfiguration

    /// The server's certificate chain and private key, in PEM.
    /// - Throws: ``DevServerError`` (``DevServerError/Code/unreadableCertificate``) saying which cannot be read.
    public init(certificateChainPEM: String, privateKeyPEM: String) throws {
        let chain: [NIOSSLCertificate]
        do { chain = try NIOSSLCertificate.fromPEMBytes(Array(certificateChainPEM.utf8)) } catch {
            throw DevServerError(.unreadableCertificate, detail: "the certificate is not PEM (BEGIN CERTIFICATE)")
        }
        guard !chain.isEmpty else { throw DevServerError(.unreadableCertificate, detail: "the certificate file holds no certificate") }
        let key: NIOSSLPrivateKey
        do { key = try NIOSSLPrivateKey(bytes: Array(privateKeyPEM.utf8), format: .pem) } catch {
            throw DevServerError(.unreadableCertificate, detail: "the private key is not an unencrypted PEM key")
        }
        configuration = TLSConfiguration.makeServerConfiguration(
            certificateChain: chain.map { .certificate($0) }, privateKey: .privateKey(key))
        // A key that does not belong to the certificate fails every handshake: find out now.
        do { _ = try NIOSSLContext(configuration: configuration) } catch {
            throw DevServerError(.unreadableCertificate, detail: "the private key does not belong to the certificate")
        }
    }
}
