import Foundation
import OAuthCore

/// The errors of the HAAPI driver and SDK (the seeds' `HaapiError`), each with IdsvrError metadata.
public enum HaapiError: IdsvrError {
    /// The attestation assertion could not be made.
    case assertionFailure(cause: (any Error)?)
    /// Attestation failed on the device.
    case attestationFailure(cause: (any Error)?)
    /// The attestation key could not be generated.
    case attestationKeyGenFailure(cause: (any Error)?)
    /// The device cannot attest (use the DCR fallback).
    case attestationNotSupported
    /// The server refused the attestation (use the DCR fallback).
    case attestationRefusedByServer(cause: (any Error)?)
    /// The server could not be reached or the exchange broke.
    case communication(message: String, cause: (any Error)?)
    /// The DPoP key could not be created.
    case dpopKeyCreationFailure(cause: (any Error)?)
    /// A DPoP proof could not be made.
    case dpopProofCreationFailure(cause: (any Error)?)
    /// The DPoP mechanism failed (for example, the server keeps refusing proofs).
    case dpopProofFailure(message: String, cause: (any Error)?)
    /// A token manager with this name is already open.
    case haapiTokenManagerAlreadyExists(name: String)
    /// The token manager (or HaapiManager) was closed.
    case haapiTokenManagerIsClosed
    /// The HAAPI session has expired.
    case haapiTokenManagerIsExpired
    /// The operation is not possible in the current state.
    case illegalState(message: String)
    /// The configuration is wrong.
    case invalidConfiguration(reason: String)
    /// The server answered with an unexpected status.
    case invalidStatusCode(statusCode: Int)
    /// The server answered with an OAuth-style error.
    case serverError(error: String, errorDescription: String?, statusCode: Int)

    /// The HaapiError of a token endpoint answer that is neither tokens nor an OAuth error:
    /// ``communication(message:cause:)`` with the ``TokenEndpointError`` (status, content type,
    /// body and `Retry-After`) as its cause.
    public init(_ error: TokenEndpointError) {
        self = .communication(message: error.detail, cause: error)
    }

    /// The HaapiError of a DPoP failure: ``dpopKeyCreationFailure(cause:)`` when no key could be
    /// made, else ``dpopProofFailure(message:cause:)`` (a proof that could not be signed, or a
    /// server that keeps asking for a new nonce).
    public init(_ error: DPoPError) {
        self = error.code == .keyCreationFailed
            ? .dpopKeyCreationFailure(cause: error) : .dpopProofFailure(message: error.message, cause: error)
    }

    /// The HaapiError of an answer that is neither a HAAPI step, a problem nor an OAuth error:
    /// ``communication(message:cause:)`` with the ``UnexpectedResponseError`` as its cause.
    public init(_ error: UnexpectedResponseError) {
        self = .communication(message: error.errorDescription, cause: error)
    }

    public var error: String {
        switch self {
        case .assertionFailure: return "assertion_failure"
        case .attestationFailure: return "attestation_failure"
        case .attestationKeyGenFailure: return "attestation_key_generation_failure"
        case .attestationNotSupported: return "attestation_not_supported"
        case .attestationRefusedByServer: return "attestation_refused_by_server"
        case .communication: return "communication"
        case .dpopKeyCreationFailure: return "dpop_key_creation_failure"
        case .dpopProofCreationFailure: return "dpop_proof_creation_failure"
        case .dpopProofFailure: return "dpop_proof_failure"
        case .haapiTokenManagerAlreadyExists: return "haapi_token_manager_already_exists"
        case .haapiTokenManagerIsClosed: return "haapi_token_manager_closed"
        case .haapiTokenManagerIsExpired: return "haapi_token_manager_expired"
        case .illegalState: return "illegal_state"
        case .invalidConfiguration: return "invalid_configuration"
        case .invalidStatusCode: return "invalid_status_code"
        case .serverError(let error, _, _): return error
        }
    }

    public var errorDescription: String {
        switch self {
        case .assertionFailure: return "The attestation assertion could not be created."
        case .attestationFailure: return "Client attestation failed on this device."
        case .attestationKeyGenFailure: return "The attestation key could not be generated."
        case .attestationNotSupported: return "This device does not support client attestation."
        case .attestationRefusedByServer: return "The server refused this device's attestation."
        case .communication(let message, _): return message
        case .dpopKeyCreationFailure: return "The DPoP key could not be created."
        case .dpopProofCreationFailure: return "A DPoP proof could not be created."
        case .dpopProofFailure(let message, _): return message
        case .haapiTokenManagerAlreadyExists(let name): return "A HAAPI token manager named \"\(name)\" already exists."
        case .haapiTokenManagerIsClosed: return "The HAAPI manager is closed."
        case .haapiTokenManagerIsExpired: return "The HAAPI session has expired."
        case .illegalState(let message): return message
        case .invalidConfiguration(let reason): return "Invalid configuration: \(reason)"
        case .invalidStatusCode(let status): return "The server answered with HTTP \(status)."
        case .serverError(let error, let description, let status): return description ?? "The server answered \(error) (HTTP \(status))."
        }
    }

    public var failureReason: String {
        if let cause = cause as? any IdsvrError { return cause.failureReason }
        if let cause { return String(describing: cause) }
        return errorDescription
    }

    public var recoverySuggestion: IdsvrErrorHandling {
        switch self {
        case .communication(_, let cause):
            // The cause knows best: a timeout means a slow server, a 503 says when to come back.
            if let cause = cause as? any IdsvrError { return cause.recoverySuggestion }
            return .retryable(condition: .whenNetworkAvailable)
        case .attestationNotSupported, .attestationRefusedByServer, .attestationFailure, .assertionFailure,
            .attestationKeyGenFailure:
            return .nonRecoverable(action: .useAnotherConfiguration)
        case .dpopKeyCreationFailure: return .nonRecoverable(action: .useAnotherConfiguration)
        case .dpopProofCreationFailure, .dpopProofFailure: return .retryable(condition: .whenInForeground)
        case .haapiTokenManagerIsClosed, .haapiTokenManagerIsExpired, .illegalState: return .newHaapiFlow
        case .haapiTokenManagerAlreadyExists, .invalidConfiguration: return .nonRecoverable(action: .fixClientConfiguration)
        case .invalidStatusCode(let status), .serverError(_, _, let status):
            return status >= 500 || status == 429 ? .retryable(condition: .later) : .nonRecoverable(action: .fixServerConfiguration)
        }
    }

    public var cause: (any Error)? {
        switch self {
        case .assertionFailure(let cause), .attestationFailure(let cause), .attestationKeyGenFailure(let cause),
            .attestationRefusedByServer(let cause), .dpopKeyCreationFailure(let cause), .dpopProofCreationFailure(let cause):
            return cause
        case .communication(_, let cause), .dpopProofFailure(_, let cause): return cause
        default: return nil
        }
    }
}

/// An answer that is neither a HAAPI step, a problem nor an OAuth error: an HTML error page, an
/// empty body, other JSON, or a busy server's 503 or 429. It is the `cause` of
/// ``HaapiError/communication(message:cause:)`` and keeps all the answer said.
public struct UnexpectedResponseError: IdsvrError, Hashable {
    /// The HTTP status.
    public let statusCode: Int
    /// The `Content-Type`, if any.
    public let contentType: String?
    /// The body as received.
    public let body: Data
    /// How many seconds the server asked to wait (`Retry-After`), if it did.
    public let retryAfter: Double?

    /// Describes an answer.
    public init(statusCode: Int, contentType: String?, body: Data, retryAfter: Double? = nil) {
        self.statusCode = statusCode
        self.contentType = contentType
        self.body = body
        self.retryAfter = retryAfter
    }

    /// Describes `response`.
    public init(_ response: TransportResponse) {
        self.init(
            statusCode: response.status, contentType: response.headers["Content-Type"], body: response.body,
            retryAfter: response.isSuccess ? nil : response.retryAfterSeconds)
    }

    public var error: String { retryAfter == nil ? "unexpected_response" : "server_busy" }

    public var errorDescription: String {
        if let retryAfter {
            // Int(exactly:): a whole number in Int's range prints without ".0"; no value traps.
            let seconds = Int(exactly: retryAfter).map(String.init) ?? String(retryAfter)
            return "The server answered HTTP \(statusCode) and asked to try again in \(seconds) s."
        }
        let kind = body.isEmpty ? "an empty body" : "content of type \(contentType ?? "none")"
        return "The server answered HTTP \(statusCode) with \(kind), not a HAAPI response."
    }

    public var failureReason: String {
        body.isEmpty ? errorDescription : "Body begins: " + String(decoding: body.prefix(200), as: UTF8.self)
    }

    public var recoverySuggestion: IdsvrErrorHandling {
        if let retryAfter { return .retryable(condition: .afterDelay(seconds: retryAfter)) }
        return statusCode >= 500 || statusCode == 429 ? .retryable(condition: .later) : .nonRecoverable(action: .fixServerConfiguration)
    }
}
