import Foundation
import HaapiSDK

// The UI models the kit's screens draw, as Curity's UI kit declares them: protocols, one per
// kind of screen and per kind of element, so that an app's own models (a customised data
// mapper's) are drawn like the kit's. The kit's own implementations are the `Kit…` types
// (KitModels.swift, InteractionItems.swift), made by ``KitDataMapper``.

/// A model a UI presents (the seeds' `UIModel`): a step, a problem, an operation or the end of a flow.
public protocol UIModel: Masking, CustomDebugStringConvertible, CustomStringConvertible, Sendable {}

extension UIModel {
    /// The model's type name, which holds none of its values (so a model can be logged).
    public var description: String { "\(type(of: self))" }
    /// The same as ``description``: the type name only.
    public var debugDescription: String { description }
    /// The model for a log line: its type, which says what was shown and holds no value.
    public var masked: String { description }
}

/// A model made from a HAAPI response of a known `type`.
public protocol HaapiResponseTypeable: UIModel {
    /// The response's type (`authentication-step`, a problem's URI, ...), when known.
    var representationType: String? { get }
}

extension HaapiResponseTypeable {
    /// `nil`: a model says its response type only when it has one.
    public var representationType: String? { nil }
}

/// A step the user interacts with.
public protocol UIInteractionModel: HaapiResponseTypeable {
    /// The server's template area (`metadata.templateArea`).
    var templateArea: String? { get }
    /// The server's view (`metadata.viewName`).
    var viewName: String? { get }
}

/// A problem as a UI shows it: a title and a message.
public protocol UIProblemModel: HaapiResponseTypeable {
    /// The title.
    var title: String? { get }
    /// What went wrong.
    var message: String { get }
}

/// An operation the client performs outside the screens (a browser, an app, WebAuthn), with
/// the screens shown while it runs and when it fails.
public protocol UIOperationModel: HaapiResponseTypeable {
    /// The model of the screen shown while the operation runs.
    associatedtype InteractionModelType
    /// The model of the screen shown when the operation fails.
    associatedtype ErrorInteractionModelType
    /// What to open, when the operation opens something.
    var url: URL? { get }
    /// The screen shown while the operation runs, or to go on with it.
    var interactionModel: InteractionModelType? { get }
    /// The screen shown when the operation fails.
    var errorInteractionModel: ErrorInteractionModelType? { get }
    /// The problem to show when the operation cannot be performed.
    var problem: any UIProblemModel { get }
}

/// How a flow (or an ``OAuthLifecycle`` refresh) ended (the seeds' `OAuthModel`): an
/// ``OAuthTokenModel`` or an ``OAuthErrorModel``, or an app's own.
public protocol OAuthModel: UIModel {}

/// An OAuth error a flow ended with.
public protocol OAuthErrorModel: OAuthModel {
    /// `access_denied`, `invalid_grant`, ...
    var error: String { get }
    /// `error_description`.
    var errorDescription: String? { get }
    /// `error_uri`.
    var errorUri: String? { get }
}

/// The tokens a flow ended with.
public protocol OAuthTokenModel: OAuthModel {
    /// The access token.
    var accessToken: String { get }
    /// The token type (`Bearer`, `DPoP`), when the server said.
    var tokenType: String? { get }
    /// The granted scope, when the server said.
    var scope: String? { get }
    /// Seconds the access token lives.
    var expiresIn: Int { get }
    /// The refresh token, when the server issued one.
    var refreshToken: String? { get }
    /// The ID token, when the server issued one.
    var idToken: String? { get }
}

extension OAuthModel {
    /// The tokens, if this is an ``OAuthTokenModel``.
    public var tokens: (any OAuthTokenModel)? { self as? any OAuthTokenModel }
    /// The error, if this is an ``OAuthErrorModel``.
    public var oauthError: (any OAuthErrorModel)? { self as? any OAuthErrorModel }
}

/// The answer to a form with continue actions: new messages, and those actions as a form.
public protocol ContinueSameModel: UIInteractionModel {
    /// The answer's new messages.
    var messageItems: [any InfoMessageModel] { get }
    /// The continue actions as a form, when there are any.
    var formModel: (any FormModel)? { get }
}

/// A step no other model fits: its forms and its choice, if any.
public protocol GenericModel: UIInteractionModel {
    /// The step's forms, when it has any.
    var formModel: (any FormModel)? { get }
    /// The step's choices, when it has any.
    var selectorModel: (any SelectorModel)? { get }
}

/// Fields and buttons: messages, then the interaction items in order, then links.
public protocol FormModel: UIInteractionModel {
    /// The messages, shown above the form.
    var messageItems: [any InfoMessageModel] { get }
    /// The fields, buttons, section titles and texts, in order.
    var interactionItems: [any InteractionItemModel] { get }
    /// The links, shown under the form.
    var linkItems: [any LinkItemModel] { get }
}

/// A wait for something outside the app.
public protocol PollingModel: UIInteractionModel {
    /// The messages, shown above the wait.
    var messageItems: [any InfoMessageModel] { get }
    /// What polls (a button whose action is the poll form).
    var mainAction: any InteractionItemModel { get }
    /// What abandons the wait, if offered.
    var cancelAction: (any InteractionItemModel)? { get }
    /// Seconds between automatic polls (0: the UI polls).
    var autoPollingDuration: TimeInterval { get }
    /// Whether the wait goes on, is done or failed.
    var status: PollingStatus { get }
    /// The links, shown under the wait.
    var linkItems: [any LinkItemModel] { get }
    /// The longest the server waits, in seconds.
    var maxWaitTime: TimeInterval? { get }
    /// How much of it is left, in seconds.
    var maxWaitRemainingTime: TimeInterval? { get }
    /// Whether `other` is the same wait in the same state.
    func isEqualTo(_ other: any PollingModel) -> Bool
}

/// BankID: the app on this device, or a QR code for another, and the wait for it.
public protocol BankIdModel: PollingModel {}

/// The end of the flow: the authorization code to exchange.
public protocol AuthorizationRequestModel: UIInteractionModel {
    /// The authorization code.
    var code: String { get }
}

/// A problem that ends the step, as the kit handles it.
public protocol ProblemModel: UIProblemModel {
    /// The problem's messages.
    var messageItems: [any InfoMessageModel] { get }
    /// The problem's links.
    var linkItems: [any LinkItemModel] { get }
    /// The kind of problem, as the kit handles it.
    var type: HandleableProblemType? { get }
}

/// A choice between options (authenticators, devices), as a list or as tabs.
public protocol SelectorModel: UIInteractionModel {
    /// The title over the options, if any.
    var title: String? { get }
    /// The messages, shown above the options.
    var messageItems: [any InfoMessageModel] { get }
    /// The options, in order.
    var selectorItems: [any SelectorItemModel] { get }
    /// The links, shown under the options.
    var linkItems: [any LinkItemModel] { get }
}

/// A client operation with polling (BankID): opened at ``UIOperationModel/url``, then a wait.
public protocol PollingOperationModel: UIOperationModel
where InteractionModelType == any PollingModel, ErrorInteractionModelType == any FormModel {}

/// A client operation that comes back with a URL (an external browser): the form that takes
/// what it came back with, and how to read that from the URL.
public protocol FormOperationModel: UIOperationModel
where InteractionModelType == any FormModel, ErrorInteractionModelType == any UIInteractionModel {
    /// The form that resumes the flow.
    var formActionModel: FormActionModel { get }
    /// The parameters of ``formActionModel`` from the URL the operation came back to.
    var buildParameters: @Sendable (URL) throws -> [String: any Sendable] { get }
}

/// A client operation the app handles itself (with a `GenericClientOperationHandler`, on UIKit).
public protocol GenericOperationModel: UIOperationModel
where InteractionModelType == any FormModel, ErrorInteractionModelType == any UIInteractionModel {
    /// The operation as received, for the app's handler.
    var actionModel: GenericClientOperationActionModel { get }
}

/// What a WebAuthn ceremony produced, for ``WebAuthnOperationModel/buildParametersWrapper``.
public protocol WebAuthnOperationParametersModel: Sendable {}

/// A passkey or security-key ceremony.
public protocol WebAuthnOperationModel: UIOperationModel
where InteractionModelType == any FormModel, ErrorInteractionModelType == any UIInteractionModel {
    /// The operation's model (registration or authentication).
    var actionModel: any RepresentationActionModel { get }
    /// The step's other ways on (a browser fallback, cancel).
    var otherActions: [any UIInteractionModel] { get }
    /// The parameters of the continue action for what the ceremony produced.
    var buildParametersWrapper: @Sendable (any WebAuthnOperationParametersModel) -> [String: any Sendable] { get }
}

// MARK: Elements

/// A message of a step or a problem (the seeds' `InfoMessageModel`).
public protocol InfoMessageModel: CustomDebugStringConvertible, CustomStringConvertible, Sendable {
    /// The key of the text in a table, when it has one.
    var key: String? { get }
    /// Why the message is shown (a field's problem reason), when known.
    var reason: String? { get }
    /// The text to show, when it is not only a key.
    var text: String? { get }
    /// How the message is styled (error, warning, heading, ...).
    var messageStyleAttribute: MessageStyleAttribute { get }
}

extension InfoMessageModel {
    /// The style and the text (or key), for debugging.
    public var description: String { "\(messageStyleAttribute.rawValue): \(text ?? key ?? "")" }
    /// The same as ``description``.
    public var debugDescription: String { description }
}

/// An element that can carry the server's complaint about its value.
public protocol InteractionErrorModel {
    /// The server's complaint about the value, shown with the element; `nil` for none.
    @MainActor var error: String? { get set }
}

/// An element of a form: a field, a button, a section title or a text.
public protocol InteractionItemModel: CustomDebugStringConvertible, CustomStringConvertible, Sendable {
    /// The field's name, or the element's id.
    var key: String { get }
    /// The text shown with the element.
    var label: String { get }
}

extension InteractionItemModel {
    /// The element's type and key, for debugging.
    public var description: String { "\(type(of: self))(\(key))" }
    /// The same as ``description``.
    public var debugDescription: String { description }
}

/// An element with a value the user gives.
public protocol InteractionValueModel: Sendable {
    /// The value the user gave, as submitted.
    @MainActor var value: String { get set }
    /// Whether the form cannot be submitted without a value.
    var isRequired: Bool { get }
}

extension InteractionValueModel {
    /// `true`: a value is required unless the model says otherwise.
    public var isRequired: Bool { true }
}

/// An element that submits, follows or chooses an action.
public protocol InteractionActionModel: Sendable {
    /// What it submits (a ``/HaapiSDK/FormActionModel``), chooses (a ``/HaapiSDK/SelectorActionModel``) or follows (a ``/HaapiSDK/Link``).
    var action: any RepresentationActionModel { get }
}

/// A title over the elements of one form, when a step offers several.
public protocol InteractionItemSectionModel: InteractionItemModel {}

/// A choice among values.
public protocol InteractionItemSelectModel: InteractionItemModel, InteractionValueModel {
    /// The action the choice belongs to, when it has one.
    var action: (any Action)? { get }
    /// (label, value) pairs.
    var options: [(String, String)] { get }
    /// The index of the chosen option in ``options``; `nil` when none is chosen.
    @MainActor var selectedPosition: Int? { get set }
}

/// How much a button stands out.
public enum InteractionItemButtonType: String, Sendable, CaseIterable {
    /// The step's main way on (`ActionableButton.Primary`).
    case primary
    /// Another way on (`ActionableButton.Secondary`).
    case secondary
    /// A way out, or a minor action (`ActionableButton.Text`).
    case text
    /// A link-like action.
    case link
}

/// A button.
public protocol InteractionItemButtonModel: InteractionActionModel, InteractionItemModel {
    /// How much the button stands out.
    var type: InteractionItemButtonType { get }
    /// The name of the button's icon in the theme's images, if it has one.
    var imageResourceName: String? { get }
}

/// A text between elements.
public protocol InteractionItemTextContentModel: InteractionItemModel {}

/// How a text field takes its input: keyboard, AutoFill, secrecy and length.
public struct InputTextConfiguration: Equatable, Hashable, Sendable {
    /// What the system may fill in (AutoFill).
    public enum ContentType: String, Sendable, CaseIterable {
        /// The AutoFill kinds the kit asks for (`UITextContentType` on Apple platforms); `none` asks for none.
        case username, password, newPassword, oneTimeCode, emailAddress, telephoneNumber, url, none
    }

    /// The keyboard to show.
    public enum Keyboard: String, Sendable, CaseIterable {
        /// The keyboards the kit asks for: plain, digits, e-mail, phone and URL.
        case text, number, email, phone, url
    }

    /// What the system may fill in.
    public let contentType: ContentType
    /// The keyboard to show.
    public let keyboard: Keyboard
    /// Whether the input is hidden as it is typed (passwords).
    public let isSecure: Bool
    /// The shortest accepted length.
    public let minLength: Int?
    /// The longest accepted length.
    public let maxLength: Int?

    /// A configuration.
    public init(
        contentType: ContentType = .none, keyboard: Keyboard = .text, isSecure: Bool = false, minLength: Int? = nil, maxLength: Int? = nil
    ) {
        (self.contentType, self.keyboard, self.isSecure, self.minLength, self.maxLength) = (
            contentType, keyboard, isSecure, minLength, maxLength
        )
    }
}

/// A text field.
public protocol InteractionItemInputTextModel: InteractionErrorModel, InteractionItemModel, InteractionValueModel {
    /// The hint shown in the empty field, if any.
    var placeholder: String? { get }
    /// How the field takes its input.
    var inputConfiguration: InputTextConfiguration { get }
}

/// A checkbox.
public protocol InteractionItemCheckboxModel: InteractionItemModel, InteractionValueModel {
    /// Shown but not changeable.
    var isReadOnly: Bool { get }
    /// Whether the box is checked: its ``InteractionValueModel/value`` is submitted only then.
    @MainActor var isChecked: Bool { get set }
}

/// A link of a step (the seeds' `LinkItemModel`).
public protocol LinkItemModel: CustomDebugStringConvertible, CustomStringConvertible, Sendable {
    /// The link's title, if it has one.
    var text: String? { get }
    /// Where the link goes, as the server sent it (it may be relative).
    var href: String { get }
    /// The media type of what it points to (`image/png` for a QR code), if the server said.
    var type: String? { get }
    /// The link as received.
    var link: Link { get }
    /// The link's relation (`help`, `activation`, ...).
    var rel: String { get }
}

extension LinkItemModel {
    /// The relation and the title (or address), for debugging.
    public var description: String { "link \(rel): \(text ?? href)" }
    /// The same as ``description``.
    public var debugDescription: String { description }
}

/// One option of a selector.
public protocol SelectorItemModel: CustomDebugStringConvertible, CustomStringConvertible, Sendable {
    /// The option's title.
    var title: String { get }
}

extension SelectorItemModel {
    /// The option's title, for debugging.
    public var description: String { "option \(title)" }
    /// The same as ``description``.
    public var debugDescription: String { description }
}

/// An option that chooses an action: submits its form, or shows its own options.
public protocol SelectorItemInteractionActionModel: InteractionActionModel, SelectorItemModel {
    /// What choosing the option submits or shows.
    var action: any RepresentationActionModel { get }
    /// The authenticator type (`html-form`, `sms`, ...), when the option is an authenticator.
    var type: String? { get }
    /// The name of the option's icon in the theme's images.
    var icon: String? { get }
    /// Whether choosing it keeps the selector on screen (tabs).
    var shouldKeepFocus: Bool { get }
}
