import Logging
import OAuthCore

/// The server's log: swift-log's `Logger`, taking only ``PrintableText``, so a user name or a
/// path from a request cannot write a line of its own or act on the terminal that shows the log
/// (`Scripts/lint.py` keeps this the only logger of the server).
struct ServerLog: Sendable {
    private let logger: Logger

    init(label: String) { logger = Logger(label: label) }

    func notice(_ text: PrintableText) { logger.notice("\(text.description)") }
    func warning(_ text: PrintableText) { logger.warning("\(text.description)") }
    func error(_ text: PrintableText) { logger.error("\(text.description)") }
}
