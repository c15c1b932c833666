import Foundation
import OAuthCore

/// The errors of the HAAPI driver and SDK (Curity's `HaapiError`), each with IdsvrError metadata.
///
/// The cases, their labels and defaults are Curity's, so an app's `switch` over them compiles
/// here. What the package knows beyond them is in each error's ``cause`` (an
/// ``/OAuthCore/UnexpectedResponseError`` keeps a server's status, body and `Retry-After`; an
/// ``/OAuthCore/HTTPTransportError`` says whether the connection failed or timed out) and in ``retryAfter``.
public enum HaapiError: IdsvrError {
    /// The server could not be reached, or the exchange broke below HTTP (the cause says how).
    case communication(message: String, cause: (any Error)? = nil)
    /// The server answered with an OAuth-style error (`error`, `error_description`, status).
    case serverError(_ error: String, errorDescription: String, statusCode: Int)
    /// The server answered with an unexpected status.
    @available(*, deprecated, message: "This case is being replaced by `serverError`.")
    case invalidStatusCode(_ statusCode: Int)
    /// The server answered with something the SDK cannot use: an HTML error page, an empty
    /// body, JSON that is not HAAPI's or OAuth's, a busy server's 503. `reason` says what was
    /// wrong; the cause (an ``/OAuthCore/UnexpectedResponseError`` or a ``/OAuthCore/TokenEndpointError``) keeps the answer.
    case invalidURLResponse(_ response: PlatformURLResponse?, reason: String, cause: (any Error)? = nil)
    /// The device cannot attest (use the DCR fallback).
    case attestationNotSupported
    /// Attestation failed on the device.
    case attestationFailure(cause: (any Error)? = nil)
    /// The attestation key could not be generated.
    case attestationKeyGenFailure(cause: (any Error)? = nil)
    /// The server refused the attestation (use the DCR fallback).
    case attestationRefusedByServer(cause: (any Error)? = nil)
    /// The attestation assertion could not be made.
    case assertionFailure(cause: (any Error)? = nil)
    /// The DPoP key could not be created.
    case dpopKeyCreationFailure(cause: any Error)
    /// A DPoP proof could not be made.
    case dpopProofCreationFailure(cause: any Error)
    /// The DPoP mechanism failed (for example, the server keeps refusing proofs).
    case dpopProofFailure(message: String, cause: any Error)
    /// The token manager (or HaapiManager) was closed.
    case haapiTokenManagerIsClosed
    /// The HAAPI session has expired.
    case haapiTokenManagerIsExpired
    /// The operation is not possible in the current state.
    case illegalState(message: String)
    /// The configuration is wrong.
    case invalidConfiguration(reason: String)
    /// A token manager with this name is already open.
    case haapiTokenManagerAlreadyExists(name: String)

    /// An OAuth error from a HAAPI or token endpoint: ``serverError(_:errorDescription:statusCode:)``,
    /// its description the server's `error_description` or, when it gave none, one made here.
    public static func server(_ error: String, description: String?, statusCode: Int) -> HaapiError {
        .serverError(error, errorDescription: description ?? "The server answered \(error) (HTTP \(statusCode)).", statusCode: statusCode)
    }

    /// The OAuth error `refusal` (from the HAAPI, token or CAT endpoint) as ``server(_:description:statusCode:)``.
    package init(_ refusal: OAuthErrorResponse) {
        self = .server(refusal.error, description: refusal.serverDescription, statusCode: refusal.statusCode)
    }

    /// The HaapiError of an answer that is neither what was asked for nor an OAuth error:
    /// ``invalidURLResponse(_:reason:cause:)`` with the answer, and the error (which keeps its
    /// status, content type, body and `Retry-After`) as the cause.
    public init(_ error: UnexpectedResponseError) {
        self = .invalidURLResponse(error.response.platformURLResponse, reason: error.detail, cause: error)
    }

    /// The HaapiError of tokens without the members RFC 6749 requires:
    /// ``invalidURLResponse(_:reason:cause:)`` with the answer, and the error as the cause.
    public init(_ error: TokenEndpointError) {
        self = .invalidURLResponse(error.response?.platformURLResponse, reason: error.detail, cause: error)
    }

    /// The HaapiError of a DPoP failure: ``dpopKeyCreationFailure(cause:)`` when no key could be
    /// made, else ``dpopProofFailure(message:cause:)`` (a proof that could not be signed, or a
    /// server that keeps asking for a new nonce).
    public init(_ error: DPoPError) {
        self =
            error.code == .keyCreationFailed
            ? .dpopKeyCreationFailure(cause: error) : .dpopProofFailure(message: error.message, cause: error)
    }

    /// The HaapiError of an answer that is neither a HAAPI step, a problem nor an OAuth error:
    /// ``invalidURLResponse(_:reason:cause:)`` with the response and an ``/OAuthCore/UnexpectedResponseError``
    /// describing it as the cause.
    public init(unexpected response: TransportResponse) {
        self.init(UnexpectedResponseError(response, expected: "a HAAPI response"))
    }

    /// The error's code (`attestation_failure`, `invalid_configuration`, ...; the server's `error` for
    /// ``serverError(_:errorDescription:statusCode:)``).
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
        case .invalidURLResponse: return "invalid_url_response"
        case .serverError(let error, _, _): return error
        default: return "invalid_status_code"  // the deprecated invalidStatusCode
        }
    }

    /// What happened, in one sentence (the server's description for a server error).
    public var errorDescription: String? {
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
        case .invalidURLResponse(_, let reason, _): return reason
        case .serverError(_, let description, _): return description
        default: return "The server answered HTTP \(statusCode ?? 0)."
        }
    }

    /// The cause's reason when there is a cause, else the description.
    public var failureReason: String {
        if let cause = cause as? any IdsvrError { return cause.failureReason }
        if let cause { return String(describing: cause) }
        return errorDescription ?? error
    }

    /// The cause's own for a transport or response failure; a configuration change, a new flow or another
    /// platform for the others; for HTTP statuses, by the status.
    public var recoverySuggestion: IdsvrErrorHandling {
        switch self {
        case .communication(_, let cause), .invalidURLResponse(_, _, let cause):
            // The cause knows best: a timeout means a slow server, a 503 says when to come back.
            if let cause = cause as? any IdsvrError { return cause.recoverySuggestion }
            if case .communication = self { return .retryable(condition: .now) }
            return .unrecoverable(action: .introspectCause)
        case .attestationNotSupported, .attestationRefusedByServer, .attestationFailure, .assertionFailure,
            .attestationKeyGenFailure, .dpopKeyCreationFailure:
            return .unrecoverable(action: .invalidPlatform)
        case .dpopProofCreationFailure, .dpopProofFailure: return .retryable(condition: .whenAppInForeground)
        case .haapiTokenManagerIsClosed, .haapiTokenManagerIsExpired, .illegalState: return .newHaapiFlow
        case .haapiTokenManagerAlreadyExists, .invalidConfiguration:
            return .unrecoverable(action: .modifyConfiguration(reason: errorDescription ?? error))
        case .serverError(_, _, let status): return Self.recovery(status: status)
        default: return Self.recovery(status: statusCode ?? 0)
        }
    }

    /// A server's error: worth another try when it is busy or failing, else the cause needs a look.
    private static func recovery(status: Int) -> IdsvrErrorHandling {
        .forServerAnswer(status: status, retryAfter: nil)
    }

    /// The HTTP status of a ``serverError(_:errorDescription:statusCode:)``, of the deprecated
    /// `invalidStatusCode`, or of the response of an ``invalidURLResponse(_:reason:cause:)``.
    public var statusCode: Int? {
        switch self {
        case .serverError(_, _, let status): return status
        case .invalidURLResponse(let response, _, _):
            #if canImport(Darwin)
                return (response as? HTTPURLResponse)?.statusCode
            #else
                return response?.status
            #endif
        case .communication, .attestationNotSupported, .attestationFailure, .attestationKeyGenFailure, .attestationRefusedByServer,
            .assertionFailure, .dpopKeyCreationFailure, .dpopProofCreationFailure, .dpopProofFailure, .haapiTokenManagerIsClosed,
            .haapiTokenManagerIsExpired, .illegalState, .invalidConfiguration, .haapiTokenManagerAlreadyExists:
            return nil
        default:
            // The deprecated invalidStatusCode, read without naming it (which would warn here).
            return Mirror(reflecting: self).children.first?.value as? Int
        }
    }

    /// The lower-level error, for the cases that carry one.
    public var cause: (any Error)? {
        switch self {
        case .assertionFailure(let cause), .attestationFailure(let cause), .attestationKeyGenFailure(let cause),
            .attestationRefusedByServer(let cause):
            return cause
        case .dpopKeyCreationFailure(let cause), .dpopProofCreationFailure(let cause): return cause
        case .communication(_, let cause), .invalidURLResponse(_, _, let cause): return cause
        case .dpopProofFailure(_, let cause): return cause
        default: return nil
        }
    }
}

extension HaapiError {
    /// The one mapping of a failure below the driver and the SDK to what they report.
    ///
    /// A ``HaapiError`` stays as it is; a DPoP failure and an unusable answer become their
    /// HaapiErrors; an ``/OAuthCore/OIDCError`` of configuration becomes ``invalidConfiguration(reason:)``
    /// and any other is judged by its cause; a failure below HTTP (``/OAuthCore/HTTPTransportError``, or
    /// any error that is not an ``/OAuthCore/IdsvrError``) becomes ``communication(message:cause:)``, whose
    /// message says "the `what` to `url`'s host failed". Other ``/OAuthCore/IdsvrError``s (a
    /// ``/OAuthCore/StorageError``, an ``/OAuthCore/OAuthErrorResponse``) keep their own recovery.
    package static func wrapping(_ error: any Error, _ what: String, url: URL?) -> any Error {
        switch error {
        case is HaapiError: return error
        case let error as DPoPError: return HaapiError(error)
        case let error as UnexpectedResponseError: return HaapiError(error)
        case let error as TokenEndpointError: return HaapiError(error)
        case let error as OIDCError where error.code == .notSupported || error.code == .invalidConfiguration:
            return HaapiError.invalidConfiguration(reason: error.message)
        case let error as OIDCError: return error.cause.map { wrapping($0, what, url: url) } ?? error
        case is HTTPTransportError, is CancellationError: break
        case is any IdsvrError: return error
        default: break
        }
        return HaapiError.communication(message: "the \(what) to \(url?.host ?? "the server") failed", cause: error)
    }
}

#if canImport(Darwin)
    /// The HTTP response of an ``HaapiError/invalidURLResponse(_:reason:cause:)``: Foundation's
    /// `URLResponse` (an `HTTPURLResponse`) on Apple platforms.
    public typealias PlatformURLResponse = URLResponse
#else
    /// The HTTP response of an ``HaapiError/invalidURLResponse(_:reason:cause:)``: outside Apple
    /// platforms the transport's own ``/OAuthCore/TransportResponse``, which answers as `HTTPURLResponse` does
    /// (`url`, `statusCode`, `allHeaderFields`, `value(forHTTPHeaderField:)`): `URLResponse` is
    /// FoundationNetworking's there, and linking it loads libcurl into every process.
    public typealias PlatformURLResponse = TransportResponse
#endif

extension TransportResponse {
    /// This response as the platform's ``PlatformURLResponse``: an `HTTPURLResponse` on Apple
    /// platforms (header names in canonical case), the response itself elsewhere.
    public var platformURLResponse: PlatformURLResponse {
        #if canImport(Darwin)
            return HTTPURLResponse(url: url, statusCode: status, httpVersion: "HTTP/1.1", headerFields: canonicalHeaderFields)
                ?? URLResponse(url: url, mimeType: mediaType, expectedContentLength: body.count, textEncodingName: nil)
        #else
            return self
        #endif
    }

    /// The status code, as `HTTPURLResponse` names it.
    public var statusCode: Int { status }

    /// The header fields as `HTTPURLResponse` gives them: names in canonical case
    /// (`Content-Type`, `Dpop-Nonce`), repeated fields joined with ", ".
    public var allHeaderFields: [AnyHashable: Any] { canonicalHeaderFields }

    /// The value of a header field, whatever the case of `field`, as `HTTPURLResponse` answers.
    public func value(forHTTPHeaderField field: String) -> String? { headers[field] }

    /// The header fields with names in canonical case, repeated fields joined with ", ".
    public var canonicalHeaderFields: [String: String] {
        var fields: [String: String] = [:]
        for (name, value) in headers.fields {
            let canonical = name.split(separator: "-", omittingEmptySubsequences: false).map {
                $0.prefix(1).uppercased() + $0.dropFirst().lowercased()
            }
            .joined(separator: "-")
            fields[canonical] = fields[canonical].map { "\($0), \(value)" } ?? value
        }
        return fields
    }
}
