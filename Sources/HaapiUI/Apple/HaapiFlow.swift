#if canImport(UIKit) && canImport(AuthenticationServices) && !os(watchOS) && !os(tvOS)
import UIKit
#if canImport(SwiftUI)
import SwiftUI
#endif

/// Presents a flow with ``HaapiFlowViewController`` (the seeds' `HaapiFlow`).
@available(iOSApplicationExtension, unavailable)
@MainActor public enum HaapiFlow {
    /// Presents a new flow of `haapiUIKitApplication` over `presentedViewController`, as the
    /// configuration's ``HaapiUIKitConfiguration/presentationMode`` says: a modal sheet, or
    /// pushed on the controller's navigation stack. `presentedViewController` receives how
    /// the flow ended; the flow's screens are dismissed just after.
    /// - Throws: ``HaapiUIKitError/illegalState(_:)`` when the controller is not in a window or
    ///   already presents something, or `.stack` is asked of a controller with no navigation stack.
    public static func start(
        from presentedViewController: any HaapiFlowResultViewController, haapiUIKitApplication: HaapiUIKitApplication,
        haapiDeepLinkManageable: (any HaapiDeepLinkManageable)?, animated: Bool = true
    ) throws {
        guard presentedViewController.viewIfLoaded?.window != nil, presentedViewController.presentedViewController == nil else {
            throw HaapiUIKitError.illegalState("HaapiFlow.start needs a view controller on screen that presents nothing else")
        }
        switch haapiUIKitApplication.haapiUIKitConfiguration.presentationMode {
        case .modal:
            let flow = HaapiFlowViewController(
                haapiUIKitApplication: haapiUIKitApplication, haapiFlowResult: presentedViewController,
                haapiDeepLinkManageable: haapiDeepLinkManageable
            ) { [weak presentedViewController] in presentedViewController?.dismiss(animated: animated) }
            presentedViewController.present(UINavigationController(rootViewController: flow), animated: animated)
        case .stack:
            guard let navigation = presentedViewController.navigationController else {
                throw HaapiUIKitError.illegalState("the presentation mode .stack needs a view controller in a UINavigationController")
            }
            let flow = HaapiFlowViewController(
                haapiUIKitApplication: haapiUIKitApplication, haapiFlowResult: presentedViewController,
                haapiDeepLinkManageable: haapiDeepLinkManageable
            ) { [weak presentedViewController] in
                guard let presentedViewController else { return }
                navigation.popToViewController(presentedViewController, animated: animated)
            }
            navigation.pushViewController(flow, animated: animated)
        }
    }

    #if canImport(SwiftUI)
    /// A new flow of `haapiUIKitApplication` as a SwiftUI view, for a sheet or a navigation
    /// destination. `haapiFlowResult` receives how it ended; the app then stops showing it.
    public static func start(
        _ haapiFlowResult: any HaapiFlowResult, haapiUIKitApplication: HaapiUIKitApplication,
        haapiDeepLinkManageable: (any HaapiDeepLinkManageable)?
    ) -> HaapiFlowViewControllerRepresentable {
        HaapiFlowViewControllerRepresentable(
            haapiFlowResult: haapiFlowResult, haapiUIKitApplication: haapiUIKitApplication, haapiDeepLinkManageable: haapiDeepLinkManageable)
    }
    #endif
}

#if canImport(SwiftUI)
/// ``HaapiFlowViewController`` in a navigation controller, as a SwiftUI view (the seeds'
/// `HaapiFlowViewControllerRepresentable`).
@available(iOSApplicationExtension, unavailable)
@MainActor public struct HaapiFlowViewControllerRepresentable: UIViewControllerRepresentable {
    private let haapiFlowResult: any HaapiFlowResult
    private let haapiUIKitApplication: HaapiUIKitApplication
    private let haapiDeepLinkManageable: (any HaapiDeepLinkManageable)?

    /// A view for a new flow of `haapiUIKitApplication`.
    public init(
        haapiFlowResult: any HaapiFlowResult, haapiUIKitApplication: HaapiUIKitApplication,
        haapiDeepLinkManageable: (any HaapiDeepLinkManageable)?
    ) {
        self.haapiFlowResult = haapiFlowResult
        self.haapiUIKitApplication = haapiUIKitApplication
        self.haapiDeepLinkManageable = haapiDeepLinkManageable
    }

    public func makeUIViewController(context: Context) -> UIViewController {
        UINavigationController(rootViewController: HaapiFlowViewController(
            haapiUIKitApplication: haapiUIKitApplication, haapiFlowResult: haapiFlowResult, haapiDeepLinkManageable: haapiDeepLinkManageable))
    }

    public func updateUIViewController(_ uiViewController: UIViewController, context: Context) {}
}

/// The seeds' other name of ``HaapiFlowViewControllerRepresentable``.
@available(iOSApplicationExtension, unavailable)
public typealias HaapiFlowVCRepresentable = HaapiFlowViewControllerRepresentable
#endif
#endif
