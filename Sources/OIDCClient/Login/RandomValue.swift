import OAuthCore

/// Unguessable one-time values (`state`, `nonce`): 256 random bits, base64url.
enum RandomValue {
    static func make() -> String {
        var generator = SystemRandomNumberGenerator()
        return Base64URL.encode((0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) })
    }
}
