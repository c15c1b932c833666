import OAuthCore

/// The UI layer's log tags (the seeds' `UIKitFollowUpTag`).
public enum UIKitFollowUpTag: String, _LayerFollowUpTag, CaseIterable {
    /// Data the UI holds.
    case data
    /// Components.
    case component
    /// Theming.
    case theming
    /// The flow: steps shown, actions taken, the end.
    case flow
    /// SwiftUI.
    case swiftUI
    /// Mapping steps to UI models.
    case mapping
    /// Layout.
    case layout

    /// `HAAPI_UI`.
    public var subsystem: String { "HAAPI_UI" }
}
