/// A stable, extensible error code of one error type (`Domain`), such as `invalid_signature`.
///
/// Error types are structs around a code rather than enums so that new codes can be added
/// without breaking callers; each type lists its codes as static members of `ErrorCode<Itself>`.
public struct ErrorCode<Domain>: Hashable, Sendable, CustomStringConvertible {
    /// The code's text.
    public let rawValue: String

    /// Makes a code from its text.
    public init(_ rawValue: String) { self.rawValue = rawValue }

    /// The code's text.
    public var description: String { rawValue }
}

/// An ``IdsvrError`` made of a code of its own and a message: the shape of this package's own
/// error types (``JOSEError``, ``DPoPError``, ``HTTPTransportError``, ``OIDCError``, ...).
///
/// It gives each of them, once, its ``Code`` type, its ``IdsvrError/error`` (the code's text) and,
/// unless the type says more, its ``IdsvrError/errorDescription`` (the message).
public protocol CodedError: IdsvrError {
    /// The reason, as a stable code.
    var code: ErrorCode<Self> { get }
    /// What happened, in one line.
    var message: String { get }
}

extension CodedError {
    /// The error type's codes.
    public typealias Code = ErrorCode<Self>

    /// The code's text, such as `invalid_signature`.
    public var error: String { code.rawValue }
    /// What happened (``message``).
    public var errorDescription: String? { message }
}
