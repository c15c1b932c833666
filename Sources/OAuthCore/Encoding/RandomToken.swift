/// Unguessable single-use values (`state`, `nonce`, challenges): random bytes from the system's
/// secure generator, base64url.
package enum RandomToken {
    /// `bytes` random bytes (default 32, 256 bits), base64url without padding.
    package static func make(bytes: Int = 32) -> String {
        var generator = SystemRandomNumberGenerator()
        return Base64URL.encode((0..<bytes).map { _ in UInt8.random(in: 0...255, using: &generator) })
    }
}
