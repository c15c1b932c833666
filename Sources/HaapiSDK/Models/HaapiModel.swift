import Foundation
import OAuthCore

/// A decoded HAAPI document: a step or a problem.
public enum HaapiResponse: Sendable {
    /// A step (`application/vnd.auth+json`).
    case representation(any HaapiRepresentation)
    /// A problem (`application/problem+json`).
    case problem(any ProblemRepresentation)
}

/// Turns HAAPI documents into typed models (the seeds' `HaapiModel` factories).
public enum HaapiModel {
    /// The HAAPI step media type.
    public static let authMediaType = "application/vnd.auth+json"
    /// The problem media type (RFC 7807).
    public static let problemMediaType = "application/problem+json"

    /// Decodes a document. `contentType` (parameters ignored) says whether it is a step or a
    /// problem; without one, a `type` that is an absolute URI makes it a problem.
    /// - Throws: ``HaapiModelError`` naming what was wrong and where.
    public static func response(from data: Data, contentType: String? = nil) throws -> HaapiResponse {
        let json: JSONValue
        do {
            json = try JSONValue(parsing: data)
        } catch {
            throw HaapiModelError(.notJSON, path: "$", "the body is not JSON")
        }
        let mediaType = contentType?.split(separator: ";").first?.trimmingCharacters(in: .whitespaces).lowercased()
        let isProblem: Bool
        switch mediaType {
        case problemMediaType?: isProblem = true
        case authMediaType?: isProblem = false
        default: isProblem = json["type"]?.stringValue.map(isAbsoluteURI) ?? false
        }
        return isProblem ? .problem(try problem(from: json)) : .representation(try representation(from: json))
    }

    /// Decodes and classifies a step.
    public static func representation(from json: JSONValue) throws -> any HaapiRepresentation {
        let content = try RepresentationContent(JSONReader(json, path: "$"))
        let properties = try JSONReader(.object(content.properties), path: "properties")
        switch content.type {
        case .redirectionStep:
            if let action = content.actions.first(where: { $0.form != nil }) {
                return RedirectionStep(content: content, action: action)
            }
        case .pollingStep:
            return PollingStep(content: content, properties: try PollingProperties(properties))
        case .continueSameStep:
            return ContinueSameStep(content: content, continueActions: content.actions)
        case .userConsentStep, .consentorStep:
            return UserConsentStep(content: content)
        case .oauthAuthorizationResponse:
            return OAuthAuthorizationResponseStep(
                content: content, oauthAuthorizationResponseProperties: try OAuthAuthorizationResponseProperties(properties))
        case .authenticationStep, .registrationStep:
            if let step = classifyInteraction(content) { return step }
        default:
            break
        }
        return GenericRepresentationStep(content: content)
    }

    /// Authentication and registration steps: a client operation, an authenticator selector,
    /// or forms; anything else is left generic.
    private static func classifyInteraction(_ content: RepresentationContent) -> (any HaapiRepresentation)? {
        let actions = content.actions
        // A client operation next to forms (BankID offers "start the app" and "cancel" forms
        // beside the operation) is still a client-operation step.
        if let index = actions.firstIndex(where: { $0.clientOperation != nil }),
            actions.indices.allSatisfy({ $0 == index || actions[$0].form != nil }),
            let operation = actions[index].clientOperation
        {
            let action = actions[index]
            switch operation.name {
            case .externalBrowserFlow: return ExternalBrowserClientOperationStep(content: content, action: action)
            case .bankID: return BankIdClientOperationStep(content: content, action: action)
            case .encapAutoActivation: return EncapClientOperationStep(content: content, action: action)
            case .webAuthnRegistration: return WebAuthnRegistrationClientOperationStep(content: content, action: action)
            case .webAuthnAuthentication: return WebAuthnAuthenticationClientOperationStep(content: content, action: action)
            default: return GenericClientOperationStep(content: content, action: action)
            }
        }
        if let selector = actions.first(where: { action in
            guard let options = action.selector?.options, !options.isEmpty else { return false }
            return options.allSatisfy { $0.kind == .selectAuthenticator && $0.form != nil }
        }) {
            return AuthenticatorSelectorStep(content: content, selector: selector)
        }
        if !actions.isEmpty, actions.allSatisfy({ $0.form != nil }) {
            return InteractiveFormStep(content: content)
        }
        return nil
    }

    /// Decodes and classifies a problem.
    public static func problem(from json: JSONValue) throws -> any ProblemRepresentation {
        let reader = try JSONReader(json, path: "$")
        let content = try ProblemContent(reader)
        switch content.type {
        case .invalidInput:
            let fields = try reader.objects("invalidFields") { field in
                InvalidInputProblem.InvalidField(
                    name: try field.string("name"), reason: try field.optionalString("reason"),
                    detail: try field.optionalString("detail"))
            }
            return InvalidInputProblem(problemContent: content, invalidFields: fields)
        case .errorAuthorizationResponse:
            return AuthorizationProblem(
                problemContent: content, error: try reader.optionalString("error"),
                errorDescription: try reader.optionalString("error_description"), iss: try reader.optionalString("iss"))
        default:
            return Problem(problemContent: content)
        }
    }

    private static func isAbsoluteURI(_ text: String) -> Bool {
        guard let colon = text.firstIndex(of: ":"), colon != text.startIndex else { return false }
        return text[..<colon].allSatisfy { $0.isLetter || $0.isNumber || "+-.".contains($0) } && text[..<colon].first!.isLetter
    }
}
