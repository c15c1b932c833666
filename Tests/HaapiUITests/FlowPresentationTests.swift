import Foundation
import Testing

@testable import HaapiUI

/// The order of the flow's presentations (``FlowPresentation``), through a presenter that records
/// what UIKit would be asked and answers as UIKit does: an alert waits while the sheet comes up or
/// another alert is up, a button's work runs after its alert is gone, and the app is told how the
/// flow ended only once the flow is off screen.
@MainActor @Suite struct FlowPresentationTests {
    /// Records each request, in order; the test says when UIKit is settled and when things end.
    @MainActor final class RecordingPresenter: FlowPresenting {
        var canPresentAlert = false
        var events: [String] = []
        var closeShown: ((FlowAlert.Button) -> Void)?
        var shownButtons: [FlowAlert.Button] = []
        var finishRemoval: (() -> Void)?

        func present(_ alert: FlowAlert, closed: @escaping @MainActor (FlowAlert.Button) -> Void) {
            events.append("present \(alert.title ?? "")")
            canPresentAlert = false  // an alert is up: UIKit would refuse another
            shownButtons = alert.buttons
            closeShown = { button in
                self.events.append("closed \(alert.title ?? "")")
                self.canPresentAlert = true
                closed(button)
            }
        }

        func removeFlow(completion: @escaping @MainActor () -> Void) {
            events.append("remove")
            finishRemoval = {
                self.events.append("removed")
                completion()
            }
        }

        /// The user taps the button titled `title` of the alert on show.
        func tap(_ title: String) {
            guard let button = shownButtons.first(where: { $0.title == title }), let close = closeShown else {
                Issue.record("no alert with a button \"\(title)\" is on show")
                return
            }
            closeShown = nil
            close(button)
        }
    }

    private static func alert(_ title: String, work: @escaping @MainActor @Sendable () -> Void = {}) -> FlowAlert {
        FlowAlert(title: title, message: nil, buttons: [.init("OK", work: work)])
    }

    @Test func anErrorWhileTheSheetComesUpWaitsAndThenShows() {
        let presenter = RecordingPresenter()
        let presentation = FlowPresentation(presenter: presenter)
        presentation.show(Self.alert("Server unreachable"))
        // UIKit would refuse it now and say so only in the console: nothing is asked yet.
        #expect(presenter.events.isEmpty)
        #expect(presentation.waitingAlerts.count == 1)
        presenter.canPresentAlert = true
        presentation.presenterDidSettle()
        #expect(presenter.events == ["present Server unreachable"])
        #expect(presentation.waitingAlerts.isEmpty)
    }

    @Test func twoAlertsShowOneAfterTheOtherAndEachButtonWorksAfterItsAlertIsGone() {
        let presenter = RecordingPresenter()
        presenter.canPresentAlert = true
        let presentation = FlowPresentation(presenter: presenter)
        presentation.show(Self.alert("First") { presenter.events.append("work of First") })
        presentation.show(Self.alert("Second") { presenter.events.append("work of Second") })
        #expect(presenter.events == ["present First"])
        presenter.tap("OK")
        #expect(presenter.events == ["present First", "closed First", "work of First", "present Second"])
        presenter.tap("OK")
        #expect(presenter.events.suffix(2) == ["closed Second", "work of Second"])
    }

    @Test func theAppIsToldOnlyOnceTheFlowIsOffScreen() {
        let presenter = RecordingPresenter()
        presenter.canPresentAlert = true
        let presentation = FlowPresentation(presenter: presenter)
        presentation.end { presenter.events.append("told") }
        #expect(presenter.events == ["remove"])
        presenter.finishRemoval?()
        #expect(presenter.events == ["remove", "removed", "told"])
        // An end asked again (an error after the tokens) neither removes nor tells twice, and
        // no alert goes up over a flow that has ended.
        presentation.end { presenter.events.append("told again") }
        presentation.show(Self.alert("Late"))
        #expect(presenter.events == ["remove", "removed", "told"])
    }

    @Test func anErrorThatEndsTheFlowIsToldAfterItsAlertAndTheRemoval() {
        let presenter = RecordingPresenter()
        let presentation = FlowPresentation(presenter: presenter)
        // As interruptHaapiFlowForError does: an alert whose OK tells the app (through the end).
        presentation.show(Self.alert("Login failed") { presentation.end { presenter.events.append("told") } })
        presenter.canPresentAlert = true
        presentation.presenterDidSettle()
        presenter.tap("OK")
        presenter.finishRemoval?()
        #expect(presenter.events == ["present Login failed", "closed Login failed", "remove", "removed", "told"])
    }

    @Test func theStackExitPopsOnlyToAControllerStillBelowTheFlow() {
        // The app's stack, bottom first: the flow was started from "origin".
        #expect(StackExit.plan(stack: ["root", "origin", "flow"], flow: "flow", origin: "origin") == .popTo(index: 1))
        // Something was pushed over the flow (a screen of the app's): back to the origin still.
        #expect(StackExit.plan(stack: ["root", "origin", "flow", "more"], flow: "flow", origin: "origin") == .popTo(index: 1))
        // The app reset its stack under the flow: the origin is gone, so the flow (and what is
        // above it) is taken off and the app's new stack stays.
        #expect(StackExit.plan(stack: ["home", "flow", "more"], flow: "flow", origin: "origin") == .keepFirst(1))
        // The origin was let go of (weak): the same.
        #expect(StackExit.plan(stack: ["root", "origin", "flow"], flow: "flow", origin: nil) == .keepFirst(2))
        // The origin moved above the flow: popping "to" it would push forward; the flow goes instead.
        #expect(StackExit.plan(stack: ["root", "flow", "origin"], flow: "flow", origin: "origin") == .keepFirst(1))
        // The flow left the stack already, or is its only root: nothing to take off.
        #expect(StackExit.plan(stack: ["root", "origin"], flow: "flow", origin: "origin") == .nothing)
        #expect(StackExit.plan(stack: ["flow"], flow: "flow", origin: "origin") == .nothing)
    }

    @Test func theBarIsTheOneOfTheControllerJustAboveTheNavigationController() {
        let isNavigation: (String) -> Bool = { $0.hasPrefix("navigation") }
        // Pushed on a navigation stack: the flow's own items.
        #expect(LeaveButtonPlacement<String>.owner(of: ["flow", "navigation"], isNavigation: isNavigation) == "flow")
        // Hosted by SwiftUI in a NavigationStack: the hosting controller's items show.
        #expect(
            LeaveButtonPlacement<String>.owner(of: ["flow", "host", "hosting", "navigation", "tabs"], isNavigation: isNavigation)
                == "hosting")
        // Not in any navigation controller: the outermost controller.
        #expect(LeaveButtonPlacement<String>.owner(of: ["flow", "host"], isNavigation: isNavigation) == "host")
        #expect(LeaveButtonPlacement<String>.owner(of: [String](), isNavigation: isNavigation) == nil)
    }

    @Test func theLeaveButtonIsPutBackWhenSwiftUIRewritesTheItemsOrTheBarChangesHands() {
        var placement = LeaveButtonPlacement<String>()
        // Not placed yet (the flow is not styled): nothing to put back.
        #expect(!placement.needsPlacing(owner: "host", shown: nil))
        placement.didPlace(item: "close", on: "host")
        #expect(!placement.needsPlacing(owner: "host", shown: "close"))
        // SwiftUI redid the host's items: the left one is gone, or is another.
        #expect(placement.needsPlacing(owner: "host", shown: nil))
        #expect(placement.needsPlacing(owner: "host", shown: "apps-own"))
        // The flow moved under another controller (pushed into a stack): the bar is another's.
        #expect(placement.needsPlacing(owner: "flow", shown: "close"))
        placement.didPlace(item: "back", on: "flow")
        #expect(!placement.needsPlacing(owner: "flow", shown: "back"))
    }
}

/// Where an external-browser step opens (``BrowserLaunch``).
@Suite struct BrowserLaunchTests {
    @Test func aCustomSchemeEndsAnInAppSession() {
        #expect(
            BrowserLaunch.choose(appRedirect: "app://callback", prefersDefaultBrowser: false, sessionTakesHTTPSCallbacks: false)
                == .session(callbackScheme: "app"))
        #expect(
            BrowserLaunch.choose(appRedirect: "App.Example://x", prefersDefaultBrowser: false, sessionTakesHTTPSCallbacks: true)
                == .session(callbackScheme: "app.example"))
    }

    @Test func anHTTPSRedirectUsesTheSessionOnlyWhereItCanEndThere() {
        // iOS 17.4 and later: the session ends at the https redirect.
        #expect(
            BrowserLaunch.choose(
                appRedirect: "https://app.example/haapi/return", prefersDefaultBrowser: false, sessionTakesHTTPSCallbacks: true)
                == .sessionForHTTPS(host: "app.example", path: "/haapi/return"))
        #expect(
            BrowserLaunch.choose(appRedirect: "https://app.example", prefersDefaultBrowser: false, sessionTakesHTTPSCallbacks: true)
                == .sessionForHTTPS(host: "app.example", path: "/"))
        // iOS 15 to 17.3: a callback scheme "https" never matches, and the user would be stuck in
        // the sheet; the default browser opens, and the return comes as a universal link.
        #expect(
            BrowserLaunch.choose(
                appRedirect: "https://app.example/haapi/return", prefersDefaultBrowser: false, sessionTakesHTTPSCallbacks: false)
                == .defaultBrowser)
        // Plain http is never a universal link, and cannot end a session either.
        #expect(
            BrowserLaunch.choose(appRedirect: "http://app.example/return", prefersDefaultBrowser: false, sessionTakesHTTPSCallbacks: true)
                == .defaultBrowser)
    }

    @Test func theDefaultBrowserWhenAskedForOrWhenTheRedirectIsUnreadable() {
        #expect(
            BrowserLaunch.choose(appRedirect: "app://callback", prefersDefaultBrowser: true, sessionTakesHTTPSCallbacks: true)
                == .defaultBrowser)
        #expect(BrowserLaunch.choose(appRedirect: "", prefersDefaultBrowser: false, sessionTakesHTTPSCallbacks: true) == .defaultBrowser)
        #expect(
            BrowserLaunch.choose(appRedirect: "no scheme here", prefersDefaultBrowser: false, sessionTakesHTTPSCallbacks: true)
                == .defaultBrowser)
    }
}

/// What opens by itself, and where the keyboard goes when a form is drawn again.
@Suite @MainActor struct RedrawDecisionTests {
    @Test func bankIDOnThisDeviceOpensOncePerLaunchURLAlsoWhenUpdatedInPlace() throws {
        var autoOpen = AutoOpen()
        let first = try #require(URL(string: "bankid:///?autostarttoken=one&redirect=app://cb"))
        let second = try #require(URL(string: "bankid:///?autostarttoken=two&redirect=app://cb"))
        #expect(autoOpen.next(first) == first)
        // The next poll of the same wait (updated in place) does not open it again.
        #expect(autoOpen.next(first) == nil)
        #expect(autoOpen.next(nil) == nil)
        // A new launch (a new order, after a retry) opens, on a screen updated in place too.
        #expect(autoOpen.next(second) == second)
    }

    @Test func theKeyboardStaysWhenAFormIsDrawnAgain() throws {
        let form = try Documents.step(ScreenTests.uiKit, "html-form-login.json")
        let errors = try Documents.problem(ScreenTests.uiKit, "problem-invalid-input.json")
        let complained = ScreenTests.english.screen(for: try factory.model(form), problem: KitProblemModel(errors))
        let field = try #require(complained.textFields.first { $0.error != nil })
        let other = try #require(complained.textFields.first { $0.name != field.name })
        // Typing in another field, the keyboard goes to the field complained about.
        #expect(complained.focusAfterRedraw(typingIn: other.name) == field.name)
        // Nobody typing: the keyboard does not come up by itself.
        #expect(complained.focusAfterRedraw(typingIn: nil) == nil)
        // A wait has no focus of its own: the field typed in stays, if it is still there.
        let wait = try KitBehaviourTests.screen(
            ScreenUpdateTests.bankIDPoll(message: "Scan", qr: "data:image/png;base64,AAAA", secondsLeft: 10))
        #expect(wait.focusAfterRedraw(typingIn: "userName") == nil)
    }
}
