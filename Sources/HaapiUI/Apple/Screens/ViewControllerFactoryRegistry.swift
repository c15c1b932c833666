#if canImport(UIKit) && canImport(CoreImage) && !os(watchOS) && !os(tvOS)
import UIKit

/// The app's own screens, by kind of step (the seeds' `ViewControllerFactoryRegistry`): a kind
/// with a factory shows the app's view controller, any other the kit's. Set it with
/// ``HaapiUIKitApplicationBuilder/setViewControllerFactoryRegistry(registry:)``.
///
/// ```swift
/// let registry = ViewControllerFactoryRegistry()
///     .registerViewControllerFactoryFormModel { model, style, commonStyle in
///         MyFormViewController(model, style: style, commonStyle: commonStyle)
///     }
/// ```
@MainActor public final class ViewControllerFactoryRegistry {
    /// Makes a step's screen from its model, the theme and the shared styles.
    typealias StepFactory = (UIModel, Theme, HaapiUIViewControllerStyle) throws -> any HaapiUIViewController
    private var steps: [ScreenKind: StepFactory] = [:]
    private var problem: ((ProblemModel, Theme, HaapiUIViewControllerStyle) throws -> any HaapiUIViewController)?

    /// An empty registry: every screen is the kit's.
    public init() {}

    /// Shows steps of `kind` with the screens `factory` makes, styled by the theme section of `style`.
    @discardableResult
    public func registerViewControllerFactory<S: UIViewControllerStyle>(
        kind: ScreenKind, style: S.Type, factory: @escaping (UIModel, S, HaapiUIViewControllerStyle) throws -> any HaapiUIViewController
    ) -> ViewControllerFactoryRegistry {
        steps[kind] = { model, theme, common in try factory(model, try theme.style(S.self), common) }
        return self
    }

    /// Forms: login, registration, consent.
    @discardableResult
    public func registerViewControllerFactoryFormModel(
        factory: @escaping (UIModel, FormViewControllerStyle, HaapiUIViewControllerStyle) throws -> any HaapiUIViewController
    ) -> ViewControllerFactoryRegistry { registerViewControllerFactory(kind: .form, style: FormViewControllerStyle.self, factory: factory) }

    /// Choices of authenticator.
    @discardableResult
    public func registerViewControllerFactorySelectorModel(
        factory: @escaping (UIModel, SelectorViewControllerStyle, HaapiUIViewControllerStyle) throws -> any HaapiUIViewController
    ) -> ViewControllerFactoryRegistry { registerViewControllerFactory(kind: .selector, style: SelectorViewControllerStyle.self, factory: factory) }

    /// Waits.
    @discardableResult
    public func registerViewControllerFactoryPollingModel(
        factory: @escaping (UIModel, PollingViewControllerStyle, HaapiUIViewControllerStyle) throws -> any HaapiUIViewController
    ) -> ViewControllerFactoryRegistry { registerViewControllerFactory(kind: .polling, style: PollingViewControllerStyle.self, factory: factory) }

    /// BankID.
    @discardableResult
    public func registerViewControllerFactoryBankIdModel(
        factory: @escaping (UIModel, BankIdViewControllerStyle, HaapiUIViewControllerStyle) throws -> any HaapiUIViewController
    ) -> ViewControllerFactoryRegistry { registerViewControllerFactory(kind: .bankID, style: BankIdViewControllerStyle.self, factory: factory) }

    /// Passkeys and security keys.
    @discardableResult
    public func registerViewControllerFactoryWebAuthnOperationModel(
        factory: @escaping (UIModel, WebAuthnViewControllerStyle, HaapiUIViewControllerStyle) throws -> any HaapiUIViewController
    ) -> ViewControllerFactoryRegistry { registerViewControllerFactory(kind: .webAuthn, style: WebAuthnViewControllerStyle.self, factory: factory) }

    /// Any other step.
    @discardableResult
    public func registerViewControllerFactoryGenericModel(
        factory: @escaping (UIModel, GenericViewControllerStyle, HaapiUIViewControllerStyle) throws -> any HaapiUIViewController
    ) -> ViewControllerFactoryRegistry { registerViewControllerFactory(kind: .generic, style: GenericViewControllerStyle.self, factory: factory) }

    /// Problems that end a step.
    @discardableResult
    public func registerViewControllerFactoryProblemModel(
        factory: @escaping (ProblemModel, ProblemViewControllerStyle, HaapiUIViewControllerStyle) throws -> any HaapiUIViewController
    ) -> ViewControllerFactoryRegistry {
        problem = { model, theme, common in try factory(model, try theme.style(ProblemViewControllerStyle.self), common) }
        return self
    }

    /// The screen of `model` (shown as `kind`): the app's when it registered one, else the kit's.
    func screen(for model: UIModel, kind: ScreenKind, theme: Theme, common: HaapiUIViewControllerStyle) throws -> any HaapiUIViewController {
        if let factory = steps[kind] { return try factory(model, theme, common) }
        switch kind {
        case .form: return FormViewController(model, style: try theme.style(FormViewControllerStyle.self), commonStyle: common)
        case .selector: return SelectorViewController(model, style: try theme.style(SelectorViewControllerStyle.self), commonStyle: common)
        case .polling: return PollingViewController(model, style: try theme.style(PollingViewControllerStyle.self), commonStyle: common)
        case .bankID: return BankIdViewController(model, style: try theme.style(BankIdViewControllerStyle.self), commonStyle: common)
        case .webAuthn: return WebAuthnViewController(model, style: try theme.style(WebAuthnViewControllerStyle.self), commonStyle: common)
        case .problem, .generic: return GenericViewController(model, style: try theme.style(GenericViewControllerStyle.self), commonStyle: common)
        }
    }

    /// The screen of a problem that ends the step.
    func screen(for problem: ProblemModel, theme: Theme, common: HaapiUIViewControllerStyle) throws -> any HaapiUIViewController {
        if let factory = self.problem { return try factory(problem, theme, common) }
        return ProblemViewController(problem, style: try theme.style(ProblemViewControllerStyle.self), commonStyle: common)
    }
}

extension HaapiUIKitApplicationBuilder {
    /// Shows the app's screens where `registry` has them.
    @discardableResult
    public func setViewControllerFactoryRegistry(registry: ViewControllerFactoryRegistry) -> HaapiUIKitApplicationBuilder {
        viewControllerFactories = registry
        return self
    }
}

extension HaapiUIKitApplication {
    /// The app's screens, as the builder was given them.
    var viewControllerFactoryRegistry: ViewControllerFactoryRegistry? { viewControllerFactories as? ViewControllerFactoryRegistry }
}
#endif
