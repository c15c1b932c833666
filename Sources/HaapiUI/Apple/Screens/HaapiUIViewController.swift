#if canImport(UIKit) && !os(watchOS)
import UIKit

/// What a screen asks of the flow that shows it (the seeds' `HaapiFlowViewControllerDelegate`):
/// ``HaapiFlowViewController`` is one.
@MainActor public protocol HaapiFlowViewControllerDelegate: AnyObject {
    /// Submits `interactionActionModel` with the values the user entered.
    func submit(interactionActionModel: FormModel, parameters: [String: String])
    /// Chooses an option of a selector.
    func select(selectorItemModel: SelectorOptionModel)
    /// Follows a link of the step.
    func follow(linkItemModel: LinkItemModel)
    /// Polls now.
    func poll()
    /// Performs the step's passkey operation with an authenticator of `kind`.
    func performPasskey(kind: WebAuthnAuthenticatorKind)
    /// Whether `url` can be opened (BankID's app is installed).
    func canOpenURL(_ url: URL) -> Bool
    /// Opens `url` outside the app.
    func openURL(_ url: URL)
    /// Ends the flow with `error`, after telling the user `title` and `message` when given.
    func interruptHaapiFlowForError(_ error: any Error, title: String?, message: String?)
}

/// Where a screen finds its styles, texts, colours and images (the seeds'
/// `UIStylableThemeDelegate`): ``HaapiFlowViewController`` is one, for the application's theme.
@MainActor public protocol UIStylableThemeDelegate: AnyObject {
    /// The styles every screen shares.
    var commonStyle: HaapiUIViewControllerStyle { get }
    /// Makes each screen's elements, in the user's language.
    var screenBuilder: ScreenBuilder { get }
    /// The image `named`, from the app's asset catalog, else the kit's.
    func imageOptional(named: String?) -> UIImage?
    /// The colour `named`, from the app's asset catalog, else the kit's.
    func colorOptional(named: String?) -> UIColor?
    /// The text of `key`, the app's table first.
    func localizedStringForKey(key: String) -> String
    /// The style `name` of the theme, of type `S`.
    func style<S: UIStyle>(_ type: S.Type, named name: String) throws -> S
}

/// A type styled by a theme (the seeds' `UIStylable`).
@MainActor public protocol UIStylable {
    associatedtype AssociatedStyle: UIStyle
    /// Applies `style`.
    func apply(style: AssociatedStyle)
}

/// A screen of the flow (the seeds' `HaapiUIViewController`): what ``HaapiFlowViewController``
/// asks of the screens it shows, the kit's and an app's own (``ViewControllerFactoryRegistry``).
@MainActor public protocol HaapiUIViewController: UIViewController {
    /// The model the screen shows.
    associatedtype AssociatedModel
    /// The screen's style.
    associatedtype AssociatedStyle

    /// The flow that shows the screen; set before the screen loads.
    var haapiFlowViewControllerDelegate: (any HaapiFlowViewControllerDelegate)? { get set }
    /// Where the screen finds its styles and texts; set before the screen loads.
    var uiStylableThemeDelegate: (any UIStylableThemeDelegate)? { get set }
    /// Stops showing that the screen's action runs.
    func stopLoading()
    /// Whether the screen shows that its action runs.
    func hasLoading() -> Bool
    /// Shows `problemModel` on the screen; `false` leaves it to the flow.
    func handleProblemModel(_ problemModel: ProblemModel) -> Bool
    /// Shows `infoMessageModels` in place of the screen's messages.
    func handleInfoMessageModels(_ infoMessageModels: [InfoMessageModel])
    /// Shows `linkItemModels` in place of the screen's links.
    func handleLinkItemModels(_ linkItemModels: [LinkItemModel])
    /// Shows the next step in place when it is one this screen shows (a form again, with the
    /// server's complaints); `false` lets the flow show a new screen.
    func handleFormModel(_ formModel: UIModel) -> Bool
    /// Called before a form is submitted: the closure goes on (`true`, with the parameters to
    /// send) or not.
    func preSubmit(interactionActionModel: FormModel, parameters: [String: String], closure: @escaping (Bool, [String: String]) -> Void)
    /// Called before an option is chosen.
    func preSelect(selectorItemModel: SelectorOptionModel, closure: @escaping (Bool) -> Void)
    /// Called before a link is followed.
    func preFollow(linkItemModel: LinkItemModel, closure: @escaping (Bool) -> Void)
}
#endif
