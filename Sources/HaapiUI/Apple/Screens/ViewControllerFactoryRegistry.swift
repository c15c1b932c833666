#if canImport(UIKit) && canImport(CoreImage) && !os(watchOS) && !os(tvOS)
    import Foundation
    import UIKit

    /// The app's own screens (Curity's `ViewControllerFactoryRegistry`): a model with a factory is
    /// shown on the app's view controller, any other on the kit's. Set it with
    /// ``HaapiUIKitApplicationBuilder/setViewControllerFactoryRegistry(registry:)``.
    ///
    /// ```swift
    /// let registry = ViewControllerFactoryRegistry()
    ///     .registerViewControllerFactoryFormModel { model, style, commonStyle in
    ///         MyFormViewController(model, style: style, commonStyle: commonStyle)
    ///     }
    /// ```
    ///
    /// A factory for a model type (``registerViewControllerFactory(modelType:factory:)``) comes
    /// first, the last registered for a type winning; then the factory for the model's kind (a
    /// BankID model is a polling model); then the kit's screen. Register before the application is
    /// built: the registry is read, never changed, while flows run.
    public class ViewControllerFactoryRegistry: @unchecked Sendable {
        /// Makes a screen for a model, if the model is one the factory takes.
        typealias Factory = @MainActor (any UIModel, Theme, HaapiUIViewControllerStyle) throws -> (any HaapiUIViewController)?
        private enum Kind { case form, selector, problem, polling, webAuthn, generic }
        private let lock = NSLock()
        private var byType: [Factory] = []
        private var byKind: [Kind: Factory] = [:]

        /// An empty registry: every screen is the kit's.
        public init() {}

        /// Shows models of type `T` on the screens `factory` makes, styled by the theme's section
        /// for `S` (a screen style's ``UIViewControllerStyle/themeSection``, else the style type's
        /// name without `Style`).
        @discardableResult
        public func registerViewControllerFactory<T, S, H>(modelType: T.Type, factory: @escaping HaapiUIViewControllerFactory<T, S, H>)
            -> ViewControllerFactoryRegistry
        where T: UIModel, T == H.AssociatedModel, S: UIStyle, S == H.AssociatedStyle, H: HaapiUIViewController {
            locked {
                byType.append { model, theme, common in
                    guard let model = model as? T else { return nil }
                    return try factory(model, try theme.style(S.self, named: Self.themeSection(of: S.self)), common)
                }
            }
            return self
        }

        /// Forms: login, registration, consent.
        @discardableResult
        public func registerViewControllerFactoryFormModel(
            factory: @escaping (any FormModel, FormViewControllerStyle, HaapiUIViewControllerStyle) throws -> any HaapiUIViewController
        ) -> ViewControllerFactoryRegistry { register(.form, as: (any FormModel).self, factory) }

        /// Choices of authenticator.
        @discardableResult
        public func registerViewControllerFactorySelectorModel(
            factory:
                @escaping (any SelectorModel, SelectorViewControllerStyle, HaapiUIViewControllerStyle) throws -> any HaapiUIViewController
        ) -> ViewControllerFactoryRegistry { register(.selector, as: (any SelectorModel).self, factory) }

        /// Problems that end a step.
        @discardableResult
        public func registerViewControllerFactoryProblemModel(
            factory:
                @escaping (any ProblemModel, ProblemViewControllerStyle, HaapiUIViewControllerStyle) throws -> any HaapiUIViewController
        ) -> ViewControllerFactoryRegistry { register(.problem, as: (any ProblemModel).self, factory) }

        /// Waits, BankID's included (a ``BankIdModel`` is a ``PollingModel``).
        @discardableResult
        public func registerViewControllerFactoryPollingModel(
            factory:
                @escaping (any PollingModel, PollingViewControllerStyle, HaapiUIViewControllerStyle) throws -> any HaapiUIViewController
        ) -> ViewControllerFactoryRegistry { register(.polling, as: (any PollingModel).self, factory) }

        /// Passkeys and security keys.
        @discardableResult
        public func registerViewControllerFactoryWebAuthnOperationModel(
            factory:
                @escaping (any WebAuthnOperationModel, WebAuthnViewControllerStyle, HaapiUIViewControllerStyle) throws ->
                any HaapiUIViewController
        ) -> ViewControllerFactoryRegistry { register(.webAuthn, as: (any WebAuthnOperationModel).self, factory) }

        /// Any other step.
        @discardableResult
        public func registerViewControllerFactoryGenericModel(
            factory:
                @escaping (any GenericModel, GenericViewControllerStyle, HaapiUIViewControllerStyle) throws -> any HaapiUIViewController
        ) -> ViewControllerFactoryRegistry { register(.generic, as: (any GenericModel).self, factory) }

        /// The screen of `model`: the app's when it registered one, else the kit's.
        /// - Throws: the factory's error, a ``ThemeError`` when the theme lacks the screen's style,
        ///   or ``HaapiUIKitError/unsupported(cause:)`` for a model no screen shows.
        @MainActor func screen(for model: any UIModel, theme: Theme, common: HaapiUIViewControllerStyle) throws -> any HaapiUIViewController
        {
            let (typed, kinds) = locked { (byType, byKind) }
            for factory in typed.reversed() {
                if let screen = try factory(model, theme, common) { return screen }
            }
            for kitScreen in Self.kitScreens {
                guard let make = kitScreen.maker(model) else { continue }
                return try kinds[kitScreen.kind]?(model, theme, common) ?? make(theme, common)
            }
            throw HaapiUIKitError.unsupported(
                cause: "no screen shows a \(type(of: model)): register a factory for it in the ViewControllerFactoryRegistry")
        }

        /// The kit's screen for each kind of model, in the order models are told apart: a BankID
        /// model is a polling model, so its screen comes first.
        @MainActor private static let kitScreens = [
            KitScreen(.problem, ProblemViewController.init(_:style:commonStyle:)),
            KitScreen(.polling, BankIdViewController.init(_:style:commonStyle:)),
            KitScreen(.polling, PollingViewController.init(_:style:commonStyle:)),
            KitScreen(.selector, SelectorViewController.init(_:style:commonStyle:)),
            KitScreen(.webAuthn, WebAuthnViewController.init(_:style:commonStyle:)),
            KitScreen(.form, FormViewController.init(_:style:commonStyle:)),
            KitScreen(.generic, GenericViewController.init(_:style:commonStyle:)),
        ]

        /// One of the kit's screens: the kind an app's factory replaces it by, and the maker of
        /// the screen for a model it shows (`nil` for any other), styled from the theme.
        private struct KitScreen {
            let kind: Kind
            let maker: (any UIModel) -> (@MainActor (Theme, HaapiUIViewControllerStyle) throws -> any HaapiUIViewController)?

            init<Model, Style: UIViewControllerStyle>(
                _ kind: Kind, _ screen: @escaping @MainActor (Model, Style, HaapiUIViewControllerStyle) -> some HaapiUIViewController
            ) {
                self.kind = kind
                maker = { model in
                    guard let model = model as? Model else { return nil }
                    return { theme, common in screen(model, try theme.style(Style.self), common) }
                }
            }
        }

        private func register<Model, Style: UIViewControllerStyle>(
            _ kind: Kind, as type: Model.Type,
            _ factory: @escaping (Model, Style, HaapiUIViewControllerStyle) throws -> any HaapiUIViewController
        ) -> ViewControllerFactoryRegistry {
            locked {
                byKind[kind] = { model, theme, common in
                    guard let model = model as? Model else { return nil }
                    return try factory(model, try theme.style(Style.self), common)
                }
            }
            return self
        }

        private func locked<T>(_ body: () throws -> T) rethrows -> T {
            lock.lock()
            defer { lock.unlock() }
            return try body()
        }

        /// The theme section of a style type: a screen's own, else the type's name without `Style`.
        static func themeSection<S: UIStyle>(of type: S.Type) -> String {
            if let screen = type as? any UIViewControllerStyle.Type { return screen.themeSection }
            let name = String(describing: type)
            return name.hasSuffix("Style") ? String(name.dropLast(5)) : name
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

    extension KitApplication {
        /// The app's screens, as the builder was given them.
        var viewControllerFactoryRegistry: ViewControllerFactoryRegistry? { viewControllerFactories as? ViewControllerFactoryRegistry }
    }
#endif
