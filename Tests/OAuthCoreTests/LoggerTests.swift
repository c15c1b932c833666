import Foundation
import HaapiTesting
import Logging
import NIOConcurrencyHelpers
import OAuthCore
import Testing

/// A follow-up tag only these tests use, so lines of other suites never mix in.
enum TestTag: String, FollowUpTag, CaseIterable {
    case first = "HAAPI_TEST_FIRST"
    case second = "HAAPI_TEST_SECOND"
    var subsystem: String { "TEST" }
}

final class CapturingSink: LogSink, @unchecked Sendable {
    private let lock = NSLock()
    private var entries: [(LogType, String, String)] = []

    func writeLog(logType: LogType, followUpTag: any FollowUpTag, message: String, file: String, line: Int) {
        guard followUpTag.tagName.hasPrefix("HAAPI_TEST") || followUpTag.tagName == "UNSECURED" else { return }
        lock.withLock { entries.append((logType, followUpTag.tagName, message)) }
    }

    var lines: [String] { lock.withLock { entries.map { "[\($0.1)] [\($0.0.rawValue)] \($0.2)" } } }
}

@Suite("HaapiLogger", .serialized)
struct LoggerTests {
    /// Runs `body` with a fresh sink and default settings, restoring the defaults afterwards,
    /// while no test of another suite changes the logger.
    func withSink(_ sink: CapturingSink = CapturingSink(), _ body: (CapturingSink) async throws -> Void) async rethrows {
        try await SharedState.haapiLogger.exclusively {
            HaapiLogger.removeAllLogSinks()
            HaapiLogger.isConsoleEnabled = false
            HaapiLogger.appendLogSink(sink)
            defer {
                HaapiLogger.followUpTags = []
                HaapiLogger.isSensitiveValueMasked = true
                HaapiLogger.isInfoEnabled = true
                HaapiLogger.isDebugEnabled = true
                HaapiLogger.removeAllLogSinks()
                HaapiLogger.isConsoleEnabled = true
            }
            try await body(sink)
        }
    }

    @Test func nothingIsLoggedUntilTagsAreSet() async {
        await withSink { sink in
            #expect(HaapiLogger.followUpTags.isEmpty)
            HaapiLogger.error(TestTag.first, "hidden")
            #expect(sink.lines.isEmpty)
            HaapiLogger.followUpTags = [TestTag.first]
            HaapiLogger.error(TestTag.first, "shown")
            HaapiLogger.error(TestTag.second, "other tag")
            #expect(sink.lines == ["[HAAPI_TEST_FIRST] [ERROR] shown"])
        }
    }

    @Test func setLogTypeSetsTheLowestLevelAndTagsNameThemselves() async {
        await withSink { sink in
            HaapiLogger.followUpTags = [TestTag.first]
            HaapiLogger.setLogType(.warning)
            #expect(!HaapiLogger.isDebugEnabled && !HaapiLogger.isInfoEnabled && HaapiLogger.isWarningEnabled && HaapiLogger.isErrorEnabled)
            HaapiLogger.info(TestTag.first, "no")
            HaapiLogger.warning(TestTag.first, "yes")
            HaapiLogger.setLogType(.debug)
            #expect(HaapiLogger.isDebugEnabled && HaapiLogger.isInfoEnabled)
            HaapiLogger.debug(TestTag.first, "all")
            HaapiLogger.setLogType(.error)
            HaapiLogger.warning(TestTag.first, "no")
            #expect(sink.lines == ["[HAAPI_TEST_FIRST] [WARNING] yes", "[HAAPI_TEST_FIRST] [DEBUG] all"])
            HaapiLogger.setLogType(.info)
            #expect(DriverFollowUpTag.http.tagName == "HAAPI_DRIVER_HTTP" && DriverFollowUpTag.http.subsystem == "HAAPI_DRIVER")
            #expect(OIDCFollowUpTag.session.subsystem == "OIDC_CLIENT" && UnsecuredTag().tagName == "UNSECURED")
            #expect(OIDCFollowUpTag.allCases.map(\.tagName) == ["OIDC_CLIENT_FLOW", "OIDC_CLIENT_SESSION"])
            // The tags are kept in order, one per name.
            HaapiLogger.followUpTags = [TestTag.second, TestTag.first, TestTag.second]
            #expect(HaapiLogger.followUpTags.map(\.tagName) == ["HAAPI_TEST_SECOND", "HAAPI_TEST_FIRST"])
            // An app's own tags are named by their raw values.
            #expect(TestTag.first.tagName == "HAAPI_TEST_FIRST")
        }
    }

    @Test func levelSwitchesAndDefaults() async {
        await withSink { sink in
            #expect(HaapiLogger.isInfoEnabled && HaapiLogger.isWarningEnabled && HaapiLogger.isErrorEnabled)
            #expect(HaapiLogger.isSensitiveValueMasked)
            HaapiLogger.followUpTags = TestTag.allCases + DriverFollowUpTag.allCases
            #expect(HaapiLogger.followUpTags.count == 6)
            HaapiLogger.isInfoEnabled = false
            HaapiLogger.info(TestTag.first, "no")
            HaapiLogger.warning(TestTag.first, "yes")
            HaapiLogger.isDebugEnabled = false
            var built = false
            HaapiLogger.debug(
                TestTag.first,
                {
                    built = true
                    return "expensive"
                }())
            #expect(!built, "a message of a disabled level must not be built")
            #expect(sink.lines == ["[HAAPI_TEST_FIRST] [WARNING] yes"])
        }
    }

    @Test func secretsAreMaskedByDefault() async {
        await withSink { sink in
            HaapiLogger.followUpTags = [TestTag.first]
            let headers: HeaderFields = ["Authorization": "DPoP at-123", "DPoP": "proof.jwt.sig", "Content-Type": "text/plain"]
            HaapiLogger.info(TestTag.first, "token \(sensitive: "at-123") \(headers: headers)")
            HaapiLogger.info(
                TestTag.first,
                "\(parameters: [("grant_type", "refresh_token"), ("refresh_token", "rt-9"), ("client_assertion", "a.b.c"), ("password", "pw")])"
            )
            #expect(
                sink.lines == [
                    "[HAAPI_TEST_FIRST] [INFO] token ***** [Authorization: *****, DPoP: *****, Content-Type: text/plain]",
                    "[HAAPI_TEST_FIRST] [INFO] grant_type=refresh_token&refresh_token=*****&client_assertion=*****&password=*****",
                ])
            #expect(HaapiLogger.mask("x") == "*****")
        }
    }

    @Test func unmaskingWarnsLoudly() async {
        await withSink { sink in
            HaapiLogger.isSensitiveValueMasked = false
            // The warning is written even though no tag is enabled.
            #expect(sink.lines.count == 2)
            #expect(sink.lines.allSatisfy { $0.hasPrefix("[UNSECURED] [WARNING] **********") })
            HaapiLogger.followUpTags = [TestTag.first]
            HaapiLogger.info(TestTag.first, "plain")
            HaapiLogger.info(TestTag.first, "token \(sensitive: "at-123")")
            #expect(
                Array(sink.lines.dropFirst(2)) == [
                    "[HAAPI_TEST_FIRST] [INFO] plain",
                    "[UNSECURED] [WARNING] ********** SENSITIVE VALUE IS UNMASKED **********",
                    "[HAAPI_TEST_FIRST] [INFO] token at-123",
                ])
        }
    }

    @Test func tokenRequestsLogNoSecrets() async throws {
        let sink = CapturingSink()
        final class DriverSink: LogSink, @unchecked Sendable {
            let lock = NSLock()
            var lines: [String] = []
            func writeLog(logType: LogType, followUpTag: any FollowUpTag, message: String, file: String, line: Int) {
                lock.withLock { lines.append(message) }
            }
        }
        let driver = DriverSink()
        try await withSink(sink) { _ in
            HaapiLogger.appendLogSink(driver)
            HaapiLogger.followUpTags = DriverFollowUpTag.allCases
            let transport = ScriptedTransport([json(200, #"{"access_token":"secret-at","token_type":"Bearer"}"#)])
            _ = try await TokenEndpointClient(
                endpoint: URL(string: "https://as.example/token")!,
                clientAuthentication: .clientSecretBasic(clientID: "c", secret: "client-secret-value"), transport: transport
            ).requestToken(.refreshToken("refresh-token-value"))
        }
        let text = driver.lock.withLock { driver.lines.joined(separator: "\n") }
        #expect(text.contains("POST https://as.example/token"))
        #expect(!text.contains("refresh-token-value") && !text.contains("client-secret-value") && !text.contains("secret-at"))
        #expect(!text.contains(Data("c:client-secret-value".utf8).base64EncodedString()))
    }

    @Test func swiftLogBridgeForwardsLevelTagAndMaskedText() async {
        let recorder = RecordingLogHandler.Store()
        let logger = Logger(label: "test") { _ in RecordingLogHandler(store: recorder) }
        await withSink { _ in
            HaapiLogger.appendLogSink(SwiftLogSink(logger: logger))
            HaapiLogger.followUpTags = [TestTag.second]
            HaapiLogger.warning(TestTag.second, "secret \(sensitive: "s3cr3t")")
        }
        let entries = recorder.entries.withLockedValue { $0 }
        #expect(entries.count == 1)
        #expect(entries.first?.level == .warning)
        #expect(entries.first?.message == "secret *****")
        #expect(entries.first?.tag == "HAAPI_TEST_SECOND")
    }

    /// Review 4, finding 6, at the other sink: a server's text forwarded to swift-log has its
    /// control characters written as `\u{…}`, so a backend's line cannot be forged or act.
    @Test func theSwiftLogSinkForwardsAServersTextEscaped() async {
        let recorder = RecordingLogHandler.Store()
        let logger = Logger(label: "test") { _ in RecordingLogHandler(store: recorder) }
        await withSink { _ in
            HaapiLogger.appendLogSink(SwiftLogSink(logger: logger))
            HaapiLogger.followUpTags = [TestTag.second]
            HaapiLogger.warning(TestTag.second, "refused: bad\n[HAAPI_DRIVER_HTTP] [ERROR] forged\u{1B}[2J")
        }
        let message = recorder.entries.withLockedValue { $0 }.first?.message ?? ""
        #expect(message == "refused: bad\\u{A}[HAAPI_DRIVER_HTTP] [ERROR] forged\\u{1B}[2J", "\(message.debugDescription)")
    }
}

struct RecordingLogHandler: LogHandler {
    final class Store: Sendable {
        let entries = NIOLockedValueBox<[(level: Logger.Level, message: String, tag: String?)]>([])
    }

    let store: Store
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        store.entries.withLockedValue {
            $0.append((event.level, "\(event.message)", event.metadata?["followUpTag"].map { "\($0)" }))
        }
    }
}
