import Foundation
import HaapiSDK

// The kit's own elements. Those that hold what the user enters are classes whose values live on
// the main actor, as Curity's are: the screen that edits them and the flow that submits them
// share one object, so an app's hook that sets an item's `error` shows on the screen.

/// A message of a step or a problem, with the style its classes give it.
public struct KitInfoMessage: InfoMessageModel, Hashable {
    /// The key of the text in the server's table, when it sent one.
    public let key: String?
    /// Why the message is shown (a field's problem reason), when known.
    public let reason: String?
    /// The text, when the server sent one.
    public let text: String?
    /// How the message is styled, from its classes.
    public let messageStyleAttribute: MessageStyleAttribute
    /// The message's classes as received.
    public let classList: [String]

    /// A message with its style.
    public init(
        text: String?, messageStyleAttribute: MessageStyleAttribute, key: String? = nil, reason: String? = nil, classList: [String] = []
    ) {
        (self.text, self.messageStyleAttribute, self.key, self.reason, self.classList) = (
            text, messageStyleAttribute, key, reason, classList
        )
    }

    /// The message a server's message is shown as: styled by its classes.
    public init(_ message: UserMessage) {
        self.init(
            text: message.text.literal, messageStyleAttribute: MessageStyleAttribute(classList: message.classList), key: message.text.key,
            classList: message.classList)
    }
}

/// A link to follow, or an image to show (a QR code, usually).
public struct KitLinkItem: LinkItemModel, Hashable {
    /// The link as received.
    public let link: Link
    /// Where the link goes, as the server sent it (it may be relative).
    public var href: String { link.href }
    /// The link's relation (`help`, `activation`, ...).
    public var rel: String { link.rel }
    /// The media type of what it points to, if the server said.
    public var type: String? { link.type }
    /// The text to show: the server's title (`nil` without one: a relation such as `help` is
    /// no text for a person; a screen shows the target instead).
    public var text: String? { link.title?.literal.isEmpty == false ? link.title?.literal : nil }
    /// Whether the link is an image to show rather than a link to follow.
    public var isImage: Bool { link.isImage }
    /// Whether the link is an image the UI should present as a QR code (an image with the
    /// `activation` or `qr-code` relation or a title naming a QR code, or any `data:` image).
    public var isQRCode: Bool {
        guard isImage else { return false }
        return ["activation", "qr-code"].contains(rel) || (link.title?.literal.lowercased().contains("qr") ?? false)
            || href.lowercased().hasPrefix("data:image/")
    }

    /// The item of `link`.
    public init(_ link: Link) { self.link = link }
}

/// A text field.
public final class KitInputTextItem: InteractionItemInputTextModel, Sendable {
    /// The field's name, the key of its value in the submitted form.
    public let key: String
    /// The field's title.
    public let label: String
    /// The hint shown in the empty field, if any.
    public let placeholder: String?
    /// How the field takes its input (keyboard, AutoFill, secrecy, length).
    public let inputConfiguration: InputTextConfiguration
    /// Whether the form cannot be submitted with the field empty.
    public let isRequired: Bool
    /// The value the server gave (empty when it gave none, and for secrets).
    public let initialValue: String
    /// The value the user entered, else the server's.
    @MainActor public var value: String
    /// The server's complaint about the last value.
    @MainActor public var error: String?

    /// A field named `key`.
    public init(
        key: String, label: String, placeholder: String?, value: String, inputConfiguration: InputTextConfiguration, isRequired: Bool
    ) {
        (self.key, self.label, self.placeholder, self.inputConfiguration, self.isRequired) = (
            key, label, placeholder, inputConfiguration, isRequired
        )
        initialValue = value
        self.value = value
        error = nil
    }
}

/// A checkbox.
public final class KitCheckboxItem: InteractionItemCheckboxModel, Sendable {
    /// The field's name, the key of its value in the submitted form.
    public let key: String
    /// The text beside the box.
    public let label: String
    /// Whether the box is shown but cannot be changed.
    public let isReadOnly: Bool
    /// Whether the form cannot be submitted with the box unchecked.
    public let isRequired: Bool
    /// The value submitted when checked.
    @MainActor public var value: String
    /// Whether the box is checked: ``value`` is submitted only then.
    @MainActor public var isChecked: Bool
    /// The server's complaint about the last value.
    @MainActor public var error: String?

    /// A checkbox named `key`.
    public init(key: String, label: String, value: String, isChecked: Bool, isReadOnly: Bool, isRequired: Bool) {
        (self.key, self.label, self.isReadOnly, self.isRequired) = (key, label, isReadOnly, isRequired)
        self.value = value
        self.isChecked = isChecked
        error = nil
    }
}

/// A choice among values (a select field).
public final class KitSelectItem: InteractionItemSelectModel, Sendable {
    /// The field's name, the key of its value in the submitted form.
    public let key: String
    /// The field's title.
    public let label: String
    /// The action the field belongs to, when known.
    public let action: (any Action)?
    /// The options, as (label, value) pairs.
    public let options: [(String, String)]
    /// Whether the form cannot be submitted without a choice.
    public let isRequired: Bool
    /// The chosen option's value.
    @MainActor public var value: String
    /// The index of the chosen option; setting it sets ``value`` (empty for none).
    @MainActor public var selectedPosition: Int? {
        didSet { value = selectedPosition.flatMap { options.indices.contains($0) ? options[$0].1 : nil } ?? "" }
    }
    /// The server's complaint about the last value.
    @MainActor public var error: String?

    /// A select field named `key`; `selected` is the index of the chosen option.
    public init(key: String, label: String, options: [(String, String)], selected: Int?, isRequired: Bool, action: (any Action)? = nil) {
        (self.key, self.label, self.options, self.isRequired, self.action) = (key, label, options, isRequired, action)
        selectedPosition = selected
        value = selected.flatMap { options.indices.contains($0) ? options[$0].1 : nil } ?? ""
        error = nil
    }
}

/// A button: submits a form with the values of ``fields``.
public struct KitButtonItem: InteractionItemButtonModel {
    /// The button's id.
    public let key: String
    /// The button's title.
    public let label: String
    /// How much the button stands out.
    public let type: InteractionItemButtonType
    /// The name of the button's icon in the theme's images, if it has one.
    public let imageResourceName: String?
    /// What the button submits (a ``/HaapiSDK/FormActionModel``) or chooses.
    public let action: any RepresentationActionModel
    /// What the button's action does (`login`, `cancel`, ...).
    public let kind: ActionKind
    /// The title of the button's action (its ``label`` is the form's `actionTitle`, when given).
    public let title: String?
    /// The elements whose values it submits (its form's fields).
    public let fields: [any InteractionItemModel]

    /// A button that submits `action`'s form with the values of `fields`.
    public init(
        key: String, label: String, type: InteractionItemButtonType, action: any RepresentationActionModel, kind: ActionKind,
        title: String? = nil,
        fields: [any InteractionItemModel] = [], imageResourceName: String? = nil
    ) {
        (self.key, self.label, self.type, self.action, self.kind, self.title, self.fields) = (key, label, type, action, kind, title, fields)
        self.imageResourceName = imageResourceName
    }

    /// The form it submits.
    public var formActionModel: FormActionModel? { action as? FormActionModel }
    /// Whether it abandons the flow.
    public var isCancel: Bool { kind == .cancel }

    /// What its fields hold now, by name: a checkbox's value when checked, an empty string when not.
    @MainActor public func parameters() -> [String: any Sendable] {
        var parameters: [String: any Sendable] = [:]
        for field in fields {
            switch field {
            case let box as any InteractionItemCheckboxModel: parameters[box.key] = box.isChecked ? box.value : ""
            case let value as any InteractionItemModel & InteractionValueModel: parameters[value.key] = value.value
            default: break
            }
        }
        return parameters
    }
}

/// A title over the elements of one form.
public struct KitSectionItem: InteractionItemSectionModel {
    /// The title's id.
    public let key: String
    /// The title.
    public let label: String

    /// A title.
    public init(key: String, label: String) { (self.key, self.label) = (key, label) }
}

/// A text between elements.
public struct KitTextItem: InteractionItemTextContentModel {
    /// The text's id.
    public let key: String
    /// The text.
    public let label: String

    /// A text.
    public init(key: String, label: String) { (self.key, self.label) = (key, label) }
}

/// An option of a selector: an authenticator, a device, or any nested choice.
public struct KitSelectorItem: SelectorItemInteractionActionModel {
    /// The option's title: its action's title (empty without one; the kit's mapper does not show
    /// an untitled option, whose type or kind is no title for a person).
    public let title: String
    /// The option's form (``/HaapiSDK/FormActionModel``) or its own options (``/HaapiSDK/SelectorActionModel``).
    public let action: any RepresentationActionModel
    /// The authenticator type (`html-form`, `sms`, ...), when the option is an authenticator.
    public let type: String?
    /// The name of the authenticator's icon in the theme's images.
    public let icon: String?
    /// Whether choosing it keeps the selector on screen (tabs).
    public let shouldKeepFocus: Bool
    /// The option as received.
    public let option: any Action

    /// The item of `option`, titled by its action's title.
    public init(_ option: any Action, shouldKeepFocus: Bool = false) {
        self.option = option
        type = option.authenticatorType
        title = option.title?.literal ?? ""
        action =
            option.form.map { $0 as any RepresentationActionModel } ?? option.selector
            ?? HaapiModel.ActionModelFactory.selector(options: [])
        icon = type.map(AuthenticatorIcons.imageName(for:))
        self.shouldKeepFocus = shouldKeepFocus
    }

    /// The option's form, when choosing it submits one.
    public var formActionModel: FormActionModel? { action as? FormActionModel }
    /// The options nested under this one (a device holding its factors).
    public var nestedOptions: [any Action] { (action as? SelectorActionModel)?.options ?? [] }
}
