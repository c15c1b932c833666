import HaapiSDK

/// How a message is shown, from its `classList` (the seeds' `MessageStyleAttribute`).
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

    /// A model of `message`.
    public init(_ message: UserMessage) {
        self.init(text: message.text, classList: message.classList)
    }

    /// A model of a text and its classes.
    public init(text: String, classList: [String]) {
        self.text = text
        self.classList = classList
        styles = classList.map(MessageStyle.init(className:))
    }
}
