import Crypto
import CryptoExtras
import Foundation
import OAuthCore

/// Stored passwords: PBKDF2-HMAC-SHA512 with a random salt and 210,000 rounds (OWASP's
/// recommendation for that hash), as `pbkdf2-sha512$ROUNDS$SALT$HASH` (base64url). The server
/// keeps no password in clear, and compares in constant time.
enum PasswordHash {
    static let scheme = "pbkdf2-sha512"
    static let rounds = 210_000

    /// A new hash of `password`.
    static func make(_ password: String) -> String {
        var generator = SystemRandomNumberGenerator()
        let salt = (0..<16).map { _ in UInt8.random(in: 0...255, using: &generator) }
        return "\(scheme)$\(rounds)$\(Base64URL.encode(salt))$\(Base64URL.encode(derive(password, salt: salt, rounds: rounds)))"
    }

    /// Whether `password` is the one `stored` was made from.
    static func verify(_ password: String, against stored: String) -> Bool {
        let parts = stored.split(separator: "$", omittingEmptySubsequences: false)
        guard parts.count == 4, parts[0] == scheme, let rounds = Int(parts[1]), rounds >= 210_000, rounds <= 10_000_000,
            let salt = Base64URL.decode(parts[2]), let expected = Base64URL.decode(parts[3])
        else { return false }
        return Credentials.constantTimeEqual(derive(password, salt: Array(salt), rounds: rounds), Array(expected))
    }

    /// A hash no password matches, compared against for unknown users (same cost, same answer).
    static let decoy = make(SeedData.randomToken(24))

    private static func derive(_ password: String, salt: [UInt8], rounds: Int) -> [UInt8] {
        // The rounds are checked above and the output size is fixed: this cannot throw.
        let key = try! KDF.Insecure.PBKDF2.deriveKey(from: Array(password.utf8), salt: salt, using: .sha512, outputByteCount: 32, rounds: rounds)
        return key.withUnsafeBytes { Array($0) }
    }
}
