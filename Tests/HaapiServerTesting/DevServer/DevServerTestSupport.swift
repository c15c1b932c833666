import Foundation
import HaapiDevServer
import HaapiTesting
import Hummingbird
import OAuthCore
import OAuthTransportNIO
import ServiceLifecycle

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A development server running in this process on a free loopback port for the body's
/// duration, then stopped (shared by the test targets that need one).
public struct RunningServer: Sendable {
    /// Its issuer URL, with the real port.
    public let issuer: URL
    /// Its state (store, keys, settings).
    public let state: ServerState

    /// Runs `body` against a fresh server.
    public static func with<T>(
        _ configuration: DevServerConfiguration = DevServerConfiguration(), isolation: isolated (any Actor)? = #isolation,
        _ body: (RunningServer) async throws -> T
    ) async throws -> T {
        let state = try await ServerState.open(configuration: configuration)
        let (stream, continuation) = AsyncStream<URL>.makeStream()
        let app = try DevServer.makeApplication(state: state) { continuation.yield($0) }
        let group = ServiceGroup(configuration: .init(services: [app], logger: .init(label: "test")))
        let outcome: Result<T, any Error> = await withTaskGroup(of: Void.self) { tasks in
            tasks.addTask { try? await group.run() }
            var iterator = stream.makeAsyncIterator()
            guard let issuer = await iterator.next() else { return .failure(CancellationError()) }
            let result: Result<T, any Error>
            do { result = .success(try await body(RunningServer(issuer: issuer, state: state))) } catch { result = .failure(error) }
            await group.triggerGracefulShutdown()
            await tasks.waitForAll()
            return result
        }
        // SQLite connections must be closed before they are released.
        try await state.store.close()
        return try outcome.get()
    }

    /// A plain GET of `path` on the server.
    public func get(_ path: String) async throws -> TransportResponse {
        try await AsyncHTTPClientTransport().send(TransportRequest(url: issuer.appendingPathComponent(path)))
    }
}

extension RunningServer {
    /// Plays the user's phone: waits (at most `timeout`, a ceiling) for an approval link the
    /// server sent, opens it, and answers Approve (or Deny) on its page.
    /// - Returns: the page the answer gave.
    @discardableResult
    public func answerApproval(approve: Bool = true, timeout: Duration = .seconds(30)) async throws -> TransportResponse {
        let deadline = ContinuousClock.now + timeout
        while true {
            if let link = try await state.pendingApprovalLinks().first { return try await Browser.answerApproval(link, approve: approve) }
            guard ContinuousClock.now < deadline else { throw TimedOut() }
            try await Task.sleep(for: .milliseconds(20))
        }
    }
}

/// The user's phone for a server in another process: it finds the approval link the server
/// "sent" in what the process printed, and approves.
///
/// It works on a thread of its own with URLSession's own threads, never on Swift's cooperative
/// pool: the tests that run `haapi` block a pool thread while they wait, and on two cores a
/// task would wait behind them.
public enum Phone {
    /// On a thread of its own, reads `output` every 20 ms (for at most `timeout` seconds, a
    /// ceiling) until it holds an approval link, then opens it and presses Approve.
    public static func approveWhenAsked(in output: @escaping @Sendable () -> String, timeout: Double = 60) {
        Thread {
            let start = Date()
            while Date().timeIntervalSince(start) < timeout {
                if let match = output().firstMatch(of: /https?:\/\/[^\s"]+\/authn\/approve\?request=[A-Za-z0-9_-]+/),
                    let link = URL(string: String(match.output))
                {
                    approve(link)
                    return
                }
                usleep(20_000)
            }
        }.start()
    }

    /// On a thread of its own, reads `output` every 20 ms (for at most `timeout` seconds) until
    /// it shows a device login's address and code ("open URL" … "enter the code CODE"), then
    /// answers the device page as the user: signs in with `username` and `password` and approves.
    public static func approveDeviceLoginWhenShown(
        in output: @escaping @Sendable () -> String, username: String, password: String, timeout: Double = 60
    ) {
        Thread {
            let start = Date()
            while Date().timeIntervalSince(start) < timeout {
                let text = output()
                if let page = text.firstMatch(of: /open (https?:\/\/\S+\/device)\b/),
                    let code = text.firstMatch(of: /enter the code ([A-Z]{4}-[A-Z]{4})/),
                    let url = URL(string: String(page.1))
                {
                    // Signs in with the code, then approves what the consent page shows.
                    guard let consent = fetch(post(url, [("user_code", String(code.1)), ("userName", username), ("password", password)])),
                        let form = try? Browser.firstForm(consent), let action = URL(string: form.action, relativeTo: url)?.absoluteURL
                    else { return }
                    _ = fetch(post(action, form.hidden + Browser.checkedBoxes(consent) + [("decision", "approve")]))
                    return
                }
                usleep(20_000)
            }
        }.start()
    }

    /// Opens `link` and posts its form with Approve, waiting for each answer.
    static func approve(_ link: URL) {
        guard let page = fetch(URLRequest(url: link)), let form = try? Browser.firstForm(page),
            let action = URL(string: form.action, relativeTo: link)?.absoluteURL
        else { return }
        _ = fetch(post(action, form.hidden + [("decision", "approve")]))
    }

    /// A POST of `form` to `url`.
    static func post(_ url: URL, _ form: [(String, String)]) -> URLRequest {
        var post = URLRequest(url: url)
        post.httpMethod = "POST"
        post.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
        post.httpBody = Data(FormURLEncoding.encode(form).utf8)
        return post
    }

    /// The body of the answer to `request`, as text; `nil` when none came.
    static func fetch(_ request: URLRequest) -> String? {
        let done = DispatchSemaphore(value: 0)
        let body = LockedText()
        URLSession.shared.dataTask(with: request) { data, _, _ in
            body.set(data.map { String(decoding: $0, as: UTF8.self) })
            done.signal()
        }.resume()
        done.wait()
        return body.get()
    }

    /// Text behind a lock, for a completion handler to hand back.
    final class LockedText: @unchecked Sendable {
        private let lock = NSLock()
        private var text: String?
        func set(_ value: String?) { lock.withLock { text = value } }
        func get() -> String? { lock.withLock { text } }
    }
}

/// A plain HTTP client (no Accept, no token), like a browser that does not follow redirects.
public enum Browser {
    /// An HTML page without the form ``firstForm(_:)`` looks for.
    public struct NoForm: Error, CustomStringConvertible {
        /// The start of the page.
        public let page: String
        public var description: String { "no <form method=\"post\"> in the page: \(page)" }
    }

    /// GET, asking for HTML.
    public static func get(_ url: URL) async throws -> TransportResponse {
        try await AsyncHTTPClientTransport().send(TransportRequest(url: url, headers: ["Accept": "text/html"]))
    }

    /// POST of a form, asking for HTML.
    public static func post(_ url: URL, _ form: [(String, String)]) async throws -> TransportResponse {
        try await AsyncHTTPClientTransport().send(TransportRequest.form(url, parameters: form, headers: ["Accept": "text/html"]))
    }

    /// Does what a person at a browser does with the development server's pages from `url`:
    /// follows redirects, signs in as `username` on a login form, accepts a consent form with
    /// every box checked as shown and confirms a sign-out, until a redirect leaves the server
    /// (the app's loopback listener), which it then opens.
    /// - Returns: that last URL.
    public static func walk(from url: URL, username: String, password: String, steps: Int = 8) async throws -> URL {
        var response = try await get(url)
        var current = url
        for _ in 0..<steps {
            if (300..<400).contains(response.status), let location = response.headers["Location"],
                let next = URL(string: location, relativeTo: current)?.absoluteURL
            {
                if next.port != url.port || next.host != url.host {
                    _ = try await get(next)
                    return next
                }
                current = next
                response = try await get(next)
                continue
            }
            let html = String(decoding: response.body, as: UTF8.self)
            let form = try firstForm(html)
            var fields = form.hidden
            if html.contains("name=\"userName\"") { fields += [("userName", username), ("password", password)] }
            fields += checkedBoxes(html)
            guard let action = URL(string: form.action, relativeTo: current)?.absoluteURL else { throw NoForm(page: form.action) }
            current = action
            response = try await post(action, fields)
        }
        throw NoForm(page: "no redirect out of the server after \(steps) pages")
    }

    /// The name and value of each checked box of a page, as a browser posts them.
    public static func checkedBoxes(_ html: String) -> [(String, String)] {
        html.matches(of: /<input type="checkbox" name="([^"]*)" value="([^"]*)" checked>/).map {
            (unescape(String($0.1)), unescape(String($0.2)))
        }
    }

    /// Signs in on a device login's page (`/device` of `issuer`) with `code` and the credentials.
    /// - Returns: the answer: the consent page, or the page saying what was wrong.
    public static func signInForDevice(_ issuer: URL, code: String, username: String, password: String) async throws -> TransportResponse {
        try await post(issuer.appendingPathComponent("device"), [("user_code", code), ("userName", username), ("password", password)])
    }

    /// Answers a device login's consent page: Approve (with the boxes as they are checked, or
    /// only those in `scopes` when given) or Deny.
    public static func answerDeviceConsent(
        _ consent: TransportResponse, issuer: URL, approve: Bool = true, scopes: [String]? = nil
    ) async throws -> TransportResponse {
        let html = String(decoding: consent.body, as: UTF8.self)
        let form = try firstForm(html)
        guard let action = URL(string: form.action, relativeTo: issuer)?.absoluteURL else { throw NoForm(page: form.action) }
        let boxes = checkedBoxes(html).filter { box in scopes.map { $0.contains(box.1) } ?? true }
        return try await post(action, form.hidden + boxes + [("decision", approve ? "approve" : "deny")])
    }

    /// Opens an approval link and presses Approve (or Deny) on its page.
    public static func answerApproval(_ link: URL, approve: Bool = true) async throws -> TransportResponse {
        let page = try await get(link)
        let form = try firstForm(String(decoding: page.body, as: UTF8.self))
        guard let action = URL(string: form.action, relativeTo: link)?.absoluteURL else { throw NoForm(page: form.action) }
        return try await post(action, form.hidden + [("decision", approve ? "approve" : "deny")])
    }

    /// The action and hidden fields of the first form of an HTML page.
    public static func firstForm(_ html: String) throws -> (action: String, hidden: [(String, String)]) {
        guard let action = html.firstMatch(of: /<form method="post" action="([^"]*)">/)?.1 else {
            throw NoForm(page: String(html.prefix(300)))
        }
        let formEnd = html.range(of: "</form>")?.lowerBound ?? html.endIndex
        let hidden = html[..<formEnd].matches(of: /<input type="hidden" name="([^"]*)" value="([^"]*)">/).map {
            (unescape(String($0.1)), unescape(String($0.2)))
        }
        return (unescape(String(action)), hidden)
    }

    /// Undoes the HTML escaping of attribute values.
    public static func unescape(_ text: String) -> String {
        text.replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&#39;", with: "'")
            .replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">").replacingOccurrences(
                of: "&amp;", with: "&")
    }

    /// The query parameters of a URL.
    public static func query(_ url: String) -> [String: String] {
        FormURLEncoding.firstValues(URLComponents(string: url)?.percentEncodedQuery ?? "")
    }
}
