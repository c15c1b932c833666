import Foundation
import HaapiSDK

/// Makes the UI model of a HAAPI response (the seeds' `UIModelFactory`), for
/// ``DataMapperBuilder/customize(modelType:handler:)``.
public typealias UIModelFactory = @Sendable (any HaapiResponse) throws -> any UIModel

/// Makes the OAuth model of a token response (Curity's `OAuthModelFactory`), for
/// ``OAuthDataMapperBuilder/customize(modelType:handler:)``.
public typealias OAuthModelFactory = @Sendable (any OAuthResponse) throws -> any OAuthModel

/// Maps the server's steps and problems to the models the screens show (the seeds'
/// `DataMapper`). ``KitDataMapper`` is the kit's; ``DataMapperBuilder`` changes how some kinds of
/// response are mapped and keeps the kit's mapping for the others. Set one with
/// ``HaapiUIKitApplicationBuilder/setDataMapper(_:)``.
public protocol DataMapper: Sendable {
    /// The model of a step (any ``UIInteractionModel``) or a problem (a ``ProblemModel``).
    /// - Throws: the failure an `error` result holds, or any error to end the flow with
    ///   (``HaapiUIKitError/unsupportedMap(objName:expectedObjName:)`` says a step cannot be shown).
    func mapHaapiResultToUIModel(haapiResult: HaapiResult) throws -> any UIModel
    /// The model of an action's model shown on its own (an option's form or options).
    func mapRepresentationActionModelToUIInteractionModel(representationActionModel: any RepresentationActionModel) throws
        -> any UIInteractionModel
    /// The model of a step.
    func mapHaapiRepresentationToInteraction(haapiRepresentation: any HaapiRepresentation) throws -> any UIInteractionModel
    /// The model shown once `item` of a selector on `step` is chosen (its form to fill in, or its
    /// options). By default, the model of the item's action.
    func mapSelection(_ item: any SelectorItemInteractionActionModel, on step: any HaapiRepresentation) throws -> any UIInteractionModel
}

extension DataMapper {
    /// The model of the item's action
    /// (``DataMapper/mapRepresentationActionModelToUIInteractionModel(representationActionModel:)``),
    /// whatever the step.
    public func mapSelection(_ item: any SelectorItemInteractionActionModel, on step: any HaapiRepresentation) throws
        -> any UIInteractionModel
    {
        try mapRepresentationActionModelToUIInteractionModel(representationActionModel: item.action)
    }
}

/// Makes a ``DataMapper`` that maps some kinds of response the app's way (the seeds'
/// `DataMapperBuilder`).
///
/// ```swift
/// let stock = DataMapperBuilder(redirectTo: redirect, autoPollingDuration: 3, authSelectionPresentation: .list).build()
/// let mapper = DataMapperBuilder(redirectTo: redirect, autoPollingDuration: 3, authSelectionPresentation: .list)
///     .customize(modelType: PollingStep.self) { response in
///         // The company's screen for every wait, made from the kit's model of it.
///         CompanyWaitModel(try stock.mapHaapiResultToUIModel(haapiResult: .representation(response as! PollingStep)))
///     }
///     .build()
/// ```
public final class DataMapperBuilder {
    private let base: KitDataMapper
    private var handlers = HandlersByType<any HaapiResponse, any UIModel>()

    /// A builder over the kit's mapping with these settings (relative `href`s of external
    /// browsers are resolved only with a `baseURL`: see ``init(redirectTo:autoPollingDuration:authSelectionPresentation:baseURL:)``).
    public convenience init(
        redirectTo: String, autoPollingDuration: TimeInterval, authSelectionPresentation: AuthenticatorSelectionPresentation
    ) {
        self.init(
            base: KitDataMapper(presentation: authSelectionPresentation, autoPollingDuration: autoPollingDuration, appRedirect: redirectTo))
    }

    /// A builder over the kit's mapping with these settings and the server's base URL.
    public convenience init(
        redirectTo: String, autoPollingDuration: TimeInterval, authSelectionPresentation: AuthenticatorSelectionPresentation, baseURL: URL
    ) {
        self.init(
            base: KitDataMapper(
                presentation: authSelectionPresentation, autoPollingDuration: autoPollingDuration, appRedirect: redirectTo, baseURL: baseURL
            ))
    }

    /// A builder over the kit's mapping for `configuration`.
    public convenience init(configuration: HaapiUIKitConfiguration) {
        self.init(base: KitDataMapper(configuration: configuration))
    }

    /// A builder over `base`.
    public init(base: KitDataMapper) {
        self.base = base
    }

    /// Maps responses of type `T` (a step or problem type) with `handler`; a later customisation
    /// of the same type wins.
    @discardableResult
    public func customize<T: HaapiResponse>(modelType: T.Type, handler: @escaping UIModelFactory) -> DataMapperBuilder {
        handlers.add(for: T.self, handler)
        return self
    }

    /// The mapper.
    public func build() -> any DataMapper { CustomizedDataMapper(base: base, handlers: handlers) }
}

/// The kit's mapping, unless a handler for the response's type maps it.
private struct CustomizedDataMapper: DataMapper {
    let base: KitDataMapper
    let handlers: HandlersByType<any HaapiResponse, any UIModel>

    private func custom(_ response: any HaapiResponse) throws -> (any UIModel)? { try handlers.map(response) }

    func mapHaapiResultToUIModel(haapiResult: HaapiResult) throws -> any UIModel {
        switch haapiResult {
        case .representation(let step): return try custom(step) ?? base.mapHaapiResultToUIModel(haapiResult: haapiResult)
        case .problem(let problem): return try custom(problem) ?? base.mapHaapiResultToUIModel(haapiResult: haapiResult)
        case .error: return try base.mapHaapiResultToUIModel(haapiResult: haapiResult)
        }
    }

    func mapRepresentationActionModelToUIInteractionModel(representationActionModel: any RepresentationActionModel) throws
        -> any UIInteractionModel
    {
        try base.mapRepresentationActionModelToUIInteractionModel(representationActionModel: representationActionModel)
    }

    func mapHaapiRepresentationToInteraction(haapiRepresentation: any HaapiRepresentation) throws -> any UIInteractionModel {
        guard let mapped = try custom(haapiRepresentation) else {
            return try base.mapHaapiRepresentationToInteraction(haapiRepresentation: haapiRepresentation)
        }
        guard let interaction = mapped as? any UIInteractionModel else {
            throw HaapiUIKitError.unsupportedMap(objName: "\(type(of: mapped))", expectedObjName: "a UIInteractionModel")
        }
        return interaction
    }

    func mapSelection(_ item: any SelectorItemInteractionActionModel, on step: any HaapiRepresentation) throws -> any UIInteractionModel {
        try base.mapSelection(item, on: step)
    }
}

/// Maps the token endpoint's answer at the end of a flow, and of a refresh, to the model the app
/// receives (the seeds' `OAuthDataMapper`).
public protocol OAuthDataMapper: Sendable {
    /// The model of `tokenResponse`: an ``OAuthTokenModel``, an ``OAuthErrorModel``, or one of the app's.
    /// - Throws: the failure `tokenResponse` holds, or any error to end the flow with.
    func mapTokenResponseToOAuthModel(tokenResponse: TokenResponse) throws -> any OAuthModel
}

/// Makes an ``OAuthDataMapper`` (the seeds' `OAuthDataMapperBuilder`): tokens become a
/// ``KitOAuthTokenModel`` and errors a ``KitOAuthErrorModel`` unless a handler says otherwise.
public final class OAuthDataMapperBuilder {
    private var handlers = HandlersByType<any OAuthResponse, any OAuthModel>()

    /// A builder of the kit's mapping.
    public init() {}

    /// Maps token responses of type `T` (``/HaapiSDK/SuccessfulTokenResponse`` or ``/HaapiSDK/ErrorTokenResponse``)
    /// with `handler`; a later customisation of the same type wins.
    @discardableResult
    public func customize<T: OAuthResponse>(modelType: T.Type, handler: @escaping OAuthModelFactory) -> OAuthDataMapperBuilder {
        handlers.add(for: T.self, handler)
        return self
    }

    /// The mapper.
    public func build() -> any OAuthDataMapper { KitOAuthDataMapper(handlers: handlers) }
}

struct KitOAuthDataMapper: OAuthDataMapper {
    var handlers = HandlersByType<any OAuthResponse, any OAuthModel>()

    func mapTokenResponseToOAuthModel(tokenResponse: TokenResponse) throws -> any OAuthModel {
        switch tokenResponse {
        case .successfulToken(let response): return try custom(response) ?? KitOAuthTokenModel(response)
        case .errorToken(let response): return try custom(response) ?? KitOAuthErrorModel(response)
        case .error(let failure): throw failure
        }
    }

    private func custom(_ response: any OAuthResponse) throws -> (any OAuthModel)? { try handlers.map(response) }
}

/// The app's handlers of a builder, by the type of response each maps: the one for a response's
/// own type maps it, and a handler added later for a type replaces the earlier one.
struct HandlersByType<Response, Model>: Sendable {
    private var handlers: [ObjectIdentifier: @Sendable (Response) throws -> Model] = [:]

    /// Maps responses of `type` with `handler`.
    mutating func add(for type: Any.Type, _ handler: @escaping @Sendable (Response) throws -> Model) {
        handlers[ObjectIdentifier(type)] = handler
    }

    /// What the handler for the type of `response` makes of it; `nil` when none is for that type.
    func map(_ response: Response) throws -> Model? {
        // `as Any` unwraps an existential, so the lookup is by the response's own type.
        try handlers[ObjectIdentifier(type(of: response as Any))].map { try $0(response) }
    }
}
