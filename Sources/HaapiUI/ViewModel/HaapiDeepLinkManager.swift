import Foundation
import OAuthCore

/// Something that can take an incoming URL back into its flow (the seeds' `HaapiFlowDeepLinkable`):
/// a ``HaapiFlowViewModel`` waiting for an external browser or app to come back.
@MainActor public protocol HaapiFlowDeepLinkable: AnyObject, Sendable {
    /// Whether `url` is the return the flow waits for.
    func canHandleUrl(_ url: URL) async -> Bool
    /// Takes `url` back into the flow.
    func handleUrl(_ url: URL) async
    /// Says why `url` is not the return the flow waits for, if it is not.
    /// - Throws: ``HaapiDeepLinkError``.
    func checkUrl(_ url: URL) async throws
}

extension HaapiFlowDeepLinkable {
    /// Throws unless ``canHandleUrl(_:)`` says yes.
    /// - Throws: ``HaapiDeepLinkError`` (`not_the_app_redirect`).
    public func checkUrl(_ url: URL) async throws {
        guard await canHandleUrl(url) else { throw HaapiDeepLinkError(.notTheAppRedirect, "the flow does not wait for \(url.redacted)") }
    }
}

/// Where the running flow registers for incoming URLs (the seeds' `HaapiDeepLinkManageable`).
/// Any thread may register, as with Curity's.
public protocol HaapiDeepLinkManageable: AnyObject, Sendable {
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
@MainActor public final class HaapiDeepLinkManager: HaapiDeepLinkManageable, HaapiFlowDeepLinkable {
    /// The app's manager.
    public static let shared = HaapiDeepLinkManager()

    /// The registered flow, under `registration`: registering is open to any thread.
    nonisolated(unsafe) private weak var registered: (any HaapiFlowDeepLinkable)?
    private nonisolated let registration = NSLock()
    private var current: (any HaapiFlowDeepLinkable)? { registration.withLock { registered } }
    /// The `_resume_nonce`s of the last returns handed over.
    private var resumedNonces: [String] = []

    /// A manager of its own (tests, several windows); apps use ``shared``.
    public init() {}

    /// Registers the flow that waits for an external browser or app; it replaces any registered before.
    public nonisolated func registerHaapiFlowDeeplinkable(_ haapiFlowDeepLinkable: any HaapiFlowDeepLinkable) {
        registration.withLock { registered = haapiFlowDeepLinkable }
    }

    /// Unregisters the flow: incoming URLs resume none.
    public nonisolated func unregisterHaapiFlowDeeplinkable() {
        registration.withLock { registered = nil }
    }

    /// Whether `url` is what the running flow waits for, and not a return handed over before.
    public func canHandleUrl(_ url: URL) async -> Bool {
        (try? await checkUrl(url)) != nil
    }

    /// Hands `url` to the running flow when it waits for it; any other URL is left alone
    /// (``resumeFlow(with:)`` says why).
    public func handleUrl(_ url: URL) async {
        try? await resumeFlow(with: url)
    }

    /// Says why `url` would not resume the running flow, if it would not.
    /// - Throws: ``HaapiDeepLinkError``, as ``resumeFlow(with:)``.
    public func checkUrl(_ url: URL) async throws {
        _ = try await flow(taking: url)
    }

    /// Hands `url` to the running flow, or says why it does not take it.
    /// - Throws: ``HaapiDeepLinkError``, leaving the flow as it was:
    ///   [`HaapiDeepLinkError.Code.alreadyDelivered`](doc:OAuthCore/ErrorCode/alreadyDelivered) for a return handed over before,
    ///   [`HaapiDeepLinkError.Code.noPendingFlow`](doc:OAuthCore/ErrorCode/noPendingFlow) when no flow waits,
    ///   [`HaapiDeepLinkError.Code.notTheAppRedirect`](doc:OAuthCore/ErrorCode/notTheAppRedirect) for another URL than the app's redirect,
    ///   [`HaapiDeepLinkError.Code.missingResumeNonce`](doc:OAuthCore/ErrorCode/missingResumeNonce) for the redirect without its nonce.
    public func resumeFlow(with url: URL) async throws {
        let flow = try await flow(taking: url)
        // Checked again with nothing awaited before the nonce is kept: another call may have
        // handed the same return over while the flow was asked.
        try refuseIfHandedOver(url)
        if let nonce = ResumeNonce.of(url) { resumedNonces = Array((resumedNonces + [nonce]).suffix(8)) }
        await flow.handleUrl(url)
    }

    /// The registered flow when it takes `url`.
    private func flow(taking url: URL) async throws -> any HaapiFlowDeepLinkable {
        try refuseIfHandedOver(url)
        guard let current else { throw HaapiDeepLinkError(.noPendingFlow, "no flow waits for an external browser or app to come back") }
        try await current.checkUrl(url)
        return current
    }

    private func refuseIfHandedOver(_ url: URL) throws {
        if let nonce = ResumeNonce.of(url), resumedNonces.contains(nonce) {
            throw HaapiDeepLinkError(.alreadyDelivered, "the flow has been resumed with this return already")
        }
    }
}
