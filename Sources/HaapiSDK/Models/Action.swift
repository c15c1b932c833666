import Foundation
import OAuthCore

/// An action the user (or the client) can take on a step (the seeds' `Action`).
///
/// The `model` depends on the `template`; an unknown template keeps its model as raw JSON,
/// so nothing is lost and the step still decodes.
public struct Action: RawJsonRepresentable, Hashable {
    /// How the action is presented and submitted.
    public let template: ActionTemplate
    /// What the action does.
    public let kind: ActionKind
    /// The title to show.
    public let title: String?
    /// Extra properties, such as `authenticatorType` on authenticator options.
    public let properties: [String: JSONValue]
    /// The template's model.
    public let model: ActionModel
    public let rawJSON: JSONValue

    init(_ reader: JSONReader) throws {
        template = ActionTemplate(rawValue: try reader.optionalString("template") ?? "")
        kind = ActionKind(rawValue: try reader.optionalString("kind") ?? "")
        title = try reader.optionalString("title")
        properties = try reader.optionalObject("properties")?.members ?? [:]
        let model = try reader.optionalObject("model")
        switch template {
        case .form:
            guard let model else { throw HaapiModelError(.missingMember, path: reader.child("model"), "a form action has no model") }
            self.model = .form(try FormActionModel(model))
        case .selector:
            guard let model else { throw HaapiModelError(.missingMember, path: reader.child("model"), "a selector action has no model") }
            self.model = .selector(try SelectorActionModel(model))
        case .clientOperation:
            guard let model else {
                throw HaapiModelError(.missingMember, path: reader.child("model"), "a client-operation action has no model")
            }
            self.model = .clientOperation(try ClientOperationActionModel(model))
        default:
            self.model = .other(model?.raw)
        }
        rawJSON = reader.raw
    }

    /// The form model, if this is a form action.
    public var form: FormActionModel? {
        if case .form(let model) = model { return model }
        return nil
    }

    /// The selector model, if this is a selector action.
    public var selector: SelectorActionModel? {
        if case .selector(let model) = model { return model }
        return nil
    }

    /// The client-operation model, if this is a client-operation action.
    public var clientOperation: ClientOperationActionModel? {
        if case .clientOperation(let model) = model { return model }
        return nil
    }

    /// `properties.authenticatorType`, on authenticator options.
    public var authenticatorType: String? { properties["authenticatorType"]?.stringValue }

    /// The launch this action asks for, when it is one in an older or unknown shape: a template
    /// this SDK does not model (Curity's legacy `launch`) whose kind is `external-browser`, or whose
    /// template is `launch`, with an `href` in its model. Such an action is an external-browser
    /// operation in all but name: open `href`, come back with `_resume_nonce`, submit the continue action.
    public var launch: LaunchActionModel? {
        guard case .other(let model?) = model, kind == .externalBrowser || template == .launch,
            let reader = try? JSONReader(model, path: "model")
        else { return nil }
        return try? LaunchActionModel(reader)
    }
}

/// The model of a launch action in an older or unknown shape (see ``Action/launch``).
public struct LaunchActionModel: RawJsonRepresentable, Hashable {
    /// What to open.
    public let href: String
    /// The button's title.
    public let actionTitle: String?
    /// What to submit once the browser comes back (with `_resume_nonce`).
    public let continueActions: [Action]
    /// What to submit when the launch fails.
    public let errorActions: [Action]
    public let rawJSON: JSONValue

    init(_ reader: JSONReader) throws {
        href = try reader.string("href")
        actionTitle = try reader.optionalString("actionTitle")
        continueActions = try reader.objects("continueActions", Action.init)
        errorActions = try reader.objects("errorActions", Action.init)
        rawJSON = reader.raw
    }
}

/// The model of an action, by template.
public enum ActionModel: Sendable, Hashable {
    /// A form (template `form`).
    case form(FormActionModel)
    /// A choice between nested actions (template `selector`).
    case selector(SelectorActionModel)
    /// An operation the client performs (template `client-operation`).
    case clientOperation(ClientOperationActionModel)
    /// An unknown template: its model as received, if it had one.
    case other(JSONValue?)
}

/// A form to submit (the seeds' `FormActionModel`).
public struct FormActionModel: RawJsonRepresentable, Hashable {
    /// Where to submit; may be relative to the server's base URL.
    public let href: String
    /// The HTTP method (default `GET`).
    public let method: String
    /// The body's media type (default `application/x-www-form-urlencoded`; WebAuthn uses `application/json`).
    public let type: String
    /// The submit button's title.
    public let actionTitle: String?
    /// The fields.
    public let fields: [FormField]
    /// The actions offered after submitting, when the server answers with a continue-same-step.
    public let continueActions: [Action]
    /// The actions offered when the operation fails.
    public let errorActions: [Action]
    public let rawJSON: JSONValue

    init(_ reader: JSONReader) throws {
        href = try reader.string("href")
        method = (try reader.optionalString("method") ?? "GET").uppercased()
        type = try reader.optionalString("type") ?? "application/x-www-form-urlencoded"
        actionTitle = try reader.optionalString("actionTitle")
        fields = try reader.objects("fields", FormField.init)
        continueActions = try reader.objects("continueActions", Action.init)
        errorActions = try reader.objects("errorActions", Action.init)
        rawJSON = reader.raw
    }

    /// The field named `name`.
    public func field(_ name: String) -> FormField? { fields.first { $0.name == name } }

    /// Values of any type, by field name, as text to submit: a `String` as it is; a `Bool` for
    /// a checkbox as the checkbox's value (`on` by default) when `true` and the empty string
    /// (unchecked) when `false`, elsewhere `true` or `false`; anything else as its description.
    public func fieldValues(_ parameters: [String: Any]) -> [String: String] {
        parameters.reduce(into: [:]) { result, entry in
            switch entry.value {
            case let text as String:
                result[entry.key] = text
            case let flag as Bool:
                if let checkbox = field(entry.key), checkbox.type == .checkbox {
                    result[entry.key] = flag ? (checkbox.value ?? "on") : ""
                } else {
                    result[entry.key] = flag ? "true" : "false"
                }
            default:
                result[entry.key] = String(describing: entry.value)
            }
        }
    }

    /// The parameters to submit: the caller's values for the fields they name, and every
    /// other field's default (hidden fields and readonly checkboxes unchanged). Fields with no
    /// value are left out; parameters the caller gives that name no field are sent too.
    public func parameters(with values: [String: String]) -> [(String, String)] {
        var result: [(String, String)] = []
        for field in fields {
            let value: String?
            if field.type == .hidden {
                value = field.value ?? values[field.name]
            } else if field.type == .checkbox && field.isReadonly {
                value = field.defaultValue
            } else if field.type == .checkbox && values[field.name]?.isEmpty == true {
                // Unchecked: left out, as a browser leaves it out (RFC 1866 §8.1.2.3); an empty
                // value would still name the box, and a server may read that as checked.
                value = nil
            } else {
                value = values[field.name] ?? field.defaultValue
            }
            if let value { result.append((field.name, value)) }
        }
        let named = Set(fields.map(\.name))
        result += values.filter { !named.contains($0.key) }.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
        return result
    }
}

/// A choice between actions (the seeds' `SelectorActionModel`); options may nest.
public struct SelectorActionModel: RawJsonRepresentable, Hashable {
    /// The options, each an action of its own.
    public let options: [Action]
    public let rawJSON: JSONValue

    init(_ reader: JSONReader) throws {
        options = try reader.objects("options", Action.init)
        rawJSON = reader.raw
    }
}

/// An operation the client performs itself (the seeds' `ClientOperationActionModel`), such as
/// opening an external browser or the BankID app, then continuing with `continueActions`.
public struct ClientOperationActionModel: RawJsonRepresentable, Hashable {
    /// The operation.
    public let name: ClientOperationName
    /// Its arguments, as received.
    public let arguments: [String: JSONValue]
    /// What to do once the operation is done.
    public let continueActions: [Action]
    /// What to do when it fails.
    public let errorActions: [Action]
    public let rawJSON: JSONValue

    init(_ reader: JSONReader) throws {
        name = ClientOperationName(rawValue: try reader.string("name"))
        arguments = try reader.optionalObject("arguments")?.members ?? [:]
        continueActions = try reader.objects("continueActions", Action.init)
        errorActions = try reader.objects("errorActions", Action.init)
        rawJSON = reader.raw
    }

    /// A string argument.
    public func argument(_ name: String) -> String? { arguments[name]?.stringValue }
}
