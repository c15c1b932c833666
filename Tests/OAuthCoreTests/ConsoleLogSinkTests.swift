import Foundation
import NIOConcurrencyHelpers
import Testing

@testable import OAuthCore

/// Review 4, finding 6: with `--log-level`, HaapiLogger's console sink wrote what servers said
/// (an error description, an ID token's claim in a refusal) raw. It writes PrintableText: an
/// escape sequence cannot act on the terminal, and a newline cannot start a forged entry of
/// another layer.
@Suite("The console log sink")
struct ConsoleLogSinkTests {
    @Test func theLogSinkWritesAServersTextEscaped() {
        let written = NIOLockedValueBox<[String]>([])
        let sink = ConsoleLogSink(write: { line in written.withLockedValue { $0.append(line.description) } })
        let forged = "bad\n[HAAPI_DRIVER_HTTP] [ERROR] Forged.1 : the token went to evil.example\u{1B}[2J\u{1B}]0;pwned\u{07}\u{202E}"
        sink.writeLog(
            logType: .warning, followUpTag: OIDCFollowUpTag.session, message: "refresh refused: \(forged)",
            file: "Sources/X/TokenSession.swift", line: 7)
        let lines = written.withLockedValue { $0 }
        #expect(lines.count == 1)
        let line = lines.first ?? ""
        #expect(line.hasPrefix("[OIDC_CLIENT_SESSION] [WARNING] TokenSession.7 : refresh refused: bad\\u{A}[HAAPI_DRIVER_HTTP]"), "\(line)")
        #expect(!line.contains("\n") && !line.unicodeScalars.contains { $0.value < 0x20 || $0 == "\u{202E}" }, "\(line.debugDescription)")
    }
}
