import OAuthCore
import OIDCClient

/// What to do next, for failures whose cause the user can fix.
package enum Hints {
    /// For a server that refused the client itself (`invalid_client`, anywhere in the causes
    /// of `error`): what to check, and where the development server says its secrets. For a
    /// refused server certificate: how to trust a private CA.
    /// `unwrapping` gives the failure inside an error that wraps one without being an
    /// ``IdsvrError`` (a login's `HaapiFlowError`), whose causes count too.
    package static func after(_ error: any Error, unwrapping wrapped: (any Error) -> (any Error)? = { _ in nil }) -> String {
        let chain = error.causeChain.flatMap { wrapped($0)?.causeChain ?? [$0] }
        if chain.contains(where: { ($0 as? any IdsvrError)?.error == "invalid_client" }) { return refusedClient }
        if chain.contains(where: { ($0 as? HTTPTransportError)?.code == .tlsFailure }) {
            // With a CA file given already, the hint is about that file, not to give one.
            let given = AnnouncedTransport.trustedCAFiles.withLock { $0 }
            return given.isEmpty
                ? untrustedCertificate
                : " (neither the system's roots nor \(given.joined(separator: ", ")) vouch for the server's certificate: check that the file holds the CA that issued it, and that the certificate names the host)"
        }
        return ""
    }

    static let untrustedCertificate =
        " (for a private CA or a self-signed certificate, give its PEM file with --cacert FILE, or set HAAPI_CA_FILE)"

    static let refusedClient =
        " (the server refused the client: check --client-id and the secret, from HAAPI_CLIENT_SECRET, --client-secret-file or "
        + "--client-secret -; `haapi server --print-config` shows the development server's)"
}
