import Foundation
import OAuthCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Raised when the user presses Ctrl-C while a question is asked.
package struct Interrupted: Error {
    package init() {}
}

/// The terminal: standard input read line by line on a thread of its own, Ctrl-C at a
/// question handed to the question, echo turned off for secrets, and ANSI styles when standard error is a TTY.
package final class Terminal: @unchecked Sendable {
    package struct State {
        package var lines: [String] = []
        package var isAtEnd = false
        var isReading = false
    }

    package let isInteractive: Bool
    package let usesColour: Bool
    private let state = LockedValue(State())

    /// Whether standard error is a terminal that can rewrite a line (`\r`, erase).
    static let standardErrorIsTerminal = isatty(STDERR_FILENO) == 1 && ProcessInfo.processInfo.environment["TERM"] != "dumb"
    /// Whether what goes to standard error may be coloured (a terminal, and no `NO_COLOR`).
    static let standardErrorUsesColour = standardErrorIsTerminal && ProcessInfo.processInfo.environment["NO_COLOR"] == nil

    package init() {
        isInteractive = isatty(STDIN_FILENO) == 1
        usesColour = Self.standardErrorUsesColour
    }

    /// Takes a Ctrl-C pressed while the command waited for the user, if any (see ``Interrupts``).
    package func takeInterrupt() -> Bool { Interrupts.take() }

    private func startReading() {
        let start = state.withLock { state -> Bool in
            defer { state.isReading = true }
            return !state.isReading
        }
        guard start else { return }
        let thread = Thread { [state] in
            while let line = Swift.readLine(strippingNewline: true) {
                state.withLock { $0.lines.append(line) }
            }
            state.withLock { $0.isAtEnd = true }
        }
        thread.start()
    }

    /// Reads one line; throws ``Interrupted`` on Ctrl-C and a failure at the end of input.
    package func readLine(secret: Bool = false) async throws -> String {
        startReading()
        var saved = termios()
        let hides = secret && isInteractive && tcgetattr(STDIN_FILENO, &saved) == 0
        if hides {
            var quiet = saved
            quiet.c_lflag &= ~tcflag_t(ECHO)
            tcsetattr(STDIN_FILENO, TCSANOW, &quiet)
        }
        defer {
            if hides {
                tcsetattr(STDIN_FILENO, TCSANOW, &saved)
                Stderr.write("\n")
            }
        }
        return try await Interrupts.whileWaitingForTheUser {
            while true {
                if takeInterrupt() { throw Interrupted() }
                let next = state.withLock { state -> (String?, Bool) in
                    if !state.lines.isEmpty { return (state.lines.removeFirst(), false) }
                    return (nil, state.isAtEnd)
                }
                if let line = next.0 { return line }
                if next.1 { throw CLIFailure("standard input ended while a question was asked") }
                try await Task.sleep(for: .milliseconds(30))
            }
        }
    }

    // MARK: Styles

    package enum Style: String {
        case bold = "1", dim = "2", red = "31", green = "32", yellow = "33", blue = "34", cyan = "36"
    }

    package func styled(_ text: PrintableText, _ styles: Style...) -> PrintableText { Self.styled(text, styles, colour: usesColour) }

    /// Text built elsewhere (a translated string with a server's words in it), neutralised, then styled.
    package func styled(_ text: String, _ styles: Style...) -> PrintableText {
        Self.styled(PrintableText(text), styles, colour: usesColour)
    }

    /// `text` in `styles` when `colour` is on, else as it is.
    package static func styled(_ text: PrintableText, _ styles: [Style], colour: Bool = standardErrorUsesColour) -> PrintableText {
        guard colour, !styles.isEmpty else { return text }
        return text.styled(styles.map(\.rawValue).joined(separator: ";"))
    }

    /// Back to the start of the line, and the line erased.
    static let eraseLine = PrintableText(own: "\r\u{1B}[2K")

    /// Rewrites the current line (the spinner); plain output writes new lines only when the text changes.
    package func status(_ text: PrintableText) {
        if usesColour {
            Stderr.write(Self.eraseLine + text)
        } else {
            Stderr.line(text)
        }
    }

    package func endStatus() {
        if usesColour { Stderr.write(Self.eraseLine) }
    }
}
