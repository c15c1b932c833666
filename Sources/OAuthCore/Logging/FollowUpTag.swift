/// A log category that ``HaapiLogger/followUpTags`` can switch on, such as `HAAPI_DRIVER_HTTP`
/// (Curity's `FollowUpTag`).
///
/// Each layer has its own tags: ``DriverFollowUpTag`` here (OAuthCore and HaapiDriver together
/// form what the seeds call the driver), `SdkFollowUpTag` in HaapiSDK, `UIKitFollowUpTag` in HaapiUI.
public protocol FollowUpTag: Sendable {
    /// The layer the tag belongs to, the prefix of its name: `HAAPI_DRIVER`, `HAAPI_SDK`, `HAAPI_UI`.
    var subsystem: String { get }
    /// The tag's name, as printed: `HAAPI_DRIVER_HTTP`. Two tags of one name are one tag.
    var tagName: String { get }
}

extension FollowUpTag where Self: RawRepresentable, RawValue == String {
    /// The raw value: an app's own tags are named by it.
    public var tagName: String { rawValue }
}

/// Not API: a tag of one of the package's layers, named by the package's one rule for them:
/// the subsystem, an underscore and the case's name in capitals (`HAAPI_DRIVER` and `http`
/// make `HAAPI_DRIVER_HTTP`).
public protocol _LayerFollowUpTag: FollowUpTag, RawRepresentable<String> {}

extension _LayerFollowUpTag {
    /// The subsystem, an underscore and the case's name in capitals: `HAAPI_DRIVER_HTTP`.
    public var tagName: String { "\(subsystem)_\(rawValue.uppercased())" }
}

/// The tags of the driver: HTTP exchanges, storage, attestation and the token flow.
public enum DriverFollowUpTag: String, _LayerFollowUpTag, CaseIterable {
    /// The driver's flow: HAAPI access tokens, DPoP, client authentication.
    case flow
    /// Storage reads and writes.
    case storage
    /// HTTP requests and responses.
    case http
    /// Client attestation.
    case attestation

    /// `HAAPI_DRIVER`.
    public var subsystem: String { "HAAPI_DRIVER" }
}

/// Joins tag lists of different layers, so that
/// `HaapiLogger.followUpTags = DriverFollowUpTag.allCases + SdkFollowUpTag.allCases` reads as in the seeds.
public func + <A: FollowUpTag, B: FollowUpTag>(lhs: [A], rhs: [B]) -> [any FollowUpTag] {
    lhs.map { $0 as any FollowUpTag } + rhs.map { $0 as any FollowUpTag }
}

/// Appends another layer's tags to a mixed list.
public func + <B: FollowUpTag>(lhs: [any FollowUpTag], rhs: [B]) -> [any FollowUpTag] {
    lhs + rhs.map { $0 as any FollowUpTag }
}
