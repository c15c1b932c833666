#if os(Linux)
    import Foundation
    import OAuthCore

    /// A value of the D-Bus type system: the kinds the Secret Service sends and takes, and every
    /// other fixed-size kind as its bits, so that an answer of an unexpected shape still decodes.
    package indirect enum DBusValue: Equatable, Sendable {
        case byte(UInt8)
        case boolean(Bool)
        case uint32(UInt32)
        /// Another fixed-size kind (`n q i x t d h`): its type code and its bits.
        case fixed(Character, UInt64)
        case string(String)
        case objectPath(String)
        case signature(String)
        case variant(DBusValue)
        /// An array of bytes (`ay`): a secret's value and parameters.
        case bytes(Data)
        /// An array of any other element type, named by its signature (so an empty array has one).
        case array(elementSignature: String, [DBusValue])
        case structure([DBusValue])
        case dictionaryEntry(DBusValue, DBusValue)

        /// The value's D-Bus signature.
        var signature: String {
            switch self {
            case .byte: return "y"
            case .boolean: return "b"
            case .uint32: return "u"
            case .fixed(let code, _): return String(code)
            case .string: return "s"
            case .objectPath: return "o"
            case .signature: return "g"
            case .variant: return "v"
            case .bytes: return "ay"
            case .array(let element, _): return "a" + element
            case .structure(let fields): return "(" + fields.map(\.signature).joined() + ")"
            case .dictionaryEntry(let key, let value): return "{" + key.signature + value.signature + "}"
            }
        }

        /// A dictionary of strings to strings (`a{ss}`): the Secret Service's item attributes.
        static func stringDictionary(_ dictionary: [String: String]) -> DBusValue {
            .array(
                elementSignature: "{ss}", dictionary.sorted { $0.key < $1.key }.map { .dictionaryEntry(.string($0.key), .string($0.value)) }
            )
        }

        /// An array of object paths (`ao`).
        static func objectPaths(_ paths: [String]) -> DBusValue {
            .array(elementSignature: "o", paths.map { .objectPath($0) })
        }

        /// The text of a string, object path or signature.
        var text: String? {
            switch self {
            case .string(let text), .objectPath(let text), .signature(let text): return text
            default: return nil
            }
        }

        /// The object paths of an `ao`.
        var objectPathList: [String]? {
            guard case .array(_, let elements) = self else { return nil }
            let paths = elements.compactMap { element -> String? in
                if case .objectPath(let path) = element { return path }
                return nil
            }
            return paths.count == elements.count ? paths : nil
        }
    }

    /// Why bytes are not a D-Bus message, or a value cannot be written as one.
    package struct DBusFormatError: Error, CustomStringConvertible, Equatable {
        package let description: String
        init(_ description: String) { self.description = description }
    }

    /// A D-Bus type, parsed from a signature.
    indirect enum DBusType: Equatable, Sendable {
        case basic(Character)
        case variant
        case array(DBusType)
        case structure([DBusType])
        case dictionaryEntry(DBusType, DBusType)

        /// The types of a signature, in order (at most 255 characters; nesting at most 32 deep, as
        /// the specification allows).
        static func parse(_ signature: String) throws -> [DBusType] {
            let characters = Array(signature)
            guard characters.count <= 255 else { throw DBusFormatError("a signature longer than 255 characters") }
            var index = 0
            var types: [DBusType] = []
            while index < characters.count { types.append(try single(characters, &index, depth: 0)) }
            return types
        }

        private static func single(_ characters: [Character], _ index: inout Int, depth: Int) throws -> DBusType {
            guard depth < 32 else { throw DBusFormatError("a signature nested more than 32 deep") }
            guard index < characters.count else { throw DBusFormatError("a signature that ends inside a type") }
            let code = characters[index]
            index += 1
            switch code {
            case "y", "b", "n", "q", "i", "u", "x", "t", "d", "h", "s", "o", "g": return .basic(code)
            case "v": return .variant
            case "a": return .array(try single(characters, &index, depth: depth + 1))
            case "(":
                var fields: [DBusType] = []
                while index < characters.count && characters[index] != ")" {
                    fields.append(try single(characters, &index, depth: depth + 1))
                }
                guard index < characters.count, !fields.isEmpty else { throw DBusFormatError("a structure that is empty or not closed") }
                index += 1
                return .structure(fields)
            case "{":
                let key = try single(characters, &index, depth: depth + 1)
                let value = try single(characters, &index, depth: depth + 1)
                guard case .basic = key, index < characters.count, characters[index] == "}" else {
                    throw DBusFormatError("a dictionary entry that is not a basic key, one value and a closing brace")
                }
                index += 1
                return .dictionaryEntry(key, value)
            default: throw DBusFormatError("the type code \"\(code)\"")
            }
        }

        /// The boundary values of this type start on.
        var alignment: Int {
            switch self {
            case .basic(let code):
                switch code {
                case "y", "g": return 1
                case "n", "q": return 2
                case "x", "t", "d": return 8
                default: return 4
                }
            case .variant: return 1
            case .array: return 4
            case .structure, .dictionaryEntry: return 8
            }
        }
    }

    /// Writes values in D-Bus's little-endian wire format, aligned from the start of `bytes`
    /// (a message's header, or its body, which starts on an 8-byte boundary).
    struct DBusWriter {
        private(set) var bytes: [UInt8] = []

        mutating func pad(to alignment: Int) {
            while bytes.count % alignment != 0 { bytes.append(0) }
        }

        mutating func write(_ number: UInt32) {
            pad(to: 4)
            withUnsafeBytes(of: number.littleEndian) { bytes += $0 }
        }

        /// A length as a UInt32, or an error for one D-Bus cannot carry.
        private func length(_ count: Int) throws -> UInt32 {
            guard count <= 1 << 26, let length = UInt32(exactly: count) else { throw DBusFormatError("a value larger than D-Bus carries") }
            return length
        }

        mutating func write(_ value: DBusValue) throws {
            switch value {
            case .byte(let byte): bytes.append(byte)
            case .boolean(let flag): write(flag ? 1 : 0)
            case .uint32(let number): write(number)
            case .fixed(let code, let bits):
                let type = DBusType.basic(code)
                pad(to: type.alignment)
                withUnsafeBytes(of: bits.littleEndian) { bytes += $0.prefix(type.alignment) }
            case .string(let text), .objectPath(let text):
                write(try length(text.utf8.count))
                bytes += text.utf8
                bytes.append(0)
            case .signature(let text):
                guard let count = UInt8(exactly: text.utf8.count) else { throw DBusFormatError("a signature longer than 255 bytes") }
                bytes.append(count)
                bytes += text.utf8
                bytes.append(0)
            case .variant(let inner):
                try write(.signature(inner.signature))
                try write(inner)
            case .bytes(let data):
                write(try length(data.count))
                bytes += data
            case .array(let element, let elements):
                pad(to: 4)
                let lengthAt = bytes.count
                write(0)
                pad(to: try DBusType.parse(element).first?.alignment ?? 1)
                let start = bytes.count
                for value in elements { try write(value) }
                let size = try length(bytes.count - start)
                withUnsafeBytes(of: size.littleEndian) { bytes.replaceSubrange(lengthAt..<lengthAt + 4, with: $0) }
            case .structure(let fields):
                pad(to: 8)
                for field in fields { try write(field) }
            case .dictionaryEntry(let key, let value):
                pad(to: 8)
                try write(key)
                try write(value)
            }
        }
    }

    /// Reads values in D-Bus's wire format (either byte order) from `bytes`, whose first byte is on
    /// an 8-byte boundary of the message. Every length and offset is checked: bytes from the bus
    /// give a ``DBusFormatError``, never a trap.
    struct DBusReader {
        let bytes: [UInt8]
        let littleEndian: Bool
        private(set) var offset: Int
        /// How many more values may be read: each is boxed in memory, so a message of many tiny
        /// elements costs many times its size; past this, its bytes are refused, not expanded.
        private var valuesLeft = DBusReader.valueLimit

        /// The most values one message may hold (a Secret Service answer holds a few dozen).
        static let valueLimit = 1 << 16

        init(_ bytes: [UInt8], littleEndian: Bool, offset: Int = 0) {
            self.bytes = bytes
            self.littleEndian = littleEndian
            self.offset = offset
        }

        var atEnd: Bool { offset >= bytes.count }

        mutating func align(to alignment: Int) throws {
            let next = (offset + alignment - 1) / alignment * alignment
            guard next <= bytes.count else { throw DBusFormatError("a value past the end of the message") }
            for index in offset..<next where bytes[index] != 0 { throw DBusFormatError("padding that is not zero") }
            offset = next
        }

        /// `count` bytes, as a little-endian number (at most 8).
        mutating func number(_ count: Int) throws -> UInt64 {
            try align(to: count)
            guard count <= bytes.count - offset else { throw DBusFormatError("a number past the end of the message") }
            var value: UInt64 = 0
            for index in 0..<count {
                let byte = UInt64(bytes[offset + (littleEndian ? index : count - 1 - index)])
                value |= byte << (8 * UInt64(index))
            }
            offset += count
            return value
        }

        mutating func uint32() throws -> UInt32 { UInt32(truncatingIfNeeded: try number(4)) }

        /// `count` bytes and the nul after them, as text.
        private mutating func text(_ count: Int) throws -> String {
            guard count < bytes.count - offset, bytes[offset + count] == 0 else {
                throw DBusFormatError("a string past the end of the message")
            }
            let slice = bytes[offset..<offset + count]
            guard !slice.contains(0), let text = String(bytes: slice, encoding: .utf8) else {
                throw DBusFormatError("a string that is not UTF-8")
            }
            offset += count + 1
            return text
        }

        mutating func read(_ type: DBusType, depth: Int = 0) throws -> DBusValue {
            guard depth < 64 else { throw DBusFormatError("values nested more than 64 deep") }
            guard valuesLeft > 0 else { throw DBusFormatError("a message of more than \(Self.valueLimit) values") }
            valuesLeft -= 1
            switch type {
            case .basic(let code):
                switch code {
                case "y": return .byte(UInt8(truncatingIfNeeded: try number(1)))
                case "b":
                    let flag = try uint32()
                    guard flag <= 1 else { throw DBusFormatError("a boolean that is neither 0 nor 1") }
                    return .boolean(flag == 1)
                case "u": return .uint32(try uint32())
                case "s", "o":
                    let count = Int(try uint32())
                    let text = try self.text(count)
                    return code == "s" ? .string(text) : .objectPath(text)
                case "g": return .signature(try text(Int(try number(1))))
                default: return .fixed(code, try number(type.alignment))
                }
            case .variant:
                guard case .signature(let signature) = try read(.basic("g")) else { throw DBusFormatError("a variant without a signature") }
                let types = try DBusType.parse(signature)
                guard types.count == 1 else { throw DBusFormatError("a variant of \(types.count) types") }
                return .variant(try read(types[0], depth: depth + 1))
            case .array(let element):
                let size = Int(try uint32())
                try align(to: element.alignment)
                guard size <= bytes.count - offset else { throw DBusFormatError("an array past the end of the message") }
                let end = offset + size
                if element == .basic("y") {
                    offset = end
                    return .bytes(Data(bytes[(end - size)..<end]))
                }
                var elements: [DBusValue] = []
                while offset < end { elements.append(try read(element, depth: depth + 1)) }
                guard offset == end else { throw DBusFormatError("an array whose elements overrun its length") }
                return .array(elementSignature: Self.signature(of: element), elements)
            case .structure(let fields):
                try align(to: 8)
                return .structure(try fields.map { try read($0, depth: depth + 1) })
            case .dictionaryEntry(let key, let value):
                try align(to: 8)
                return .dictionaryEntry(try read(key, depth: depth + 1), try read(value, depth: depth + 1))
            }
        }

        private static func signature(of type: DBusType) -> String {
            switch type {
            case .basic(let code): return String(code)
            case .variant: return "v"
            case .array(let element): return "a" + signature(of: element)
            case .structure(let fields): return "(" + fields.map(signature(of:)).joined() + ")"
            case .dictionaryEntry(let key, let value): return "{" + signature(of: key) + signature(of: value) + "}"
            }
        }
    }

    /// One D-Bus message: a method call, its return or error, or a signal. (Package access: the fuzz
    /// harness decodes messages too.)
    package struct DBusMessage: Sendable {
        package enum Kind: UInt8, Sendable {
            case methodCall = 1, methodReturn, error, signal
        }

        package var kind: Kind
        package var serial: UInt32
        package var path: String?
        package var interface: String?
        package var member: String?
        package var errorName: String?
        package var replySerial: UInt32?
        package var destination: String?
        package var body: [DBusValue] = []
        /// The body's signature and bytes, while they are not decoded (``init(decoding:decodesBody:)``).
        private var undecoded: (signature: String, bytes: [UInt8], littleEndian: Bool)?

        /// The message on the wire (little-endian).
        package func encoded() throws -> [UInt8] {
            var bodyWriter = DBusWriter()
            for value in body { try bodyWriter.write(value) }
            var fields: [DBusValue] = []
            func field(_ code: UInt8, _ value: DBusValue?) {
                if let value { fields.append(.structure([.byte(code), .variant(value)])) }
            }
            field(1, path.map(DBusValue.objectPath))
            field(2, interface.map(DBusValue.string))
            field(3, member.map(DBusValue.string))
            field(4, errorName.map(DBusValue.string))
            field(5, replySerial.map(DBusValue.uint32))
            field(6, destination.map(DBusValue.string))
            if !body.isEmpty { field(8, .signature(body.map(\.signature).joined())) }
            var header = DBusWriter()
            for byte in [UInt8(ascii: "l"), kind.rawValue, 0, 1] { try header.write(.byte(byte)) }
            guard let bodyLength = UInt32(exactly: bodyWriter.bytes.count) else {
                throw DBusFormatError("a body larger than D-Bus carries")
            }
            header.write(bodyLength)
            header.write(serial)
            try header.write(.array(elementSignature: "(yv)", fields))
            header.pad(to: 8)
            return header.bytes + bodyWriter.bytes
        }

        /// The length of the message whose first 16 bytes are `start`, or an error for a header
        /// that is not D-Bus's or a message longer than `limit` (by default what the specification
        /// allows, 128 MiB).
        package static func length(ofMessageStartingWith start: [UInt8], limit: Int = 1 << 27) throws -> Int {
            guard start.count >= 16, start[0] == UInt8(ascii: "l") || start[0] == UInt8(ascii: "B"), start[3] == 1 else {
                throw DBusFormatError("bytes that do not start a D-Bus message")
            }
            var reader = DBusReader(Array(start.prefix(16)), littleEndian: start[0] == UInt8(ascii: "l"), offset: 4)
            let body = Int(try reader.uint32())
            _ = try reader.uint32()
            let fields = Int(try reader.uint32())
            let length = 16 + (fields + 7) / 8 * 8 + body
            guard length <= limit else { throw DBusFormatError("a message of \(length) bytes, more than \(limit >> 20) MiB") }
            return length
        }

        /// Decodes one whole message; its body only if `decodesBody` (else ``decodeBody()`` does,
        /// for a message someone waits for: one nobody wants is never expanded).
        package init(decoding bytes: [UInt8], decodesBody: Bool = true) throws {
            let total = try Self.length(ofMessageStartingWith: bytes)
            guard bytes.count == total else { throw DBusFormatError("a message of \(bytes.count) bytes where its header says \(total)") }
            let littleEndian = bytes[0] == UInt8(ascii: "l")
            guard let kind = Kind(rawValue: bytes[1]) else { throw DBusFormatError("the message type \(bytes[1])") }
            self.kind = kind
            var reader = DBusReader(bytes, littleEndian: littleEndian, offset: 8)
            serial = try reader.uint32()
            guard case .array(_, let fields) = try reader.read(.array(.structure([.basic("y"), .variant]))) else {
                throw DBusFormatError("a header without fields")
            }
            var signature = ""
            for case .structure(let pair) in fields {
                guard pair.count == 2, case .byte(let code) = pair[0], case .variant(let value) = pair[1] else { continue }
                switch (code, value) {
                case (1, .objectPath(let text)): path = text
                case (2, .string(let text)): interface = text
                case (3, .string(let text)): member = text
                case (4, .string(let text)): errorName = text
                case (5, .uint32(let number)): replySerial = number
                case (6, .string(let text)): destination = text
                case (8, .signature(let text)): signature = text
                default: break
                }
            }
            try reader.align(to: 8)
            undecoded = (signature, Array(bytes[reader.offset...]), littleEndian)
            if decodesBody { try decodeBody() }
        }

        /// Decodes the body left undecoded by ``init(decoding:decodesBody:)``.
        package mutating func decodeBody() throws {
            guard let (signature, bytes, littleEndian) = undecoded else { return }
            undecoded = nil
            // The body's offsets count from its own start, which is on an 8-byte boundary.
            var bodyReader = DBusReader(bytes, littleEndian: littleEndian)
            body = try DBusType.parse(signature).map { try bodyReader.read($0) }
            guard bodyReader.atEnd else { throw DBusFormatError("a body longer than its signature") }
        }

        init(
            kind: Kind, serial: UInt32, path: String? = nil, interface: String? = nil, member: String? = nil, destination: String? = nil,
            body: [DBusValue] = []
        ) {
            self.kind = kind
            self.serial = serial
            self.path = path
            self.interface = interface
            self.member = member
            self.destination = destination
            self.body = body
        }
    }
#endif
