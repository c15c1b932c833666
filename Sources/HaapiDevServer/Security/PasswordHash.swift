import Crypto
import CryptoExtras
import Foundation
import OAuthCore

/// How the server hashes stored passwords: PBKDF2-HMAC-SHA512 with a random salt, this many
/// rounds. ``standard`` is the default; ``insecureForBenchmarks`` exists so that a benchmark of
/// the client stack does not measure the server's key derivation, and is refused off loopback.
public struct PasswordHashing: Sendable, Hashable {
    /// PBKDF2 rounds per hash.
    public let rounds: Int

    /// 210,000 rounds: OWASP's recommendation for PBKDF2-HMAC-SHA512.
    public static let standard = PasswordHashing(rounds: 210_000)
    /// One round: a password costs nothing to guess. For measuring clients only.
    public static let insecureForBenchmarks = PasswordHashing(rounds: 1)

    /// Whether this is weaker than ``standard``.
    public var isInsecure: Bool { rounds < Self.standard.rounds }
}

/// Stored passwords, as `pbkdf2-sha512$ROUNDS$SALT$HASH` (base64url). The server keeps no
/// password in clear, and compares in constant time.
enum PasswordHash {
    static let scheme = "pbkdf2-sha512"
    /// The most rounds a stored hash may ask for: past them it matches nothing (a damaged or
    /// planted hash cannot make one check run for hours).
    static let maximumRounds = 10_000_000

    /// A new hash of `password`.
    static func make(_ password: String, hashing: PasswordHashing = .standard) -> String {
        let salt = randomBytes(16)
        let rounds = hashing.rounds
        return "\(scheme)$\(rounds)$\(Base64URL.encode(salt))$\(Base64URL.encode(derive(password, salt: salt, rounds: rounds)))"
    }

    /// Whether `password` is the one `stored` was made from, by a hash at least as strong as
    /// `hashing` asks: a weaker stored hash matches nothing.
    static func verify(_ password: String, against stored: String, hashing: PasswordHashing = .standard) -> Bool {
        guard let rounds = rounds(of: stored), rounds >= max(1, hashing.rounds), rounds <= maximumRounds else { return false }
        let parts = stored.split(separator: "$", omittingEmptySubsequences: false)
        guard let salt = Base64URL.decode(parts[2]), let expected = Base64URL.decode(parts[3]) else { return false }
        return Credentials.constantTimeEqual(derive(password, salt: Array(salt), rounds: rounds), Array(expected))
    }

    /// The rounds of a stored hash, or `nil` when it is not one of ours.
    static func rounds(of stored: String) -> Int? {
        let parts = stored.split(separator: "$", omittingEmptySubsequences: false)
        guard parts.count == 4, parts[0] == scheme else { return nil }
        return Int(parts[1])
    }

    /// A hash no password matches that costs `rounds` to check: compared against for unknown
    /// users (same cost, same answer). Its digest is random bytes, as likely to match as a
    /// guess of a 256-bit key: making it costs nothing, checking it what a stored hash does.
    static func decoy(rounds: Int) -> String {
        "\(scheme)$\(rounds)$\(Base64URL.encode(randomBytes(16)))$\(Base64URL.encode(randomBytes(32)))"
    }

    private static func randomBytes(_ count: Int) -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }
    }

    private static func derive(_ password: String, salt: [UInt8], rounds: Int) -> [UInt8] {
        // The rounds are at least one (checked by the callers: 210,000 unless a benchmark asked
        // for fewer) and the output size is fixed: this cannot throw.
        let key = try! KDF.Insecure.PBKDF2.deriveKey(
            from: Array(password.utf8), salt: salt, using: .sha512, outputByteCount: 32, unsafeUncheckedRounds: rounds)
        return key.withUnsafeBytes { Array($0) }
    }
}
