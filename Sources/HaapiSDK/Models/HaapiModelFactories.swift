import Foundation
import OAuthCore

// The factories make models from values, as an app's tests and previews need them. Each model's
// JSON (`rawJSON`, `encode(to:)`) is composed from the values' own, so a made step encodes as a
// server would have sent it.

extension HaapiModel {
    /// Texts, messages and rendering hints.
    public enum ContentFactory {
        /// Rendering hints; `nil` when both are `nil`.
        public static func metadata(templateArea: String?, viewName: String?) -> Metadata? {
            templateArea == nil && viewName == nil ? nil : Metadata(templateArea: templateArea, viewName: viewName)
        }

        /// A text.
        public static func message(key: String?, literal: String) -> Message { Message(key: key, literal: literal) }

        /// A message with its classes.
        public static func userMessage(text: Message, classList: [String]) -> UserMessage { UserMessage(text: text, classList: classList) }
    }

    /// Actions.
    public enum ActionFactory {
        /// A form action.
        public static func form(properties: FormAction.Properties?, model: FormActionModel, kind: ActionKind, title: Message?) -> FormAction
        {
            FormAction(parts("form", kind, title, model.rawJSON, properties?.rawJSON), model: model, properties: properties)
        }

        /// A selector action.
        public static func selector(properties: SelectorAction.Properties?, model: SelectorActionModel, kind: ActionKind, title: Message?)
            -> SelectorAction
        {
            SelectorAction(parts("selector", kind, title, model.rawJSON, properties?.rawJSON), model: model, properties: properties)
        }

        /// A client-operation action.
        public static func clientOperation(
            properties: ClientOperationAction.Properties?, model: any ClientOperationActionModelRepresentation, kind: ActionKind,
            title: Message?
        ) -> ClientOperationAction {
            ClientOperationAction(
                parts("client-operation", kind, title, model.rawJSON, properties?.rawJSON), model: model, properties: properties)
        }

        /// The parts of an action made from values: its JSON is composed from theirs.
        private static func parts(_ template: String, _ kind: ActionKind, _ title: Message?, _ model: JSONValue, _ properties: JSONValue?)
            -> _ActionParts
        {
            var members: [String: JSONValue] = ["template": .string(template), "kind": .string(kind.rawValue), "model": model]
            members["title"] = title?.json
            members["properties"] = properties
            return _ActionParts(kind: kind, title: title, raw: .object(members))
        }
    }

    /// Action models and links.
    public enum ActionModelFactory {
        /// A form.
        public static func form(
            actionTitle: Message?, continueActions: [any Action], errorActions: [any Action], fields: [any FormField], type: String?,
            method: String,
            href: String
        ) -> FormActionModel {
            FormActionModel(
                actionTitle: actionTitle, continueActions: continueActions, errorActions: errorActions, fields: fields, type: type,
                method: method, href: href)
        }

        /// A selector of `options`.
        public static func selector(options: [any Action]) -> SelectorActionModel { SelectorActionModel(options: options) }

        /// Any client operation.
        public static func clientOperation(
            arguments: [String: any Sendable], name: ClientOperationName, continueActions: [any Action], errorActions: [any Action]
        ) -> ClientOperationActionModel {
            ClientOperationActionModel(parts(arguments, name, continueActions, errorActions))
        }

        /// `external-browser-flow`.
        /// - Throws: ``HaapiModelError`` when `arguments` has no `href`.
        public static func externalBrowserClientOperation(
            arguments: [String: String], name: ClientOperationName, continueActions: [any Action], errorActions: [any Action]
        ) throws -> ExternalBrowserClientOperationActionModel {
            try typed(ExternalBrowserClientOperationActionModel(parts(arguments, name, continueActions, errorActions)), "href")
        }

        /// `bankid`.
        /// - Throws: ``HaapiModelError`` when `arguments` has neither `autoStartToken` nor `href`.
        public static func bankIdClientOperation(
            arguments: [String: String], name: ClientOperationName, continueActions: [any Action], errorActions: [any Action]
        ) throws -> BankIdClientOperationActionModel {
            try typed(BankIdClientOperationActionModel(parts(arguments, name, continueActions, errorActions)), "autoStartToken")
        }

        /// `encap-auto-activation`.
        /// - Throws: ``HaapiModelError`` when `arguments` has no `activationCode`.
        public static func encapClientOperation(
            arguments: [String: String], name: ClientOperationName, continueActions: [any Action], errorActions: [any Action]
        ) throws -> EncapAutoActivationClientOperationActionModel {
            try typed(
                EncapAutoActivationClientOperationActionModel(parts(arguments, name, continueActions, errorActions)), "activationCode")
        }

        /// `webauthn-registration`.
        public static func webAuthnRegistrationClientOperation(
            arguments: [String: any Sendable], name: ClientOperationName, continueActions: [any Action], errorActions: [any Action]
        ) throws -> WebAuthnRegistrationClientOperationActionModel {
            WebAuthnRegistrationClientOperationActionModel(parts(arguments, name, continueActions, errorActions))
        }

        /// `webauthn-authentication`.
        public static func webauthnAuthenticationClientOperation(
            arguments: [String: any Sendable], name: ClientOperationName, continueActions: [any Action], errorActions: [any Action]
        ) throws -> WebAuthnAuthenticationClientOperationActionModel {
            WebAuthnAuthenticationClientOperationActionModel(parts(arguments, name, continueActions, errorActions))
        }

        /// Any other operation.
        public static func genericClientOperation(
            arguments: [String: any Sendable], name: ClientOperationName, continueActions: [any Action], errorActions: [any Action]
        ) -> GenericClientOperationActionModel {
            GenericClientOperationActionModel(parts(arguments, name, continueActions, errorActions))
        }

        /// A link.
        public static func link(href: String, rel: String, title: Message?, type: String?) -> Link {
            Link(href: href, rel: rel, title: title, type: type)
        }

        private static func parts(
            _ arguments: [String: any Sendable], _ name: ClientOperationName, _ continueActions: [any Action], _ errorActions: [any Action]
        ) -> _OperationParts {
            _OperationParts(
                name: name, arguments: arguments.mapValues(JSONValue.init(sendable:)), continueActions: continueActions,
                errorActions: errorActions)
        }

        private static func typed<T>(_ model: T?, _ required: String) throws -> T {
            try present(model, at: "arguments.\(required)", "the operation's arguments lack \(required)")
        }
    }

    /// Form fields.
    public enum FormFieldFactory {
        /// An option of a select field.
        public static func selectOption(label: Message, value: String, selected: Bool) -> SelectFormField.Option {
            SelectFormField.Option(label: label, value: value, selected: selected)
        }

        /// A select field.
        public static func select(options: [SelectFormField.Option], name: String, label: Message?, required: Bool = true)
            -> SelectFormField
        {
            SelectFormField(
                _FieldParts(
                    type: .select, name: name, label: label, isRequired: required, extra: ["options": .array(options.map(\.rawJSON))]),
                options: options)
        }

        /// A checkbox.
        public static func checkbox(checked: Bool, readonly: Bool, name: String, value: String?, label: Message?, isRequired: Bool = true)
            -> CheckboxFormField
        {
            CheckboxFormField(
                _FieldParts(
                    type: .checkbox, name: name, label: label, isRequired: isRequired, value: value,
                    extra: ["checked": .bool(checked), "readonly": .bool(readonly)]),
                checked: checked, readonly: readonly)
        }

        /// A password field.
        public static func password(
            name: String, value: String?, label: Message?, placeholder: Message?, maxLength: Int? = nil, minLength: Int? = nil,
            isRequired: Bool = true
        ) -> PasswordFormField {
            PasswordFormField(
                _FieldParts(
                    type: .password, name: name, label: label, placeholder: placeholder, isRequired: isRequired, value: value,
                    minLength: minLength,
                    maxLength: maxLength))
        }

        /// A username field.
        public static func username(
            name: String, value: String?, label: Message?, placeholder: Message?, maxLength: Int? = nil, minLength: Int? = nil,
            isRequired: Bool = true
        ) -> UsernameFormField {
            UsernameFormField(
                _FieldParts(
                    type: .username, name: name, label: label, placeholder: placeholder, isRequired: isRequired, value: value,
                    minLength: minLength,
                    maxLength: maxLength))
        }

        /// A text field.
        public static func text(
            kind: TextFormField.Kind?, name: String, value: String?, label: Message?, placeholder: Message?, maxLength: Int? = nil,
            minLength: Int? = nil, isRequired: Bool = true
        ) -> TextFormField {
            TextFormField(
                _FieldParts(
                    type: .text, name: name, label: label, placeholder: placeholder, isRequired: isRequired, value: value,
                    minLength: minLength,
                    maxLength: maxLength, extra: kind.map { ["kind": .string($0.rawValue)] } ?? [:]),
                kind: kind)
        }

        /// A field the client fills.
        public static func context(name: String, isRequired: Bool = true) -> ContextFormField {
            ContextFormField(_FieldParts(type: .context, name: name, isRequired: isRequired))
        }

        /// A hidden field.
        public static func hidden(name: String, value: String, isRequired: Bool = true) -> HiddenFormField {
            HiddenFormField(_FieldParts(type: .hidden, name: name, isRequired: isRequired, value: value))
        }
    }

    /// Problems.
    public enum ProblemFactory {
        /// A problem of any type.
        public static func problem(
            type: ProblemType, metadata: Metadata?, title: Message?, messages: [UserMessage], links: [Link], rawJsonString: String? = nil
        ) -> Problem {
            Problem(
                _ProblemParts(type: type, metadata: metadata, title: title, messages: messages, links: links, rawJsonString: rawJsonString))
        }

        /// A wrong field of an invalid-input problem.
        public static func invalidInputField(name: String, reason: String?, detail: Message) -> InvalidInputProblem.InvalidField {
            InvalidInputProblem.InvalidField(name: name, reason: reason, detail: detail)
        }

        /// An invalid-input problem.
        public static func invalidInput(
            invalidFields: [InvalidInputProblem.InvalidField], errorDescription: String?, type: ProblemType, metadata: Metadata?,
            title: Message?,
            messages: [UserMessage], links: [Link], rawJsonString: String? = nil
        ) -> InvalidInputProblem {
            var extra: [String: JSONValue] = ["invalidFields": .array(invalidFields.map(\.json))]
            extra["error_description"] = errorDescription.map(JSONValue.string)
            let parts = _ProblemParts(
                type: type, metadata: metadata, title: title, messages: messages, links: links, rawJsonString: rawJsonString, extra: extra)
            return InvalidInputProblem(parts, invalidFields: invalidFields, errorDescription: errorDescription)
        }

        /// An authorization-response problem.
        public static func authorization(
            error: String, errorDescription: String?, type: ProblemType, metadata: Metadata?, title: Message?, messages: [UserMessage],
            links: [Link],
            rawJsonString: String? = nil
        ) -> AuthorizationProblem {
            var extra: [String: JSONValue] = ["error": .string(error)]
            extra["error_description"] = errorDescription.map(JSONValue.string)
            let parts = _ProblemParts(
                type: type, metadata: metadata, title: title, messages: messages, links: links, rawJsonString: rawJsonString, extra: extra)
            return AuthorizationProblem(parts, error: error, errorDescription: errorDescription)
        }
    }

    /// Properties of steps and actions.
    public enum PropertiesFactory {
        /// Properties with no typed members.
        public static func generic(rawJsonString: String) -> GenericProperties { GenericProperties(rawJSON: object(rawJsonString)) }

        /// A polling step's properties; the waits and the interval, when given, replace those of
        /// `rawJsonString` (as Curity's UI kit 5.4 takes them).
        public static func polling(
            rawJsonString: String, recipientOfCommunication: String?, status: PollingStatus, maxWaitTime: String? = nil,
            maxWaitRemainingTime: String? = nil, interval: String? = nil
        ) -> PollingProperties {
            var members = object(rawJsonString).objectValue ?? [:]
            for (key, value) in [("maxWaitTime", maxWaitTime), ("maxWaitRemainingTime", maxWaitRemainingTime), ("interval", interval)] {
                if let value { members[key] = .string(value) }
            }
            return PollingProperties(status: status, recipientOfCommunication: recipientOfCommunication, members: members)
        }

        /// An authorization response's properties: `rawJson` with the given values over it.
        public static func oAuthAuthorizationResponse(
            rawJsonString: String, scope: String?, state: String?, code: String?, idToken: String?, rawJson: [String: String]
        ) -> OAuthAuthorizationResponseProperties {
            var values = rawJson
            values["scope"] = scope ?? values["scope"]
            values["state"] = state ?? values["state"]
            values["code"] = code ?? values["code"]
            values["id_token"] = idToken ?? values["id_token"]
            return OAuthAuthorizationResponseProperties(values: values)
        }

        /// A form action's properties.
        public static func formAction(authenticatorType: String, rawJsonString: String) -> FormAction.Properties {
            var members = object(rawJsonString).objectValue ?? [:]
            members["authenticatorType"] = .string(authenticatorType)
            return FormAction.Properties(authenticatorType: authenticatorType, rawJSON: .object(members))
        }

        /// A selector action's properties.
        public static func selectorAction(rawJsonString: String) -> SelectorAction.Properties {
            SelectorAction.Properties(rawJSON: object(rawJsonString))
        }

        /// A client-operation action's properties.
        public static func clientOperation(rawJsonString: String) -> ClientOperationAction.Properties {
            ClientOperationAction.Properties(rawJSON: object(rawJsonString))
        }

        /// The JSON object `text` holds (an empty object when it holds none).
        private static func object(_ text: String) -> JSONValue {
            guard let value = JSONValue(text: text), value.objectValue != nil else { return .object([:]) }
            return value
        }
    }

    /// Steps.
    public enum StepFactory {
        /// An option of an authenticator selector.
        public static func authenticatorOption(title: Message, type: String?, action: FormAction)
            -> AuthenticatorSelectorStep.AuthenticatorOption
        {
            AuthenticatorSelectorStep.AuthenticatorOption(title: title, type: type, action: action)
        }

        /// An authenticator selector: its options become a selector action's.
        public static func authenticatorSelector(
            title: Message, authenticators: [AuthenticatorSelectorStep.AuthenticatorOption], metadata: Metadata?, actions: [any Action],
            messages: [UserMessage], links: [Link], properties: GenericProperties?, rawJsonString: String? = nil
        ) -> AuthenticatorSelectorStep {
            let selector = ActionFactory.selector(
                properties: nil, model: SelectorActionModel(options: authenticators.map(\.action)), kind: .authenticatorSelector,
                title: title)
            let all = actions.contains { $0 is SelectorAction } ? actions : [selector] + actions
            let parts = _RepresentationParts(
                type: .authenticationStep, metadata: metadata, messages: messages, links: links, actions: all,
                properties: properties?.members,
                rawJsonString: rawJsonString)
            return AuthenticatorSelectorStep(parts, selector: selector, title: title, authenticators: authenticators)
        }

        /// A step of forms.
        public static func interactiveForm(
            actions: [FormAction], type: RepresentationType, metadata: Metadata?, messages: [UserMessage], links: [Link],
            properties: GenericProperties?,
            rawJsonString: String? = nil
        ) -> InteractiveFormStep {
            InteractiveFormStep(parts(type, metadata, actions, messages, links, properties?.members, rawJsonString), actions: actions)
        }

        /// A redirection step.
        public static func redirection(
            redirectAction: FormAction, metadata: Metadata?, actions: [any Action], properties: GenericProperties?,
            rawJsonString: String? = nil
        ) -> RedirectionStep {
            let all = actions.isEmpty ? [redirectAction] : actions
            return RedirectionStep(
                parts(.redirectionStep, metadata, all, [], [], properties?.members, rawJsonString), redirectAction: redirectAction)
        }

        /// A polling step.
        public static func polling(
            mainAction: FormAction, cancelAction: FormAction?, metadata: Metadata?, actions: [any Action], messages: [UserMessage],
            links: [Link],
            properties: PollingProperties, rawJsonString: String? = nil
        ) -> PollingStep {
            let all = actions.isEmpty ? [mainAction] + (cancelAction.map { [$0] } ?? []) : actions
            let parts = parts(.pollingStep, metadata, all, messages, links, properties.rawJSON.objectValue, rawJsonString)
            return PollingStep(parts, properties: properties, mainAction: mainAction, cancelAction: cancelAction)
        }

        /// An authorization response.
        public static func oAuthAuthorization(
            metadata: Metadata?, messages: [UserMessage], links: [Link], properties: OAuthAuthorizationResponseProperties,
            rawJsonString: String? = nil
        ) -> OAuthAuthorizationResponseStep {
            OAuthAuthorizationResponseStep(
                parts(.oauthAuthorizationResponse, metadata, [], messages, links, properties.rawJSON.objectValue, rawJsonString),
                properties: properties)
        }

        /// A continue-same-step (its actions are the submitted form's continue actions).
        public static func continueSame(
            metadata: Metadata?, messages: [UserMessage], properties: GenericProperties?, rawJsonString: String? = nil
        ) -> ContinueSameStep {
            ContinueSameStep(parts(.continueSameStep, metadata, [], messages, [], properties?.members, rawJsonString), actions: [])
        }

        /// A consent step.
        public static func userConsent(
            metadata: Metadata?, actions: [any Action], messages: [UserMessage], links: [Link], properties: GenericProperties?,
            rawJsonString: String? = nil
        ) -> UserConsentStep {
            UserConsentStep(parts(.userConsentStep, metadata, actions, messages, links, properties?.members, rawJsonString))
        }

        /// An external-browser step (its continue form is the operation's first).
        public static func externalBrowserClientOperation(
            actionModel: ExternalBrowserClientOperationActionModel, metadata: Metadata?, type: RepresentationType, actions: [any Action],
            properties: GenericProperties?, rawJsonString: String? = nil
        ) -> ExternalBrowserClientOperationStep {
            let parts = parts(type, metadata, withOperation(actions, actionModel), [], [], properties?.members, rawJsonString)
            let resume =
                actionModel.continueActions.lazy.compactMap { $0 as? FormAction }.first?.model
                ?? FormActionModel(
                    actionTitle: nil, continueActions: [], errorActions: [], fields: [], type: nil, method: "POST", href: actionModel.href)
            return ExternalBrowserClientOperationStep(parts, model: actionModel, continueForm: resume)
        }

        /// A BankID step.
        public static func bankIdClientOperation(
            activationLink: Link?, actionModel: BankIdClientOperationActionModel, metadata: Metadata?, type: RepresentationType,
            actions: [any Action],
            messages: [UserMessage], links: [Link], properties: GenericProperties?, rawJsonString: String? = nil
        ) -> BankIdClientOperationStep {
            let all = activationLink.map { link in links.contains { $0 == link } ? links : links + [link] } ?? links
            return BankIdClientOperationStep(
                parts(type, metadata, withOperation(actions, actionModel), messages, all, properties?.members, rawJsonString),
                model: actionModel)
        }

        /// An Encap step.
        public static func encapClientOperation(
            actionModel: EncapAutoActivationClientOperationActionModel, metadata: Metadata?, type: RepresentationType,
            actions: [any Action],
            messages: [UserMessage], links: [Link], properties: GenericProperties?, rawJsonString: String? = nil
        ) -> EncapClientOperationStep {
            EncapClientOperationStep(
                parts(type, metadata, withOperation(actions, actionModel), messages, links, properties?.members, rawJsonString),
                model: actionModel)
        }

        /// A WebAuthn registration step.
        /// - Throws: ``HaapiModelError`` when the operation has no continue form.
        public static func webauthnRegistrationClientOperation(
            actionModel: WebAuthnRegistrationClientOperationActionModel, metadata: Metadata?, type: RepresentationType,
            actions: [any Action],
            messages: [UserMessage], links: [Link], properties: GenericProperties?, rawJsonString: String? = nil
        ) throws -> WebAuthnRegistrationClientOperationStep {
            try present(
                WebAuthnRegistrationClientOperationStep(
                    parts(type, metadata, withOperation(actions, actionModel), messages, links, properties?.members, rawJsonString),
                    model: actionModel),
                at: "continueActions", "the registration has no continue form")
        }

        /// A WebAuthn authentication step.
        /// - Throws: ``HaapiModelError`` when the operation has no continue form.
        public static func webAuthnAuthenticationClientOperation(
            actionModel: WebAuthnAuthenticationClientOperationActionModel, metadata: Metadata?, type: RepresentationType,
            actions: [any Action],
            messages: [UserMessage], links: [Link], properties: GenericProperties?, rawJsonString: String? = nil
        ) throws -> WebAuthnAuthenticationClientOperationStep {
            try present(
                WebAuthnAuthenticationClientOperationStep(
                    parts(type, metadata, withOperation(actions, actionModel), messages, links, properties?.members, rawJsonString),
                    model: actionModel),
                at: "continueActions", "the authentication has no continue form")
        }

        /// A step of any other client operation.
        public static func genericClientOperation(
            actionModel: GenericClientOperationActionModel, metadata: Metadata?, type: RepresentationType, actions: [any Action],
            messages: [UserMessage],
            links: [Link], properties: GenericProperties?, rawJsonString: String? = nil
        ) -> GenericClientOperationStep {
            GenericClientOperationStep(
                parts(type, metadata, withOperation(actions, actionModel), messages, links, properties?.members, rawJsonString),
                model: actionModel)
        }

        /// A step no typed step fits.
        public static func genericRepresentation(
            type: RepresentationType, metadata: Metadata?, actions: [any Action], messages: [UserMessage], links: [Link],
            properties: (any Properties)?,
            rawJsonString: String? = nil
        ) -> GenericRepresentationStep {
            let members = properties.flatMap { JSONValue(text: $0.rawJsonString)?.objectValue }
            return GenericRepresentationStep(parts(type, metadata, actions, messages, links, members, rawJsonString))
        }

        private static func parts(
            _ type: RepresentationType, _ metadata: Metadata?, _ actions: [any Action], _ messages: [UserMessage], _ links: [Link],
            _ properties: [String: JSONValue]?, _ rawJsonString: String?
        ) -> _RepresentationParts {
            _RepresentationParts(
                type: type, metadata: metadata, messages: messages, links: links, actions: actions, properties: properties,
                rawJsonString: rawJsonString)
        }

        /// `actions`, with a client-operation action of `model` first unless one is there.
        private static func withOperation(_ actions: [any Action], _ model: any ClientOperationActionModelRepresentation) -> [any Action] {
            guard !actions.contains(where: { $0 is ClientOperationAction }) else { return actions }
            return [ActionFactory.clientOperation(properties: nil, model: model, kind: .login, title: nil)] + actions
        }
    }
}

/// `value`, when the factory could make it; otherwise the member at `path` is missing.
private func present<T>(_ value: T?, at path: String, _ message: String) throws -> T {
    guard let value else { throw HaapiModelError(.missingMember, path: path, message) }
    return value
}

extension GenericProperties {
    var members: [String: JSONValue] { rawJSON.objectValue ?? [:] }
}

extension InvalidInputProblem.InvalidField {
    var json: JSONValue {
        var members: [String: JSONValue] = ["name": .string(name), "detail": detail.json]
        members["reason"] = reason.map(JSONValue.string)
        return .object(members)
    }
}
