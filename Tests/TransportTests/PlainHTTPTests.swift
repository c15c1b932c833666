import Foundation
import HaapiTesting
import NIOHTTP1
import OAuthCore
import OAuthTransportNIO
import Testing

extension TransportTests {
    /// Plain `http://` exchanges, through each transport.
    @Suite struct PlainHTTP {
        @Test(arguments: TransportKind.allCases) func requestReachesServerAndResponseComesBack(_ kind: TransportKind) async throws {
            try await withServer(reply: { _ in
                .respond(
                    status: 201,
                    headers: [
                        ("Content-Type", "application/json; charset=utf-8"), ("X-Reply", "yes"),
                        ("Set-Cookie", "a=1"), ("Set-Cookie", "b=2"),
                    ],
                    body: Array(#"{"ok":true}"#.utf8))
            }) { server in
                let transport = try kind.make()
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
                // URLSession joins repeated fields with commas, as RFC 9110 §5.3 allows for list-valued
                // fields; the protocols here read none that is not (Set-Cookie is not theirs).
                let cookies = response.headers.values(for: "Set-Cookie")
                #expect(cookies == (kind == .urlSession ? ["a=1, b=2"] : ["a=1", "b=2"]))
                #expect(response.bodyText == #"{"ok":true}"#)
                #expect(response.url == request.url)

                #expect(server.requests.count == 1)
                let received = try #require(server.requests.first)
                #expect(received.method == "PUT")
                #expect(received.uri == "/a/b%20c?x=1&y=%2F")
                #expect(received.headers["X-Test"] == ["one"])
                #expect(received.headers["Accept"] == ["application/json"])
                #expect(received.headers["X-Multi"] == (kind == .urlSession ? ["a,b"] : ["a", "b"]))
                #expect(received.headers["Host"] == ["127.0.0.1:\(server.port)"])
                #expect(received.headers["Content-Length"] == ["10"])
                #expect(received.body == Array("hello body".utf8))
            }
        }

        @Test(arguments: TransportKind.allCases) func formPostArrivesEncoded(_ kind: TransportKind) async throws {
            try await withServer(reply: { request in .respond(status: 200, body: request.body) }) { server in
                let transport = try kind.make()
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

        @Test(arguments: TransportKind.allCases) func getWithoutBodySendsNoBody(_ kind: TransportKind) async throws {
            try await withServer { server in
                let transport = try kind.make()
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

        @Test(arguments: TransportKind.allCases, [400, 401, 404, 500, 503])
        func errorStatusesAreResponses(_ kind: TransportKind, status: Int) async throws {
            try await withServer(reply: { _ in .text(status, "status \(status)") }) { server in
                let transport = try kind.make()
                let response = try await transport.send(try .get("\(server.url)/missing"))
                #expect(response.status == status)
                #expect(!response.isSuccess)
                #expect(response.bodyText == "status \(status)")
            }
        }

        @Test(arguments: TransportKind.allCases) func chunkedResponseBodyIsReassembled(_ kind: TransportKind) async throws {
            let body = Array(repeating: UInt8(ascii: "x"), count: 10_000)
            try await withServer(reply: { _ in
                .respond(status: 200, headers: [("Transfer-Encoding", "chunked")], body: body)
            }) {
                server in
                let response = try await kind.make().send(try .get(server.url))
                #expect(response.status == 200)
                #expect(Array(response.body) == body)
            }
        }

        @Test(arguments: TransportKind.allCases, [301, 302, 303, 307, 308])
        func redirectsAreNotFollowed(_ kind: TransportKind, status: Int) async throws {
            try await withServer(reply: { request in
                request.uri == "/start"
                    ? .respond(status: status, headers: [("Location", "/elsewhere")]) : .text(200, "followed")
            }) { server in
                let transport = try kind.make()
                let response = try await transport.send(try .get("\(server.url)/start"))
                #expect(response.status == status)
                #expect(response.headers["Location"] == "/elsewhere")
                #expect(server.requests.map(\.uri) == ["/start"])
            }
        }

        @Test(arguments: TransportKind.allCases) func headResponseHasNoBody(_ kind: TransportKind) async throws {
            try await withServer(reply: { _ in .respond(status: 200, headers: [("Content-Length", "42")]) }) { server in
                let transport = try kind.make(.init(timeout: promptly.seconds))
                let response = try await transport.send(TransportRequest(method: "HEAD", url: try parseURL(server.url)))
                #expect(response.status == 200)
                #expect(response.headers["Content-Length"] == "42")
                #expect(response.body.isEmpty)
                #expect(server.requests.map(\.method) == ["HEAD"])
            }
        }

        @Test(arguments: TransportKind.allCases) func unsupportedSchemeIsInvalidRequest(_ kind: TransportKind) async throws {
            let transport = try kind.make()
            let (error, _) = await transportFailure { try await transport.send(try .get("ftp://127.0.0.1/file")) }
            #expect(error?.code == .invalidRequest)
        }
    }

    /// Failures below HTTP on the AsyncHTTPClient path.
    @Suite struct PlainHTTPFailures {
        @Test(arguments: TransportKind.allCases) func requestTimeoutWhenServerNeverAnswers(_ kind: TransportKind) async throws {
            try await withServer(reply: { _ in .hang }) { server in
                let transport = try kind.make()
                let (error, elapsed) = await transportFailure {
                    try await transport.send(try .get("\(server.url)/slow", timeout: 0.3))
                }
                #expect(error?.code == .timedOut)
                #expect(elapsed >= .milliseconds(250))
                #expect(elapsed < promptly)
                #expect(server.requests.count == 1)
            }
        }

        @Test(arguments: TransportKind.allCases) func configurationTimeoutAppliesWhenRequestSetsNone(_ kind: TransportKind) async throws {
            try await withServer(reply: { _ in .hang }) { server in
                let transport = try kind.make(.init(timeout: 0.3))
                let (error, elapsed) = await transportFailure { try await transport.send(try .get(server.url)) }
                #expect(error?.code == .timedOut)
                #expect(elapsed < promptly)
            }
        }

        @Test(arguments: TransportKind.allCases) func timeoutCoversTheBody(_ kind: TransportKind) async throws {
            try await withServer(reply: { _ in
                .stallMidBody(declaredLength: 1000, sent: Array(repeating: 0x61, count: 10))
            }) {
                server in
                let transport = try kind.make()
                let (error, elapsed) = await transportFailure {
                    try await transport.send(try .get(server.url, timeout: 0.3))
                }
                #expect(error?.code == .timedOut)
                #expect(elapsed < promptly)
            }
        }

        @Test(arguments: TransportKind.allCases) func cancellingDuringTheBodyCancelsTheRequest(_ kind: TransportKind) async throws {
            try await withServer(reply: { _ in
                .stallMidBody(declaredLength: 1000, sent: Array(repeating: 0x61, count: 10))
            }) {
                server in
                let transport = try kind.make(.init(timeout: 20))
                let request = try TransportRequest.get(server.url)
                let task = Task { try await transport.send(request) }
                try await server.waitForRequests(1)
                try await Task.sleep(for: .milliseconds(100))  // let the head and the first bytes arrive
                let start = ContinuousClock.now
                task.cancel()
                let (error, _) = await transportFailure { try await task.value }
                #expect(error?.code == .cancelled)
                #expect(ContinuousClock.now - start < promptly)
            }
        }

        @Test(arguments: TransportKind.allCases) func cancellingTheTaskCancelsTheRequest(_ kind: TransportKind) async throws {
            try await withServer(reply: { _ in .hang }) { server in
                let transport = try kind.make(.init(timeout: 20))
                let request = try TransportRequest.get("\(server.url)/hang")
                let task = Task { try await transport.send(request) }
                try await server.waitForRequests(1)
                let start = ContinuousClock.now
                task.cancel()
                let (error, _) = await transportFailure { try await task.value }
                #expect(error?.code == .cancelled)
                #expect(ContinuousClock.now - start < promptly)
            }
        }

        @Test(arguments: TransportKind.allCases) func alreadyCancelledTaskFailsAsCancelled(_ kind: TransportKind) async throws {
            try await withServer { server in
                let transport = try kind.make()
                let request = try TransportRequest.get(server.url)
                let task = Task {
                    withUnsafeCurrentTask { $0?.cancel() }
                    return try await transport.send(request)
                }
                let (error, _) = await transportFailure { try await task.value }
                #expect(error?.code == .cancelled)
            }
        }

        @Test(arguments: TransportKind.allCases) func connectionRefusedFailsFast(_ kind: TransportKind) async throws {
            let port = try await closedPort()
            let transport = try kind.make()
            let (error, elapsed) = await transportFailure {
                try await transport.send(try .get("http://127.0.0.1:\(port)/"))
            }
            #expect(error?.code == .connectionFailed)
            #expect(elapsed < promptly)
        }

        @Test(arguments: TransportKind.allCases) func responseLargerThanLimitIsRefused(_ kind: TransportKind) async throws {
            try await withServer(reply: { _ in .respond(status: 200, body: Array(repeating: 0x61, count: 4096)) }) {
                server in
                let transport = try kind.make(.init(maximumResponseBytes: 1024))
                let (error, _) = await transportFailure { try await transport.send(try .get(server.url)) }
                #expect(error?.code == .responseTooLarge)
            }
        }

        @Test(arguments: TransportKind.allCases) func chunkedResponseLargerThanLimitIsRefused(_ kind: TransportKind) async throws {
            try await withServer(reply: { _ in
                .respond(
                    status: 200, headers: [("Transfer-Encoding", "chunked")], body: Array(repeating: 0x61, count: 4096))
            }) { server in
                let transport = try kind.make(.init(maximumResponseBytes: 1024))
                let (error, _) = await transportFailure { try await transport.send(try .get(server.url)) }
                #expect(error?.code == .responseTooLarge)
            }
        }

        @Test(arguments: TransportKind.allCases) func responseOfExactlyTheLimitIsAccepted(_ kind: TransportKind) async throws {
            try await withServer(reply: { _ in .respond(status: 200, body: Array(repeating: 0x61, count: 1024)) }) {
                server in
                let transport = try kind.make(.init(maximumResponseBytes: 1024))
                let response = try await transport.send(try .get(server.url))
                #expect(response.body.count == 1024)
            }
        }

        @Test(arguments: TransportKind.allCases) func serverClosingMidBodyIsConnectionClosed(_ kind: TransportKind) async throws {
            try await withServer(reply: { _ in
                .closeMidBody(declaredLength: 1000, sent: Array(repeating: 0x61, count: 100))
            }) {
                server in
                let transport = try kind.make()
                let (error, elapsed) = await transportFailure { try await transport.send(try .get(server.url)) }
                #expect(error?.code == .connectionClosed, "\(String(describing: error))")
                #expect(elapsed < promptly)
            }
        }
    }
}
