import HaapiSDK

/// A class of a message's `classList`, read (unknown classes kept); the kit shows a message by
/// its ``MessageModel/messageStyleAttribute``.
public enum MessageStyle: Sendable, Hashable {
    /// `heading`: a title.
    case heading
    /// `info`: information.
    case info
    /// `warning`: a warning.
    case warning
    /// `error` or `is-error`: an error.
    case error
    /// `userName`: the user's name.
    case username
    /// `recipient` or `recipientOfCommunication`: who a code or a request was sent to.
    case recipient
    /// A class this layer does not know (`userCode`, `activationCode`, ...), kept as received.
    case other(String)

    /// The style of one class name.
    public init(className: String) {
        switch className.lowercased() {
        case "heading": self = .heading
        case "info": self = .info
        case "warning": self = .warning
        case "error", "is-error": self = .error
        case "username", "user-name": self = .username
        case "recipient", "recipientofcommunication": self = .recipient
        default: self = .other(className)
        }
    }
}

/// How the kit shows a message (Curity's names); each has its theme section (`MessageView.*`).
public enum MessageStyleAttribute: String, Codable, Sendable, CaseIterable {
    /// A heading over the step (class `heading`).
    case heading
    /// Information (class `info`).
    case info
    /// An error (class `error` or `is-error`).
    case error
    /// A warning (class `warning`).
    case warn
    /// Whom a code or request was sent to (class `recipientOfCommunication`).
    case recipientofcommunication
    /// Any other text of the step.
    case content
    /// A user name (class `username`).
    case username
    /// A code for the user to type elsewhere (class `userCode`).
    case usercode

    /// The theme section of the message view's style.
    public var themeSection: String {
        switch self {
        case .heading: return "MessageView.Heading"
        case .info: return "MessageView.Info"
        case .error: return "MessageView.Error"
        case .warn: return "MessageView.Warn"
        case .recipientofcommunication: return "MessageView.RecipientOfCommunication"
        case .content: return "MessageView.Content"
        case .username: return "MessageView.Username"
        case .usercode: return "MessageView.UserCode"
        }
    }
}

/// A message of a step or a problem, with its styles.
public struct MessageModel: Sendable, Hashable {
    /// The text.
    public let text: String
    /// The styles, one per class, in the order of `classList` (unknown classes kept as ``MessageStyle/other(_:)``).
    public let styles: [MessageStyle]
    /// The classes as received.
    public let classList: [String]

    /// The main style: the first known style, else ``MessageStyle/info``.
    public var style: MessageStyle { knownStyle ?? .info }

    /// The first style this layer knows, if any class is one (a problem's message without one
    /// is an error, a step's is information: the caller decides).
    public var knownStyle: MessageStyle? {
        styles.first { if case .other = $0 { return false } else { return true } }
    }

    /// Whether the message has `style`.
    public func hasStyle(_ style: MessageStyle) -> Bool { styles.contains(style) }

    /// How the kit shows the message (Curity's `InfoMessageModel.messageStyleAttribute`): by its
    /// first known class; a user code (`userCode`) as one; any other message as content.
    public var messageStyleAttribute: MessageStyleAttribute {
        switch knownStyle {
        case .heading?: return .heading
        case .info?: return .info
        case .warning?: return .warn
        case .error?: return .error
        case .username?: return .username
        case .recipient?: return .recipientofcommunication
        case .other?, nil:
            return classList.contains { $0.caseInsensitiveCompare("userCode") == .orderedSame } ? .usercode : .content
        }
    }

    /// A model of `message`.
    public init(_ message: UserMessage) {
        self.init(text: message.text.literal, classList: message.classList)
    }

    /// A model of a text and its classes.
    public init(text: String, classList: [String]) {
        self.text = text
        self.classList = classList
        styles = classList.map(MessageStyle.init(className:))
    }
}

/// A message of a step (the seeds' `InfoMessageModel`).
public typealias InfoMessageModel = MessageModel
