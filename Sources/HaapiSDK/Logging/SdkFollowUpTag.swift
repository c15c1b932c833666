import OAuthCore

/// The SDK's log tags.
public enum SdkFollowUpTag: String, _LayerFollowUpTag, CaseIterable {
    /// The flow: steps, submissions.
    case flow
    /// HTTP exchanges.
    case http
    /// Mapping responses to models.
    case mapping
    /// OAuth token requests.
    case oAuth

    /// `HAAPI_SDK`.
    public var subsystem: String { "HAAPI_SDK" }
}
