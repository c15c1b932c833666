#if os(Linux)
    import Foundation
    import Glibc
    import OAuthCore
    @testable import SecretService
    import Testing

    /// What a bus may make the keyring client hold: review 4, finding 3 (one 16 MiB message cost
    /// 333 MiB and seconds of CPU, every message decoded in full, and signals and stray replies
    /// kept without bound while a reply was awaited). Against a bus of the test's own on a Unix
    /// socket, which sends what the test scripts after authentication.
    @Suite("D-Bus: what a peer sends costs what the client needs", .serialized)
    struct DBusConnectionTests {
        /// A bus that says OK to authentication, then writes `script`'s messages and keeps reading
        /// until the client hangs up.
        final class FakeBus: @unchecked Sendable {
            let path: String
            private let listener: Int32

            init(_ script: @escaping @Sendable () throws -> [[UInt8]]) throws {
                let path = FileManager.default.temporaryDirectory.appendingPathComponent("bus-\(UUID().uuidString.prefix(8))").path
                let listener = Glibc.socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
                var address = sockaddr_un()
                address.sun_family = sa_family_t(AF_UNIX)
                withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: Array(path.utf8) + [0]) }
                let bound = withUnsafePointer(to: &address) {
                    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
                }
                guard bound == 0, listen(listener, 1) == 0 else {
                    close(listener)
                    throw DBusFormatError("the fake bus cannot listen at \(path)")
                }
                self.path = path
                self.listener = listener
                Thread {
                    let client = accept(listener, nil, nil)
                    guard client >= 0 else { return }
                    defer { close(client) }
                    var seen: [UInt8] = []
                    var chunk = [UInt8](repeating: 0, count: 4096)
                    // Up to BEGIN: the client's authentication.
                    while !String(decoding: seen, as: UTF8.self).contains("BEGIN\r\n") {
                        let count = chunk.withUnsafeMutableBytes { recv(client, $0.baseAddress, $0.count, 0) }
                        if count <= 0 { return }
                        seen += chunk[..<count]
                    }
                    func write(_ bytes: [UInt8]) {
                        var sent = 0
                        while sent < bytes.count {
                            let count = bytes[sent...].withUnsafeBytes { Glibc.send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                            if count <= 0 { return }
                            sent += count
                        }
                    }
                    write(Array("OK 0123456789abcdef0123456789abcdef\r\n".utf8))
                    for message in (try? script()) ?? [] { write(message) }
                    while chunk.withUnsafeMutableBytes({ recv(client, $0.baseAddress, $0.count, 0) }) > 0 {}
                }.start()
            }

            deinit {
                close(listener)
                unlink(path)
            }

            /// A connection to this bus.
            func connect() throws -> DBusConnection {
                try DBusConnection.session(environment: ["DBUS_SESSION_BUS_ADDRESS": "unix:path=\(path)"])
            }
        }

        /// The reply to the client's first call (serial 2: Hello is 1), holding `body`.
        static func reply(_ body: [DBusValue]) throws -> [UInt8] {
            var message = DBusMessage(kind: .methodReturn, serial: 900, body: body)
            message.replySerial = 2
            return try message.encoded()
        }

        static func signal(_ member: String, _ body: [DBusValue]) throws -> [UInt8] {
            try DBusMessage(
                kind: .signal, serial: 901, path: "/org/freedesktop/secrets", interface: "org.example.Noise", member: member, body: body
            ).encoded()
        }

        static func call(_ connection: DBusConnection) throws -> [DBusValue] {
            try connection.call(
                destination: "org.freedesktop.secrets", path: "/", interface: "org.example", member: "Ask", timeout: .seconds(5))
        }

        /// A message announcing 16 MiB is refused from its 16-byte header, at once: the client does
        /// not wait for it, nor hold it.
        @Test func oneMessageLargerThanTheLimitIsRefusedBeforeItIsRead() throws {
            let bus = try FakeBus {
                var header = try Self.reply([.uint32(7)])
                // The body length field (bytes 4-7), little-endian: 16 MiB.
                withUnsafeBytes(of: UInt32(16 << 20).littleEndian) { header.replaceSubrange(4..<8, with: $0) }
                return [Array(header.prefix(64))]
            }
            let connection = try bus.connect()
            let started = ContinuousClock.now
            #expect {
                try Self.call(connection)
            } throws: { error in
                "\(error)".contains("more than 1 MiB")
            }
            #expect(ContinuousClock.now - started < .seconds(4), "refused from the header, not after waiting for the body")
        }

        /// Messages nobody waits for (signals, a reply to no call) are skipped without decoding
        /// their bodies, even one of 100,000 values, and at most a few signals are kept; the
        /// awaited reply is then read as usual.
        @Test func messagesNobodyWaitsForAreSkippedWithoutExpandingThem() throws {
            let many = DBusValue.array(elementSignature: "u", (0..<100_000).map { .uint32(UInt32($0)) })
            let bus = try FakeBus {
                var stray = DBusMessage(kind: .methodReturn, serial: 5, body: [many])
                stray.replySerial = 77
                return try (0..<50).map { try Self.signal("Noise\($0)", [.string(String(repeating: "x", count: 1000))]) }
                    + [try Self.signal("Huge", [many]), try stray.encoded(), try Self.reply([.string("the answer")])]
            }
            let connection = try bus.connect()
            #expect(try Self.call(connection) == [.string("the answer")])
            #expect(connection.keptSignalCount <= DBusConnection.keptSignals)
            #expect(connection.keptReplyCount == 0, "a reply to no call awaited is not kept")
        }

        /// The awaited reply itself may not hold more values than the limit: a format error, not
        /// 100,000 boxed values.
        @Test func aReplyOfTooManyValuesIsAFormatError() throws {
            let bus = try FakeBus { [try Self.reply([.array(elementSignature: "u", (0..<100_000).map { .uint32(UInt32($0)) })])] }
            let connection = try bus.connect()
            #expect {
                try Self.call(connection)
            } throws: { error in
                "\(error)".contains("more than \(DBusReader.valueLimit) values")
            }
        }
    }
#endif
