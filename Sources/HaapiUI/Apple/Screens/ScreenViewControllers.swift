#if canImport(UIKit) && canImport(CoreImage) && !os(watchOS) && !os(tvOS)
import UIKit

// The kit's screens, one per kind of step (``ScreenKind``). What each shows is decided by
// ``ScreenBuilder`` (tested on every platform); the base draws it, in the screen's style.

/// Fields and buttons: login, registration, consent (the seeds' `FormViewController`).
@MainActor open class FormViewController: BaseViewController<UIModel, FormViewControllerStyle> {}

/// A choice of authenticator, as a list or as tabs (the seeds' `SelectorViewController`).
@MainActor open class SelectorViewController: BaseViewController<UIModel, SelectorViewControllerStyle> {}

/// A wait, polled by the flow, with the time left (the seeds' `PollingViewController`).
@MainActor open class PollingViewController: BaseViewController<UIModel, PollingViewControllerStyle> {
    open override func makeView(for item: ScreenItem) -> UIView? {
        guard case .loadingIndicator = item else { return super.makeView(for: item) }
        let spinner = UIActivityIndicatorView(style: .large)
        spinner.color = ThemeAssets.color(named: style.loadingIndicatorViewStyle.strokeColorName)
        spinner.startAnimating()
        spinner.heightAnchor.constraint(equalToConstant: style.loadingIndicatorSideDimension).isActive = true
        return spinner
    }

    /// Shows the next poll's answer in place (its messages and time left).
    public func update(model: UIModel) { _ = handleFormModel(model) }
}

/// BankID: the app on this device, or a QR code for another that follows the server's updates,
/// the help text, the time left (the seeds' `BankIdViewController`).
@MainActor open class BankIdViewController: BaseViewController<UIModel, BankIdViewControllerStyle> {
    /// The help text in the style's own `expandableViewStyle`.
    open override func makeView(for item: ScreenItem) -> UIView? {
        guard case .expandable(let title, let body) = item else { return super.makeView(for: item) }
        return expandableView(title: title, body: body, style: style.expandableViewStyle)
    }

    /// Shows the next poll's answer in place (a new QR code, the time left).
    public func update(model: UIModel) { _ = handleFormModel(model) }
}

/// A passkey or a security key, then the server's fallback (the seeds' `WebAuthnViewController`).
@MainActor open class WebAuthnViewController: BaseViewController<UIModel, WebAuthnViewControllerStyle> {}

/// A problem that ends the step: its title, messages and links (the seeds' `ProblemViewController`).
@MainActor open class ProblemViewController: BaseViewController<ProblemModel, ProblemViewControllerStyle> {}

/// Any other step: its messages, forms, choices and links (the seeds' `GenericViewController`).
@MainActor open class GenericViewController: BaseViewController<UIModel, GenericViewControllerStyle> {}
#endif
