import Foundation

/// The log tags of the browser-based client, to switch on in ``HaapiLogger/followUpTags``
/// next to the other layers' (`DriverFollowUpTag.allCases + OIDCFollowUpTag.allCases`).
public enum OIDCFollowUpTag: String, _LayerFollowUpTag, CaseIterable {
    /// Login, refresh, logout: what the client decided and why.
    case flow
    /// A ``TokenSession``'s refreshes, waits for other processes, revocations and storage.
    case session

    /// `OIDC_CLIENT`.
    public var subsystem: String { "OIDC_CLIENT" }
}
