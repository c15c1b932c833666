import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A one-shot HTTP listener on 127.0.0.1 (a free port): the redirect an external browser
/// comes back to. It answers every request, keeps the first that carries `_resume_nonce`, and then stops listening.
final class LoopbackReceiver: @unchecked Sendable {
    /// `http://127.0.0.1:PORT/callback`.
    let redirectURI: String
    private let socketDescriptor: Int32
    private let received = LockedBox<URL?>(nil)
    private let listenerClosed = LockedBox(false)

    init() throws {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw CLIFailure("cannot open a loopback socket for the browser's return") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer -> Bool in
                bind(descriptor, pointer, length) == 0 && listen(descriptor, 4) == 0 && getsockname(descriptor, pointer, &length) == 0
            }
        }
        guard bound else {
            close(descriptor)
            throw CLIFailure("cannot listen on 127.0.0.1 for the browser's return")
        }
        socketDescriptor = descriptor
        redirectURI = "http://127.0.0.1:\(UInt16(bigEndian: address.sin_port))/callback"
        let thread = Thread { [self] in self.serve() }
        thread.start()
    }

    /// The URL the browser came back to, once it has.
    var url: URL? { received.withLockedValue { $0 } }

    /// Accepts connections until the browser has come back or ``stop()`` is called. Each is
    /// answered on a thread of its own: a browser may open a connection ahead of need and send
    /// nothing on it (Chrome's preconnect), which must not hold up the one that carries the request.
    private func serve() {
        while true {
            let client = accept(socketDescriptor, nil, nil)
            if client < 0 {
                if errno == EINTR { continue }
                return
            }
            // An idle connection is given up after a while rather than keeping its thread forever.
            var timeout = timeval(tv_sec: Self.idleSeconds, tv_usec: 0)
            setsockopt(client, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            Thread { [self] in self.answer(client) }.start()
        }
    }

    /// How long a connection may stay silent, in seconds.
    static let idleSeconds = 30

    /// Reads one request and answers it; the first that carries `_resume_nonce` is kept, and listening ends.
    private func answer(_ client: Int32) {
        var request = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 4096)
        while request.count < 65536 {
            let count = buffer.withUnsafeMutableBytes { recv(client, $0.baseAddress, $0.count, 0) }
            if count <= 0 { break }
            request.append(contentsOf: buffer[0..<count])
            if String(decoding: request, as: UTF8.self).contains("\r\n\r\n") { break }
        }
        guard !request.isEmpty else {
            close(client)
            return
        }
        let text = String(decoding: request, as: UTF8.self)
        let target = text.split(separator: "\r\n").first?.split(separator: " ").dropFirst().first.map(String.init) ?? "/"
        let url = URL(string: "http://127.0.0.1" + target)
        let hasNonce = url.flatMap { URLComponents(url: $0, resolvingAgainstBaseURL: false)?.queryItems }?
            .contains { $0.name == "_resume_nonce" } ?? false
        let body = hasNonce
            ? "<!doctype html><title>haapi</title><p>Login continues in the terminal. You can close this window.</p>"
            : "<!doctype html><title>haapi</title><p>Waiting for the login to come back here.</p>"
        let response = "HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\nContent-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n" + body
        _ = response.withCString { send(client, $0, strlen($0), Self.sendFlags) }
        close(client)
        guard hasNonce, let url else { return }
        let isFirst = received.withLockedValue { received -> Bool in
            guard received == nil else { return false }
            received = url
            return true
        }
        if isFirst { closeListener() }
    }

    /// MSG_NOSIGNAL: a browser that hung up must not end the command with SIGPIPE.
    private static var sendFlags: Int32 {
        #if canImport(Glibc)
        Int32(MSG_NOSIGNAL)
        #else
        0
        #endif
    }

    /// Stops accepting, once: shutdown wakes the thread blocked in accept, which close alone does not.
    private func closeListener() {
        let first = listenerClosed.withLockedValue { closed -> Bool in
            defer { closed = true }
            return !closed
        }
        guard first else { return }
        shutdown(socketDescriptor, Int32(SHUT_RDWR))
        close(socketDescriptor)
    }

    /// Stops listening (if the browser never came back).
    func stop() { closeListener() }
}
