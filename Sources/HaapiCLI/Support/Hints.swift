import HaapiUI
import OAuthCore
import OIDCClient

/// What to do next, for failures whose cause the user can fix.
enum Hints {
    /// For a server that refused the client itself (`invalid_client`, anywhere in the causes
    /// of `error`): what to check, and where the development server says its secrets.
    static func after(_ error: any Error) -> String {
        var current: (any Error)? = error
        for _ in 0..<4 {
            guard let error = current else { break }
            if (error as? any IdsvrError)?.error == "invalid_client" { return refusedClient }
            if let error = error as? OIDCError {
                current = error.cause
            } else if let error = error as? HaapiFlowError {
                current = error.underlyingError
            } else {
                break
            }
        }
        return ""
    }

    static let refusedClient =
        " (the server refused the client: check --client-id and the secret, from HAAPI_CLIENT_SECRET, --client-secret-file or "
        + "--client-secret -; `haapi server --print-config` shows the development server's)"
}
