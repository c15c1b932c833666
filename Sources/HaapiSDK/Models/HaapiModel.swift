import Foundation
import OAuthCore

/// A decoded HAAPI document, by what it is: a step or a problem.
public enum HaapiDocument: Sendable {
    /// A step (`application/vnd.auth+json`).
    case representation(any HaapiRepresentation)
    /// A problem (`application/problem+json`).
    case problem(any ProblemRepresentation)

    /// The document, whatever it is.
    public var response: any HaapiResponse {
        switch self {
        case .representation(let step): return step
        case .problem(let problem): return problem
        }
    }
}

/// Turns HAAPI documents into typed models; its factory enums (``ContentFactory``,
/// ``StepFactory``, ...) make models from values, as tests and previews need.
public enum HaapiModel {
    /// The HAAPI step media type.
    public static let authMediaType = "application/vnd.auth+json"
    /// The problem media type (RFC 7807).
    public static let problemMediaType = "application/problem+json"

    /// Decodes a document. `contentType` (parameters ignored) says whether it is a step or a
    /// problem; without one, a `type` that is an absolute URI makes it a problem.
    /// - Throws: ``HaapiModelError`` naming what was wrong and where.
    public static func response(from data: Data, contentType: String? = nil) throws -> HaapiDocument {
        let json: JSONValue
        do {
            json = try JSONValue(parsing: data)
        } catch {
            throw HaapiModelError(.notJSON, path: "$", "the body is not JSON")
        }
        let mediaType = TransportResponse.mediaType(of: contentType)
        let isProblem: Bool
        switch mediaType {
        case problemMediaType?: isProblem = true
        case authMediaType?: isProblem = false
        default: isProblem = json["type"]?.stringValue.map(isAbsoluteURI) ?? false
        }
        return isProblem ? .problem(try problem(from: json)) : .representation(try representation(from: json))
    }

    /// Decodes and classifies a step.
    /// - Throws: ``HaapiModelError``; its code is `haapi_unknown_step_type` for a `type` this SDK does not know.
    public static func representation(from json: JSONValue) throws -> any HaapiRepresentation {
        let parts = try _RepresentationParts(JSONReader(json, path: "$"))
        switch parts.type {
        case .redirectionStep:
            if let action = parts.actions.lazy.compactMap({ $0 as? FormAction }).first {
                return RedirectionStep(parts, redirectAction: action)
            }
        case .pollingStep:
            if let step = PollingStep(parts, properties: try PollingProperties(parts.propertiesReader)) { return step }
        case .continueSameStep:
            return ContinueSameStep(parts, actions: parts.actions)
        case .userConsentStep, .consentorStep:
            return UserConsentStep(parts)
        case .oauthAuthorizationResponse:
            return OAuthAuthorizationResponseStep(parts, properties: try OAuthAuthorizationResponseProperties(parts.propertiesReader))
        case .authenticationStep, .registrationStep:
            if let step = classifyInteraction(parts) { return step }
        }
        return GenericRepresentationStep(parts)
    }

    /// Authentication and registration steps: a client operation, an authenticator selector,
    /// or forms; anything else is left generic.
    private static func classifyInteraction(_ parts: _RepresentationParts) -> (any HaapiRepresentation)? {
        let actions = parts.actions
        // A client operation next to forms (BankID offers "start the app" and "cancel" forms
        // beside the operation) is still a client-operation step.
        if let index = actions.firstIndex(where: { $0 is ClientOperationAction }),
            actions.indices.allSatisfy({ $0 == index || actions[$0] is FormAction }),
            let operation = actions[index] as? ClientOperationAction
        {
            switch operation.model {
            case let model as ExternalBrowserClientOperationActionModel:
                if let step = ExternalBrowserClientOperationStep(parts, model: model) { return step }
            case let model as BankIdClientOperationActionModel:
                return BankIdClientOperationStep(parts, model: model)
            case let model as EncapAutoActivationClientOperationActionModel:
                return EncapClientOperationStep(parts, model: model)
            case let model as WebAuthnRegistrationClientOperationActionModel:
                if let step = WebAuthnRegistrationClientOperationStep(parts, model: model) { return step }
            case let model as WebAuthnAuthenticationClientOperationActionModel:
                if let step = WebAuthnAuthenticationClientOperationStep(parts, model: model) { return step }
            default:
                break
            }
            // A known operation without what its typed step needs is handled as any other.
            guard let reader = try? JSONReader(operation.model.rawJSON, path: "model"), let generic = try? _OperationParts(reader) else {
                return nil
            }
            return GenericClientOperationStep(parts, model: GenericClientOperationActionModel(generic))
        }
        if let selector = actions.lazy.compactMap({ $0 as? SelectorAction }).first(where: { selector in
            let options = selector.model.options
            return !options.isEmpty && options.allSatisfy { $0.kind == .selectAuthenticator && $0 is FormAction }
        }) {
            return AuthenticatorSelectorStep(parts, selector: selector)
        }
        if !actions.isEmpty, case let forms = actions.compactMap({ $0 as? FormAction }), forms.count == actions.count {
            return InteractiveFormStep(parts, actions: forms)
        }
        return nil
    }

    /// Decodes and classifies a problem.
    public static func problem(from json: JSONValue) throws -> any ProblemRepresentation {
        let reader = try JSONReader(json, path: "$")
        let parts = try _ProblemParts(reader)
        switch parts.type {
        case .invalidInputProblem: return try InvalidInputProblem(parts, reader: reader)
        case .errorAuthorizationResponseProblem: return try AuthorizationProblem(parts, reader: reader)
        default: return Problem(parts)
        }
    }

    private static func isAbsoluteURI(_ text: String) -> Bool {
        guard let colon = text.firstIndex(of: ":"), colon != text.startIndex else { return false }
        return text[..<colon].allSatisfy { $0.isLetter || $0.isNumber || "+-.".contains($0) } && text[..<colon].first!.isLetter
    }
}
