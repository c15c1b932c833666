import Foundation

/// How long a parameter of a form or a query may be, in UTF-8 bytes, by the kind of value it
/// holds. A request with a longer one is refused before anything reads it: a user name of tens
/// of kilobytes would otherwise be stored, looked up, hashed and sent back in every step.
enum InputBounds {
    /// Names a person types or an app names itself by (a user name, a full name, an e-mail
    /// address, a phone or personal number, a client id): 256 bytes, past the 254 an e-mail
    /// address may have (RFC 5321 §4.5.3.1.3).
    static let name = 256
    /// A WebAuthn credential (JSON with the attestation object or the assertion): 16 KiB, room
    /// for an authenticator's certificate chain.
    static let credential = 16 * 1024
    /// Any other value (a password, a code, a nonce, a redirect URI, a state): 4 KiB.
    static let other = 4 * 1024
    /// A parameter's own name: 256 bytes.
    static let parameterName = 256

    /// The parameters that hold names (``name``).
    static let names: Set<String> = ["userName", "name", "email", "phone", "personalnumber", "client_id"]

    /// The bound of the parameter named `parameter`.
    static func bound(of parameter: String) -> Int {
        if names.contains(parameter) { return name }
        return parameter == "credential" ? credential : other
    }

    /// One parameter past its bound: its name (`nil` when the name itself is too long, so it is
    /// not repeated back), and the bound.
    struct TooLong: Equatable, Sendable, CustomStringConvertible {
        let name: String?
        let bound: Int

        /// What an OAuth error description says of it.
        var description: String { "\(name ?? "a parameter's name") is longer than \(bound) bytes" }
    }

    /// The parameters of `parameters` past their bounds, by name (those with too long a name last).
    static func tooLong(_ parameters: [String: String]) -> [TooLong] {
        var found: [TooLong] = []
        var longNames = false
        for (name, value) in parameters {
            if name.utf8.count > parameterName {
                longNames = true
            } else if value.utf8.count > bound(of: name) {
                found.append(TooLong(name: name, bound: bound(of: name)))
            }
        }
        found.sort { ($0.name ?? "") < ($1.name ?? "") }
        return longNames ? found + [TooLong(name: nil, bound: parameterName)] : found
    }
}
