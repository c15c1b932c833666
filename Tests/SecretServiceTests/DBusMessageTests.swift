#if os(Linux)
    import Foundation
    import HaapiTesting
    import OAuthCore
    @testable import SecretService
    import Testing

    /// The D-Bus wire format of the Secret Service storage, against messages jeepney (a Python
    /// D-Bus implementation) serialised: Vectors/dbus-jeepney.json, made by Vectors/dbus_vectors.py.
    @Suite("D-Bus messages")
    struct DBusMessageTests {
        static func bytes(_ name: String) throws -> [UInt8] {
            let hex = Array(try vectors("dbus-jeepney").string(name).utf8)
            return stride(from: 0, to: hex.count, by: 2).map { UInt8(String(decoding: hex[$0..<$0 + 2], as: UTF8.self), radix: 16)! }
        }

        @Test func aMethodCallIsWrittenAsJeepneyWritesIt() throws {
            let openSession = DBusMessage(
                kind: .methodCall, serial: 2, path: "/org/freedesktop/secrets", interface: "org.freedesktop.Secret.Service",
                member: "OpenSession",
                destination: "org.freedesktop.secrets", body: [.string("plain"), .variant(.string(""))])
            #expect(try openSession.encoded() == Self.bytes("openSession"))

            let properties = DBusValue.array(
                elementSignature: "{sv}",
                [
                    .dictionaryEntry(.string("org.freedesktop.Secret.Item.Label"), .variant(.string("swift-haapi bench: tokens.json"))),
                    .dictionaryEntry(
                        .string("org.freedesktop.Secret.Item.Attributes"),
                        .variant(.stringDictionary(["key": "tokens.json", "application": "swift-haapi"]))),
                ])
            let secret = DBusValue.structure([
                .objectPath("/org/freedesktop/secrets/session/s1"), .bytes(Data()), .bytes(Data(#"{"a":1}"#.utf8)),
                .string("text/plain; charset=utf8"),
            ])
            let createItem = DBusMessage(
                kind: .methodCall, serial: 7, path: "/org/freedesktop/secrets/aliases/default",
                interface: "org.freedesktop.Secret.Collection",
                member: "CreateItem", destination: "org.freedesktop.secrets", body: [properties, secret, .boolean(true)])
            #expect(try createItem.encoded() == Self.bytes("createItem"))
            // And read back, value for value.
            let decoded = try DBusMessage(decoding: Self.bytes("createItem"))
            #expect(decoded.body == [properties, secret, .boolean(true)])
            #expect(decoded.member == "CreateItem" && decoded.serial == 7 && decoded.destination == "org.freedesktop.secrets")
        }

        @Test(arguments: ["searchReply", "searchReplyBigEndian"])
        func aReplyIsReadInEitherByteOrder(vector: String) throws {
            let reply = try DBusMessage(decoding: Self.bytes(vector))
            #expect(reply.kind == .methodReturn)
            #expect(reply.replySerial == 3 && reply.serial == 9)
            #expect(reply.body.count == 2)
            #expect(
                reply.body[0].objectPathList == [
                    "/org/freedesktop/secrets/collection/login/1", "/org/freedesktop/secrets/collection/login/2",
                ])
            #expect(reply.body[1].objectPathList == [])
        }

        @Test func anErrorNamesItselfAndSaysWhy() throws {
            let error = try DBusMessage(decoding: Self.bytes("serviceUnknown"))
            #expect(error.kind == .error)
            #expect(error.errorName == "org.freedesktop.DBus.Error.ServiceUnknown")
            #expect(error.replySerial == 3)
            #expect(error.body.first?.text == "The name org.freedesktop.secrets was not provided by any .service files")
        }

        /// Every cut and every changed byte of the vectors, and random lengths, decode or fail with
        /// a DBusFormatError: never a trap, whatever the bus sends.
        @Test func mangledMessagesFailWithAFormatError() throws {
            var generator = SplitMix(state: 0xDB05)
            for name in ["openSession", "createItem", "searchReply", "searchReplyBigEndian", "serviceUnknown"] {
                let original = try Self.bytes(name)
                for cut in 0..<original.count { expectFormatErrorOrMessage(Array(original.prefix(cut))) }
                for _ in 0..<4_000 {
                    var mangled = original
                    for _ in 0...Int.random(in: 0...3, using: &generator) {
                        mangled[Int.random(in: 0..<mangled.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator)
                    }
                    expectFormatErrorOrMessage(mangled)
                }
            }
            // A header announcing more than D-Bus allows.
            #expect(throws: DBusFormatError.self) {
                try DBusMessage.length(ofMessageStartingWith: [0x6c, 2, 0, 1] + [0xff, 0xff, 0xff, 0xff] + [1, 0, 0, 0] + [0, 0, 0, 0])
            }
        }

        /// A signal of 66,000 values (Fuzz/Regressions/dbus-message): its header reads without its
        /// body, and its body is refused past the value limit, not expanded into 66,000 boxed values.
        @Test func aBodyOfMoreValuesThanTheLimitIsRefused() throws {
            let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
                .appendingPathComponent("../../Fuzz/Regressions/dbus-message/review-4-finding-3-more-values-than-a-message-holds")
            let bytes = [UInt8](try Data(contentsOf: file))
            var message = try DBusMessage(decoding: bytes, decodesBody: false)
            #expect(message.kind == .signal && message.member == "Huge")
            #expect(throws: DBusFormatError("a message of more than \(DBusReader.valueLimit) values")) { try message.decodeBody() }
            #expect(throws: DBusFormatError.self) { try DBusMessage(decoding: bytes) }
        }

        private func expectFormatErrorOrMessage(_ bytes: [UInt8]) {
            do {
                _ = try DBusMessage(decoding: bytes)
            } catch is DBusFormatError {
            } catch {
                Issue.record("\(error) is not a DBusFormatError")
            }
        }

        @Test func signaturesNestOnlyAsDeepAsTheSpecificationAllows() throws {
            #expect(
                try DBusType.parse("a{sv}(oayays)b") == [
                    .array(.dictionaryEntry(.basic("s"), .variant)),
                    .structure([.basic("o"), .array(.basic("y")), .array(.basic("y")), .basic("s")]), .basic("b"),
                ])
            #expect(throws: DBusFormatError.self) { try DBusType.parse(String(repeating: "a", count: 33) + "y") }
            #expect(throws: DBusFormatError.self) { try DBusType.parse("(") }
            #expect(throws: DBusFormatError.self) { try DBusType.parse("{vs}") }
            #expect(throws: DBusFormatError.self) { try DBusType.parse("()") }
        }

        @Test func anAddressNamesItsUnixSocketsUnescaped() throws {
            let paths = try DBusConnection.unixPaths(
                inAddress: "tcp:host=localhost,port=1;unix:path=/run/user/1000/a%2cb,guid=0f;unix:abstract=/tmp/dbus-x")
            #expect(paths.map(\.path) == ["/run/user/1000/a,b", "/tmp/dbus-x"])
            #expect(paths.map(\.abstract) == [false, true])
            #expect(throws: DBusConnection.Failure.self) { try DBusConnection.unixPaths(inAddress: "tcp:host=localhost,port=1") }
        }

        @Test func withoutASessionBusTheStorageSaysSo() throws {
            #expect(throws: DBusConnection.Failure.self) { try DBusConnection.session(environment: [:]) }
            let missing = try DBusConnection.unixPaths(inAddress: "unix:path=/nonexistent/bus")
            #expect(missing.count == 1)
            do {
                _ = try DBusConnection.session(environment: ["DBUS_SESSION_BUS_ADDRESS": "unix:path=/nonexistent/bus"])
                Issue.record("a bus at a path that does not exist answered")
            } catch let failure as DBusConnection.Failure {
                #expect(failure.description.contains("/nonexistent/bus"))
            }
        }
    }
#endif
