/// A log category that ``HaapiLogger/followUpTags`` can switch on, such as `HAAPI_DRIVER_HTTP`.
///
/// Each layer has its own tags: ``DriverFollowUpTag`` here (OAuthCore and HaapiDriver together
/// form what the seeds call the driver), `SdkFollowUpTag` in HaapiSDK, `UIFollowUpTag` in HaapiUI.
public protocol FollowUpTag: Sendable {
    /// The tag's name, as printed: `HAAPI_DRIVER_HTTP`.
    var name: String { get }
}

/// The tags of the driver: HTTP exchanges, storage, attestation and the token flow.
public enum DriverFollowUpTag: String, FollowUpTag, CaseIterable {
    /// The driver's flow: HAAPI access tokens, DPoP, client authentication.
    case flow = "HAAPI_DRIVER_FLOW"
    /// Storage reads and writes.
    case storage = "HAAPI_DRIVER_STORAGE"
    /// HTTP requests and responses.
    case http = "HAAPI_DRIVER_HTTP"
    /// Client attestation.
    case attestation = "HAAPI_DRIVER_ATTESTATION"

    public var name: String { rawValue }
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
