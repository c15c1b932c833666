import Foundation
import HaapiUI
import HaapiTesting
import Testing

// Seed 000, "HaapiLogger" and "Error handling - IdsvrError".

// MARK: 000-20 Displaying logs from the AppDelegate
// Changed: inside a namespace (its name is 000-1's).

enum LoggingSnippet {
class AppDelegate: UIResponder, UIApplicationDelegate {
// ...
func application(_ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?) -> Bool {
// ...
HaapiLogger.followUpTags = DriverFollowUpTag.allCases + SdkFollowUpTag.allCases + UIKitFollowUpTag.allCases // To filter logs.
return true
}
// ...
}
}

// MARK: 000-22 Writing logs to another destination
// Changed: the `// Filter/export` comment followed by a line that keeps the line for the test.

class MyLogSink: LogSink {
func writeLog(logType: LogType,
followUpTag: any FollowUpTag,
message: String,
file: String,
line: Int)
{
// Filter/export to your designed tool
LogRecord.shared.append("[\(followUpTag.tagName)] [\(logType.rawValue)] \(message)")
}
}

/// What ``MyLogSink`` was given.
final class LogRecord: @unchecked Sendable {
    static let shared = LogRecord()
    private let lock = NSLock()
    private var stored: [String] = []

    func append(_ line: String) { lock.withLock { stored.append(line) } }
    var lines: [String] { lock.withLock { stored } }
    func clear() { lock.withLock { stored.removeAll() } }
}

// MARK: 000-23 HaapiUIKitError
// Changed: `expectedObjName, objName` (not a statement) in parentheses; the closing brace of
// the function, lost in the seed's text, added.

@MainActor final class ErrorScreen {
    var advice: String?

private func handleError(_ error: Error) {
guard let haapiUIKitError = error as? HaapiUIKitError else { return }
switch haapiUIKitError {
case .illegalState(let reason): reason
case .other(let error): error
case .unsupported(let cause): cause
case .unsupportedMap(let objName, let expectedObjName): (expectedObjName, objName)
}
}

// MARK: 000-24 The IdsvrError metadata of a HaapiUIKitError
// Changed: `as` made `as?` (a conditional binding needs an optional); `haapiError` is
// `idsvrError`, the name the guard binds; each case's comments followed by a line that keeps
// the advice (a case needs a statement); `.nonRecoverable(action:)` is `.unrecoverable(action:)`,
// as Curity's interface names it.

private func handleHaapiError(_ error: HaapiUIKitError) {
guard let idsvrError = error as? IdsvrError else { return }
// check the error metadata for information about the error.
// for example, check the recovery suggestion to find out if the error can be recovered
switch idsvrError.recoverySuggestion {
case .retryable(condition: let condition):
// The error can be recovered by retrying the same operation when the `condition` is met.
// For example, retrying the same operation at a later time, when the app is running in the foreground.
// This is likely to happen when the device's resources are currently unavailable
advice = "retry \(condition)"
case .newHaapiFlow:
// The error can be recovered by triggering a new Authentication flow from the start.
advice = "new flow"
case .unrecoverable(action: let action):
// This error cannot be recovered without compile time or runtime corrective measures as instructed by the `action`.
advice = "fix: \(action)"
}
}

    /// Hands an error of the flow to both handlers, as an app's error path would.
    func handle(_ error: Error) {
        handleError(error)
        if let haapiUIKitError = error as? HaapiUIKitError { handleHaapiError(haapiUIKitError) }
    }
}

extension SeedSnippets {
    @Suite("Seed 000: logs and errors")
    @MainActor struct LoggingAndErrors {
        @Test("000-20, 000-21, 000-22: the tags chosen are logged to the sink, values masked until unmasked with the documented warnings")
        func logging() async throws {
            // The logger is global: other suites' tests must not change it meanwhile.
            try await SharedState.haapiLogger.exclusively { try await loggingHoldingTheLogger() }
        }

        func loggingHoldingTheLogger() async throws {
            defer {
                HaapiLogger.followUpTags = []
                HaapiLogger.removeAllLogSinks()
                HaapiLogger.isSensitiveValueMasked = true
                HaapiLogger.isConsoleEnabled = true
                LogRecord.shared.clear()
            }
            HaapiLogger.isConsoleEnabled = false  // only the sink: the test reads what it gets
            // MARK: 000-22 (continued, unchanged)
            HaapiLogger.appendLogSink(MyLogSink())
            // MARK: end of 000-22
            try await SnippetServer.with { _ in
                #expect(LoggingSnippet.AppDelegate().application(UIApplication.shared, didFinishLaunchingWithOptions: nil))
                let tokens = try await Self.logIn()
                let lines = LogRecord.shared.lines
                #expect((DriverFollowUpTag.allCases + SdkFollowUpTag.allCases + UIKitFollowUpTag.allCases).map(\.tagName) == [
                    "HAAPI_DRIVER_FLOW", "HAAPI_DRIVER_STORAGE", "HAAPI_DRIVER_HTTP", "HAAPI_DRIVER_ATTESTATION",
                    "HAAPI_SDK_FLOW", "HAAPI_SDK_HTTP", "HAAPI_SDK_MAPPING", "HAAPI_SDK_OAUTH", "HAAPI_UI_DATA", "HAAPI_UI_COMPONENT",
                    "HAAPI_UI_THEMING", "HAAPI_UI_FLOW", "HAAPI_UI_SWIFTUI", "HAAPI_UI_MAPPING", "HAAPI_UI_LAYOUT",
                ])
                for prefix in ["[HAAPI_DRIVER_", "[HAAPI_SDK_", "[HAAPI_UI_"] {
                    #expect(lines.contains { $0.hasPrefix(prefix) }, "no \(prefix) line")
                }
                #expect(!lines.contains { $0.contains(tokens.accessToken) })
                #expect(lines.contains { $0.contains(HaapiLogger.maskText) })

                // MARK: 000-21 (unchanged)
                // Driver, Sdk, and UIKit logs are displayed in the console
                HaapiLogger.followUpTags = DriverFollowUpTag.allCases + SdkFollowUpTag.allCases + UIKitFollowUpTag.allCases
                // Only UIKit logs are displayed in the console.
                HaapiLogger.followUpTags = UIKitFollowUpTag.allCases
                // MARK: end of 000-21
                LogRecord.shared.clear()
                _ = try await Self.logIn()
                #expect(!LogRecord.shared.lines.isEmpty)
                #expect(LogRecord.shared.lines.allSatisfy { $0.hasPrefix("[HAAPI_UI_") })

                // "To remove the masking, HaapiLogger.isSensitiveValueMasked has to be set to false."
                HaapiLogger.followUpTags = DriverFollowUpTag.allCases + SdkFollowUpTag.allCases + UIKitFollowUpTag.allCases
                LogRecord.shared.clear()
                HaapiLogger.isSensitiveValueMasked = false
                #expect(Array(LogRecord.shared.lines.prefix(2)) == [
                    "[UNSECURED] [WARNING] ********** SENSITIVE VALUE IS UNMASKED **********",
                    "[UNSECURED] [WARNING] ********** HaapiLogger.isSensitiveValueMasked must be set to true in `release` mode. **********",
                ])
                let unmasked = try await Self.logIn()
                #expect(LogRecord.shared.lines.contains { $0.contains(unmasked.accessToken) })
            }
        }

        /// A flow of the app's client, to its tokens.
        static func logIn() async throws -> OAuthTokenModel {
            let application = HaapiUIKitApplicationBuilder(haapiUIKitConfiguration: HaapiUIKitConfigurationBuilder(
                clientId: Constants.clientId, baseUrl: Constants.baseURL, tokenEndpointUrl: Constants.tokenEndpointURL,
                authorizationEndpointUrl: Constants.authorizationEndpointURL, appRedirect: Constants.appRedirectURIString).build()).build()
            var tokens: OAuthTokenModel?
            let outcome = await Result(catching: {
                try await withDevelopmentAttestation {
                    let viewModel = HaapiFlowViewModel(haapiUIKitApplication: application)
                    await viewModel.start()
                    try await logInDemoUser(viewModel)
                    tokens = try await waitFor { viewModel.oAuthModel as? OAuthTokenModel }
                }
            })
            await application.close()
            try outcome.get()
            return try #require(tokens)
        }

        @Test("000-23, 000-24: a HaapiUIKitError of the view model is cast and its recovery suggestion followed")
        func uiKitErrors() async throws {
            try await SnippetServer.with { _ in
                let viewModel = try HaapiFlowViewModel(haapiUIKitConfiguration: HaapiUIKitConfigurationBuilder(
                    clientId: Constants.clientId, baseUrl: Constants.baseURL, tokenEndpointUrl: Constants.tokenEndpointURL,
                    authorizationEndpointUrl: Constants.authorizationEndpointURL, appRedirect: Constants.appRedirectURIString).build())
                // Polling before the flow has a polling step: the view model's own error.
                await viewModel.poll()
                let error = try #require(viewModel.error?.underlyingError)
                guard case .illegalState? = error as? HaapiUIKitError else { Issue.record("got \(error)"); return }
                let screen = ErrorScreen()
                screen.handle(error)
                #expect(screen.advice == "new flow")
                let wrapped = HaapiUIKitError.other(HaapiError.dpopProofFailure(message: "no key", cause: CancellationError()))
                screen.handle(wrapped)
                #expect(screen.advice == "retry \(RetryCondition.whenAppInForeground)")
                screen.handle(HaapiUIKitError.unsupported(cause: "passkeys need iOS 16"))
                #expect(screen.advice == "fix: \(UnrecoverableAction.modifyConfiguration(reason: "passkeys need iOS 16"))")
            }
        }
    }
}
