import Foundation

/// An alert of the flow: a title, a message and its buttons. A button's work runs once the alert
/// is gone.
struct FlowAlert: Sendable {
    /// How a button looks and where it goes (the system's alert styles).
    enum Role: Sendable, Equatable { case normal, cancel, destructive }

    /// A button of the alert.
    struct Button: Sendable {
        let title: String
        let role: Role
        let work: @MainActor @Sendable () -> Void

        init(_ title: String, role: Role = .normal, work: @escaping @MainActor @Sendable () -> Void = {}) {
            (self.title, self.role, self.work) = (title, role, work)
        }
    }

    let title: String?
    let message: String?
    let buttons: [Button]
}

/// What the flow asks of the platform's presentation (UIKit's, in ``HaapiFlowViewController``):
/// the seam between when things happen, decided here, and how they are drawn. Nothing else in
/// the kit presents, dismisses or pops.
@MainActor protocol FlowPresenting: AnyObject {
    /// Whether an alert can go up now: the flow is on screen, settled (not being presented or
    /// pushed) and presents nothing else.
    var canPresentAlert: Bool { get }
    /// Puts `alert` up; the presenter calls `closed` with the button tapped, after the alert is gone.
    func present(_ alert: FlowAlert, closed: @escaping @MainActor (FlowAlert.Button) -> Void)
    /// Takes the flow off screen (dismisses its sheet, or pops it off the app's stack), then
    /// calls `completion`.
    func removeFlow(completion: @escaping @MainActor () -> Void)
}

/// When the flow's alerts go up and when the app is told how the flow ended.
///
/// UIKit refuses a presentation while the flow's sheet is still animating in or while an alert
/// is up, and says so only in the console: an error that arrives then is lost, and the sheet stays
/// blank. So alerts wait here, in order, until the presenter is settled, and each button's work
/// runs after its alert has gone. The app is told how the flow ended only after the flow is off
/// screen, so that an alert it presents, or a screen it pushes, is not taken away with the flow.
@MainActor final class FlowPresentation {
    private weak var presenter: (any FlowPresenting)?
    private var waiting: [FlowAlert] = []
    private var isShowingAlert = false
    /// Whether the flow has ended (the app is told, or is about to be).
    private(set) var hasEnded = false

    init(presenter: any FlowPresenting) {
        self.presenter = presenter
    }

    /// The alerts that wait for the presenter, in the order they came.
    var waitingAlerts: [FlowAlert] { waiting }

    /// Shows `alert` now if the presenter can, else as soon as it can (``presenterDidSettle()``).
    func show(_ alert: FlowAlert) {
        guard !hasEnded else { return }
        waiting.append(alert)
        presentNext()
    }

    /// The presenter has settled (the flow appeared, a presentation of the app's was dismissed):
    /// the next waiting alert goes up.
    func presenterDidSettle() {
        presentNext()
    }

    /// Ends the flow: it leaves the screen, then `tellApp` runs (once, whatever is asked again).
    /// Alerts still waiting are dropped: the app is told instead.
    func end(tellApp: @escaping @MainActor () -> Void) {
        guard !hasEnded else { return }
        hasEnded = true
        waiting.removeAll()
        guard let presenter else {
            tellApp()
            return
        }
        presenter.removeFlow(completion: tellApp)
    }

    private func presentNext() {
        guard !isShowingAlert, !hasEnded, let presenter, presenter.canPresentAlert, !waiting.isEmpty else { return }
        let alert = waiting.removeFirst()
        isShowingAlert = true
        presenter.present(alert) { [weak self] button in
            self?.isShowingAlert = false
            button.work()
            self?.presentNext()
        }
    }
}

/// How the flow leaves an app's navigation stack (``HaapiPresentationMode/stack``): back to the
/// controller that started it when that is still below the flow, else the flow and what is above
/// it are taken off, and the rest of the stack stays as the app left it.
enum StackExit: Equatable {
    /// Pop to the controller at this index.
    case popTo(index: Int)
    /// Set the stack to its first `keeping` controllers (the flow was pushed over a controller
    /// that is gone, or that moved above it).
    case keepFirst(_ keeping: Int)
    /// The flow is no longer in the stack, or is its first controller: nothing to take off.
    case nothing

    /// The exit from `stack` (identities, bottom first) of `flow`, started from `origin`. A flow
    /// at the bottom of the stack stays: a navigation stack is never empty.
    static func plan<ID: Equatable>(stack: [ID], flow: ID, origin: ID?) -> StackExit {
        guard let flowIndex = stack.firstIndex(of: flow), flowIndex > 0 else { return .nothing }
        if let origin, let originIndex = stack.firstIndex(of: origin), originIndex < flowIndex {
            return .popTo(index: originIndex)
        }
        return .keepFirst(flowIndex)
    }
}

/// The flow's way out in the navigation bar (its close or Back button), and when it must be put
/// back: the bar shows the items of the controller just above the navigation controller, which
/// is the flow or, in SwiftUI, the host that holds it; and SwiftUI rewrites its host's items
/// when its state changes, taking the button away.
struct LeaveButtonPlacement<ID: Equatable> {
    /// The item placed, and the controller it was placed on.
    private(set) var placed: (item: ID, owner: ID)?

    /// Of `chain` (the flow, then its parents, outward), the controller whose items the bar
    /// shows: the last one before a navigation controller, or the outermost when there is none.
    static func owner<Controller>(of chain: [Controller], isNavigation: (Controller) -> Bool) -> Controller? {
        guard var owner = chain.first else { return nil }
        for parent in chain.dropFirst() {
            if isNavigation(parent) { break }
            owner = parent
        }
        return owner
    }

    /// Records that `item` is now `owner`'s left item.
    mutating func didPlace(item: ID, on owner: ID) { placed = (item, owner) }

    /// Whether the button must be placed again, the bar being `owner`'s and showing `shown` on
    /// the left: when it moved to another owner, or something else took its place. Never before
    /// the first placement (the flow places it once styled).
    func needsPlacing(owner: ID, shown: ID?) -> Bool {
        guard let placed else { return false }
        return placed.owner != owner || placed.item != shown
    }
}

/// Where an external-browser step opens (Curity's `ExternalBrowserClientOperation`): the decision
/// of ``HaapiFlowViewController``, made here so that it is tested where the kit cannot run.
enum BrowserLaunch: Equatable {
    /// An in-app browser session that ends when the browser goes to the app's custom scheme.
    case session(callbackScheme: String)
    /// An in-app browser session that ends at the app's https redirect (iOS 17.4 and later).
    case sessionForHTTPS(host: String, path: String)
    /// The default browser; the return arrives as a deep link (``HaapiDeepLinkManager``).
    case defaultBrowser

    /// The launch for an app whose redirect is `appRedirect`. Before iOS 17.4 a session cannot
    /// end at an https redirect (a callback scheme "https" never matches: the user would be left
    /// in the sheet), so such an app opens the default browser and comes back by universal link.
    static func choose(appRedirect: String, prefersDefaultBrowser: Bool, sessionTakesHTTPSCallbacks: Bool) -> BrowserLaunch {
        guard !prefersDefaultBrowser, let redirect = URLComponents(string: appRedirect), let scheme = redirect.scheme?.lowercased() else {
            return .defaultBrowser
        }
        guard scheme == "https" || scheme == "http" else { return .session(callbackScheme: scheme) }
        guard scheme == "https", sessionTakesHTTPSCallbacks, let host = redirect.host, !host.isEmpty else { return .defaultBrowser }
        return .sessionForHTTPS(host: host, path: redirect.path.isEmpty ? "/" : redirect.path)
    }
}

/// What opens by itself when its screen shows (BankID on this device, ``Screen/openOnAppear``):
/// each launch URL once, also when its screen is updated in place rather than shown anew.
struct AutoOpen {
    /// The last URL opened.
    private(set) var opened: URL?

    /// The URL to open now for a screen that would open `url`: `nil` when it has none, or when it
    /// was opened already.
    mutating func next(_ url: URL?) -> URL? {
        guard let url, url != opened else { return nil }
        opened = url
        return url
    }
}
