/// How a UI presents the options of an authenticator selector (the seeds'
/// `AuthenticatorSelectionPresentation`).
public enum AuthenticatorSelectionPresentation: String, Sendable, Hashable, CaseIterable {
    /// The authenticators as a list to choose from (the default).
    case list
    /// The authenticators as tabs, the selected one's content below them.
    case tabs
}

/// How a UI presents the flow (the seeds' `PresentationMode`).
public enum PresentationMode: String, Sendable, Hashable, CaseIterable {
    /// A modal sheet that slides up from the bottom (the default).
    case modal
    /// Pushed on a navigation stack, sliding in from the right.
    case stack
}
