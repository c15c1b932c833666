import Foundation
import HaapiDriver
import HaapiSDK
import HaapiTesting
import OAuthCore
import OAuthTransportNIO
import Synchronization
import Testing

/// Issue 8's fault matrix: every fault of ``ServerFault`` that applies, through each component,
/// against a real misbehaving server. One test at a time: several wait for a short timeout,
/// which parallel tests on two cores would stretch.
@Suite(.serialized, .timeLimit(.minutes(1)))
struct FaultMatrix {}

/// The error a fault must end in: its code, its recovery suggestion and the delay it says the
/// server asked for (`retryAfter`, none unless given).
struct ExpectedFailure: Sendable, CustomTestStringConvertible {
    let fault: ServerFault
    let code: String
    let recovery: IdsvrErrorHandling
    let retryAfter: TimeInterval?
    /// The error type, when the code alone does not name it (`timed_out` is both an
    /// `HTTPTransportError` and an `OIDCError`).
    let domain: String?

    init(_ fault: ServerFault, _ code: String, _ recovery: IdsvrErrorHandling, retryAfter: TimeInterval? = nil) {
        self.init(fault, code, recovery, retryAfter: retryAfter, domain: nil)
    }

    init(
        _ fault: ServerFault, _ code: String, _ recovery: IdsvrErrorHandling, retryAfter: TimeInterval? = nil,
        as domain: any IdsvrError.Type
    ) {
        self.init(fault, code, recovery, retryAfter: retryAfter, domain: String(describing: domain))
    }

    private init(_ fault: ServerFault, _ code: String, _ recovery: IdsvrErrorHandling, retryAfter: TimeInterval?, domain: String?) {
        self.fault = fault
        self.code = code
        self.recovery = recovery
        self.retryAfter = retryAfter
        self.domain = domain
    }

    var testDescription: String { "\(fault) → \(domain.map { $0 + " " } ?? "")\(code)" }
}

/// The faults below HTTP end alike in every component: `communication`, with the transport's
/// own retry condition.
let networkFaults: [ExpectedFailure] = [
    .init(.connectionRefused, "communication", .retryable(condition: .now)),
    .init(.connectionResetMidBody, "communication", .retryable(condition: .now)),
    .init(.noResponse, "communication", .retryable(condition: .now)),
]

/// The 500 with an OAuth-style `server_error`: that error, retryable.
let serverErrorFault = ExpectedFailure(.internalServerError, "server_error", .retryable(condition: .now))

/// The delay ``ServerFault/serviceUnavailableWithRetryAfter`` asks for.
let busyDelay = TimeInterval(ServerFault.retryAfterSeconds)

/// The 503 with `Retry-After` from a HAAPI, token or revocation endpoint: an unusable answer
/// whose cause, an ``UnexpectedResponseError``, keeps the delay.
let serverBusyFault = ExpectedFailure(
    .serviceUnavailableWithRetryAfter, "invalid_url_response/server_busy", .retryable(condition: .now), retryAfter: busyDelay)

/// The transport timeout of every fault test: long enough for a loopback exchange on a busy
/// machine, short enough that ``ServerFault/noResponse`` costs well under a second.
let exchangeTimeout: TimeInterval = 0.5

/// The real network transport, with ``exchangeTimeout``.
func shortTimeoutTransport() throws -> AsyncHTTPClientTransport {
    try AsyncHTTPClientTransport(configuration: .init(timeout: exchangeTimeout))
}

/// Records an issue unless `error` is an ``IdsvrError`` with the expected code and recovery suggestion.
func expect(_ error: (any Error)?, toBe expected: ExpectedFailure, sourceLocation: SourceLocation = #_sourceLocation) {
    guard let error else {
        Issue.record("\(expected.fault) did not fail; expected \(expected.code)", sourceLocation: sourceLocation)
        return
    }
    guard let typed = error as? any IdsvrError else {
        Issue.record("\(expected.fault) ended in \(type(of: error)), not an IdsvrError: \(error)", sourceLocation: sourceLocation)
        return
    }
    if let domain = expected.domain {
        #expect(String(describing: type(of: typed)) == domain, "\(typed)", sourceLocation: sourceLocation)
    }
    #expect(matchedCode(typed) == expected.code, "\(typed)", sourceLocation: sourceLocation)
    #expect(typed.recoverySuggestion == expected.recovery, "\(typed)", sourceLocation: sourceLocation)
    #expect(typed.retryAfter == expected.retryAfter, "\(typed)", sourceLocation: sourceLocation)
}

/// The code an error is matched by: its own, or for a HaapiError `invalidURLResponse` (a
/// server's answer the SDK cannot use) `invalid_url_response/` and the cause's code: the cause
/// is what keeps the status, the body and the `Retry-After`.
func matchedCode(_ typed: any IdsvrError) -> String {
    if case .invalidURLResponse(_, _, let cause as any IdsvrError)? = typed as? HaapiError {
        return "invalid_url_response/\(cause.error)"
    }
    return typed.error
}

/// A clock the test moves by hand, so token expiry is tested without waiting.
final class TestClock: Sendable {
    private let current = Mutex(Date())

    func now() -> Date { current.withLock { $0 } }
    func advance(by seconds: TimeInterval) { current.withLock { $0 += seconds } }
}

/// The failure a `TokenResponse` carries, if any.
extension TokenResponse {
    var failure: (any Error)? {
        switch self {
        case .successfulToken: return nil
        case .errorToken(let error): return error.response
        case .error(let error): return error
        }
    }
}

extension TokenRevocationResponse {
    var failure: (any Error)? {
        switch self {
        case .success: return nil
        case .error(let error): return error
        }
    }
}
