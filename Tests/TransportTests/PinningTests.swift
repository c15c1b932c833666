import Foundation
import HaapiTesting
import NIOSSL
import OAuthCore
import OAuthTransportNIO
import Testing

extension TransportTests {
    /// Key pinning: https hosts with pins go through `PinnedConnection`.
    @Suite struct KeyPinningTests {
        let pki = TestPKI.shared

        func pinnedTransport(
            _ pins: [KeyPinning], identity: ClientIdentity? = nil, trustedRootsPEM: String? = nil,
            validatesHostname: Bool = true, timeout: TimeInterval = 30, maximumResponseBytes: Int = 4 << 20
        ) throws -> AsyncHTTPClientTransport {
            try AsyncHTTPClientTransport(
                configuration: .init(
                    timeout: timeout,
                    tls: TLSOptions(
                        clientIdentity: identity, trustedRootsPEM: trustedRootsPEM, keyPinnings: pins,
                        validatesHostname: validatesHostname),
                    maximumResponseBytes: maximumResponseBytes))
        }

        var serverPin: KeyPinning {
            get throws { KeyPinning(hostname: "127.0.0.1", publicKeyHash: try pki.server.publicKeyHash) }
        }

        @Test func pinHashesAgreeBetweenSwiftCertificatesAndNIOSSL() throws {
            for identity in [pki.server, pki.otherServer, pki.client] {
                let hash = try identity.publicKeyHash
                #expect(hash == (try identity.publicKeyHashViaNIOSSL))
                // The walker the URLSession transport uses on Apple platforms, from the PEM's DER.
                let der = try #require(PEM.blocks(in: try identity.certificatePEM, label: "CERTIFICATE").first)
                #expect(try PublicKeyPin.hash(ofCertificateDER: der) == hash)
                #expect(Data(base64Encoded: hash)?.count == 32)
            }
            #expect(try pki.server.publicKeyHash != (try pki.otherServer.publicKeyHash))
        }

        @Test func notACertificateIsATLSFailure() throws {
            for bytes in [Data(), Data([0x30, 0x03, 0x02, 0x01, 0x01]), Data("not DER".utf8), Data([0x30, 0x84, 0xFF, 0xFF, 0xFF, 0xFF])] {
                let error = #expect(throws: HTTPTransportError.self) { try PublicKeyPin.hash(ofCertificateDER: bytes) }
                #expect(error?.code == .tlsFailure)
            }
            #expect(PEM.blocks(in: "no PEM here", label: "CERTIFICATE").isEmpty)
        }

        @Test(.enabled(if: OpenSSLCLI.path != nil, "needs the openssl command"))
        func pinHashMatchesTheDocumentedOpenSSLRecipe() throws {
            let expected = try pki.server.publicKeyHash
            let printed = try OpenSSLCLI.inTemporaryDirectory { directory in
                let pem = Data(try pki.server.certificatePEM.utf8)
                let publicKey = try OpenSSLCLI.run(["x509", "-pubkey", "-noout"], in: directory, input: pem)
                let der = try OpenSSLCLI.run(["pkey", "-pubin", "-outform", "der"], in: directory, input: publicKey)
                let digest = try OpenSSLCLI.run(["dgst", "-sha256", "-binary"], in: directory, input: der)
                return digest.base64EncodedString()
            }
            #expect(printed == expected)
        }

        @Test func matchingPinIsTrustedWithoutTrustedRoots() async throws {
            try await withServer(tls: try pki.serverTLS(pki.server), reply: { _ in .text(200, "pinned") }) { server in
                let transport = try pinnedTransport([try serverPin])
                let response = try await transport.send(try .get("\(server.httpsURL)/p"))
                #expect(response.status == 200)
                #expect(response.bodyText == "pinned")
                #expect(server.requests.map(\.uri) == ["/p"])
            }
        }

        /// Security review item 22: a pinned key does not make an expired certificate, or one for
        /// another name, good.
        @Test func aPinnedKeyInAnExpiredOrMisnamedCertificateIsRefused() async throws {
            try await withServer(tls: try pki.serverTLS(pki.expiredServer)) { server in
                let transport = try pinnedTransport([try serverPin])
                let (error, _) = await transportFailure { try await transport.send(try .get("\(server.httpsURL)/p")) }
                #expect(error?.code == .tlsFailure)
                #expect(error?.errorDescription?.contains("expired") == true, "\(String(describing: error))")
                #expect(server.requests.isEmpty)
            }
            try await withServer(tls: try pki.serverTLS(pki.wrongNameServer)) { server in
                let transport = try pinnedTransport([
                    KeyPinning(hostname: "localhost", publicKeyHash: try pki.wrongNameServer.publicKeyHash)
                ])
                let (error, _) = await transportFailure { try await transport.send(try .get("https://localhost:\(server.port)/p")) }
                #expect(error != nil)
                #expect(server.requests.isEmpty)
            }
        }

        @Test func oneMatchingPinAmongSeveralIsEnough() async throws {
            try await withServer(tls: try pki.serverTLS(pki.server)) { server in
                let transport = try pinnedTransport([
                    KeyPinning(hostname: "127.0.0.1", publicKeyHash: try pki.otherServer.publicKeyHash),
                    try serverPin,
                ])
                let response = try await transport.send(try .get(server.httpsURL))
                #expect(response.status == 200)
            }
        }

        @Test func pinHostNameIsMatchedWithoutRegardToCase() async throws {
            try await withServer(tls: try pki.serverTLS(pki.server)) { server in
                // localhost: a DNS name, so SNI is sent and the DNS SAN is checked.
                let transport = try pinnedTransport([
                    KeyPinning(hostname: "LocalHost", publicKeyHash: try pki.server.publicKeyHash)
                ])
                let response = try await transport.send(try .get("https://localhost:\(server.port)/"))
                #expect(response.status == 200)
                // Proves the pinned path was taken: without pins the test CA is not trusted.
                let unpinned = try AsyncHTTPClientTransport()
                let (error, _) = await transportFailure {
                    try await unpinned.send(try .get("https://localhost:\(server.port)/"))
                }
                #expect(error?.code == .tlsFailure)
            }
        }

        @Test func wrongPinIsRejectedBeforeAnyRequestByteIsSent() async throws {
            try await withServer(tls: try pki.serverTLS(pki.server)) { server in
                let transport = try pinnedTransport(
                    [KeyPinning(hostname: "127.0.0.1", publicKeyHash: try pki.otherServer.publicKeyHash)],
                    trustedRootsPEM: try pki.ca.certificatePEM)
                let request = TransportRequest(
                    method: "POST", url: try parseURL("\(server.httpsURL)/token"),
                    headers: ["Authorization": "Bearer secret"],
                    body: Data("client_secret=s3cret".utf8))
                let (error, elapsed) = await transportFailure { try await transport.send(request) }
                #expect(error?.code == .publicKeyPinMismatch)
                #expect(error?.message.contains(try pki.server.publicKeyHash) == true)
                #expect(elapsed < promptly)
                try await server.waitForConnectionsClosed()
                #expect(server.connectionCount == 1)
                #expect(server.bytesReceived == 0)
                #expect(server.requests.isEmpty)
            }
        }

        @Test func wrongPinIsRejectedEvenWhenTheChainIsTrusted() async throws {
            // A pinned host is trusted by its key alone: a valid chain does not override a pin mismatch.
            try await withServer(tls: try pki.serverTLS(pki.otherServer)) { server in
                let transport = try pinnedTransport(
                    [try serverPin], trustedRootsPEM: try pki.otherCA.certificatePEM)
                let (error, _) = await transportFailure { try await transport.send(try .get(server.httpsURL)) }
                #expect(error?.code == .publicKeyPinMismatch)
                #expect(server.requests.isEmpty)
            }
        }

        @Test func pinsForAnotherHostDoNotAffectThisHost() async throws {
            try await withServer(tls: try pki.serverTLS(pki.server)) { server in
                let otherHostPin = KeyPinning(hostname: "localhost", publicKeyHash: try pki.otherServer.publicKeyHash)
                // Not pinned: normal chain validation applies, and succeeds with the test CA...
                let trusting = try pinnedTransport([otherHostPin], trustedRootsPEM: try pki.ca.certificatePEM)
                #expect(try await trusting.send(try .get(server.httpsURL)).status == 200)
                // ...and fails without it (the pin for localhost does not make 127.0.0.1 trusted).
                let notTrusting = try pinnedTransport([otherHostPin])
                let (error, _) = await transportFailure { try await notTrusting.send(try .get(server.httpsURL)) }
                #expect(error?.code == .tlsFailure)
            }
        }

        @Test func pinsDoNotApplyToPlainHTTP() async throws {
            try await withServer { server in
                let transport = try pinnedTransport([
                    KeyPinning(hostname: "127.0.0.1", publicKeyHash: try pki.otherServer.publicKeyHash)
                ])
                let response = try await transport.send(try .get(server.url))
                #expect(response.status == 200)
            }
        }

        @Test func mutualTLSAndPinningTogether() async throws {
            try await withServer(tls: try pki.serverTLS(pki.server, requiringClientCertificateFrom: pki.ca)) { server in
                let identity = try ClientIdentity(
                    certificateChainPEM: try pki.client.certificatePEM, privateKeyPEM: pki.client.keyPEM)
                let transport = try pinnedTransport([try serverPin], identity: identity)
                let response = try await transport.send(try .get(server.httpsURL))
                #expect(response.status == 200)
                let subject = try #require(server.requests.first?.clientCertificateSubject)
                #expect(subject.contains("test client"))
            }
        }

        @Test func pinnedWithoutRequiredClientCertificateFails() async throws {
            try await withServer(tls: try pki.serverTLS(pki.server, requiringClientCertificateFrom: pki.ca)) { server in
                let transport = try pinnedTransport([try serverPin])
                let (error, elapsed) = await transportFailure { try await transport.send(try .get(server.httpsURL)) }
                #expect(error?.code == .tlsFailure)
                #expect(elapsed < promptly)
                #expect(server.requests.isEmpty)
            }
        }

        @Test func pinnedHostStillChecksTheHostName() async throws {
            // The pin replaces chain validation, not host-name validation.
            try await withServer(tls: try pki.serverTLS(pki.wrongNameServer)) { server in
                let pin = KeyPinning(hostname: "127.0.0.1", publicKeyHash: try pki.wrongNameServer.publicKeyHash)
                let checking = try pinnedTransport([pin])
                let (error, _) = await transportFailure { try await checking.send(try .get(server.httpsURL)) }
                #expect(error?.code == .tlsFailure)
                #expect(server.requests.isEmpty)
                let notChecking = try pinnedTransport([pin], validatesHostname: false)
                #expect(try await notChecking.send(try .get(server.httpsURL)).status == 200)
            }
        }
    }

    /// The HTTP/1.1 exchange of `PinnedConnection` itself.
    @Suite struct PinnedExchange {
        let pki = TestPKI.shared

        func transport(
            timeout: TimeInterval = 30, maximumResponseBytes: Int = 4 << 20
        ) throws -> AsyncHTTPClientTransport {
            try AsyncHTTPClientTransport(
                configuration: .init(
                    timeout: timeout,
                    tls: TLSOptions(keyPinnings: [
                        KeyPinning(hostname: "127.0.0.1", publicKeyHash: try pki.server.publicKeyHash)
                    ]),
                    maximumResponseBytes: maximumResponseBytes))
        }

        func withPinnedServer(
            reply: @escaping @Sendable (ReceivedRequest) -> Reply = { _ in .text(200, "ok") },
            _ body: (TestServer) async throws -> Void
        ) async throws {
            try await withServer(tls: try pki.serverTLS(pki.server), reply: reply, body)
        }

        @Test func requestAndResponseRoundTrip() async throws {
            try await withPinnedServer(reply: { request in
                .respond(
                    status: 202,
                    headers: [("Content-Type", "text/plain"), ("Set-Cookie", "a=1"), ("Set-Cookie", "b=2")],
                    body: Array("echo:".utf8) + request.body)
            }) { server in
                var headers: HeaderFields = ["X-Test": "one", "Authorization": "DPoP abc"]
                headers.add(name: "X-Multi", value: "a")
                headers.add(name: "X-Multi", value: "b")
                let request = TransportRequest(
                    method: "post", url: try parseURL("\(server.httpsURL)/a/b%20c?x=1&y=%2F"), headers: headers,
                    body: Data("payload".utf8))
                let response = try await transport().send(request)

                #expect(response.status == 202)
                #expect(response.mediaType == "text/plain")
                #expect(response.headers.values(for: "set-cookie") == ["a=1", "b=2"])
                #expect(response.bodyText == "echo:payload")
                #expect(response.url == request.url)

                let received = try #require(server.requests.first)
                #expect(server.requests.count == 1)
                #expect(received.method == "POST")
                #expect(received.uri == "/a/b%20c?x=1&y=%2F")
                #expect(received.headers["Host"] == ["127.0.0.1:\(server.port)"])
                #expect(received.headers["X-Test"] == ["one"])
                #expect(received.headers["Authorization"] == ["DPoP abc"])
                #expect(received.headers["X-Multi"] == ["a", "b"])
                #expect(received.headers["Content-Length"] == ["7"])
                #expect(received.headers["Transfer-Encoding"].isEmpty)
                #expect(received.body == Array("payload".utf8))
            }
        }

        @Test(.enabled(if: TestServer.ipv6LoopbackAvailable, "needs the IPv6 loopback"))
        func ipv6LiteralHostIsBracketedInHostHeader() async throws {
            try await withServer(host: "::1", tls: try pki.serverTLS(pki.server)) { server in
                // URL.host gives the address without brackets; pins are written the same way.
                let transport = try AsyncHTTPClientTransport(
                    configuration: .init(
                        tls: TLSOptions(keyPinnings: [
                            KeyPinning(hostname: "::1", publicKeyHash: try pki.server.publicKeyHash)
                        ])))
                let response = try await transport.send(try .get("https://[::1]:\(server.port)/v6"))
                #expect(response.status == 200)
                let received = try #require(server.requests.first)
                #expect(received.uri == "/v6")
                #expect(received.headers["Host"] == ["[::1]:\(server.port)"])
            }
        }

        @Test func emptyPostSendsContentLengthZero() async throws {
            try await withPinnedServer { server in
                let request = TransportRequest(method: "POST", url: try parseURL("\(server.httpsURL)/empty"))
                #expect(try await transport().send(request).status == 200)
                let received = try #require(server.requests.first)
                #expect(received.headers["Content-Length"] == ["0"])
                #expect(received.headers["Transfer-Encoding"].isEmpty)
                #expect(received.body.isEmpty)
            }
        }

        @Test func formPostThroughPinnedPath() async throws {
            try await withPinnedServer(reply: { request in .respond(status: 200, body: request.body) }) { server in
                let request = TransportRequest.form(
                    try parseURL("\(server.httpsURL)/token"),
                    parameters: [("grant_type", "client_credentials"), ("scope", "a b")])
                let response = try await transport().send(request)
                #expect(response.bodyText == "grant_type=client_credentials&scope=a+b")
                let received = try #require(server.requests.first)
                #expect(received.headers["Content-Type"] == ["application/x-www-form-urlencoded"])
                #expect(received.headers["Content-Length"] == ["\(response.body.count)"])
            }
        }

        @Test func getSendsNoContentLength() async throws {
            try await withPinnedServer { server in
                #expect(try await transport().send(try .get("\(server.httpsURL)")).status == 200)
                let received = try #require(server.requests.first)
                #expect(received.method == "GET")
                #expect(received.uri == "/")
                #expect(received.headers["Content-Length"].isEmpty)
                #expect(received.headers["Connection"] == ["close"])
            }
        }

        @Test func errorStatusAndRedirectAreResponses() async throws {
            try await withPinnedServer(reply: { request in
                request.uri == "/redirect"
                    ? .respond(status: 302, headers: [("Location", "/elsewhere")]) : .text(500, "boom")
            }) { server in
                let redirect = try await transport().send(try .get("\(server.httpsURL)/redirect"))
                #expect(redirect.status == 302)
                #expect(redirect.headers["Location"] == "/elsewhere")
                let failure = try await transport().send(try .get("\(server.httpsURL)/fail"))
                #expect(failure.status == 500)
                #expect(failure.bodyText == "boom")
                #expect(server.requests.map(\.uri) == ["/redirect", "/fail"])
            }
        }

        @Test func chunkedResponseIsReassembled() async throws {
            let body = Array(repeating: UInt8(ascii: "z"), count: 20_000)
            try await withPinnedServer(reply: { _ in
                .respond(status: 200, headers: [("Transfer-Encoding", "chunked")], body: body)
            }) {
                server in
                let response = try await transport().send(try .get(server.httpsURL))
                #expect(Array(response.body) == body)
            }
        }

        @Test func timeoutWhenServerNeverAnswers() async throws {
            try await withPinnedServer(reply: { _ in .hang }) { server in
                let (error, elapsed) = await transportFailure {
                    try await transport().send(try .get("\(server.httpsURL)/slow", timeout: 0.3))
                }
                #expect(error?.code == .timedOut)
                #expect(elapsed >= .milliseconds(250))
                #expect(elapsed < promptly)
                #expect(server.requests.count == 1)
            }
        }

        @Test func timeoutCoversTheBody() async throws {
            try await withPinnedServer(reply: { _ in
                .stallMidBody(declaredLength: 1000, sent: Array(repeating: 0x61, count: 10))
            }) {
                server in
                let (error, elapsed) = await transportFailure {
                    try await transport().send(try .get(server.httpsURL, timeout: 0.3))
                }
                #expect(error?.code == .timedOut)
                #expect(elapsed < promptly)
            }
        }

        @Test func timeoutCoversTheTLSHandshake() async throws {
            try await withServer(silent: true) { server in
                let (error, elapsed) = await transportFailure {
                    try await transport().send(try .get(server.httpsURL, timeout: 0.3))
                }
                #expect(error?.code == .timedOut)
                #expect(elapsed < promptly)
                #expect(server.bytesReceived > 0)  // the ClientHello
            }
        }

        @Test func headResponseHasNoBody() async throws {
            try await withPinnedServer(reply: { _ in .respond(status: 200, headers: [("Content-Length", "42")]) }) {
                server in
                let response = try await transport(timeout: promptly.seconds).send(
                    TransportRequest(method: "HEAD", url: try parseURL(server.httpsURL)))
                #expect(response.status == 200)
                #expect(response.headers["Content-Length"] == "42")
                #expect(response.body.isEmpty)
            }
        }

        @Test func cancellationDuringPinnedRequest() async throws {
            try await withPinnedServer(reply: { _ in .hang }) { server in
                let transport = try transport(timeout: 20)
                let request = try TransportRequest.get(server.httpsURL)
                let task = Task { try await transport.send(request) }
                try await server.waitForRequests(1)
                let start = ContinuousClock.now
                task.cancel()
                let (error, _) = await transportFailure { try await task.value }
                #expect(error?.code == .cancelled)
                #expect(ContinuousClock.now - start < promptly)
                try await server.waitForConnectionsClosed()
            }
        }

        @Test func connectionRefusedOnPinnedPath() async throws {
            let port = try await closedPort()
            let (error, elapsed) = await transportFailure {
                try await transport().send(try .get("https://127.0.0.1:\(port)/"))
            }
            #expect(error?.code == .connectionFailed)
            #expect(elapsed < promptly)
        }

        @Test func responseLargerThanLimitIsRefused() async throws {
            try await withPinnedServer(reply: { _ in .respond(status: 200, body: Array(repeating: 0x61, count: 4096)) }) { server in
                let (error, _) = await transportFailure {
                    try await transport(maximumResponseBytes: 1024).send(try .get(server.httpsURL))
                }
                #expect(error?.code == .responseTooLarge)
            }
        }

        @Test func responseOfExactlyTheLimitIsAccepted() async throws {
            try await withPinnedServer(reply: { _ in .respond(status: 200, body: Array(repeating: 0x61, count: 1024)) }) { server in
                let response = try await transport(maximumResponseBytes: 1024).send(try .get(server.httpsURL))
                #expect(response.body.count == 1024)
            }
        }

        @Test func serverClosingMidBodyIsConnectionClosed() async throws {
            try await withPinnedServer(reply: { _ in
                .closeMidBody(declaredLength: 1000, sent: Array(repeating: 0x61, count: 100))
            }) {
                server in
                let (error, elapsed) = await transportFailure { try await transport().send(try .get(server.httpsURL)) }
                #expect(error?.code == .connectionClosed)
                #expect(elapsed < promptly)
            }
        }
    }
}
