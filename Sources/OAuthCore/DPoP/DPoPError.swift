/// A DPoP failure: no key, no proof, or a server that keeps refusing proofs.
public struct DPoPError: CodedError, Hashable {
    /// The kind of failure.
    public let code: Code
    /// What happened.
    public let message: String
    /// The HTTP status of the last response, for nonce failures.
    public let statusCode: Int?
    /// The underlying error, described.
    public let underlying: String?

    /// Makes an error.
    public init(_ code: Code, _ message: String, statusCode: Int? = nil, underlying: (any Error)? = nil) {
        self.code = code
        self.message = message
        self.statusCode = statusCode
        self.underlying = underlying.map { String(describing: $0) }
    }

    /// The underlying error, described, when there is one; otherwise the message.
    public var failureReason: String { underlying ?? message }

    /// Another platform when no key can be made; a retry in the foreground for a proof (the key may be
    /// locked); a retry now otherwise.
    public var recoverySuggestion: IdsvrErrorHandling {
        switch code {
        case .keyCreationFailed: return .unrecoverable(action: .invalidPlatform)
        case .proofCreationFailed: return .retryable(condition: .whenAppInForeground)
        default: return .retryable(condition: .now)
        }
    }
}

extension ErrorCode where Domain == DPoPError {
    /// The key pair could not be created (or the key type is not available on this platform).
    public static var keyCreationFailed: Self { Self("dpop_key_creation_failed") }
    /// A proof could not be made (the key refused to sign).
    public static var proofCreationFailed: Self { Self("dpop_proof_creation_failed") }
    /// The server asked for a new nonce again after the one retry, or without sending one.
    public static var nonceRetryExhausted: Self { Self("dpop_nonce_retry_exhausted") }
}
