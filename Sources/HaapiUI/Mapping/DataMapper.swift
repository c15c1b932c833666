import Foundation
import HaapiSDK

/// Maps the server's steps to the models the screens show (the seeds' `DataMapper`).
/// ``UIModelFactory`` is the kit's; ``DataMapperBuilder`` changes how one kind of step is
/// mapped and keeps the kit's mapping for the others. Set one with
/// ``HaapiUIKitApplicationBuilder/setDataMapper(_:)``.
public protocol DataMapper: Sendable {
    /// The model of `haapiRepresentation`, with `problem` attached to its fields and the
    /// non-secret values the user entered last.
    /// - Throws: any error, to end the flow with it (``HaapiUIKitError/unsupportedMap(objName:expectedObjName:)``
    ///   says a step cannot be shown).
    func mapHaapiRepresentationToUIModel(
        _ haapiRepresentation: any HaapiRepresentation, problem: (any ProblemRepresentation)?, enteredValues: [String: String]
    ) throws -> UIModel

    /// The model shown once `option` of a selector on `current` is chosen; `nil` when choosing
    /// it is submitting its form.
    func mapSelectorOption(_ option: SelectorOptionModel, on current: UIModel) -> UIModel?
}

extension UIModelFactory: DataMapper {
    public func mapHaapiRepresentationToUIModel(
        _ haapiRepresentation: any HaapiRepresentation, problem: (any ProblemRepresentation)?, enteredValues: [String: String]
    ) throws -> UIModel {
        makeUIModel(haapiRepresentation, problem: problem, enteredValues: enteredValues)
    }

    public func mapSelectorOption(_ option: SelectorOptionModel, on current: UIModel) -> UIModel? {
        makeUIModel(choosing: option, on: current)
    }
}

/// Makes a ``DataMapper`` that maps some kinds of step the app's way (the seeds'
/// `DataMapperBuilder`).
///
/// ```swift
/// let mapper = DataMapperBuilder(configuration: configuration)
///     .customize(modelType: PollingStep.self) { step, model in
///         // The company's text on every wait.
///         UIModel(representation: step, content: model.content, messages: [MessageModel(text: "Hang on…", classList: ["info"])],
///                 links: model.links, forms: model.forms, selectors: model.selectors, problem: model.problem)
///     }
///     .build()
/// ```
public final class DataMapperBuilder {
    private let base: UIModelFactory
    private var handlers: [CustomizedDataMapper.Handler] = []

    /// A builder over the kit's mapping with these settings.
    /// - Parameters:
    ///   - redirectTo: the app's redirect (for external-browser steps).
    ///   - baseURL: the server's base URL, for relative `href`s.
    public convenience init(
        redirectTo: String, autoPollingDuration: TimeInterval, authSelectionPresentation: AuthenticatorSelectionPresentation, baseURL: URL
    ) {
        self.init(base: UIModelFactory(
            presentation: authSelectionPresentation, autoPollingDuration: autoPollingDuration, appRedirect: redirectTo, baseURL: baseURL))
    }

    /// A builder over the kit's mapping for `configuration`.
    public convenience init(configuration: HaapiUIKitConfiguration) {
        self.init(base: UIModelFactory(configuration: configuration))
    }

    /// A builder over `base`.
    public init(base: UIModelFactory) {
        self.base = base
    }

    /// Maps steps of type `T` with `handler`, given the step and the kit's model of it; a later
    /// customisation of the same type wins.
    @discardableResult
    public func customize<T: HaapiRepresentation>(modelType: T.Type, handler: @escaping @Sendable (T, UIModel) throws -> UIModel) -> DataMapperBuilder {
        handlers.insert({ step, model in
            guard let step = step as? T else { return nil }
            return try handler(step, model)
        }, at: 0)
        return self
    }

    /// The mapper.
    public func build() -> any DataMapper {
        CustomizedDataMapper(base: base, handlers: handlers)
    }
}

/// The kit's mapping, then the first handler for the step's type.
private struct CustomizedDataMapper: DataMapper {
    typealias Handler = @Sendable (any HaapiRepresentation, UIModel) throws -> UIModel?
    let base: UIModelFactory
    let handlers: [Handler]

    func mapHaapiRepresentationToUIModel(
        _ haapiRepresentation: any HaapiRepresentation, problem: (any ProblemRepresentation)?, enteredValues: [String: String]
    ) throws -> UIModel {
        let model = base.makeUIModel(haapiRepresentation, problem: problem, enteredValues: enteredValues)
        for handler in handlers {
            if let mapped = try handler(haapiRepresentation, model) { return mapped }
        }
        return model
    }

    func mapSelectorOption(_ option: SelectorOptionModel, on current: UIModel) -> UIModel? {
        base.makeUIModel(choosing: option, on: current)
    }
}

/// Maps the token endpoint's answer at the end of a flow, and of a refresh, to the model the app
/// receives (the seeds' `OAuthDataMapper`).
public protocol OAuthDataMapper: Sendable {
    /// The model of `tokenResponse`: an ``OAuthTokenModel``, an ``OAuthErrorModel``, or one of the app's.
    /// - Throws: the failure `tokenResponse` holds, or any error to end the flow with.
    func mapTokenResponseToOAuthModel(tokenResponse: TokenResponse) throws -> OAuthModel
}

/// Makes an ``OAuthDataMapper`` (the seeds' `OAuthDataMapperBuilder`): tokens become an
/// ``OAuthTokenModel`` and errors an ``OAuthErrorModel`` unless a handler says otherwise.
public final class OAuthDataMapperBuilder {
    private var tokens: (@Sendable (SuccessfulTokenResponse) throws -> OAuthModel)?
    private var errors: (@Sendable (ErrorTokenResponse) throws -> OAuthModel)?

    /// A builder of the kit's mapping.
    public init() {}

    /// Maps successful token responses with `handler`.
    @discardableResult
    public func customize(modelType: SuccessfulTokenResponse.Type, handler: @escaping @Sendable (SuccessfulTokenResponse) throws -> OAuthModel) -> OAuthDataMapperBuilder {
        tokens = handler
        return self
    }

    /// Maps the server's OAuth errors with `handler`.
    @discardableResult
    public func customize(modelType: ErrorTokenResponse.Type, handler: @escaping @Sendable (ErrorTokenResponse) throws -> OAuthModel) -> OAuthDataMapperBuilder {
        errors = handler
        return self
    }

    /// The mapper.
    public func build() -> any OAuthDataMapper {
        KitOAuthDataMapper(tokens: tokens, errors: errors)
    }
}

struct KitOAuthDataMapper: OAuthDataMapper {
    var tokens: (@Sendable (SuccessfulTokenResponse) throws -> OAuthModel)?
    var errors: (@Sendable (ErrorTokenResponse) throws -> OAuthModel)?

    func mapTokenResponseToOAuthModel(tokenResponse: TokenResponse) throws -> OAuthModel {
        switch tokenResponse {
        case .successfulToken(let response): return try tokens?(response) ?? OAuthTokenModel(response)
        case .errorToken(let response): return try errors?(response) ?? OAuthErrorModel(response)
        case .error(let failure): throw failure
        }
    }
}
