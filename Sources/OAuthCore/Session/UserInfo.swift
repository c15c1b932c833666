import Foundation

/// The claims of the UserInfo endpoint (OpenID Connect Core §5.3), checked to be about the
/// user the ID token names.
public struct UserInfo: Sendable, Hashable {
    /// `sub`, equal to the ID token's.
    public let subject: String
    /// Every claim as received.
    public let claims: [String: JSONValue]

    /// A claim as a string (`email`, `name`, ...).
    public subscript(string name: String) -> String? { claims[name]?.stringValue }
}
