import Crypto
import Foundation

/// A PKCE pair (RFC 7636): the secret `code_verifier` and its S256 `code_challenge`.
public struct PKCE: Sendable, Hashable {
    /// The `code_verifier`: 43 to 128 characters of `[A-Za-z0-9-._~]`. Secret.
    public let verifier: String
    /// The `code_challenge`: base64url(SHA-256(verifier)).
    public let challenge: String
    /// The `code_challenge_method`: always `S256` (`plain` is never used).
    public let method = "S256"

    /// A new pair from 32 random bytes (a 43-character verifier).
    public init() {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) }
        self.verifier = Base64URL.encode(bytes)
        self.challenge = Self.challenge(for: verifier)
    }

    /// The pair for an existing verifier.
    /// - Throws: ``PKCEError`` when the verifier's length or characters break RFC 7636 §4.1.
    public init(verifier: String) throws {
        guard (43...128).contains(verifier.utf8.count) else {
            throw PKCEError(message: "a code_verifier has 43 to 128 characters, this has \(verifier.utf8.count)")
        }
        let allowed = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~".utf8)
        guard verifier.utf8.allSatisfy(allowed.contains) else {
            throw PKCEError(message: "a code_verifier may only hold A-Z a-z 0-9 - . _ ~")
        }
        self.verifier = verifier
        self.challenge = Self.challenge(for: verifier)
    }

    /// base64url(SHA-256(ASCII(verifier))).
    public static func challenge(for verifier: String) -> String {
        Base64URL.encode(SHA256.hash(data: Data(verifier.utf8)))
    }
}

/// A `code_verifier` that RFC 7636 does not allow.
public struct PKCEError: IdsvrError, Hashable {
    /// What is wrong with the verifier.
    public let message: String
    /// Always `invalid_code_verifier`.
    public var error: String { "invalid_code_verifier" }
    /// What is wrong with the verifier (``message``).
    public var errorDescription: String? { message }
    /// The same for every verifier: it does not follow RFC 7636 §4.1 (43 to 128 unreserved characters).
    public var failureReason: String { "The PKCE code_verifier does not follow RFC 7636 section 4.1." }
    /// Nothing to retry: the code that made the verifier must change.
    public var recoverySuggestion: IdsvrErrorHandling { .unrecoverable(action: .introspectCause) }
}
