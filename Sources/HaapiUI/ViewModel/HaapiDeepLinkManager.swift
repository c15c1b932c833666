import Foundation

/// Something that can take an incoming URL back into its flow (the seeds' `HaapiFlowDeepLinkable`):
/// a ``HaapiFlowViewModel`` waiting for an external browser or app to come back.
@MainActor public protocol HaapiFlowDeepLinkable: AnyObject {
    /// Whether `url` is the return the flow waits for.
    func canHandleUrl(_ url: URL) -> Bool
    /// Takes `url` back into the flow.
    func handleUrl(_ url: URL) async
}

/// Where the running flow registers for incoming URLs (the seeds' `HaapiDeepLinkManageable`).
@MainActor public protocol HaapiDeepLinkManageable: AnyObject {
    /// Registers the flow that receives incoming URLs (replacing any other).
    func registerHaapiFlowDeeplinkable(_ haapiFlowDeepLinkable: any HaapiFlowDeepLinkable)
    /// Unregisters it.
    func unregisterHaapiFlowDeeplinkable()
}

/// The app's hand-off of incoming URLs to the running flow (the seeds' `HaapiDeepLinkManager`).
///
/// The app passes every URL it opens (`application(_:open:options:)`, `onOpenURL`, a universal
/// link's `NSUserActivity`) to ``handleUrl(_:)``; when it is the return of the running flow's
/// external browser or app, the flow goes on from it. The flow registers itself while it
/// waits (``HaapiFlowViewModel/deepLinkManager``).
@MainActor public final class HaapiDeepLinkManager: HaapiDeepLinkManageable {
    /// The app's manager.
    public static let shared = HaapiDeepLinkManager()

    private weak var current: (any HaapiFlowDeepLinkable)?

    /// A manager of its own (tests, several windows); apps use ``shared``.
    public init() {}

    public func registerHaapiFlowDeeplinkable(_ haapiFlowDeepLinkable: any HaapiFlowDeepLinkable) {
        current = haapiFlowDeepLinkable
    }

    public func unregisterHaapiFlowDeeplinkable() {
        current = nil
    }

    /// Whether `url` is what the running flow waits for.
    public func canHandleUrl(_ url: URL) async -> Bool {
        current?.canHandleUrl(url) ?? false
    }

    /// Hands `url` to the running flow when it waits for it.
    /// - Returns: whether the flow took it.
    @discardableResult public func handleUrl(_ url: URL) async -> Bool {
        guard let current, current.canHandleUrl(url) else { return false }
        await current.handleUrl(url)
        return true
    }
}
