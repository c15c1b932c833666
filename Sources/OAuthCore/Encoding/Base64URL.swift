import Crypto
import Foundation

/// Base64url encoding without padding (RFC 4648 §5), as JOSE, PKCE and DPoP use it.
package enum Base64URL {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    /// Encodes bytes as base64url text without `=` padding.
    package static func encode<Bytes: DataProtocol>(_ bytes: Bytes) -> String {
        // One pass with a table: DPoP proofs encode three segments per request, so this is hot.
        let input = Array(bytes)
        var output = [UInt8]()
        output.reserveCapacity((input.count * 4 + 2) / 3)
        var index = 0
        while index + 3 <= input.count {
            let chunk = UInt32(input[index]) << 16 | UInt32(input[index + 1]) << 8 | UInt32(input[index + 2])
            output.append(alphabet[Int(chunk >> 18 & 63)])
            output.append(alphabet[Int(chunk >> 12 & 63)])
            output.append(alphabet[Int(chunk >> 6 & 63)])
            output.append(alphabet[Int(chunk & 63)])
            index += 3
        }
        let remaining = input.count - index
        if remaining > 0 {
            let chunk = UInt32(input[index]) << 16 | (remaining == 2 ? UInt32(input[index + 1]) << 8 : 0)
            output.append(alphabet[Int(chunk >> 18 & 63)])
            output.append(alphabet[Int(chunk >> 12 & 63)])
            if remaining == 2 { output.append(alphabet[Int(chunk >> 6 & 63)]) }
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// Encodes a hash digest as base64url text without padding.
    package static func encode<D: Digest>(_ digest: D) -> String {
        encode(Data(digest))
    }

    /// Decodes base64url text, strictly.
    ///
    /// Padding, whitespace and characters of the standard alphabet (`+`, `/`) are refused,
    /// and so is a length that no byte sequence encodes to: JOSE compares these strings
    /// byte for byte, so a lenient decoder would accept tokens other parties reject.
    /// - Returns: the bytes, or `nil` if the text is not canonical base64url.
    package static func decode<S: StringProtocol>(_ text: S) -> Data? {
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
