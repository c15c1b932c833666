import HaapiSDK
import OAuthCore

/// A step that offers nothing to do: no form, option, link or operation this layer can act on.
/// It names what the server sent, so the server's configuration (or a missing feature here) can
/// be found; the flow cannot go on.
public struct UnsupportedStepError: IdsvrError, Hashable {
    /// The step's type (`authentication-step`, ...).
    public let stepType: RepresentationType
    /// The templates of the step's actions, in order (empty when it has none).
    public let templates: [ActionTemplate]
    /// The server view that produced it (`metadata.viewName`), when sent.
    public let viewName: String?

    /// The error for `step`.
    public init(_ step: any HaapiRepresentation) {
        stepType = step.type
        templates = step.allActions.map(\.template)
        viewName = step.metadata?.viewName
    }

    /// Always `unsupported_step`.
    public var error: String { "unsupported_step" }
    /// The step's type and view, and the templates of its actions (or that it has none).
    public var errorDescription: String? {
        let actions =
            templates.isEmpty ? "no actions" : "actions of template " + templates.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")
        return "the step \(stepType.rawValue)\(viewName.map { " (\($0))" } ?? "") offers nothing to do: \(actions)"
    }
    /// The same for every step: the server sent nothing this client can act on.
    public var failureReason: String { "The server sent a step without any action this client can take." }
    /// Nothing to retry: the server's configuration (or this client) must change; see ``errorDescription``.
    public var recoverySuggestion: IdsvrErrorHandling { .unrecoverable(action: .introspectCause) }
}
