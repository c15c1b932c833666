import Crypto
import Foundation

/// Base64url encoding without padding (RFC 4648 §5), as JOSE, PKCE and DPoP use it.
public enum Base64URL {
    /// Encodes bytes as base64url text without `=` padding.
    public static func encode<Bytes: DataProtocol>(_ bytes: Bytes) -> String {
        var text = Data(bytes).base64EncodedString()
        text = text.replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
        while text.last == "=" { text.removeLast() }
        return text
    }

    /// Encodes a hash digest as base64url text without padding.
    public static func encode<D: Digest>(_ digest: D) -> String {
        encode(Data(digest))
    }

    /// Decodes base64url text, strictly.
    ///
    /// Padding, whitespace and characters of the standard alphabet (`+`, `/`) are refused,
    /// and so is a length that no byte sequence encodes to: JOSE compares these strings
    /// byte for byte, so a lenient decoder would accept tokens other parties reject.
    /// - Returns: the bytes, or `nil` if the text is not canonical base64url.
    public static func decode<S: StringProtocol>(_ text: S) -> Data? {
        var standard = ""
        standard.reserveCapacity(text.utf8.count + 3)
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"):
                standard.unicodeScalars.append(Unicode.Scalar(byte))
            case UInt8(ascii: "-"): standard.append("+")
            case UInt8(ascii: "_"): standard.append("/")
            default: return nil
            }
        }
        switch standard.utf8.count % 4 {
        case 1: return nil
        case 2: standard += "=="
        case 3: standard += "="
        default: break
        }
        return Data(base64Encoded: standard)
    }
}
