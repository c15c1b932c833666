// Seed 000's snippets that present UIKit or SwiftUI screens: compiled where UIKit and SwiftUI
// exist, against HaapiFlow (Sources/HaapiUI/Apple). What they drive is the view model the
// other snippet tests run on every platform.
#if canImport(UIKit) && canImport(SwiftUI) && !os(watchOS) && !os(tvOS)
import HaapiUI
import SwiftUI
import UIKit

// MARK: 000-2 (its UIKit part) and 000-15
// Changed: inside a view controller that is the HaapiFlowResult the seed says it implements.

@available(iOSApplicationExtension, unavailable)
final class PresentingViewController: UIViewController, HaapiFlowResult {
    func startFlow() {
do {
try HaapiFlow.start(from: self, // self is an UIViewController that is presented.
haapiUIKitApplication: UIApplication.shared.haapiUIKitApplication,
haapiDeepLinkManageable: HaapiDeepLinkManager.shared)
} catch {
// handle error if the HaapiFlow does not start.
}
    }

    func startFlow(from parentVC: PresentingViewController, haapiApplication: HaapiUIKitApplication) throws {
try HaapiFlow.start(from: parentVC,
haapiUIKitApplication: haapiApplication,
haapiDeepLinkManageable: HaapiDeepLinkManager.shared)
    }

    func didReceiveOAuthModel(_ oAuthModel: OAuthModel) {}
    func didReceiveError(_ error: Error) {}
}

// MARK: 000-5 ContentView (unchanged but for the module name)

@available(iOSApplicationExtension, unavailable)
struct ContentView: View, HaapiFlowResult {
let haapiApplication: HaapiUIKitApplication
@State private var showingHaapiVC = false
var body: some View {
VStack {
Button {
showingHaapiVC = true
} label: {
Text("Start Haapi flow")
}
}
.sheet(isPresented: $showingHaapiVC) {
HaapiFlow.start(self,
haapiUIKitApplication: haapiApplication,
haapiDeepLinkManageable: HaapiDeepLinkManager.shared)
}
// ...
}
func didReceiveOAuthTokenModel(_ oAuthTokenModel: HaapiUI.OAuthTokenModel) { /* ... */ }
func didReceiveError(_ error: Error) { /* ... */ }
}

// MARK: 000-16 and 000-17
// Changed: inside a view that is the HaapiFlowResult (`self`); the seed's `NavigationPath`
// enum, which its text names but does not show, declared.

@available(iOSApplicationExtension, unavailable)
struct StackedFlowView: View, HaapiFlowResult {
    enum NavigationPath: Hashable { case haapiVC }
    let haapiApplication: HaapiUIKitApplication
    @State private var isShowingStackVC = false
    @State private var path: [NavigationPath] = []

    var body: some View {
        VStack {
NavigationView {
NavigationLink(destination: HaapiFlow.start(self,
haapiUIKitApplication: haapiApplication,
haapiDeepLinkManageable: HaapiDeepLinkManager.shared),
isActive: $isShowingStackVC) { EmptyView() }
Button("Start Haapi Stack") {
self.isShowingStackVC = true
}
}.navigationViewStyle(.stack)
NavigationStack {
NavigationLink("Start Haapi Stack", value: NavigationPath.haapiVC)
.navigationDestination(for: NavigationPath.self) { navigation in
switch navigation {
case .haapiVC:
HaapiFlow.start(self,
haapiUIKitApplication: haapiApplication,
haapiDeepLinkManageable: HaapiDeepLinkManager.shared)
}
}
}
        }
    }

    func didReceiveOAuthModel(_ oAuthModel: OAuthModel) {}
    func didReceiveError(_ error: Error) {}
}
#endif
