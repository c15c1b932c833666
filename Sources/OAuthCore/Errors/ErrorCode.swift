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
