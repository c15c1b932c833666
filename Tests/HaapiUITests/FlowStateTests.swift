import Foundation
import HaapiSDK
import OAuthCore
import Testing

@testable import HaapiUI

/// The flow's decisions as a value (``FlowState``): each transition is checked without a
/// server, a screen or a view model.
@Suite struct FlowStateTests {
    /// A failure a retry may mend (a busy server), and one it cannot (a refused client).
    private static let busy = HaapiFlowError(failure: HTTPTransportError(.timedOut, "GET https://idsvr/haapi timed out"))
    private static let refused = HaapiFlowError(failure: HaapiUIKitError.illegalState("the flow has not started"))

    @Test func aRequestLoadsAndItsEndShowsTheStep() {
        var state = FlowState()
        #expect(!state.isLoading && !state.isShowing)
        let request = state.beginRequest()
        #expect(state.isLoading)
        state.settle(request)
        #expect(state.isShowing && !state.isLoading)
    }

    @Test func aLaterActionSupersedesTheRequestUnderWay() {
        var state = FlowState()
        let first = state.beginRequest()
        let second = state.beginRequest()
        #expect(!state.isCurrent(first))
        #expect(state.isCurrent(second))
        // The first request's end changes nothing: the second is still loading.
        state.settle(first)
        #expect(state.isLoading)
        state.settle(second)
        #expect(state.isShowing)
    }

    @Test func stoppingSupersedesAndShowsTheStepAgain() {
        var state = FlowState()
        let request = state.beginRequest()
        state.stop()
        #expect(!state.isCurrent(request))
        #expect(state.isShowing)
        // Stopping a flow that shows an error leaves the error shown.
        _ = state.fail(Self.busy, retry: .start(nil), uiGivesFeedback: true)
        state.stop()
        #expect(state.error != nil)
    }

    @Test func aRetryableErrorKeepsWhatRepeatsIt() {
        var state = FlowState()
        _ = state.beginRequest()
        let outcome = state.fail(Self.busy, retry: .start(nil), uiGivesFeedback: false)
        #expect(outcome == .show)
        #expect(state.error != nil && !state.isLoading)
        guard case .start? = state.retryAction else {
            Issue.record("the retry is kept: \(String(describing: state.retryAction))")
            return
        }
        // A retry is a new request: the error is gone while it loads.
        _ = state.beginRequest()
        #expect(state.error == nil && state.retryAction == nil)
    }

    @Test func anErrorThatCannotBeRetriedStopsTheFlowNowUnlessTheUIShowsIt() {
        var reported = FlowState()
        let now = reported.fail(Self.refused, retry: .start(nil), uiGivesFeedback: false)
        #expect(now == .report)
        #expect(reported.retryAction == nil)
        // Already reported: seeing it tells the app nothing more.
        let again = reported.acknowledge()
        #expect(again == nil)

        var shown = FlowState()
        let later = shown.fail(Self.refused, retry: .start(nil), uiGivesFeedback: true)
        #expect(later == .show)
        #expect(shown.retryAction == nil)
        let seen = shown.acknowledge()
        #expect(seen?.title == Self.refused.title)
        let seenTwice = shown.acknowledge()
        #expect(seenTwice == nil)
        #expect(shown.error != nil)  // still shown, now as the end of the flow
    }

    @Test func cancellingAsksToConfirmOnceWhenTheConfigurationSaysSo() {
        var state = FlowState()
        guard case .askToConfirm = state.cancel(confirmationRequired: true) else {
            Issue.record("asks first")
            return
        }
        #expect(state.isConfirmingInterruption)
        guard case .interrupt = state.cancel(confirmationRequired: true) else {
            Issue.record("the second cancel confirms")
            return
        }
        let interrupts = state.interrupt()
        #expect(interrupts)
        #expect(!state.isConfirmingInterruption)

        state.dismissCancel()
        guard case .interrupt = state.cancel(confirmationRequired: false) else {
            Issue.record("no question asked")
            return
        }

        var dismissed = FlowState()
        _ = dismissed.cancel(confirmationRequired: true)
        dismissed.dismissCancel()
        #expect(!dismissed.isConfirmingInterruption)
        // A new flow has nothing left to confirm.
        _ = dismissed.cancel(confirmationRequired: true)
        dismissed.beginFlow()
        #expect(!dismissed.isConfirmingInterruption)
    }

    @Test func cancellingOnAnErrorThatStoppedTheFlowIsSeeingIt() {
        var state = FlowState()
        _ = state.fail(Self.refused, retry: nil, uiGivesFeedback: true)
        guard case .acknowledge(let seen) = state.cancel(confirmationRequired: true) else {
            Issue.record("closing the error's screen acknowledges it")
            return
        }
        #expect(seen.title == Self.refused.title)
        #expect(!state.isConfirmingInterruption)
        // A retryable error is not the end: cancelling it abandons the flow as usual.
        var retryable = FlowState()
        _ = retryable.fail(Self.busy, retry: .start(nil), uiGivesFeedback: true)
        guard case .interrupt = retryable.cancel(confirmationRequired: false) else {
            Issue.record("interrupts")
            return
        }
    }

    @Test func anEndedFlowHasNothingToInterrupt() {
        var state = FlowState()
        state.end()
        let interrupts = state.interrupt()
        #expect(!interrupts)
    }

    @Test func aMismatchRestartsTheFlowOnceWithItsParameters() throws {
        var state = FlowState()
        let parameters = OAuthAuthorizationParameters(scopes: ["openid"])
        state.start(parameters: parameters)
        let first = state.restartForMismatch()
        let restart = try #require(first)
        #expect(restart?.scopes == ["openid"])
        let twice = state.restartForMismatch()
        #expect(twice == nil)  // twice in a row: something else is wrong
        state.start(parameters: nil)  // a flow the app starts may restart once again
        let anew = state.restartForMismatch()
        #expect(anew != nil)
    }

    @Test func anExchangedCodeGivesItsModelAgain() {
        var state = FlowState()
        #expect(state.model(exchanging: "code-1") == nil)
        let model = KitOAuthErrorModel(error: "access_denied", errorDescription: "no", source: .client)
        state.exchanged("code-1", endedWith: model)
        #expect((state.model(exchanging: "code-1") as? KitOAuthErrorModel)?.error == "access_denied")
        #expect(state.model(exchanging: "code-2") == nil)
    }
}
