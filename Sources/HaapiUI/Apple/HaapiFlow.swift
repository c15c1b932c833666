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
        haapiDeepLinkManageable: (any HaapiDeepLinkManageable)?, animated: Bool = true, nibName nibNameOrNil: String? = "HaapiFlowViewController",
        bundle nibBundleOrNil: Bundle? = nil
    ) throws {
        guard presentedViewController.viewIfLoaded?.window != nil, presentedViewController.presentedViewController == nil else {
            throw HaapiUIKitError.illegalState("HaapiFlow.start needs a view controller on screen that presents nothing else")
        }
        switch haapiUIKitApplication.haapiUIKitConfiguration.presentationMode {
        case .modal:
            let flow = try HaapiFlowViewController(
                application: haapiUIKitApplication, haapiFlowResult: presentedViewController, haapiDeepLinkManageable: haapiDeepLinkManageable
            ) { [weak presentedViewController] in presentedViewController?.dismiss(animated: animated) }
            presentedViewController.present(UINavigationController(rootViewController: flow), animated: animated)
        case .stack:
            guard let navigation = presentedViewController.navigationController else {
                throw HaapiUIKitError.illegalState("the presentation mode .stack needs a view controller in a UINavigationController")
            }
            let flow = try HaapiFlowViewController(
                application: haapiUIKitApplication, haapiFlowResult: presentedViewController, haapiDeepLinkManageable: haapiDeepLinkManageable
            ) { [weak presentedViewController] in
                guard let presentedViewController else { return }
                navigation.popToViewController(presentedViewController, animated: animated)
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
            haapiFlowResult: haapiFlowResult, haapiUIKitApplication: haapiUIKitApplication, haapiDeepLinkManageable: haapiDeepLinkManageable,
            nibName: nibNameOrNil, bundle: nibBundleOrNil, notificationCenter: notificationCenter)
    }
}

/// ``HaapiFlowViewController`` in a navigation controller, as a SwiftUI view (Curity's
/// `HaapiFlowViewControllerRepresentable`).
@available(iOSApplicationExtension, unavailable)
@MainActor public struct HaapiFlowViewControllerRepresentable: UIViewControllerRepresentable {
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

    /// The flow in a navigation controller; when it cannot be made (a theme without a style
    /// every screen needs), an empty controller, and the result receives the error.
    public func makeUIViewController(context: Context) -> UIViewController {
        do {
            return UINavigationController(rootViewController: try HaapiFlowViewController(
                application: haapiUIKitApplication, haapiFlowResult: haapiFlowResult, haapiDeepLinkManageable: haapiDeepLinkManageable, onFinish: {}))
        } catch {
            haapiFlowResult.didReceiveError(error)
            return UIViewController()
        }
    }

    public func updateUIViewController(_ uiViewController: UIViewController, context: Context) {}
}

/// Curity's older SwiftUI wrapper of a ``HaapiFlowViewController`` made by the app.
@available(iOSApplicationExtension, unavailable)
@available(iOS, introduced: 14.0, deprecated: 16.0, message: "Use `HaapiFlowViewControllerRepresentable` instead.")
@MainActor public struct HaapiFlowVCRepresentable: UIViewControllerRepresentable {
    private let contentViewController: HaapiFlowViewController
    private let presentationMode: PresentationMode

    /// Shows `contentViewController`, in a navigation controller when `presentationMode` is modal.
    @available(*, deprecated, message: "Use `HaapiFlowViewControllerRepresentable` instead.")
    public init(contentViewController: HaapiFlowViewController, presentationMode: PresentationMode) {
        (self.contentViewController, self.presentationMode) = (contentViewController, presentationMode)
    }

    public func makeUIViewController(context: Context) -> UIViewController {
        presentationMode == .modal ? UINavigationController(rootViewController: contentViewController) : contentViewController
    }

    public func updateUIViewController(_ uiViewController: UIViewController, context: Context) {}
}
#endif
#endif
