import Foundation

/// The log tags of the browser-based client, to switch on in ``HaapiLogger/followUpTags``
/// next to the other layers' (`DriverFollowUpTag.allCases + OIDCFollowUpTag.allCases`).
public enum OIDCFollowUpTag: String, FollowUpTag, CaseIterable {
    /// Login, refresh, logout: what the client decided and why.
    case flow = "OIDC_CLIENT_FLOW"
    /// A ``TokenSession``'s refreshes, waits for other processes, revocations and storage.
    case session = "OIDC_CLIENT_SESSION"

    /// `OIDC_CLIENT`.
    public var subsystem: String { "OIDC_CLIENT" }
}
