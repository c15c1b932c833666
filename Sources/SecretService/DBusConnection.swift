#if os(Linux)
    import Foundation
    import OAuthCore
    import Glibc

    /// A connection to the user's D-Bus session bus, enough of the protocol for the Secret Service:
    /// method calls answered in order, and signals waited for.
    ///
    /// It speaks the protocol itself (a Unix socket, `EXTERNAL` authentication, the wire format of
    /// ``DBusMessage``) rather than loading libdbus or GLib: those libraries cost a command-line
    /// tool more start-up time than the rest of a cached `haapi token`. One connection serves one
    /// storage operation and is closed with it; it is not shared between threads.
    final class DBusConnection {
        /// Why the bus cannot be used, or what it answered instead of a reply.
        struct Failure: Error, CustomStringConvertible {
            /// The D-Bus error's name (`org.freedesktop.DBus.Error.ServiceUnknown`), for an error reply.
            let name: String?
            let description: String
            init(_ description: String, name: String? = nil) {
                self.description = description
                self.name = name
            }
        }

        private let socket: Int32
        private var serial: UInt32 = 0
        /// Signals that arrived while a reply was awaited, kept for ``waitForSignal(timeout:where:)``:
        /// the last ``keptSignals``, their bodies undecoded.
        private var signals: [DBusMessage] = []
        /// The calls sent whose replies have not been read: only their replies are kept.
        private var awaited: Set<UInt32> = []
        /// Replies to pipelined calls that arrived while another reply was awaited.
        private var replies: [UInt32: DBusMessage] = [:]

        /// The longest message read: what the Secret Service sends is a few kilobytes, so the bus
        /// may not make the client hold more than this of anyone's.
        static let messageLimit = 1 << 20
        /// How many signals are kept while a reply is awaited (the newest).
        static let keptSignals = 4
        /// How many signals and replies are kept now.
        var keptSignalCount: Int { signals.count }
        var keptReplyCount: Int { replies.count }
        /// Bytes received and not yet read.
        private var buffer: [UInt8] = []
        /// Whether the bus has accepted ``authenticate()``.
        private var authenticated = false

        /// Opens the session bus named by `DBUS_SESSION_BUS_ADDRESS` (else `$XDG_RUNTIME_DIR/bus`),
        /// authenticates as this user and says hello.
        static func session(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> DBusConnection {
            let paths: [(path: String, abstract: Bool)]
            if let address = environment["DBUS_SESSION_BUS_ADDRESS"], !address.isEmpty {
                paths = try unixPaths(inAddress: address)
            } else if let runtime = environment["XDG_RUNTIME_DIR"], FileManager.default.fileExists(atPath: runtime + "/bus") {
                paths = [(runtime + "/bus", false)]
            } else {
                throw Failure("no D-Bus session (DBUS_SESSION_BUS_ADDRESS is not set)")
            }
            var reasons: [String] = []
            for (path, abstract) in paths {
                do {
                    return try DBusConnection(path: path, abstract: abstract)
                } catch {
                    reasons.append("\(error)")
                }
            }
            throw Failure("the D-Bus session bus does not answer: " + reasons.joined(separator: "; "))
        }

        /// The Unix socket paths of a D-Bus address (`unix:path=…,guid=…;unix:abstract=…`), values
        /// unescaped. Other transports are not used.
        static func unixPaths(inAddress address: String) throws -> [(path: String, abstract: Bool)] {
            let paths = address.split(separator: ";").compactMap { entry -> (String, Bool)? in
                guard entry.hasPrefix("unix:") else { return nil }
                for pair in entry.dropFirst(5).split(separator: ",") {
                    let parts = pair.split(separator: "=", maxSplits: 1).map(String.init)
                    guard parts.count == 2, parts[0] == "path" || parts[0] == "abstract", let value = parts[1].removingPercentEncoding
                    else { continue }
                    return (value, parts[0] == "abstract")
                }
                return nil
            }
            guard !paths.isEmpty else { throw Failure("the D-Bus address \"\(address)\" names no Unix socket") }
            return paths
        }

        private init(path: String, abstract: Bool) throws {
            socket = Glibc.socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            guard socket >= 0 else { throw Failure("no socket: \(String(cString: strerror(errno)))") }
            do {
                try connect(path: path, abstract: abstract)
                try authenticate()
            } catch {
                close(socket)
                throw error
            }
        }

        deinit { close(socket) }

        private func connect(path: String, abstract: Bool) throws {
            var address = sockaddr_un()
            address.sun_family = sa_family_t(AF_UNIX)
            let name = (abstract ? [0] : []) + Array(path.utf8)
            let capacity = MemoryLayout.size(ofValue: address.sun_path)
            guard name.count < capacity else { throw Failure("the socket path \(path) is too long") }
            withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: name) }
            // An abstract name's length is exact; a path's includes its nul.
            let length = MemoryLayout<sa_family_t>.size + name.count + (abstract ? 0 : 1)
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(socket, $0, socklen_t(length)) }
            }
            guard connected == 0 else { throw Failure("\(path): \(String(cString: strerror(errno)))") }
        }

        /// The `EXTERNAL` mechanism (the bus knows who we are from the socket; we name our uid),
        /// with `BEGIN` and `Hello` sent behind it and the bus's OK read with the first reply
        /// (``readAuthentication(before:)``): the bus reads what follows once it has said OK, so
        /// the first calls go out at once and a keyring read takes two round trips, not four.
        private func authenticate() throws {
            // The uid's decimal digits as hex: each ASCII digit d is the byte 0x3d.
            let uid = String(getuid()).map { "3\($0)" }.joined()
            let hello = message(
                destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus", member: "Hello")
            try send(Array("\0AUTH EXTERNAL \(uid)\r\nBEGIN\r\n".utf8) + (try hello.encoded()))
        }

        /// Reads the bus's answer to ``authenticate()``, once; an error unless it is OK.
        private func readAuthentication(before deadline: ContinuousClock.Instant) throws {
            guard !authenticated else { return }
            var lineEnd: Int?
            while lineEnd == nil {
                guard buffer.count < 512 else { throw Failure("the bus's answer to authentication is too long") }
                try fill(before: deadline)
                lineEnd = buffer.indices.dropFirst().first { buffer[$0 - 1] == 13 && buffer[$0] == 10 }
            }
            let line = Array(buffer[...lineEnd!])
            buffer.removeFirst(line.count)
            guard line.starts(with: Array("OK ".utf8)) else {
                throw Failure(
                    "the bus refused authentication: \(String(decoding: line.prefix(80), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))"
                )
            }
            authenticated = true
        }

        /// A method call with the next serial.
        private func message(destination: String, path: String, interface: String, member: String, _ arguments: [DBusValue] = [])
            -> DBusMessage
        {
            serial &+= 1
            if serial == 0 { serial = 1 }
            return DBusMessage(
                kind: .methodCall, serial: serial, path: path, interface: interface, member: member, destination: destination,
                body: arguments)
        }

        /// Calls a method and returns its reply's values, or throws the error it answered with.
        func call(
            destination: String, path: String, interface: String, member: String, _ arguments: [DBusValue] = [],
            timeout: Duration = .seconds(25)
        ) throws -> [DBusValue] {
            try reply(to: send(destination: destination, path: path, interface: interface, member: member, arguments), timeout: timeout)
        }

        /// Sends a method call without waiting for its reply (``reply(to:timeout:)`` reads it), so
        /// that calls that do not depend on each other share a round trip.
        func send(destination: String, path: String, interface: String, member: String, _ arguments: [DBusValue] = []) throws -> UInt32 {
            let call = message(destination: destination, path: path, interface: interface, member: member, arguments)
            try send(try call.encoded())
            awaited.insert(call.serial)
            return call.serial
        }

        /// The values of the reply to the call `serial`, or the error it answered with.
        func reply(to serial: UInt32, timeout: Duration = .seconds(25)) throws -> [DBusValue] {
            let deadline = ContinuousClock.now + timeout
            while true {
                var message: DBusMessage
                if let kept = replies.removeValue(forKey: serial) { message = kept } else { message = try receiveMessage(before: deadline) }
                switch message.kind {
                case .methodReturn where message.replySerial == serial, .error where message.replySerial == serial:
                    awaited.remove(serial)
                    try decodeBody(of: &message)
                    if message.kind == .error {
                        throw Failure(message.body.first?.text ?? message.errorName ?? "an error", name: message.errorName)
                    }
                    return message.body
                case .signal:
                    signals.append(message)
                    if signals.count > Self.keptSignals { signals.removeFirst() }
                case .methodReturn, .error:
                    keepReply(message)
                case .methodCall:
                    continue
                }
            }
        }

        /// The first signal, received or still to come, that `matches`.
        /// `matches` sees the signal's header (path, interface, member); the body of the one it
        /// takes is decoded then, and no other's is.
        func waitForSignal(timeout: Duration, where matches: (DBusMessage) -> Bool) throws -> DBusMessage {
            if let index = signals.firstIndex(where: matches) {
                var message = signals.remove(at: index)
                try decodeBody(of: &message)
                return message
            }
            let deadline = ContinuousClock.now + timeout
            while true {
                var message = try receiveMessage(before: deadline)
                if message.kind == .signal && matches(message) {
                    try decodeBody(of: &message)
                    return message
                }
                if message.kind == .methodReturn || message.kind == .error { keepReply(message) }
            }
        }

        /// Keeps a reply to another pipelined call for its ``reply(to:timeout:)``; a reply to no
        /// call awaited (Hello's, the connection's first, or a stray one) is dropped.
        private func keepReply(_ message: DBusMessage) {
            if let serial = message.replySerial, awaited.contains(serial) { replies[serial] = message }
        }

        private func decodeBody(of message: inout DBusMessage) throws {
            do { try message.decodeBody() } catch let error as DBusFormatError { throw Failure("the bus sent \(error)") }
        }

        private func receiveMessage(before deadline: ContinuousClock.Instant) throws -> DBusMessage {
            try readAuthentication(before: deadline)
            do {
                while buffer.count < 16 { try fill(before: deadline) }
                // The size is checked before the message is read in; its body is decoded only when
                // someone waits for it.
                let length = try DBusMessage.length(ofMessageStartingWith: Array(buffer.prefix(16)), limit: Self.messageLimit)
                while buffer.count < length { try fill(before: deadline) }
                let bytes = Array(buffer.prefix(length))
                buffer.removeFirst(length)
                return try DBusMessage(decoding: bytes, decodesBody: false)
            } catch let error as DBusFormatError {
                throw Failure("the bus sent \(error)")
            }
        }

        private func send(_ bytes: [UInt8]) throws {
            var sent = 0
            while sent < bytes.count {
                let count = bytes[sent...].withUnsafeBytes { Glibc.send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { throw Failure("the bus closed the connection (\(String(cString: strerror(errno))))") }
                sent += count
            }
        }

        /// Adds what the bus sent next to ``buffer``, waiting no later than `deadline`.
        private func fill(before deadline: ContinuousClock.Instant) throws {
            while true {
                let left = (deadline - .now).components
                guard left.seconds > 0 || left.attoseconds > 0 else { throw Failure("the bus did not answer in time") }
                // Whole milliseconds, rounded up, a minute at most (the loop waits again).
                let milliseconds = min(left.seconds, 60) * 1000 + left.attoseconds / 1_000_000_000_000_000 + 1
                var ready = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
                let polled = poll(&ready, 1, Int32(milliseconds))
                if polled < 0 && errno == EINTR { continue }
                guard polled > 0 else { continue }
                let start = buffer.count
                buffer += repeatElement(0, count: 16_384)
                let received = buffer[start...].withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
                buffer.removeLast(16_384 - max(received, 0))
                if received < 0 && errno == EINTR { continue }
                guard received > 0 else { throw Failure("the bus closed the connection") }
                return
            }
        }
    }

#endif
