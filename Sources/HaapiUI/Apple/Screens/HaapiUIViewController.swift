#if canImport(UIKit) && !os(watchOS)
    import UIKit

    /// What a screen asks of the flow that shows it (Curity's `HaapiFlowViewControllerDelegate`):
    /// ``HaapiFlowViewController`` is one.
    @MainActor public protocol HaapiFlowViewControllerDelegate: UIViewController {
        /// Submits the form of `interactionActionModel` (a button) with `parameters`, by field name.
        func submit(interactionActionModel: any InteractionActionModel, parameters: [String: any Sendable])
        /// Chooses an option of a selector.
        func select(selectorItemModel: any SelectorItemInteractionActionModel)
        /// Follows a link of the step.
        func follow(linkItemModel: any LinkItemModel)
        /// Shows a problem the screen did not handle itself (``HaapiUIViewController/handleProblemModel(_:)``).
        func handleUIProblem(_ uiProblem: any UIProblemModel)
        /// Ends the flow with `error`, after showing the user `title` and `message` when given (and
        /// the kit gives the feedback).
        func interruptHaapiFlowForError(_ error: any Error, title: String?, message: String?)
        /// Whether `url` can be opened (BankID's app is installed).
        func canOpenURL(_ url: URL) -> Bool
        /// Opens `url` outside the app.
        func openURL(_ url: URL)
    }

    /// What the kit's own screens also ask of ``HaapiFlowViewController``: the actions no Curity
    /// delegate method names (poll now, a passkey ceremony).
    @MainActor protocol KitFlowActions: AnyObject {
        /// Polls now.
        func poll()
        /// Performs the step's passkey operation with an authenticator of `kind`.
        func performPasskey(kind: WebAuthnAuthenticatorKind)
        /// Goes on in the browser after passkeys failed (the step's fallback, when allowed).
        func takePasskeyFallback()
    }

    /// Where a screen finds its styles, texts, colours and images (Curity's
    /// `UIStylableThemeDelegate`): ``HaapiFlowViewController`` is one, for the application's theme.
    /// Nonisolated, as Curity's: a style, a colour or a text is read on any thread.
    public protocol UIStylableThemeDelegate: AnyObject {
        /// The styles every screen shares.
        var commonStyle: HaapiUIViewControllerStyle { get }
        /// The image `named`, from the app's asset catalog, else the kit's.
        func imageOptional(named: String?) -> UIImage?
        /// The style of `stylableType` from the theme.
        /// - Throws: ``ThemeError`` when the theme has no such style, or it is not a `U`.
        func styleOrThrowFor<U: UIStyle>(stylableType: any UIStylable.Type) throws -> U
        /// The colour `named`, from the app's asset catalog, else the kit's.
        func colorOptional(named: String?) -> UIColor?
        /// The text of `key`, the app's table first.
        func localizedStringForKey(key: String) -> String
    }

    /// Where the kit's screens find what decides their elements: ``HaapiFlowViewController``'s
    /// builder, in the application's language and theme.
    @MainActor protocol ScreenBuilding: AnyObject {
        var screenBuilder: ScreenBuilder { get }
        var theme: Theme { get }
        /// The flow's images (``HaapiFlowViewModel/images``).
        var images: RemoteImages { get }
    }

    /// A type styled by a theme (Curity's `UIStylable`).
    @MainActor public protocol UIStylable {
        /// The style type the theme gives the type.
        associatedtype AssociatedStyle: UIStyle
        /// Applies `style`.
        func apply(style: AssociatedStyle)
    }

    /// A screen of the flow (Curity's `HaapiUIViewController`): what ``HaapiFlowViewController``
    /// asks of the screens it shows, the kit's and an app's own (``ViewControllerFactoryRegistry``).
    @MainActor public protocol HaapiUIViewController: UIViewController {
        /// The model the screen shows.
        associatedtype AssociatedModel = any UIModel
        /// The screen's style.
        associatedtype AssociatedStyle = any UIStyle

        /// The flow that shows the screen; set before the screen loads.
        var haapiFlowViewControllerDelegate: (any HaapiFlowViewControllerDelegate)? { get set }
        /// Where the screen finds its styles and texts; set before the screen loads.
        var uiStylableThemeDelegate: (any UIStylableThemeDelegate)? { get set }
        /// Stops showing that the screen's action runs.
        func stopLoading()
        /// Whether the screen shows that its action runs.
        func hasLoading() -> Bool
        /// Shows `problemModel` on the screen; `false` leaves it to the flow.
        func handleProblemModel(_ problemModel: any ProblemModel) -> Bool
        /// Shows `infoMessageModels` in place of the screen's messages.
        func handleInfoMessageModels(_ infoMessageModels: [any InfoMessageModel])
        /// Shows `linkItemModels` in place of the screen's links.
        func handleLinkItemModels(_ linkItemModels: [any LinkItemModel])
        /// Shows the next form in place, when this screen shows forms; `false` lets the flow show a
        /// new screen.
        func handleFormModel(_ formModel: any FormModel) -> Bool
        /// Called before a form is submitted: the closure goes on (`true`, with the parameters to
        /// send) or not.
        func preSubmit(
            interactionActionModel: any InteractionActionModel, parameters: [String: any Sendable],
            closure: @escaping (Bool, [String: any Sendable]) -> Void)
        /// Called before an option is chosen.
        func preSelect(selectorItemModel: any SelectorItemInteractionActionModel, closure: @escaping (Bool) -> Void)
        /// Called before a link is followed.
        func preFollow(linkItemModel: any LinkItemModel, closure: @escaping (Bool) -> Void)
    }

    /// A screen that takes each new answer of a wait in place (Curity's `PollingModelUpdatable`).
    @MainActor public protocol PollingModelUpdatable {
        /// Shows `model`, the wait's latest state.
        func update(model: any PollingModel)
    }

    /// Makes an app's screen for models of type `T` (Curity's `HaapiUIViewControllerFactory`): the
    /// model, the screen's style from the theme, and the styles every screen shares.
    public typealias HaapiUIViewControllerFactory<T: UIModel, S: UIStyle, H: HaapiUIViewController> =
        (T, S, HaapiUIViewControllerStyle) throws -> H where T == H.AssociatedModel, S == H.AssociatedStyle
#endif
