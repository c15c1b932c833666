import Foundation
import HaapiTesting
import NIOSSL
import OAuthCore
import OAuthTransportNIO
import Testing

extension TransportTests {
    /// Server trust on the AsyncHTTPClient path (no pins).
    @Suite struct ServerTrust {
        let pki = TestPKI.shared

        @Test func trustedTestCAWorks() async throws {
            try await withServer(tls: try pki.serverTLS(pki.server), reply: { _ in .text(200, "secure") }) { server in
                let transport = try AsyncHTTPClientTransport(
                    configuration: .init(tls: TLSOptions(trustedRootsPEM: try pki.ca.certificatePEM)))
                let response = try await transport.send(try .get("\(server.httpsURL)/x?y=1"))
                #expect(response.status == 200)
                #expect(response.bodyText == "secure")
                #expect(server.requests.map(\.uri) == ["/x?y=1"])
            }
        }

        @Test func dnsNameOfTheCertificateWorks() async throws {
            try await withServer(tls: try pki.serverTLS(pki.server)) { server in
                let transport = try AsyncHTTPClientTransport(
                    configuration: .init(tls: TLSOptions(trustedRootsPEM: try pki.ca.certificatePEM)))
                let response = try await transport.send(try .get("https://localhost:\(server.port)/"))
                #expect(response.status == 200)
            }
        }

        @Test(.enabled(if: TestServer.ipv6LoopbackAvailable, "needs the IPv6 loopback"))
        func ipv6LiteralHostWorks() async throws {
            try await withServer(host: "::1", tls: try pki.serverTLS(pki.server)) { server in
                let transport = try AsyncHTTPClientTransport(
                    configuration: .init(tls: TLSOptions(trustedRootsPEM: try pki.ca.certificatePEM)))
                let response = try await transport.send(try .get("https://[::1]:\(server.port)/v6"))
                #expect(response.status == 200)
                #expect(server.requests.first?.headers["Host"] == ["[::1]:\(server.port)"])
            }
        }

        @Test func systemRootsRejectTheTestCA() async throws {
            try await withServer(tls: try pki.serverTLS(pki.server)) { server in
                let transport = try AsyncHTTPClientTransport()
                let (error, elapsed) = await transportFailure { try await transport.send(try .get(server.httpsURL)) }
                #expect(error?.code == .tlsFailure)
                #expect(elapsed < promptly)
                #expect(server.requests.isEmpty)
                #expect(server.bytesReceived == 0)
            }
        }

        @Test func unrelatedCAIsRejected() async throws {
            try await withServer(tls: try pki.serverTLS(pki.otherServer)) { server in
                let transport = try AsyncHTTPClientTransport(
                    configuration: .init(tls: TLSOptions(trustedRootsPEM: try pki.ca.certificatePEM)))
                let (error, _) = await transportFailure { try await transport.send(try .get(server.httpsURL)) }
                #expect(error?.code == .tlsFailure)
                #expect(server.requests.isEmpty)
            }
        }

        @Test func wrongHostNameIsRejected() async throws {
            try await withServer(tls: try pki.serverTLS(pki.wrongNameServer)) { server in
                let transport = try AsyncHTTPClientTransport(
                    configuration: .init(tls: TLSOptions(trustedRootsPEM: try pki.ca.certificatePEM)))
                let (error, _) = await transportFailure { try await transport.send(try .get(server.httpsURL)) }
                #expect(error?.code == .tlsFailure)
                #expect(server.requests.isEmpty)
            }
        }

        @Test func wrongHostNameIsAcceptedWithoutHostnameValidation() async throws {
            try await withServer(tls: try pki.serverTLS(pki.wrongNameServer)) { server in
                let transport = try AsyncHTTPClientTransport(
                    configuration: .init(
                        tls: TLSOptions(trustedRootsPEM: try pki.ca.certificatePEM, validatesHostname: false)))
                let response = try await transport.send(try .get(server.httpsURL))
                #expect(response.status == 200)
            }
        }

        @Test func disablingHostnameValidationStillChecksTheChain() async throws {
            try await withServer(tls: try pki.serverTLS(pki.otherServer)) { server in
                let transport = try AsyncHTTPClientTransport(
                    configuration: .init(
                        tls: TLSOptions(trustedRootsPEM: try pki.ca.certificatePEM, validatesHostname: false)))
                let (error, _) = await transportFailure { try await transport.send(try .get(server.httpsURL)) }
                #expect(error?.code == .tlsFailure)
            }
        }

        @Test func timeoutCoversTheTLSHandshake() async throws {
            try await withServer(silent: true) { server in
                let transport = try AsyncHTTPClientTransport(
                    configuration: .init(tls: TLSOptions(trustedRootsPEM: try pki.ca.certificatePEM)))
                let (error, elapsed) = await transportFailure {
                    try await transport.send(try .get(server.httpsURL, timeout: 0.3))
                }
                #expect(error?.code == .timedOut)
                #expect(elapsed < promptly)
            }
        }

        @Test func plainHTTPClientAgainstTLSServerFailsTyped() async throws {
            try await withServer(tls: try pki.serverTLS(pki.server)) { server in
                let transport = try AsyncHTTPClientTransport(configuration: .init(timeout: promptly.seconds))
                let (error, elapsed) = await transportFailure { try await transport.send(try .get(server.url)) }
                #expect(error?.code == .connectionClosed)
                #expect(elapsed < promptly)
            }
        }

        @Test func pooledConnectionsAreNotSharedAcrossTrustSettings() async throws {
            try await withServer(tls: try pki.serverTLS(pki.server)) { server in
                let trusting = try AsyncHTTPClientTransport(
                    configuration: .init(tls: TLSOptions(trustedRootsPEM: try pki.ca.certificatePEM)))
                #expect(try await trusting.send(try .get(server.httpsURL)).status == 200)
                // The shared client keeps that connection alive; a transport that does not trust
                // the CA must not be handed it.
                let systemRoots = try AsyncHTTPClientTransport()
                let (error, _) = await transportFailure { try await systemRoots.send(try .get(server.httpsURL)) }
                #expect(error?.code == .tlsFailure)
                #expect(server.requests.count == 1)
            }
        }

        @Test func pooledConnectionsAreNotSharedAcrossHostnameValidation() async throws {
            try await withServer(tls: try pki.serverTLS(pki.wrongNameServer)) { server in
                let lax = try AsyncHTTPClientTransport(
                    configuration: .init(
                        tls: TLSOptions(trustedRootsPEM: try pki.ca.certificatePEM, validatesHostname: false)))
                #expect(try await lax.send(try .get(server.httpsURL)).status == 200)
                let strict = try AsyncHTTPClientTransport(
                    configuration: .init(tls: TLSOptions(trustedRootsPEM: try pki.ca.certificatePEM)))
                let (error, _) = await transportFailure { try await strict.send(try .get(server.httpsURL)) }
                #expect(error?.code == .tlsFailure)
                #expect(server.requests.count == 1)
            }
        }

        @Test func unreadableTrustedRootsAreInvalidRequest() throws {
            let error = #expect(throws: HTTPTransportError.self) {
                try AsyncHTTPClientTransport(configuration: .init(tls: TLSOptions(trustedRootsPEM: "not a PEM")))
            }
            #expect(error?.code == .invalidRequest)
        }
    }

    /// Client certificates (mutual TLS) on the AsyncHTTPClient path.
    @Suite struct MutualTLS {
        let pki = TestPKI.shared

        var requiringServer: TLSConfiguration {
            get throws { try pki.serverTLS(pki.server, requiringClientCertificateFrom: pki.ca) }
        }

        @Test func clientIdentityFromPEMIsPresented() async throws {
            try await withServer(tls: try requiringServer) { server in
                let identity = try ClientIdentity(
                    certificateChainPEM: try pki.client.certificatePEM, privateKeyPEM: pki.client.keyPEM)
                let transport = try AsyncHTTPClientTransport(
                    configuration: .init(
                        tls: TLSOptions(clientIdentity: identity, trustedRootsPEM: try pki.ca.certificatePEM)))
                let response = try await transport.send(try .get(server.httpsURL))
                #expect(response.status == 200)
                let subject = try #require(server.requests.first?.clientCertificateSubject)
                #expect(subject.contains("test client"))
            }
        }

        @Test func missingClientCertificateIsRefused() async throws {
            try await withServer(tls: try requiringServer) { server in
                let transport = try AsyncHTTPClientTransport(
                    configuration: .init(tls: TLSOptions(trustedRootsPEM: try pki.ca.certificatePEM)))
                let (error, elapsed) = await transportFailure { try await transport.send(try .get(server.httpsURL)) }
                #expect(error?.code == .tlsFailure)
                #expect(elapsed < promptly)
                #expect(server.requests.isEmpty)
            }
        }

        @Test func pooledConnectionWithIdentityIsNotReusedWithout() async throws {
            try await withServer(tls: try requiringServer) { server in
                let identity = try ClientIdentity(
                    certificateChainPEM: try pki.client.certificatePEM, privateKeyPEM: pki.client.keyPEM)
                let withIdentity = try AsyncHTTPClientTransport(
                    configuration: .init(
                        tls: TLSOptions(clientIdentity: identity, trustedRootsPEM: try pki.ca.certificatePEM)))
                #expect(try await withIdentity.send(try .get(server.httpsURL)).status == 200)
                let withoutIdentity = try AsyncHTTPClientTransport(
                    configuration: .init(tls: TLSOptions(trustedRootsPEM: try pki.ca.certificatePEM)))
                let (error, _) = await transportFailure { try await withoutIdentity.send(try .get(server.httpsURL)) }
                #expect(error?.code == .tlsFailure)
                #expect(server.requests.count == 1)
            }
        }

        @Test func clientCertificateFromUntrustedCAIsRefused() async throws {
            try await withServer(tls: try pki.serverTLS(pki.server, requiringClientCertificateFrom: pki.otherCA)) {
                server in
                let identity = try ClientIdentity(
                    certificateChainPEM: try pki.client.certificatePEM, privateKeyPEM: pki.client.keyPEM)
                let transport = try AsyncHTTPClientTransport(
                    configuration: .init(
                        tls: TLSOptions(clientIdentity: identity, trustedRootsPEM: try pki.ca.certificatePEM)))
                let (error, _) = await transportFailure { try await transport.send(try .get(server.httpsURL)) }
                #expect(error?.code == .tlsFailure)
                #expect(server.requests.isEmpty)
            }
        }

        @Test(.enabled(if: OpenSSLCLI.path != nil, "needs the openssl command"))
        func clientIdentityFromPKCS12IsPresented() async throws {
            let bundle = try makePKCS12(passphrase: "s3cret")
            let identity = try ClientIdentity(pkcs12: bundle, passphrase: "s3cret")
            try await withServer(tls: try requiringServer) { server in
                let transport = try AsyncHTTPClientTransport(
                    configuration: .init(
                        tls: TLSOptions(clientIdentity: identity, trustedRootsPEM: try pki.ca.certificatePEM)))
                let response = try await transport.send(try .get(server.httpsURL))
                #expect(response.status == 200)
                let subject = try #require(server.requests.first?.clientCertificateSubject)
                #expect(subject.contains("test client"))
            }
        }

        @Test(.enabled(if: OpenSSLCLI.path != nil, "needs the openssl command"))
        func pkcs12WithWrongPassphraseIsInvalidRequest() throws {
            let bundle = try makePKCS12(passphrase: "s3cret")
            // The bundle is opened by the transport that uses it: that is where the passphrase is checked.
            let identity = try ClientIdentity(pkcs12: bundle, passphrase: "wrong")
            let error = #expect(throws: HTTPTransportError.self) {
                try AsyncHTTPClientTransport(configuration: .init(tls: TLSOptions(clientIdentity: identity)))
            }
            #expect(error?.code == .invalidRequest)
            let notDER = #expect(throws: HTTPTransportError.self) {
                try ClientIdentity(pkcs12: Data("not a bundle".utf8), passphrase: "s3cret")
            }
            #expect(notDER?.code == .invalidRequest)
        }

        @Test func unreadablePEMIsInvalidRequest() throws {
            let badKey = #expect(throws: HTTPTransportError.self) {
                try ClientIdentity(certificateChainPEM: try pki.client.certificatePEM, privateKeyPEM: "garbage")
            }
            #expect(badKey?.code == .invalidRequest)
            // A key block that is not a key: found when the transport reads it.
            let spoiled = try ClientIdentity(
                certificateChainPEM: try pki.client.certificatePEM,
                privateKeyPEM: "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----")
            let unreadable = #expect(throws: HTTPTransportError.self) {
                try AsyncHTTPClientTransport(configuration: .init(tls: TLSOptions(clientIdentity: spoiled)))
            }
            #expect(unreadable?.code == .invalidRequest)
            let noCertificate = #expect(throws: HTTPTransportError.self) {
                try ClientIdentity(certificateChainPEM: "", privateKeyPEM: pki.client.keyPEM)
            }
            #expect(noCertificate?.code == .invalidRequest)
        }

        /// A PKCS#12 bundle of the client certificate, its key and the CA, made by `openssl pkcs12 -export`.
        private func makePKCS12(passphrase: String) throws -> Data {
            try OpenSSLCLI.inTemporaryDirectory { directory in
                try Data(try pki.client.certificatePEM.utf8).write(to: directory.appendingPathComponent("client.pem"))
                try Data(pki.client.keyPEM.utf8).write(to: directory.appendingPathComponent("client.key"))
                try Data(try pki.ca.certificatePEM.utf8).write(to: directory.appendingPathComponent("ca.pem"))
                try OpenSSLCLI.run(
                    [
                        "pkcs12", "-export", "-in", "client.pem", "-inkey", "client.key", "-certfile", "ca.pem",
                        "-out", "client.p12", "-passout", "pass:\(passphrase)",
                    ], in: directory)
                return try Data(contentsOf: directory.appendingPathComponent("client.p12"))
            }
        }
    }
}

extension TransportTests {
    /// A private CA trusted besides the system's roots (`haapi --cacert`), and a refused
    /// certificate's problem said in words: expired, another name, self-signed, an unknown CA.
    @Suite struct PrivateCAsAndCertificateProblems {
        let pki = TestPKI.shared

        @Test func anAdditionalRootIsTrustedAndTheSystemsStay() async throws {
            try await withServer(tls: try pki.serverTLS(pki.server), reply: { _ in .text(200, "private CA") }) { server in
                let tls = TLSOptions(additionalTrustedRootsPEM: try pki.ca.certificatePEM)
                let transport = try AsyncHTTPClientTransport(configuration: .init(tls: tls))
                let response = try await transport.send(try .get(server.httpsURL))
                #expect(response.bodyText == "private CA")
            }
        }

        /// The message of the refusal of `identity`'s server, trusting `ca` (`nil`: the system's roots).
        func refusal(_ identity: TestIdentity, trusting ca: TestIdentity? = nil) async throws -> String {
            try await withServer(tls: try pki.serverTLS(identity)) { server in
                let tls = TLSOptions(additionalTrustedRootsPEM: try ca?.certificatePEM)
                let transport = try AsyncHTTPClientTransport(configuration: .init(tls: tls))
                let (error, _) = await transportFailure { try await transport.send(try .get(server.httpsURL)) }
                #expect(error?.code == .tlsFailure)
                #expect(server.requests.isEmpty)
                return error?.message ?? ""
            }
        }

        @Test func eachProblemIsNamed() async throws {
            let selfSigned = try await refusal(pki.selfSignedServer)
            #expect(
                selfSigned.hasSuffix("failed: the server's certificate (CN=self-signed dev server) is self-signed, and not trusted here"),
                "\(selfSigned)")
            let unknownCA = try await refusal(pki.otherServer, trusting: pki.ca)
            #expect(
                unknownCA.hasSuffix("failed: the server's certificate is issued by CN=Unrelated CA, which is not trusted here"),
                "\(unknownCA)")
            let wrongName = try await refusal(pki.wrongNameServer, trusting: pki.ca)
            #expect(wrongName.hasSuffix("failed: the server's certificate is for wrong.example, not 127.0.0.1"), "\(wrongName)")
            let expired = try await refusal(pki.expiredServer, trusting: pki.ca)
            #expect(expired.contains("failed: the server's certificate expired on 20"), "\(expired)")
        }
    }
}

extension TransportTests {
    /// Issue 38, item 13: a host with no address is said to be unknown, not to refuse.
    @Suite struct UnknownHosts {
        @Test func aHostWithNoAddressIsNamedAsUnknown() async throws {
            let transport = try AsyncHTTPClientTransport(configuration: .init(timeout: 20))
            let (error, _) = await transportFailure { try await transport.send(try .get("https://no-such-host.invalid/")) }
            #expect(error?.code == .connectionFailed)
            #expect(error?.plainReason == "the host no-such-host.invalid is unknown (no DNS address)", "\(String(describing: error))")
        }
    }
}
