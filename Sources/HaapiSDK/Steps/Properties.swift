import Foundation
import OAuthCore

/// A step's `properties` (the seeds' `Properties`): ``PollingProperties``,
/// ``OAuthAuthorizationResponseProperties``, or ``GenericProperties`` for the others.
public protocol Properties: Codable, Equatable, Sendable {
    /// The properties as JSON text.
    var rawJsonString: String { get }
}

extension Properties {
    /// The properties as received.
    public var rawJSON: JSONValue { JSONValue(text: rawJsonString) ?? .object([:]) }
}

extension Properties where Self: _RawJSONEncodable {
    /// The properties as JSON text (sorted keys).
    public var rawJsonString: String { rawJSONText }
}

/// Properties with no typed members: read them from ``rawJSON``.
public struct GenericProperties: Properties, Hashable, _RawJSONEncodable {
    /// The properties exactly as received.
    public let rawJSON: JSONValue

    init(rawJSON: JSONValue) { self.rawJSON = rawJSON }
    /// Decodes properties (any JSON object).
    public init(from decoder: any Decoder) throws { rawJSON = try JSONReader(decoding: decoder).raw }
}

/// The `properties` of a polling step (the seeds' `PollingProperties`). The times are text, as
/// on the wire; their `…Seconds` twins are numbers.
public struct PollingProperties: Properties, Hashable, _RawJSONEncodable {
    /// Who was contacted (a phone number, a device name).
    public let recipientOfCommunication: String?
    /// pending, done or failed.
    public let status: PollingStatus
    /// The longest the server will wait, in seconds, as text.
    public let maxWaitTime: String?
    /// How much of it is left, in seconds, as text.
    public let maxWaitRemainingTime: String?
    /// The server's polling interval in milliseconds, as text, when it gives one.
    public let interval: String?
    /// The properties exactly as received.
    public let rawJSON: JSONValue

    /// ``maxWaitTime`` as a number of seconds, when it is one (clamped as
    /// ``/OAuthCore/OutsideNumber/seconds(_:)-(Int)`` says, as are the two below).
    public let maxWaitTimeSeconds: Int?
    /// ``maxWaitRemainingTime`` as a number of seconds, when it is one.
    public let maxWaitRemainingTimeSeconds: Int?
    /// ``interval`` as a number of milliseconds, when it is one.
    public let intervalMilliseconds: Int?

    /// Properties made from values: `members` are the other wire members (numbers in them that
    /// do not read as numbers are left out of the `…Seconds` twins).
    init(status: PollingStatus, recipientOfCommunication: String?, members: [String: JSONValue]) {
        var members = members
        members["status"] = .string(status.rawValue)
        members["recipientOfCommunication"] = recipientOfCommunication.map(JSONValue.string)
        (self.status, self.recipientOfCommunication) = (status, recipientOfCommunication)
        // Values an app made: a member that does not read is absent rather than an error.
        let times = try? Self.times(JSONReader(members: members, path: "properties"), lenient: true)
        (maxWaitTime, maxWaitTimeSeconds, maxWaitRemainingTime, maxWaitRemainingTimeSeconds, interval, intervalMilliseconds) =
            times ?? (nil, nil, nil, nil, nil, nil)
        rawJSON = .object(members)
    }

    init(_ reader: JSONReader) throws {
        let status = try reader.string("status")
        guard let known = PollingStatus(rawValue: status) else {
            throw HaapiModelError(
                .wrongType, path: reader.child("status"), "\"\(status)\" is not a polling status (pending, done or failed)")
        }
        self.status = known
        recipientOfCommunication = try reader.optionalString("recipientOfCommunication")
        (maxWaitTime, maxWaitTimeSeconds, maxWaitRemainingTime, maxWaitRemainingTimeSeconds, interval, intervalMilliseconds) =
            try Self.times(reader, lenient: false)
        rawJSON = reader.raw
    }

    /// The waits and the interval, as text and as numbers; `lenient`, a member that does not
    /// read (a number that is not one) is absent, else it is an error.
    private static func times(
        _ reader: JSONReader, lenient: Bool
    ) throws -> (
        maxWaitTime: String?, maxWaitTimeSeconds: Int?, maxWaitRemainingTime: String?, maxWaitRemainingTimeSeconds: Int?,
        interval: String?, intervalMilliseconds: Int?
    ) {
        func read<T>(_ member: () throws -> T?) throws -> T? { lenient ? ((try? member()) ?? nil) : try member() }
        return (
            try read { try reader.optionalString("maxWaitTime") }, try read { try reader.optionalSeconds("maxWaitTime") },
            try read { try reader.optionalString("maxWaitRemainingTime") }, try read { try reader.optionalSeconds("maxWaitRemainingTime") },
            try read { try reader.optionalString("interval") }, try read { try reader.optionalMilliseconds("interval") }
        )
    }

    /// Decodes a polling step's properties.
    /// - Throws: ``HaapiModelError`` when a member has the wrong type.
    public init(from decoder: any Decoder) throws { try self.init(JSONReader(decoding: decoder)) }
}

/// The values of an authorization response (the seeds' `OAuthAuthorizationResponseProperties`).
public struct OAuthAuthorizationResponseProperties: Properties, Hashable, _RawJSONEncodable {
    /// The authorization code.
    public let code: String?
    /// The ID token.
    public let idToken: String?
    /// The granted scope.
    public let scope: String?
    /// The state sent in the authorization request.
    public let state: String?
    /// Every value of the response, as text.
    public let rawJson: [String: String]
    /// The properties exactly as received.
    public let rawJSON: JSONValue

    /// The issuer (RFC 9207).
    public let iss: String?
    /// Implicit and hybrid flows: the access token.
    public let accessToken: String?
    /// Implicit and hybrid flows: the token type.
    public let tokenType: String?
    /// Implicit and hybrid flows: seconds until the access token expires (number or string on the wire).
    public let expiresIn: Int?
    /// The session state.
    public let sessionState: String?

    /// Properties made from the response's values, as text.
    init(values: [String: String]) {
        (code, state, iss, scope) = (values["code"], values["state"], values["iss"], values["scope"])
        (accessToken, tokenType, idToken, sessionState) = (
            values["access_token"], values["token_type"], values["id_token"], values["session_state"]
        )
        expiresIn = values["expires_in"].flatMap { Int($0) }.map(OutsideNumber.seconds)
        rawJson = values
        rawJSON = .object(values.mapValues(JSONValue.string))
    }

    init(_ reader: JSONReader) throws {
        code = try reader.optionalString("code")
        state = try reader.optionalString("state")
        iss = try reader.optionalString("iss")
        scope = try reader.optionalString("scope")
        accessToken = try reader.optionalString("access_token")
        tokenType = try reader.optionalString("token_type")
        expiresIn = try reader.optionalSeconds("expires_in")
        idToken = try reader.optionalString("id_token")
        sessionState = try reader.optionalString("session_state")
        rawJson = reader.members.compactMapValues { value in
            switch value {
            case .string(let text): return text
            case .integer(let number): return String(number)
            case .bool(let flag): return String(flag)
            default: return nil
            }
        }
        rawJSON = reader.raw
    }

    /// Decodes an authorization response's properties.
    /// - Throws: ``HaapiModelError`` when it is malformed.
    public init(from decoder: any Decoder) throws { try self.init(JSONReader(decoding: decoder)) }
}
