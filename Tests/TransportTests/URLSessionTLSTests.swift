import Foundation
import HaapiTesting
import OAuthCore
import OAuthTransportURLSession
import Testing

extension TransportTests {
    /// TLS through URLSessionTransport on this platform: FoundationNetworking checks the server
    /// against the system's roots and can do nothing else, so every other TLS setting is
    /// refused when the transport is made, never dropped.
    @Suite struct URLSessionTLS {
        let pki = TestPKI.shared

        @Test func systemRootsRejectTheTestCA() async throws {
            try await withServer(tls: try pki.serverTLS(pki.server)) { server in
                let transport = try URLSessionTransport()
                let (error, elapsed) = await transportFailure { try await transport.send(try .get(server.httpsURL)) }
                #expect(error?.code == .tlsFailure, "\(String(describing: error))")
                #expect(elapsed < promptly)
                #expect(server.requests.isEmpty)
            }
        }

        @Test func settingsItCannotApplyAreRefused() throws {
            let identity = try ClientIdentity(certificateChainPEM: try pki.client.certificatePEM, privateKeyPEM: pki.client.keyPEM)
            let settings: [(String, TLSOptions)] = [
                ("a client certificate", TLSOptions(clientIdentity: identity)),
                ("custom trust roots", TLSOptions(trustedRootsPEM: try pki.ca.certificatePEM)),
                (
                    "public-key pinning",
                    TLSOptions(keyPinnings: [KeyPinning(hostname: "127.0.0.1", publicKeyHash: try pki.server.publicKeyHash)])
                ),
                ("no host-name check", TLSOptions(validatesHostname: false)),
            ]
            for (what, tls) in settings {
                let error = #expect(throws: HTTPTransportError.self) { try URLSessionTransport(configuration: .init(tls: tls)) }
                #expect(error?.code == .unsupportedConfiguration)
                #expect(error?.message.contains(what) == true, "\(String(describing: error))")
            }
        }
    }
}
