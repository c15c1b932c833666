import Foundation
import HaapiTesting
import OAuthCore
import OAuthTransportNIO
import OAuthTransportURLSession
import Testing

/// All transport tests, one at a time: several measure how long a failure takes, which
/// parallel tests on two cores would make unreliable.
@Suite(.serialized, .timeLimit(.minutes(1)))
struct TransportTests {}

/// How soon a failure that comes from an event (a refused handshake, a closed connection, a
/// cancellation, a request's short timeout) must arrive: a third of the 30 s default timeout,
/// so it cannot come from that timeout, and far above the milliseconds it takes on an idle
/// machine, so a loaded one does not fail the test.
let promptly: Duration = .seconds(10)

extension Duration {
    /// In seconds, as the transports' timeouts take it.
    var seconds: TimeInterval {
        let (seconds, attoseconds) = components
        return TimeInterval(seconds) + TimeInterval(attoseconds) / 1e18
    }
}

/// The error `body` throws, and how long it took; records an issue when it returns or
/// throws something other than an ``HTTPTransportError``.
func transportFailure(
    sourceLocation: SourceLocation = #_sourceLocation, _ body: () async throws -> TransportResponse
) async -> (error: HTTPTransportError?, elapsed: Duration) {
    let start = ContinuousClock.now
    do {
        let response = try await body()
        Issue.record(
            "expected an HTTPTransportError, got a \(response.status) response", sourceLocation: sourceLocation)
        return (nil, ContinuousClock.now - start)
    } catch let error as HTTPTransportError {
        return (error, ContinuousClock.now - start)
    } catch {
        Issue.record("expected an HTTPTransportError, got \(type(of: error)): \(error)", sourceLocation: sourceLocation)
        return (nil, ContinuousClock.now - start)
    }
}

func parseURL(_ text: String) throws -> URL { try #require(URL(string: text)) }

extension TransportRequest {
    static func get(_ text: String, timeout: TimeInterval? = nil) throws -> TransportRequest {
        TransportRequest(url: try parseURL(text), timeout: timeout)
    }
}

/// The `openssl` command-line tool, when installed.
enum OpenSSLCLI {
    static let path: String? = ["/usr/bin/openssl", "/usr/local/bin/openssl", "/opt/homebrew/bin/openssl"]
        .first { FileManager.default.isExecutableFile(atPath: $0) }

    /// Runs openssl with `arguments` in `directory`, feeding `input`; returns standard output.
    @discardableResult
    static func run(_ arguments: [String], in directory: URL, input: Data? = nil) throws -> Data {
        let run = try Subprocess.run(try #require(path), arguments, input: input, directory: directory)
        try #require(run.status == 0, "openssl \(arguments.joined(separator: " ")) failed: \(run.errors)")
        return run.stdout
    }

    /// A temporary directory, removed after `body`.
    static func inTemporaryDirectory<T>(_ body: (URL) throws -> T) throws -> T {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "haapi-transport-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        return try body(directory)
    }
}

/// The transports every plain-HTTP test runs against.
enum TransportKind: String, CaseIterable, Sendable, CustomTestStringConvertible {
    /// OAuthTransportNIO's.
    case asyncHTTPClient
    /// OAuthCore's, on FoundationNetworking here.
    case urlSession

    var testDescription: String { rawValue }

    func make(_ configuration: TransportConfiguration = TransportConfiguration()) throws -> any HTTPTransport {
        switch self {
        case .asyncHTTPClient: return try AsyncHTTPClientTransport(configuration: configuration)
        case .urlSession: return try URLSessionTransport(configuration: configuration)
        }
    }
}
