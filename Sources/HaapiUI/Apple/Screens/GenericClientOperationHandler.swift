#if canImport(UIKit) && canImport(CoreImage) && !os(watchOS) && !os(tvOS)
    import UIKit

    /// Performs client operations the kit does not know (Curity's `GenericClientOperationHandler`):
    /// an app's own authenticator that asks the client to do something. Set it with
    /// ``HaapiUIKitApplicationBuilder/setGenericClientOperationHandler(_:)``; without one, the step
    /// shows its other ways on.
    @MainActor public protocol GenericClientOperationHandler: Sendable {
        /// Performs `actionModel`.
        /// - Parameters:
        ///   - viewControllerProvider: presents a view controller of the app's over the flow, if it needs one.
        ///   - onSuccess: continues the flow: submits an action (one of the operation's continue
        ///     actions' forms) with parameters.
        ///   - onError: gives up; the flow takes the operation's first error action, if any.
        func handleGenericClientOperation(
            actionModel: GenericClientOperationActionModel, viewControllerProvider: ((UIViewController) -> Void)?,
            onSuccess: @escaping (any RepresentationActionModel, [String: any Sendable]) -> Void, onError: @escaping () -> Void)
    }

    /// The handler of an application that set none: it leaves the step on screen, with its other ways on.
    // swift-format-ignore: UseSynthesizedInitializer
    struct StepShowingOperationHandler: GenericClientOperationHandler {
        // Not the synthesized one: a nonisolated initializer, so any context can make it.
        nonisolated init() {}

        func handleGenericClientOperation(
            actionModel: GenericClientOperationActionModel, viewControllerProvider: ((UIViewController) -> Void)?,
            onSuccess: @escaping (any RepresentationActionModel, [String: any Sendable]) -> Void, onError: @escaping () -> Void
        ) {}
    }

    extension HaapiUIKitApplicationBuilder {
        /// Performs unknown client operations with `value`.
        @discardableResult
        public func setGenericClientOperationHandler(_ value: any GenericClientOperationHandler) -> HaapiUIKitApplicationBuilder {
            genericClientOperationHandler = value
            return self
        }
    }

    extension KitApplication {
        /// The app's handler of unknown client operations, as the builder was given it.
        public var genericClientOperationHandler: any GenericClientOperationHandler {
            (genericClientOperations as? any GenericClientOperationHandler) ?? StepShowingOperationHandler()
        }
    }
#endif
