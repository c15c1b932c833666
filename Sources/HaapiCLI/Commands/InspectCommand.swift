import ArgumentParser
import Foundation
import HaapiCLICore
import HaapiSDK
import HaapiUI
import OAuthCore

/// `haapi inspect FILE|-`: shows what the SDK makes of a HAAPI response body.
struct InspectCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "inspect",
        abstract: "Show what the SDK makes of a HAAPI response (a step or a problem), or the header and claims of a JWT.",
        discussion: helpText(
            """
            Reads a response body from FILE (or standard input for -) and prints the typed model: \
            its class and type, metadata, messages, links, actions with their forms, fields and \
            nested options, and problem details. Without --content-type the document is classified \
            by content: a `type` that is an absolute URI makes it a problem. A JWT (an access or ID \
            token) is printed as its header and claims, not verified, with its times (exp, iat...) as dates.
            Exit status: 0 when the body decodes, 2 when it is not a usable HAAPI document (the \
            typed error, with its code and JSON path, goes to standard error), 1 when FILE cannot be read.

            With --screen, prints instead what the UI kit shows for the response, as JSON: the \
            screen, its elements in order with their texts in the language asked (--lang), their \
            theme sections (from --theme, an app's theme plist laid over the kit's), and for each \
            field its name, kind, content type, keyboard, return key and whether it is secure \
            (the schema is in the README).
            """,
            examples:
                "haapi inspect step.json",
            "haapi inspect --screen --lang sv step.json",
            #"curl -s -H "Accept: application/vnd.auth+json" URL | haapi inspect --json -"#,
            "haapi token | haapi inspect -"))

    /// The exit status for a body that is not a usable HAAPI document.
    static let unusableInput: Int32 = 2

    @Argument(help: "A file holding a HAAPI response body or a JWT, or - to read standard input.")
    var file: String

    @Flag(help: "Print JSON (stable, sorted keys) instead of text.")
    var json = false

    @Option(
        help: ArgumentHelp(
            "Decode as this media type (application/vnd.auth+json or application/problem+json) instead of by content.", valueName: "type"))
    var contentType: String?

    @Flag(help: "Print the screen the UI kit shows for the response (JSON), instead of the response.")
    var screen = false

    /// With --screen.
    @OptionGroup var look: KitLookOptions

    @Option(
        help: ArgumentHelp(
            "With --screen, on a passkey step: the screen after the ceremony failed so (cancelled, no-credentials, app-association, not-supported, failed).",
            valueName: "failure"))
    var passkeyFailure: String?

    @Flag(help: "With --passkey-failure: as an app that turned the passkeys' browser fallback off (setUsePasskeysBrowserFallback(false)).")
    var noBrowserFallback = false

    func run() async throws {
        let data = try InputFiles.read(file, "", limit: InputFiles.Limit.content, standardInput: true)
        // A JWT (`haapi token | haapi inspect -`): its header and claims, times as dates.
        let text = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        if contentType == nil, !text.hasPrefix("{"), let readable = JWTText.readable(text) {
            Stdout.json(readable)
            return
        }
        let response: HaapiDocument
        do {
            response = try HaapiModel.response(from: data, contentType: contentType)
        } catch let error as HaapiModelError {
            if json {
                let report: JSONValue = [
                    "error": ["code": .string(error.code.rawValue), "path": .string(error.path), "message": .string(error.message)]
                ]
                Stderr.line(PrintableText(json: report))
            } else {
                Stderr.line("haapi: error: not a usable HAAPI document: \(error.message) (code \(error.code.rawValue), at \(error.path))")
            }
            throw ExitCode(Self.unusableInput)
        }
        if screen {
            Stdout.json(try await screenJSON(response))
        } else if json {
            Stdout.json(Inspection.json(response))
        } else {
            Stdout.write(Inspection.text(response))
        }
    }

}

extension InspectCommand {
    /// The screen of `response`, as the kit decides it in the language and theme asked.
    @MainActor func screenJSON(_ response: HaapiDocument) throws -> JSONValue {
        let screens = try KitScreens(lang: look.lang, themePath: look.theme)
        let builder = screens.builder
        var model = try screens.model(of: response)
        var outcome: PasskeyFailureOutcome?
        if let name = passkeyFailure {
            guard let failure = PasskeyFailure(name: name) else {
                throw CLIFailure("--passkey-failure takes cancelled, no-credentials, app-association, not-supported or failed")
            }
            guard let operation = model as? KitWebAuthnModel else { throw CLIFailure("--passkey-failure needs a passkey step") }
            let shown = operation.failed(failure, kind: operation.kinds.first ?? .any, usesBrowserFallback: !noBrowserFallback)
            outcome = shown.failure
            model = shown
        }
        let drawn = builder.screen(for: model)
        var json = ScreenJSON(builder: builder).json(drawn)
        if let outcome, case .object(var object) = json {
            object["passkeyFailureOutcome"] = .string(outcome.rawValue)
            json = .object(object)
        }
        return json
    }
}

/// A ``Screen`` as JSON: what `haapi inspect --screen` prints (schema in the README).
struct ScreenJSON {
    let builder: ScreenBuilder

    func json(_ screen: Screen) -> JSONValue {
        var object: [String: JSONValue] = [
            "kind": .string(screen.kind.rawValue), "style": .string(screen.kind.themeSection),
            "language": .string(builder.strings.language),
            "items": .array(
                screen.messages.map { json($0, area: "messages", in: screen) }
                    + screen.content.map { json($0, area: "content", in: screen) }
                    + screen.links.map { json($0, area: "links", in: screen) }),
        ]
        if let focus = screen.focus { object["focus"] = .string(focus) }
        if let url = screen.openOnAppear { object["openOnAppear"] = .string(url.absoluteString) }
        return .object(object)
    }

    func json(_ item: ScreenItem, area: String, in screen: Screen) -> JSONValue {
        var object: [String: JSONValue] = ["area": .string(area)]
        if let style = item.themeSection { object["style"] = .string(style) }
        let accessibility = builder.accessibility(of: item)
        if let label = accessibility.label { object["accessibilityLabel"] = .string(label) }
        if let value = accessibility.value { object["accessibilityValue"] = .string(value) }
        if let announcement = accessibility.announcement { object["announcement"] = .string(announcement) }
        switch item {
        case .message(let text, _):
            object["type"] = "message"
            object["text"] = .string(text)
        case .text(let text):
            object["type"] = "text"
            object["text"] = .string(text)
        case .section(let title):
            object["type"] = "section"
            object["text"] = .string(title)
        case .textField(let field):
            object["type"] = "textField"
            object["name"] = .string(field.name)
            object["text"] = .string(field.label)
            object["kind"] = .string(field.isSecure ? "password" : "text")
            object["contentType"] = .string(field.contentType.rawValue)
            object["keyboard"] = .string(field.keyboard.rawValue)
            object["returnKey"] = .string(field.returnKey.rawValue)
            object["secure"] = .bool(field.isSecure)
            object["secureEntryToggle"] = .bool(field.showsSecureEntryToggle)
            object["required"] = .bool(field.isRequired)
            if let placeholder = field.placeholder { object["placeholder"] = .string(placeholder) }
            if let value = field.value { object["value"] = .string(value) }
            if let rules = field.passwordRules { object["passwordRules"] = .string(rules) }
            if let error = field.error { object["error"] = .string(error) }
            if let target = screen.afterReturn(in: field.name) { object["afterReturn"] = json(target) }
        case .checkbox(let box):
            object["type"] = "checkbox"
            object["name"] = .string(box.name)
            object["text"] = .string(box.label)
            object["checked"] = .bool(box.isChecked)
            object["readonly"] = .bool(box.isReadonly)
            if let error = box.error { object["error"] = .string(error) }
        case .picker(let picker):
            object["type"] = "picker"
            object["name"] = .string(picker.name)
            object["text"] = .string(picker.label)
            object["options"] = .array(
                picker.options.map { ["label": .string($0.label), "value": .string($0.value), "selected": .bool($0.isSelected)] })
            if let error = picker.error { object["error"] = .string(error) }
        case .button(let button):
            object["type"] = "button"
            object["text"] = .string(button.title)
            object["role"] = .string(button.role.rawValue)
            object["action"] = json(button.action)
            if let icon = button.icon { object["icon"] = .string(icon) }
        case .tabs(let titles, let selected):
            object["type"] = "tabs"
            object["titles"] = .array(titles.map { .string($0) })
            object["selected"] = .integer(selected)
        case .loadingIndicator:
            object["type"] = "loadingIndicator"
        case .countdown(let countdown):
            object["type"] = "countdown"
            object["text"] = .string(countdown.text)
            object["seconds"] = .integer(countdown.seconds)
            if let total = countdown.total { object["total"] = .integer(total) }
            object["progressBar"] = .bool(countdown.showsProgress)
        case .qrCode(let data, let image):
            object["type"] = "qrCode"
            object["source"] = .string(data != nil ? "data" : image != nil ? "image" : "none")
        case .image(let name, _):
            object["type"] = "image"
            object["name"] = .string(name)
        case .serverImage(let image):
            object["type"] = "serverImage"
            object["source"] = .string(image.href.lowercased().hasPrefix("data:") ? "data" : "link")
        case .expandable(let title, let body):
            object["type"] = "expandable"
            object["text"] = .string(title)
            object["body"] = .string(body)
        case .link(let title, let action):
            object["type"] = "link"
            object["text"] = .string(title)
            object["action"] = json(action)
        }
        return .object(object)
    }

    func json(_ action: ScreenAction) -> JSONValue {
        switch action {
        case .submit(let button): return ["submit": .string(button.label)]
        case .select(let option): return ["select": .string(option.title)]
        case .open(let url): return ["open": .string(url.absoluteString)]
        case .follow(let link): return ["follow": .string(Inspection.shortened(link.href))]
        case .poll: return "poll"
        case .passkey(let kind): return ["passkey": .string(kind.rawValue)]
        case .passkeyFallback: return "passkeyFallback"
        case .copy: return "copy"
        }
    }

    func json(_ target: ReturnTarget) -> JSONValue {
        switch target {
        case .field(let name): return ["field": .string(name)]
        case .submit(let action): return ["submit": json(action)]
        case .dismissKeyboard: return "dismissKeyboard"
        case .waitForRequest: return "waitForRequest"
        }
    }
}

/// Renders a decoded response as text or JSON.
enum Inspection {
    // MARK: JSON

    static func json(_ response: HaapiDocument) -> JSONValue {
        var result: [String: JSONValue] = [:]
        switch response {
        case .representation(let step):
            result["result"] = "representation"
            result["class"] = .string(className(step))
            result["type"] = .string(step.type.rawValue)
            if let metadata = step.metadata { result["metadata"] = json(metadata) }
            result["messages"] = .array(step.messages.map(json))
            result["links"] = .array(step.links.map(json))
            result["actions"] = .array(step.allActions.map(json))
            if !step.propertiesJSON.isEmpty { result["properties"] = .object(step.propertiesJSON) }
        case .problem(let problem):
            result["result"] = "problem"
            result["class"] = .string(className(problem))
            result["type"] = .string(problem.type.rawValue)
            if let metadata = problem.metadata { result["metadata"] = json(metadata) }
            if let title = problem.title { result["title"] = .string(title.literal) }
            if let code = problem.code { result["code"] = .string(code) }
            result["messages"] = .array(problem.messages.map(json))
            result["links"] = .array(problem.links.map(json))
            if let invalid = problem as? InvalidInputProblem {
                result["invalidFields"] = .array(
                    invalid.invalidFields.map { field in
                        var object: [String: JSONValue] = ["name": .string(field.name)]
                        if let reason = field.reason { object["reason"] = .string(reason) }
                        if !field.detail.literal.isEmpty { object["detail"] = .string(field.detail.literal) }
                        return .object(object)
                    })
            }
            if let authorization = problem as? AuthorizationProblem {
                if authorization.rawJSON["error"] != nil { result["error"] = .string(authorization.error) }
                if let description = authorization.errorDescription { result["errorDescription"] = .string(description) }
                if let iss = authorization.iss { result["iss"] = .string(iss) }
            }
        }
        return .object(result)
    }

    static func json(_ metadata: Metadata) -> JSONValue {
        var object: [String: JSONValue] = [:]
        if let viewName = metadata.viewName { object["viewName"] = .string(viewName) }
        if let templateArea = metadata.templateArea { object["templateArea"] = .string(templateArea) }
        return .object(object)
    }

    static func json(_ message: UserMessage) -> JSONValue {
        ["text": .string(message.text.literal), "classList": .array(message.classList.map { .string($0) })]
    }

    static func json(_ link: Link) -> JSONValue {
        var object: [String: JSONValue] = ["href": .string(shortened(link.href)), "image": .bool(link.isImage)]
        if !link.rel.isEmpty { object["rel"] = .string(link.rel) }
        if let title = link.title { object["title"] = .string(title.literal) }
        if let type = link.type { object["type"] = .string(type) }
        return .object(object)
    }

    static func json(_ action: any Action) -> JSONValue {
        var object: [String: JSONValue] = ["template": .string(action.template.rawValue), "kind": .string(action.kind.rawValue)]
        if let title = action.title { object["title"] = .string(title.literal) }
        if let properties = action.rawJSON["properties"]?.objectValue, !properties.isEmpty { object["properties"] = .object(properties) }
        switch action {
        case let action as FormAction:
            let form = action.model
            object["method"] = .string(form.method)
            object["href"] = .string(form.href)
            object["type"] = .string(form.type)
            if let actionTitle = form.actionTitle { object["actionTitle"] = .string(actionTitle.literal) }
            object["fields"] = .array(form.fields.map(json))
            if !form.continueActions.isEmpty { object["continueActions"] = .array(form.continueActions.map(json)) }
            if !form.errorActions.isEmpty { object["errorActions"] = .array(form.errorActions.map(json)) }
        case let action as SelectorAction:
            object["options"] = .array(action.model.options.map(json))
        case let action as ClientOperationAction:
            let operation = action.model
            object["name"] = .string(operation.name.rawValue)
            object["arguments"] = .object(operation.argumentsJSON)
            object["continueActions"] = .array(operation.continueActions.map(json))
            if !operation.errorActions.isEmpty { object["errorActions"] = .array(operation.errorActions.map(json)) }
        default:
            if let model = action.rawJSON["model"] { object["model"] = model }
        }
        return .object(object)
    }

    static func json(_ field: any FormField) -> JSONValue {
        var object: [String: JSONValue] = [
            "type": .string(field.type.rawValue), "name": .string(field.name), "required": .bool(field.isRequired),
            "userInput": .bool(field.isUserInput),
        ]
        if let label = field.label { object["label"] = .string(label.literal) }
        if let placeholder = field.placeholder { object["placeholder"] = .string(placeholder.literal) }
        if let value = shownValue(field) { object["value"] = .string(value) }
        if let kind = (field as? TextFormField)?.kind { object["kind"] = .string(kind.rawValue) }
        if let minLength = (field as? any TextLengthRestriction)?.minLength { object["minLength"] = .integer(minLength) }
        if let maxLength = (field as? any TextLengthRestriction)?.maxLength { object["maxLength"] = .integer(maxLength) }
        if let checkbox = field as? CheckboxFormField {
            object["checked"] = .bool(checkbox.checked)
            object["readonly"] = .bool(checkbox.readonly)
        }
        if let options = (field as? SelectFormField)?.options, !options.isEmpty {
            object["options"] = .array(
                options.map { ["label": .string($0.label.literal), "value": .string($0.value), "selected": .bool($0.selected)] })
        }
        return .object(object)
    }

    // MARK: Text

    /// The response for a person, each line made safe (a server's title cannot act on the
    /// terminal): the JSON of ``json(_:)-swift.type.method``, written as indented lines, so the
    /// model is walked once and the two forms say the same.
    static func text(_ response: HaapiDocument) -> PrintableText {
        let document = json(response)
        var out = Output()
        out.line("class: \(document["class"]?.stringValue ?? "")")
        out.line("type: \(document["type"]?.stringValue ?? "")")
        if document["result"]?.stringValue == "problem" {
            if let title = document["title"]?.stringValue { out.line("title: \(title)") }
            if let code = document["code"]?.stringValue { out.line("code: \(code)") }
            metadata(document["metadata"], &out)
            if let invalid = document["invalidFields"]?.arrayValue {
                out.line("invalid fields:")
                for field in invalid {
                    let detail = field["detail"]?.stringValue.map { " (\($0))" } ?? ""
                    out.line("  \(string(field["name"])): \(field["reason"]?.stringValue ?? "-")" + detail)
                }
            }
            if let error = document["error"]?.stringValue { out.line("error: \(error)") }
            if let description = document["errorDescription"]?.stringValue { out.line("error_description: \(description)") }
            if let iss = document["iss"]?.stringValue { out.line("iss: \(iss)") }
        } else {
            metadata(document["metadata"], &out)
            if let properties = document["properties"]?.objectValue {
                out.line("properties:")
                for (key, value) in properties.sorted(by: { $0.key < $1.key }) { out.line("  \(key): \(plain(value))") }
            }
        }
        messages(document["messages"]?.arrayValue ?? [], &out)
        links(document["links"]?.arrayValue ?? [], &out)
        if let actions = document["actions"]?.arrayValue, !actions.isEmpty {
            out.line("actions:")
            for action in actions { self.action(action, &out, indent: 1) }
        }
        return PrintableText(own: out.text)
    }

    struct Output {
        var text = ""
        mutating func line(_ line: String, indent: Int = 0) {
            text += String(repeating: "  ", count: indent) + PrintableText(line).description + "\n"
        }
    }

    static func string(_ value: JSONValue?) -> String { value?.stringValue ?? "" }

    static func metadata(_ metadata: JSONValue?, _ out: inout Output) {
        var parts: [String] = []
        if let viewName = metadata?["viewName"]?.stringValue { parts.append("viewName=\(viewName)") }
        if let templateArea = metadata?["templateArea"]?.stringValue { parts.append("templateArea=\(templateArea)") }
        if !parts.isEmpty { out.line("metadata: " + parts.joined(separator: ", ")) }
    }

    static func messages(_ messages: [JSONValue], _ out: inout Output) {
        guard !messages.isEmpty else { return }
        out.line("messages:")
        for message in messages {
            let classes = (message["classList"]?.arrayValue ?? []).compactMap(\.stringValue).joined(separator: " ")
            out.line("[\(classes)] \(string(message["text"]))", indent: 1)
        }
    }

    static func links(_ links: [JSONValue], _ out: inout Output) {
        guard !links.isEmpty else { return }
        out.line("links:")
        for link in links {
            var line = link["rel"]?.stringValue ?? "(no rel)"
            let type = link["type"]?.stringValue
            if link["image"]?.boolValue == true {
                line += " [image\(type.map { " \($0)" } ?? "")]"
            } else if let type {
                line += " [\(type)]"
            }
            if let title = link["title"]?.stringValue { line += " \"\(title)\"" }
            out.line(line + ": " + string(link["href"]), indent: 1)
        }
    }

    static func action(_ action: JSONValue, _ out: inout Output, indent: Int) {
        var head = "\(string(action["template"])) \(string(action["kind"]))"
        if let title = action["title"]?.stringValue { head += " \"\(title)\"" }
        if let properties = action["properties"]?.objectValue {
            head += " {" + properties.sorted { $0.key < $1.key }.map { "\($0.key)=\(plain($0.value))" }.joined(separator: ", ") + "}"
        }
        if let method = action["method"]?.stringValue {
            var line = head + ": \(method) \(string(action["href"]))"
            if let type = action["type"]?.stringValue, type != "application/x-www-form-urlencoded" { line += " (\(type))" }
            if let actionTitle = action["actionTitle"]?.stringValue { line += " [\(actionTitle)]" }
            out.line("- " + line, indent: indent)
            for field in action["fields"]?.arrayValue ?? [] { self.field(field, &out, indent: indent + 1) }
        } else if let options = action["options"]?.arrayValue {
            out.line("- " + head + ": \(options.count) options", indent: indent)
            for option in options { self.action(option, &out, indent: indent + 1) }
        } else if let name = action["name"]?.stringValue {
            out.line("- " + head + ": operation \(name)", indent: indent)
            for (key, value) in (action["arguments"]?.objectValue ?? [:]).sorted(by: { $0.key < $1.key }) {
                out.line("argument \(key): \(plain(value))", indent: indent + 1)
            }
        } else {
            out.line("- " + head + ": unknown template" + (action["model"].map { ", model \(plain($0))" } ?? ""), indent: indent)
        }
        nested("continue actions", action["continueActions"]?.arrayValue ?? [], &out, indent: indent + 1)
        nested("error actions", action["errorActions"]?.arrayValue ?? [], &out, indent: indent + 1)
    }

    static func nested(_ title: String, _ actions: [JSONValue], _ out: inout Output, indent: Int) {
        guard !actions.isEmpty else { return }
        out.line(title + ":", indent: indent)
        for action in actions { self.action(action, &out, indent: indent + 1) }
    }

    static func field(_ field: JSONValue, _ out: inout Output, indent: Int) {
        var line = "field \(string(field["type"])) \(string(field["name"]))"
        if let label = field["label"]?.stringValue { line += " \"\(label)\"" }
        if field["userInput"]?.boolValue == true { line += field["required"]?.boolValue == true ? " required" : " optional" }
        if let value = field["value"]?.stringValue { line += " value=\"\(value)\"" }
        if let placeholder = field["placeholder"]?.stringValue { line += " placeholder=\"\(placeholder)\"" }
        if let kind = field["kind"]?.stringValue { line += " kind=\(kind)" }
        if let minLength = field["minLength"] { line += " minLength=\(plain(minLength))" }
        if let maxLength = field["maxLength"] { line += " maxLength=\(plain(maxLength))" }
        if let checked = field["checked"]?.boolValue {
            line += checked ? " checked" : " unchecked"
            if field["readonly"]?.boolValue == true { line += " readonly" }
        }
        out.line(line, indent: indent)
        for option in field["options"]?.arrayValue ?? [] {
            let selected = option["selected"]?.boolValue == true ? " (selected)" : ""
            out.line("option \(string(option["value"])) \"\(string(option["label"]))\"" + selected, indent: indent + 1)
        }
    }

    // MARK: Helpers

    /// The value to show: what the client sends without the user (hidden fields, checkbox
    /// values). Values of other fields, passwords above all, are not shown.
    static func shownValue(_ field: any FormField) -> String? {
        field.type == .hidden || field.type == .checkbox ? field.value : nil
    }

    static func className(_ value: Any) -> String { String(describing: type(of: value)) }

    /// `data:` URLs are shortened to their media type, a few characters and their length.
    static func shortened(_ href: String) -> String {
        guard href.lowercased().hasPrefix("data:"), href.count > 48 else { return href }
        let comma = href.firstIndex(of: ",") ?? href.endIndex
        let header = href[..<comma]
        let payload = href[comma...].dropFirst()
        return "\(header),\(payload.prefix(16))… (\(href.utf8.count) characters)"
    }

    /// A JSON value as plain text: strings bare, anything else as compact JSON.
    static func plain(_ value: JSONValue) -> String {
        if case .string(let text) = value { return shortened(text) }
        return String(decoding: value.serialized(), as: UTF8.self)
    }
}
