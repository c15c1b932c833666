import Foundation

/// The few DER (X.690) forms this package reads and writes: RSA keys (PKCS #1 and #8) and the
/// public key of a pinned certificate. Reading refuses what DER does not allow, with ``DER/Error``.
enum DER {
    /// The bytes are not the DER that was expected; `reason` says how.
    struct Error: Swift.Error, CustomStringConvertible {
        let reason: String
        var description: String { reason }
    }

    enum Tag: UInt8 {
        case integer = 0x02, octetString = 0x04, null = 0x05, objectIdentifier = 0x06, sequence = 0x30
    }

    static func sequence(_ members: [Data]) -> Data { element(.sequence, members.reduce(Data(), +)) }

    /// An INTEGER holding the unsigned big-endian `bytes`: leading zeros dropped, and one zero
    /// byte added where the top bit would make it negative.
    static func integer(_ bytes: Data) -> Data {
        var content = Data(bytes.drop { $0 == 0 })
        if content.isEmpty || content.first! & 0x80 != 0 { content.insert(0, at: 0) }
        return element(.integer, content)
    }

    static func element(_ tag: Tag, _ content: Data) -> Data {
        var out = Data([tag.rawValue])
        if content.count < 0x80 {
            out.append(UInt8(content.count))
        } else {
            let length = withUnsafeBytes(of: UInt32(content.count).bigEndian) { Data($0).drop { $0 == 0 } }
            out.append(0x80 | UInt8(length.count))
            out.append(contentsOf: length)
        }
        return out + content
    }

    /// Reads definite-length elements one after the other.
    struct Reader {
        private var bytes: Data.SubSequence

        init(_ bytes: Data) { self.bytes = bytes[...] }

        var isAtEnd: Bool { bytes.isEmpty }

        /// The next element, whatever its tag: the tag, its content, and the whole element as encoded.
        mutating func readElement() throws -> (tag: UInt8, content: Data, encoded: Data) {
            let start = bytes
            guard bytes.count >= 2, let tag = bytes.first else { throw Error(reason: "it ends too early") }
            let first = bytes[bytes.index(after: bytes.startIndex)]
            bytes = bytes.dropFirst(2)
            var length = Int(first)
            if first >= 0x80 {
                let count = Int(first & 0x7F)
                guard (1...4).contains(count), bytes.count >= count, bytes.first != 0 else {
                    throw Error(reason: "it has an invalid length")
                }
                length = bytes.prefix(count).reduce(0) { $0 << 8 | Int($1) }
                bytes = bytes.dropFirst(count)
                guard length >= 0x80 else { throw Error(reason: "it has a length DER does not allow") }
            }
            guard bytes.count >= length else { throw Error(reason: "it ends too early") }
            let content = Data(bytes.prefix(length))
            bytes = bytes.dropFirst(length)
            return (tag, content, Data(start.prefix(start.count - bytes.count)))
        }

        /// The content of the next element, which must have `tag`.
        mutating func read(_ tag: Tag) throws -> Data {
            let element = try readElement()
            guard element.tag == tag.rawValue else { throw Error(reason: "it has an unexpected element") }
            return element.content
        }

        /// A non-negative INTEGER as unsigned big-endian bytes without leading zeros.
        mutating func readInteger() throws -> Data {
            let content = try read(.integer)
            guard let first = content.first, first & 0x80 == 0 else { throw Error(reason: "it has an empty or negative integer") }
            let digits = Data(content.drop { $0 == 0 })
            return digits.isEmpty ? Data([0]) : digits
        }
    }
}

extension DER {
    /// rsaEncryption, 1.2.840.113549.1.1.1 (RFC 8017 appendix A.1): an OBJECT IDENTIFIER's content.
    static let rsaEncryption = Data([0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x01, 0x01])
    /// id-Ed25519, 1.3.101.112 (RFC 8410 §3).
    static let ed25519 = Data([0x2B, 0x65, 0x70])

    /// The `privateKey` of a PKCS #8 `PrivateKeyInfo` (RFC 5208 §5, RFC 5958 §2) whose algorithm
    /// is `algorithm`; `name` names it in the error for a key of another algorithm.
    static func pkcs8PrivateKey(_ der: Data, algorithm: Data, named name: String) throws -> Data {
        // PrivateKeyInfo ::= SEQUENCE { version, AlgorithmIdentifier, OCTET STRING privateKey, ... }
        var outer = Reader(der)
        var info = Reader(try outer.read(.sequence))
        _ = try info.readInteger()
        var identifier = Reader(try info.read(.sequence))
        guard try identifier.read(.objectIdentifier) == algorithm else { throw Error(reason: "it is not an \(name) key") }
        guard outer.isAtEnd else { throw Error(reason: "it has trailing bytes") }
        return try info.read(.octetString)
    }
}
