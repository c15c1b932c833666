import Crypto
import Foundation
import OAuthCore

/// Why a WebAuthn credential was refused.
struct WebAuthnRefusal: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// The checks of a relying party (WebAuthn Level 2, §7.1 registration and §7.2 authentication)
/// for what this server accepts: attestation `none` and ES256 keys (what passkeys and software
/// authenticators make). Every byte comes from the client and is treated as hostile.
struct WebAuthnVerifier {
    /// The relying party id (this server's host).
    let relyingPartyID: String
    /// The origins whose client data is accepted.
    let origins: Set<String>

    /// A registered credential.
    struct Registered {
        let credentialID: Data
        let publicKey: P256.Signing.PublicKey
        let signCount: UInt32
    }

    /// Checks a registration (`credential`: WebAuthn's JSON form) made for `challenge`.
    func register(_ credential: String, challenge: Data) throws -> Registered {
        let (json, response) = try Self.parse(credential)
        let clientData = try clientData(response, type: "webauthn.create", challenge: challenge)
        _ = clientData
        guard let attestation = response["attestationObject"]?.stringValue.flatMap(Base64URL.decode) else {
            throw WebAuthnRefusal("the registration has no attestationObject")
        }
        guard case .map(let object) = try CBORReader.decode(attestation) else {
            throw WebAuthnRefusal("the attestation object is not a CBOR map")
        }
        guard case .text("none")? = object.value(for: "fmt") else { throw WebAuthnRefusal("only attestation \"none\" is accepted") }
        guard case .bytes(let authenticatorData)? = object.value(for: "authData") else {
            throw WebAuthnRefusal("the attestation object has no authData")
        }
        let data = try AuthenticatorData(authenticatorData, relyingPartyID: relyingPartyID)
        guard let attested = data.attestedCredential else { throw WebAuthnRefusal("the authenticator data has no attested credential") }
        guard let id = json["id"]?.stringValue.flatMap(Base64URL.decode), id == attested.id else {
            throw WebAuthnRefusal("the credential id does not match the attested one")
        }
        return Registered(credentialID: attested.id, publicKey: try Self.es256Key(attested.publicKey), signCount: data.signCount)
    }

    /// Checks an assertion made for `challenge` by a credential whose key is `publicKey`;
    /// returns its signature counter.
    func assert(_ credential: String, challenge: Data, publicKey: P256.Signing.PublicKey, storedSignCount: UInt32) throws -> UInt32 {
        let (_, response) = try Self.parse(credential)
        let clientDataJSON = try clientData(response, type: "webauthn.get", challenge: challenge)
        guard let authenticatorData = response["authenticatorData"]?.stringValue.flatMap(Base64URL.decode),
            let signatureDER = response["signature"]?.stringValue.flatMap(Base64URL.decode)
        else { throw WebAuthnRefusal("the assertion lacks authenticatorData or signature") }
        let data = try AuthenticatorData(authenticatorData, relyingPartyID: relyingPartyID)
        let signature: P256.Signing.ECDSASignature
        do { signature = try P256.Signing.ECDSASignature(derRepresentation: signatureDER) } catch {
            throw WebAuthnRefusal("the signature is not a DER ECDSA signature")
        }
        guard publicKey.isValidSignature(signature, for: authenticatorData + Data(SHA256.hash(data: clientDataJSON))) else {
            throw WebAuthnRefusal("the signature does not verify")
        }
        // A counter that does not grow means a cloned authenticator (both zero: it keeps none).
        if data.signCount != 0 || storedSignCount != 0, data.signCount <= storedSignCount {
            throw WebAuthnRefusal("the signature counter went back (\(data.signCount) after \(storedSignCount))")
        }
        return data.signCount
    }

    // MARK: Pieces

    private static func parse(_ credential: String) throws -> ([String: JSONValue], [String: JSONValue]) {
        guard let json = (try? JSONValue(parsing: Data(credential.utf8)))?.objectValue else {
            throw WebAuthnRefusal("the credential is not a JSON object")
        }
        guard json["type"]?.stringValue == "public-key", let response = json["response"]?.objectValue else {
            throw WebAuthnRefusal("the credential is not a public-key credential with a response")
        }
        return (json, response)
    }

    /// The client data's bytes, once its type, challenge and origin are right.
    private func clientData(_ response: [String: JSONValue], type: String, challenge: Data) throws -> Data {
        guard let bytes = response["clientDataJSON"]?.stringValue.flatMap(Base64URL.decode),
            let clientData = (try? JSONValue(parsing: bytes))?.objectValue
        else { throw WebAuthnRefusal("the clientDataJSON is missing or not JSON") }
        guard clientData["type"]?.stringValue == type else { throw WebAuthnRefusal("the client data is not of type \(type)") }
        guard let sent = clientData["challenge"]?.stringValue.flatMap(Base64URL.decode), sent == challenge else {
            throw WebAuthnRefusal("the client data's challenge is not the one this flow sent")
        }
        guard let origin = clientData["origin"]?.stringValue, origins.contains(origin) else {
            throw WebAuthnRefusal("the origin \(clientData["origin"]?.stringValue ?? "(none)") is not this server's")
        }
        return bytes
    }

    /// A COSE EC2 P-256 ES256 key (kty 2, alg -7, crv 1, x, y).
    private static func es256Key(_ cose: CBORValue) throws -> P256.Signing.PublicKey {
        guard case .map(let key) = cose, key.value(for: 1) == .unsigned(2), key.value(for: 3) == .negative(-7),
            key.value(for: -1) == .unsigned(1),
            case .bytes(let x)? = key.value(for: -2), case .bytes(let y)? = key.value(for: -3), x.count == 32, y.count == 32
        else { throw WebAuthnRefusal("only ES256 (COSE EC2, P-256) keys are accepted") }
        do { return try P256.Signing.PublicKey(x963Representation: Data([0x04]) + x + y) } catch {
            throw WebAuthnRefusal("the key is not a point on P-256")
        }
    }
}

/// WebAuthn's authenticator data (§6.1): the relying party's hash, flags, counter, and at
/// registration the attested credential.
struct AuthenticatorData {
    let signCount: UInt32
    let attestedCredential: (id: Data, publicKey: CBORValue)?

    init(_ bytes: Data, relyingPartyID: String) throws {
        let data = [UInt8](bytes)
        guard data.count >= 37 else { throw WebAuthnRefusal("the authenticator data is too short") }
        guard Data(data[0..<32]) == Data(SHA256.hash(data: Data(relyingPartyID.utf8))) else {
            throw WebAuthnRefusal("the authenticator data is for another relying party")
        }
        let flags = data[32]
        guard flags & 0x01 != 0 else { throw WebAuthnRefusal("the user was not present") }
        signCount = data[33..<37].reduce(0) { $0 << 8 | UInt32($1) }
        guard flags & 0x40 != 0 else {
            attestedCredential = nil
            return
        }
        // aaguid (16), id length (2), id, then the COSE key (CBOR; extensions may follow).
        guard data.count >= 55 else { throw WebAuthnRefusal("the attested credential data is too short") }
        let length = Int(data[53]) << 8 | Int(data[54])
        guard length > 0, length <= 1023, data.count >= 55 + length else { throw WebAuthnRefusal("the credential id's length is wrong") }
        let id = Data(data[55..<(55 + length)])
        var reader = CBORReader(Data(data[(55 + length)...]))
        attestedCredential = (id, try reader.value())
    }
}

/// A CBOR value (RFC 8949) of the kinds WebAuthn uses.
indirect enum CBORValue: Equatable {
    case unsigned(UInt64)
    case negative(Int64)
    case bytes(Data)
    case text(String)
    case array([CBORValue])
    case map([(CBORValue, CBORValue)])
    case simple(UInt8)

    static func == (lhs: CBORValue, rhs: CBORValue) -> Bool {
        switch (lhs, rhs) {
        case (.unsigned(let a), .unsigned(let b)): return a == b
        case (.negative(let a), .negative(let b)): return a == b
        case (.bytes(let a), .bytes(let b)): return a == b
        case (.text(let a), .text(let b)): return a == b
        case (.array(let a), .array(let b)): return a == b
        case (.map(let a), .map(let b)): return a.count == b.count && zip(a, b).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        case (.simple(let a), .simple(let b)): return a == b
        default: return false
        }
    }
}

extension [(CBORValue, CBORValue)] {
    func value(for key: String) -> CBORValue? { first { $0.0 == .text(key) }?.1 }
    func value(for key: Int) -> CBORValue? { first { $0.0 == (key >= 0 ? .unsigned(UInt64(key)) : .negative(Int64(key))) }?.1 }
}

/// A strict CBOR reader: definite lengths only, no tags or floats, bounded depth and sizes.
struct CBORReader {
    private let bytes: [UInt8]
    private var index = 0

    init(_ data: Data) { bytes = [UInt8](data) }

    /// The one value `data` holds (nothing may follow it).
    static func decode(_ data: Data) throws -> CBORValue {
        var reader = CBORReader(data)
        let value = try reader.value()
        guard reader.index == reader.bytes.count else { throw WebAuthnRefusal("bytes follow the CBOR value") }
        return value
    }

    mutating func value(depth: Int = 0) throws -> CBORValue {
        guard depth < 16 else { throw WebAuthnRefusal("the CBOR value nests too deeply") }
        let head = try byte()
        let major = head >> 5
        let argument = try self.argument(head & 0x1F)
        switch major {
        case 0: return .unsigned(argument)
        case 1:
            guard argument < UInt64(Int64.max) else { throw WebAuthnRefusal("a CBOR negative integer is too large") }
            return .negative(-1 - Int64(argument))
        case 2: return .bytes(Data(try take(argument)))
        case 3:
            guard let text = String(bytes: try take(argument), encoding: .utf8) else { throw WebAuthnRefusal("a CBOR text is not UTF-8") }
            return .text(text)
        case 4:
            guard argument <= 1024 else { throw WebAuthnRefusal("a CBOR array is too long") }
            return .array(try (0..<argument).map { _ in try value(depth: depth + 1) })
        case 5:
            guard argument <= 1024 else { throw WebAuthnRefusal("a CBOR map is too long") }
            return .map(try (0..<argument).map { _ in (try value(depth: depth + 1), try value(depth: depth + 1)) })
        case 7:
            // false, true, null and undefined sit in the head; floats and extended simple values are refused.
            guard head & 0x1F < 24 else { throw WebAuthnRefusal("CBOR floats are not accepted here") }
            return .simple(UInt8(argument))
        default:
            throw WebAuthnRefusal("CBOR tags are not accepted here")
        }
    }

    private mutating func argument(_ info: UInt8) throws -> UInt64 {
        switch info {
        case 0..<24: return UInt64(info)
        case 24: return UInt64(try byte())
        case 25: return try take(2).reduce(0) { $0 << 8 | UInt64($1) }
        case 26: return try take(4).reduce(0) { $0 << 8 | UInt64($1) }
        case 27: return try take(8).reduce(0) { $0 << 8 | UInt64($1) }
        default: throw WebAuthnRefusal("indefinite or reserved CBOR lengths are not accepted")
        }
    }

    private mutating func byte() throws -> UInt8 {
        guard let byte = try take(1).first else { throw WebAuthnRefusal("the CBOR value is cut short") }
        return byte
    }

    private mutating func take(_ count: UInt64) throws -> ArraySlice<UInt8> {
        guard count <= UInt64(bytes.count - index) else { throw WebAuthnRefusal("the CBOR value is cut short") }
        defer { index += Int(count) }
        return bytes[index..<(index + Int(count))]
    }
}
