import FaultServerSupport
import Foundation
import NIOHTTP1
import OAuthCore
import Testing
import OAuthTransportNIO

extension TransportTests {
    /// Plain `http://` exchanges through the AsyncHTTPClient path.
    @Suite struct PlainHTTP {
        @Test func requestReachesServerAndResponseComesBack() async throws {
            try await withServer(reply: { _ in
                .respond(
                    status: 201,
                    headers: [
                        ("Content-Type", "application/json; charset=utf-8"), ("X-Reply", "yes"),
                        ("Set-Cookie", "a=1"), ("Set-Cookie", "b=2"),
                    ],
                    body: Array(#"{"ok":true}"#.utf8))
            }) { server in
                let transport = try AsyncHTTPClientTransport()
                var headers: HeaderFields = ["X-Test": "one", "Accept": "application/json"]
                headers.add(name: "X-Multi", value: "a")
                headers.add(name: "X-Multi", value: "b")
                let request = TransportRequest(
                    method: "put", url: try parseURL("\(server.url)/a/b%20c?x=1&y=%2F"), headers: headers,
                    body: Data("hello body".utf8))

                let response = try await transport.send(request)

                #expect(response.status == 201)
                #expect(response.mediaType == "application/json")
                #expect(response.headers["x-reply"] == "yes")
                #expect(response.headers.values(for: "Set-Cookie") == ["a=1", "b=2"])
                #expect(response.bodyText == #"{"ok":true}"#)
                #expect(response.url == request.url)

                #expect(server.requests.count == 1)
                let received = try #require(server.requests.first)
                #expect(received.method == "PUT")
                #expect(received.uri == "/a/b%20c?x=1&y=%2F")
                #expect(received.headers["X-Test"] == ["one"])
                #expect(received.headers["Accept"] == ["application/json"])
                #expect(received.headers["X-Multi"] == ["a", "b"])
                #expect(received.headers["Host"] == ["127.0.0.1:\(server.port)"])
                #expect(received.headers["Content-Length"] == ["10"])
                #expect(received.body == Array("hello body".utf8))
            }
        }

        @Test func formPostArrivesEncoded() async throws {
            try await withServer(reply: { request in .respond(status: 200, body: request.body) }) { server in
                let transport = try AsyncHTTPClientTransport()
                let request = TransportRequest.form(
                    try parseURL("\(server.url)/token"),
                    parameters: [("grant_type", "authorization_code"), ("code", "a b&c")])
                let response = try await transport.send(request)
                #expect(response.bodyText == "grant_type=authorization_code&code=a+b%26c")
                let received = try #require(server.requests.first)
                #expect(received.method == "POST")
                #expect(received.headers["Content-Type"] == ["application/x-www-form-urlencoded"])
            }
        }

        @Test func getWithoutBodySendsNoBody() async throws {
            try await withServer { server in
                let transport = try AsyncHTTPClientTransport()
                let response = try await transport.send(try .get("\(server.url)/"))
                #expect(response.status == 200)
                #expect(response.bodyText == "ok")
                let received = try #require(server.requests.first)
                #expect(received.method == "GET")
                #expect(received.uri == "/")
                #expect(received.body.isEmpty)
                #expect(received.headers["Transfer-Encoding"].isEmpty)
            }
        }

        @Test(arguments: [400, 401, 404, 500, 503])
        func errorStatusesAreResponses(status: Int) async throws {
            try await withServer(reply: { _ in .text(status, "status \(status)") }) { server in
                let transport = try AsyncHTTPClientTransport()
                let response = try await transport.send(try .get("\(server.url)/missing"))
                #expect(response.status == status)
                #expect(!response.isSuccess)
                #expect(response.bodyText == "status \(status)")
            }
        }

        @Test func chunkedResponseBodyIsReassembled() async throws {
            let body = Array(repeating: UInt8(ascii: "x"), count: 10_000)
            try await withServer(reply: { _ in
                .respond(status: 200, headers: [("Transfer-Encoding", "chunked")], body: body)
            }) {
                server in
                let response = try await AsyncHTTPClientTransport().send(try .get(server.url))
                #expect(response.status == 200)
                #expect(Array(response.body) == body)
            }
        }

        @Test(arguments: [301, 302, 303, 307, 308])
        func redirectsAreNotFollowed(status: Int) async throws {
            try await withServer(reply: { request in
                request.uri == "/start"
                    ? .respond(status: status, headers: [("Location", "/elsewhere")]) : .text(200, "followed")
            }) { server in
                let transport = try AsyncHTTPClientTransport()
                let response = try await transport.send(try .get("\(server.url)/start"))
                #expect(response.status == status)
                #expect(response.headers["Location"] == "/elsewhere")
                #expect(server.requests.map(\.uri) == ["/start"])
            }
        }

        @Test func headResponseHasNoBody() async throws {
            try await withServer(reply: { _ in .respond(status: 200, headers: [("Content-Length", "42")]) }) { server in
                let transport = try AsyncHTTPClientTransport(configuration: .init(timeout: .seconds(2)))
                let response = try await transport.send(TransportRequest(method: "HEAD", url: try parseURL(server.url)))
                #expect(response.status == 200)
                #expect(response.headers["Content-Length"] == "42")
                #expect(response.body.isEmpty)
                #expect(server.requests.map(\.method) == ["HEAD"])
            }
        }

        @Test func unsupportedSchemeIsInvalidRequest() async throws {
            let transport = try AsyncHTTPClientTransport()
            let (error, _) = await transportFailure { try await transport.send(try .get("ftp://127.0.0.1/file")) }
            #expect(error?.code == .invalidRequest)
        }
    }

    /// Failures below HTTP on the AsyncHTTPClient path.
    @Suite struct PlainHTTPFailures {
        @Test func requestTimeoutWhenServerNeverAnswers() async throws {
            try await withServer(reply: { _ in .hang }) { server in
                let transport = try AsyncHTTPClientTransport()
                let (error, elapsed) = await transportFailure {
                    try await transport.send(try .get("\(server.url)/slow", timeout: .milliseconds(300)))
                }
                #expect(error?.code == .timedOut)
                #expect(elapsed >= .milliseconds(250))
                #expect(elapsed < .seconds(2))
                #expect(server.requests.count == 1)
            }
        }

        @Test func configurationTimeoutAppliesWhenRequestSetsNone() async throws {
            try await withServer(reply: { _ in .hang }) { server in
                let transport = try AsyncHTTPClientTransport(configuration: .init(timeout: .milliseconds(300)))
                let (error, elapsed) = await transportFailure { try await transport.send(try .get(server.url)) }
                #expect(error?.code == .timedOut)
                #expect(elapsed < .seconds(2))
            }
        }

        @Test func timeoutCoversTheBody() async throws {
            try await withServer(reply: { _ in
                .stallMidBody(declaredLength: 1000, sent: Array(repeating: 0x61, count: 10))
            }) {
                server in
                let transport = try AsyncHTTPClientTransport()
                let (error, elapsed) = await transportFailure {
                    try await transport.send(try .get(server.url, timeout: .milliseconds(300)))
                }
                #expect(error?.code == .timedOut)
                #expect(elapsed < .seconds(2))
            }
        }

        @Test func cancellingDuringTheBodyCancelsTheRequest() async throws {
            try await withServer(reply: { _ in
                .stallMidBody(declaredLength: 1000, sent: Array(repeating: 0x61, count: 10))
            }) {
                server in
                let transport = try AsyncHTTPClientTransport(configuration: .init(timeout: .seconds(20)))
                let request = try TransportRequest.get(server.url)
                let task = Task { try await transport.send(request) }
                try await server.waitForRequests(1)
                try await Task.sleep(for: .milliseconds(100))  // let the head and the first bytes arrive
                let start = ContinuousClock.now
                task.cancel()
                let (error, _) = await transportFailure { try await task.value }
                #expect(error?.code == .cancelled)
                #expect(ContinuousClock.now - start < .seconds(1))
            }
        }

        @Test func cancellingTheTaskCancelsTheRequest() async throws {
            try await withServer(reply: { _ in .hang }) { server in
                let transport = try AsyncHTTPClientTransport(configuration: .init(timeout: .seconds(20)))
                let request = try TransportRequest.get("\(server.url)/hang")
                let task = Task { try await transport.send(request) }
                try await server.waitForRequests(1)
                let start = ContinuousClock.now
                task.cancel()
                let (error, _) = await transportFailure { try await task.value }
                #expect(error?.code == .cancelled)
                #expect(ContinuousClock.now - start < .seconds(1))
            }
        }

        @Test func alreadyCancelledTaskFailsAsCancelled() async throws {
            try await withServer { server in
                let transport = try AsyncHTTPClientTransport()
                let request = try TransportRequest.get(server.url)
                let task = Task {
                    withUnsafeCurrentTask { $0?.cancel() }
                    return try await transport.send(request)
                }
                let (error, _) = await transportFailure { try await task.value }
                #expect(error?.code == .cancelled)
            }
        }

        @Test func connectionRefusedFailsFast() async throws {
            let port = try await closedPort()
            let transport = try AsyncHTTPClientTransport()
            let (error, elapsed) = await transportFailure {
                try await transport.send(try .get("http://127.0.0.1:\(port)/"))
            }
            #expect(error?.code == .connectionFailed)
            #expect(elapsed < .seconds(2))
        }

        @Test func responseLargerThanLimitIsRefused() async throws {
            try await withServer(reply: { _ in .respond(status: 200, body: Array(repeating: 0x61, count: 4096)) }) {
                server in
                let transport = try AsyncHTTPClientTransport(configuration: .init(maximumResponseBytes: 1024))
                let (error, _) = await transportFailure { try await transport.send(try .get(server.url)) }
                #expect(error?.code == .responseTooLarge)
            }
        }

        @Test func chunkedResponseLargerThanLimitIsRefused() async throws {
            try await withServer(reply: { _ in
                .respond(
                    status: 200, headers: [("Transfer-Encoding", "chunked")], body: Array(repeating: 0x61, count: 4096))
            }) { server in
                let transport = try AsyncHTTPClientTransport(configuration: .init(maximumResponseBytes: 1024))
                let (error, _) = await transportFailure { try await transport.send(try .get(server.url)) }
                #expect(error?.code == .responseTooLarge)
            }
        }

        @Test func responseOfExactlyTheLimitIsAccepted() async throws {
            try await withServer(reply: { _ in .respond(status: 200, body: Array(repeating: 0x61, count: 1024)) }) {
                server in
                let transport = try AsyncHTTPClientTransport(configuration: .init(maximumResponseBytes: 1024))
                let response = try await transport.send(try .get(server.url))
                #expect(response.body.count == 1024)
            }
        }

        @Test func serverClosingMidBodyIsConnectionClosed() async throws {
            try await withServer(reply: { _ in
                .closeMidBody(declaredLength: 1000, sent: Array(repeating: 0x61, count: 100))
            }) {
                server in
                let transport = try AsyncHTTPClientTransport()
                let (error, elapsed) = await transportFailure { try await transport.send(try .get(server.url)) }
                #expect(error?.code == .connectionClosed)
                #expect(elapsed < .seconds(2))
            }
        }
    }
}
