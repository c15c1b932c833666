import Foundation
import HaapiSDK
import OAuthCore

/// Where a flow of ``HaapiFlowViewModel`` is, and what each event makes of it: the view model's
/// decisions as a value. Each transition changes the state and returns what the view model must
/// do next; the view model does the work (requests, polling, publishing, telling the app) and
/// never changes this state but through these transitions, so tests can drive the flow's
/// decisions without a server or a screen.
struct FlowState {
    /// Where the flow is. The view model publishes ``HaapiFlowViewModel/isLoading`` and
    /// ``HaapiFlowViewModel/error`` from it.
    enum Phase {
        /// Before ``HaapiFlowViewModel/start(parameters:)``.
        case idle
        /// A request the user asked for (or its retry) is under way.
        case loading
        /// A step is shown: the user acts next, or the poll timer for a pending polling step.
        case showing
        /// An error is shown. `retry` repeats what failed, when it may succeed; `reported` once
        /// the app's ``HaapiFlowResult`` has received the error (the flow stopped on it).
        case failed(HaapiFlowError, retry: RetryAction?, reported: Bool)
        /// The flow ended: ``HaapiFlowViewModel/oAuthModel`` says how.
        case ended
    }

    /// What ``HaapiFlowViewModel/retry()`` repeats.
    enum RetryAction {
        /// Starting the flow (building the accessor failed).
        case start(OAuthAuthorizationParameters?)
        /// A request to the HAAPI endpoint.
        case request(@Sendable () async -> HaapiResult)
        /// The exchange of the authorization response's code.
        case exchange(OAuthAuthorizationResponseStep)
    }

    /// A request's place in the order of the user's actions: its result counts only while no
    /// later action has superseded it (``isCurrent(_:)``).
    struct Request: Equatable {
        fileprivate let generation: Int
    }

    /// What to do with an error just published.
    enum FailureOutcome: Equatable {
        /// Show it: the UI gives the feedback, and the app hears of it once the user has seen it
        /// (``acknowledge()``), or it is retryable.
        case show
        /// The flow stops on it now: tell the app.
        case report
    }

    /// What the user's "cancel" leads to.
    enum CancelDecision {
        /// The screen of an error that stopped the flow was closed: the error is seen (tell the app).
        case acknowledge(HaapiFlowError)
        /// Ask the user to confirm first (``isConfirmingInterruption`` is now set).
        case askToConfirm
        /// Abandon the flow.
        case interrupt
    }

    /// Where the flow is.
    private(set) var phase = Phase.idle { didSet { phaseChanges &+= 1 } }
    /// How many times ``phase`` was set: the view model publishes what it derives from the phase
    /// (``isLoading``, ``error``) when this moves, and only then, so an error is not shown twice.
    private(set) var phaseChanges = 0
    /// Whether "cancel" waits for the user to confirm or dismiss it.
    private(set) var isConfirmingInterruption = false
    /// What the flow was started with, for a restart the server asks for.
    private var startParameters: OAuthAuthorizationParameters?
    /// Bumped by every user action: results of superseded requests are dropped.
    private var generation = 0
    /// Whether the flow has been restarted for a `mismatch-between-session-and-access-token` (only once).
    private var restartedForMismatch = false
    /// The code the flow exchanged and what that ended with: a code is spent once.
    private var exchanged: (code: String, model: any OAuthModel)?

    /// Whether a request is under way.
    var isLoading: Bool { if case .loading = phase { true } else { false } }

    /// The error shown, when there is one.
    var error: HaapiFlowError? { if case .failed(let error, _, _) = phase { error } else { nil } }

    // MARK: Transitions

    /// The app starts (or restarts) the flow with `parameters`.
    mutating func start(parameters: OAuthAuthorizationParameters?) {
        startParameters = parameters
        restartedForMismatch = false
    }

    /// A new flow begins (started, retried or restarted): nothing is left to confirm.
    mutating func beginFlow() {
        isConfirmingInterruption = false
    }

    /// A request the user asked for starts: it supersedes every earlier one, and the flow loads.
    /// Polling under way must stop.
    mutating func beginRequest() -> Request {
        generation += 1
        phase = .loading
        return Request(generation: generation)
    }

    /// Whether `request`'s result still counts: no later action superseded it.
    func isCurrent(_ request: Request) -> Bool { request.generation == generation }

    /// A work that has no loading of its own but must supersede what is under way (cancelling
    /// a flow without a cancel action).
    mutating func supersede() { generation += 1 }

    /// `request` is over: the step it left is shown, unless it moved the flow on (an error, the
    /// end) or a later action superseded it.
    mutating func settle(_ request: Request) {
        guard isCurrent(request), case .loading = phase else { return }
        phase = .showing
    }

    /// The app stops the work under way: requests under way are superseded, and a loading flow
    /// shows its step again.
    mutating func stop() {
        generation += 1
        if case .loading = phase { phase = .showing }
    }

    /// `error` happened; `retry` repeats what failed, kept only when the error is retryable. A
    /// retryable error, or one the UI gives feedback for, is shown; any other stops the flow now.
    mutating func fail(_ error: HaapiFlowError, retry: RetryAction?, uiGivesFeedback: Bool) -> FailureOutcome {
        let stopsNow = !error.isRetryable && !uiGivesFeedback
        phase = .failed(error, retry: error.isRetryable ? retry : nil, reported: stopsNow)
        return stopsNow ? .report : .show
    }

    /// The user has seen the error shown: the error that stopped the flow, to tell the app, when
    /// it has not been told yet.
    mutating func acknowledge() -> HaapiFlowError? {
        guard case .failed(let error, _, reported: false) = phase else { return nil }
        phase = .failed(error, retry: nil, reported: true)
        return error
    }

    /// What repeats the failure shown, when it may succeed.
    var retryAction: RetryAction? {
        if case .failed(_, let action?, _) = phase { action } else { nil }
    }

    /// The user asks to cancel; `confirmationRequired` as the configuration says.
    mutating func cancel(confirmationRequired: Bool) -> CancelDecision {
        // Closing the screen of an error that stopped the flow is seeing it: nothing is left to lose.
        if case .failed(_, nil, reported: false) = phase, let error = acknowledge() {
            return .acknowledge(error)
        }
        if confirmationRequired && !isConfirmingInterruption {
            isConfirmingInterruption = true
            return .askToConfirm
        }
        return .interrupt
    }

    /// The user keeps the flow going after being asked to confirm "cancel".
    mutating func dismissCancel() { isConfirmingInterruption = false }

    /// The flow is to be abandoned: whether there is still a flow to abandon (false once ended).
    mutating func interrupt() -> Bool {
        isConfirmingInterruption = false
        if case .ended = phase { return false }
        return true
    }

    /// The server says the flow's session and HAAPI token no longer match: the parameters to
    /// start a new flow with, the first time; `nil` the second time in a row (something else is wrong).
    mutating func restartForMismatch() -> OAuthAuthorizationParameters?? {
        guard !restartedForMismatch else { return nil }
        restartedForMismatch = true
        return .some(startParameters)
    }

    /// `code` was exchanged and ended with `model`.
    mutating func exchanged(_ code: String, endedWith model: any OAuthModel) {
        exchanged = (code, model)
    }

    /// What the exchange of `code` ended with, when the flow exchanged it already.
    func model(exchanging code: String) -> (any OAuthModel)? {
        guard let exchanged, exchanged.code == code else { return nil }
        return exchanged.model
    }

    /// The flow ended (tokens or an OAuth error).
    mutating func end() { phase = .ended }

    /// Whether a step is shown, with nothing under way.
    var isShowing: Bool { if case .showing = phase { true } else { false } }
}
