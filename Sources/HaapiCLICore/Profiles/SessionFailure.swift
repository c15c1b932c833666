import Foundation
import OAuthCore
import OIDCClient

extension Profile {
    /// Runs `body` on the profile's session, saying its failures the way the CLI does: what
    /// happened to the profile, and the command that fixes it.
    package func reportingFailures<T>(of action: String, _ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch let failure as CLIFailure {
            throw failure
        } catch let error as OIDCError where error.cause is TokenSession.NoSessionError {
            throw Self.noTokens(name)
        } catch let error as OIDCError where error.code == .loginRequired {
            throw CLIFailure(
                "login required: \(error.errorDescription ?? error.error); run `haapi login --profile \(name)`",
                exitCode: ExitCodes.loginNeeded)
        } catch let error as StorageError where error.code == .lockTimeout {
            throw CLIFailure("another process has been renewing the tokens of profile \"\(name)\" for too long: \(error.message)")
        } catch let error as StorageError where error.code == .invalidFormat {
            throw CLIFailure(
                "the profile's \(Self.tokensKey) cannot be read (\(error.underlying ?? error.message)); "
                    + "run `haapi login --profile \(name)` to replace it")
        } catch let error as StorageError where error.code == .readFailed || error.code == .unavailable {
            throw CLIFailure("reading the tokens failed: \(Self.describe(error))\(keyringHint(error))\(Hints.after(error))")
        } catch let error as StorageError where error.message.hasPrefix("the keyring") {
            throw CLIFailure("\(action) failed: \(Self.describe(error))\(keyringHint(error))")
        } catch {
            throw CLIFailure("\(action) failed: \(Self.describe(error))\(Hints.after(error))")
        }
    }

    /// The profile's tokens; a failure when it has none.
    package func loggedIn(_ session: TokenSession) async throws -> AuthState {
        guard let tokens = try await reportingFailures(of: "reading the tokens", { try await session.authState }) else {
            throw Self.noTokens(name)
        }
        return tokens
    }

    private static func noTokens(_ name: String) -> CLIFailure {
        CLIFailure(
            "not logged in: the profile \"\(name)\" has no tokens; run `haapi login --profile \(name)`", exitCode: ExitCodes.loginNeeded)
    }

    /// For an error of the keyring: how to get on (unlock it, or keep the profile's secrets in files).
    private func keyringHint(_ error: StorageError) -> String {
        guard error.message.hasPrefix("the keyring") else { return "" }
        return " (unlock the keyring, which needs a desktop session to ask for its password; or keep this profile's secrets in files: "
            + "`haapi login --profile \(name) --secret-store file`)"
    }

    package static func describe(_ error: any Error) -> String {
        (error as? any IdsvrError)?.errorDescription ?? String(describing: error)
    }
}
