#if canImport(UIKit) && canImport(AuthenticationServices) && !os(watchOS) && !os(tvOS)
    import UIKit
    #if canImport(SwiftUI)
        import SwiftUI
    #endif

    /// Presents a flow with ``HaapiFlowViewController`` (Curity's `HaapiFlow`).
    @available(iOSApplicationExtension, unavailable)
    @MainActor public class HaapiFlow {
        /// Presents a new flow of `haapiUIKitApplication` over `presentedViewController`, as the
        /// configuration's ``HaapiUIKitConfiguration/presentationMode`` says: a modal sheet, or
        /// pushed on the controller's navigation stack. `presentedViewController` receives how
        /// the flow ended; the flow's screens are dismissed just after. `nibName` and `bundle` are
        /// Curity's parameters: the kit's screens are drawn in code.
        /// - Throws: ``HaapiUIKitError/illegalState(_:)`` when the controller is not in a window or
        ///   already presents something, or `.stack` is asked of a controller with no navigation
        ///   stack; ``ThemeError`` when the application's theme lacks a style every screen needs.
        public static func start(
            from presentedViewController: any HaapiFlowResultViewController, haapiUIKitApplication: any HaapiUIKitApplication,
            haapiDeepLinkManageable: (any HaapiDeepLinkManageable)?, animated: Bool = true,
            nibName nibNameOrNil: String? = "HaapiFlowViewController",
            bundle nibBundleOrNil: Bundle? = nil
        ) throws {
            guard presentedViewController.viewIfLoaded?.window != nil, presentedViewController.presentedViewController == nil else {
                throw HaapiUIKitError.illegalState("HaapiFlow.start needs a view controller on screen that presents nothing else")
            }
            switch haapiUIKitApplication.haapiUIKitConfiguration.presentationMode {
            case .modal:
                let flow = try HaapiFlowViewController(
                    application: haapiUIKitApplication, haapiFlowResult: presentedViewController,
                    haapiDeepLinkManageable: haapiDeepLinkManageable
                ) { [weak presentedViewController] _, done in
                    // Gone already (the app dismissed it, or let go of the controller): nothing to dismiss.
                    guard let presentedViewController, presentedViewController.presentedViewController != nil else { return done() }
                    presentedViewController.dismiss(animated: animated, completion: done)
                }
                presentedViewController.present(UINavigationController(rootViewController: flow), animated: animated)
            case .stack:
                guard let navigation = presentedViewController.navigationController else {
                    throw HaapiUIKitError.illegalState("the presentation mode .stack needs a view controller in a UINavigationController")
                }
                let flow = try HaapiFlowViewController(
                    application: haapiUIKitApplication, haapiFlowResult: presentedViewController,
                    haapiDeepLinkManageable: haapiDeepLinkManageable
                ) { [weak presentedViewController, weak navigation] flow, done in
                    guard let navigation else { return done() }
                    // The app may have changed its stack since (reset it, or started the flow from a
                    // child): the flow pops back only to a controller still below it.
                    let stack = navigation.viewControllers
                    switch StackExit.plan(
                        stack: stack.map(ObjectIdentifier.init), flow: ObjectIdentifier(flow),
                        origin: presentedViewController.map(ObjectIdentifier.init))
                    {
                    case .popTo(let index): navigation.popToViewController(stack[index], animated: animated)
                    case .keepFirst(let count): navigation.setViewControllers(Array(stack.prefix(count)), animated: animated)
                    case .nothing: return done()
                    }
                    guard animated, let transition = navigation.transitionCoordinator else { return done() }
                    transition.animate(alongsideTransition: nil) { _ in done() }
                }
                navigation.pushViewController(flow, animated: animated)
            }
        }
    }

    #if canImport(SwiftUI)
        @available(iOSApplicationExtension, unavailable)
        extension HaapiFlow {
            /// A new flow of `haapiUIKitApplication` as a SwiftUI view, for a sheet or a navigation
            /// destination. `haapiFlowResult` receives how it ended; the app then stops showing it.
            /// `nibName`, `bundle` and `notificationCenter` are Curity's parameters, not read.
            public static func start(
                _ haapiFlowResult: any HaapiFlowResult, haapiUIKitApplication: any HaapiUIKitApplication,
                haapiDeepLinkManageable: (any HaapiDeepLinkManageable)?, nibName nibNameOrNil: String? = "HaapiFlowViewController",
                bundle nibBundleOrNil: Bundle? = nil, notificationCenter: NotificationCenter = .default
            ) -> some View {
                HaapiFlowViewControllerRepresentable(
                    haapiFlowResult: haapiFlowResult, haapiUIKitApplication: haapiUIKitApplication,
                    haapiDeepLinkManageable: haapiDeepLinkManageable,
                    nibName: nibNameOrNil, bundle: nibBundleOrNil, notificationCenter: notificationCenter)
            }
        }

        /// ``HaapiFlowViewController`` as a SwiftUI view (Curity's `HaapiFlowViewControllerRepresentable`):
        /// in a navigation controller of its own on a sheet; pushed in a `NavigationStack`, the flow
        /// itself, with the stack's bar. At the end of the flow, after the result was told, it
        /// dismisses itself (the sheet closes, or the stack pops back).
        @available(iOSApplicationExtension, unavailable)
        @MainActor @preconcurrency public struct HaapiFlowViewControllerRepresentable: UIViewControllerRepresentable {
            private let haapiFlowResult: any HaapiFlowResult
            private let haapiUIKitApplication: any HaapiUIKitApplication
            private let haapiDeepLinkManageable: (any HaapiDeepLinkManageable)?

            /// A view for a new flow of `haapiUIKitApplication`. `nibName`, `bundle` and
            /// `notificationCenter` are Curity's parameters: the kit's screens are drawn in code.
            public init(
                haapiFlowResult: any HaapiFlowResult, haapiUIKitApplication: any HaapiUIKitApplication,
                haapiDeepLinkManageable: (any HaapiDeepLinkManageable)?, nibName: String? = nil, bundle: Bundle? = nil,
                notificationCenter: NotificationCenter = .default
            ) {
                self.haapiFlowResult = haapiFlowResult
                self.haapiUIKitApplication = haapiUIKitApplication
                self.haapiDeepLinkManageable = haapiDeepLinkManageable
            }

            /// Holds the environment's dismiss action, as SwiftUI updates it, for the end of the flow.
            @MainActor public final class Coordinator {
                var dismiss: DismissAction?
            }

            /// The coordinator that dismisses the view at the end of the flow.
            public func makeCoordinator() -> Coordinator { Coordinator() }

            /// The flow in its host; when it cannot be made (a theme without a style every screen
            /// needs), an empty controller, and the result receives the error.
            public func makeUIViewController(context: Context) -> UIViewController {
                let coordinator = context.coordinator
                coordinator.dismiss = context.environment.dismiss
                do {
                    return FlowHost(
                        flow: try HaapiFlowViewController(
                            application: haapiUIKitApplication, haapiFlowResult: haapiFlowResult,
                            haapiDeepLinkManageable: haapiDeepLinkManageable,
                            onFinish: { _, done in
                                // SwiftUI's dismiss gives no completion: the app is told as the view goes.
                                coordinator.dismiss?()
                                done()
                            }))
                } catch {
                    haapiFlowResult.didReceiveError(error)
                    return UIViewController()
                }
            }

            /// Keeps the dismiss action current, and the flow's way out in the bar SwiftUI may have redone.
            public func updateUIViewController(_ uiViewController: UIViewController, context: Context) {
                context.coordinator.dismiss = context.environment.dismiss
                (uiViewController as? FlowHost)?.flowDidUpdate()
            }
        }

        /// Holds the flow for SwiftUI: directly when SwiftUI shows it in a navigation stack (a second
        /// navigation bar inside the stack's would stack two bars), else in a navigation controller of
        /// its own, for its close button. Which one is known only once the host is in place.
        @available(iOSApplicationExtension, unavailable)
        @MainActor private final class FlowHost: UIViewController {
            private let flow: HaapiFlowViewController
            /// What a swipe down of the sheet SwiftUI shows the flow on asks first.
            private var sheetGuard: SheetDismissGuard?

            init(flow: HaapiFlowViewController) {
                self.flow = flow
                super.init(nibName: nil, bundle: nil)
            }

            @available(*, unavailable)
            required init?(coder: NSCoder) { nil }

            override func viewWillAppear(_ animated: Bool) {
                if flow.parent == nil { embed(navigationController == nil ? UINavigationController(rootViewController: flow) : flow) }
                super.viewWillAppear(animated)
            }

            /// On a SwiftUI sheet, a swipe down asks before leaving, as the close button does: SwiftUI's
            /// own delegate of the sheet keeps every other answer (SheetDismissGuard).
            override func viewDidAppear(_ animated: Bool) {
                super.viewDidAppear(animated)
                var root: UIViewController = self
                while let parent = root.parent { root = parent }
                guard root.presentingViewController != nil, let sheet = root.presentationController, !(sheet.delegate is SheetDismissGuard)
                else { return }
                let guarded = SheetDismissGuard(original: sheet.delegate) { [weak flow] in flow?.askToLeave() }
                sheet.delegate = guarded
                sheetGuard = guarded
            }

            override func viewWillLayoutSubviews() {
                super.viewWillLayoutSubviews()
                flow.keepLeaveButton()
            }

            func flowDidUpdate() { flow.keepLeaveButton() }

            private func embed(_ child: UIViewController) {
                addChild(child)
                child.view.frame = view.bounds
                child.view.autoresizingMask = [.flexibleWidth, .flexibleHeight]
                view.addSubview(child.view)
                child.didMove(toParent: self)
            }
        }

        /// The delegate of a SwiftUI sheet that holds a flow: a swipe down does not close the sheet but
        /// asks (the flow's close button's confirmation); every other question goes to SwiftUI's own
        /// delegate, which keeps the sheet's state.
        @available(iOSApplicationExtension, unavailable)
        @MainActor private final class SheetDismissGuard: NSObject, UIAdaptivePresentationControllerDelegate {
            private weak var original: (any UIAdaptivePresentationControllerDelegate)?
            private let attempt: @MainActor () -> Void

            init(original: (any UIAdaptivePresentationControllerDelegate)?, attempt: @escaping @MainActor () -> Void) {
                (self.original, self.attempt) = (original, attempt)
            }

            func presentationControllerShouldDismiss(_ presentationController: UIPresentationController) -> Bool { false }

            func presentationControllerDidAttemptToDismiss(_ presentationController: UIPresentationController) {
                attempt()
                original?.presentationControllerDidAttemptToDismiss?(presentationController)
            }

            override func responds(to selector: Selector!) -> Bool {
                super.responds(to: selector) || (original?.responds(to: selector) ?? false)
            }

            override func forwardingTarget(for selector: Selector!) -> Any? { original }
        }

        /// Curity's older SwiftUI wrapper of a ``HaapiFlowViewController`` made by the app.
        @available(iOSApplicationExtension, unavailable)
        @available(iOS, introduced: 14.0, deprecated: 16.0, message: "Use `HaapiFlowViewControllerRepresentable` instead.")
        @MainActor @preconcurrency public struct HaapiFlowVCRepresentable: UIViewControllerRepresentable {
            private let contentViewController: HaapiFlowViewController
            private let presentationMode: PresentationMode

            /// Shows `contentViewController`, in a navigation controller when `presentationMode` is modal.
            @available(*, deprecated, message: "Use `HaapiFlowViewControllerRepresentable` instead.")
            public init(contentViewController: HaapiFlowViewController, presentationMode: PresentationMode) {
                (self.contentViewController, self.presentationMode) = (contentViewController, presentationMode)
            }

            /// The flow's controller, in a navigation controller of its own when the mode is modal.
            public func makeUIViewController(context: Context) -> UIViewController {
                presentationMode == .modal ? UINavigationController(rootViewController: contentViewController) : contentViewController
            }

            /// Does nothing: the flow's controller updates itself.
            public func updateUIViewController(_ uiViewController: UIViewController, context: Context) {}
        }
    #endif
#endif
