import Foundation
import NIOCore
import SQLiteNIO

/// The development server's state, in SQLite: one table of JSON records by kind and id, each
/// with an optional expiry. Users, clients, flow sessions, codes, tokens, keys, DCR clients and
/// replay caches all live here, so a restart loses nothing.
public actor RecordStore {
    private let connection: SQLiteConnection

    private init(connection: SQLiteConnection) { self.connection = connection }

    /// Opens (creating) a database file, or an in-memory database when `path` is `nil`.
    /// The file holds the signing key, client secrets and password hashes: it is created `0600`
    /// (SQLite gives its `-wal` and `-shm` files the same mode), and a looser one is tightened.
    public static func open(path: String?) async throws -> RecordStore {
        if let path {
            if !FileManager.default.fileExists(atPath: path) {
                guard FileManager.default.createFile(atPath: path, contents: nil, attributes: [.posixPermissions: 0o600]) else {
                    throw CocoaError(.fileWriteNoPermission, userInfo: [NSFilePathErrorKey: path])
                }
            }
            for file in [path, path + "-wal", path + "-shm"] where FileManager.default.fileExists(atPath: file) {
                try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: file)
            }
        }
        let connection = try await SQLiteConnection.open(storage: path.map { .file(path: $0) } ?? .memory)
        // WAL: readers never block the writer, and a crash leaves the last committed state.
        _ = try await connection.query("PRAGMA journal_mode=WAL")
        _ = try await connection.query("PRAGMA synchronous=NORMAL")
        _ = try await connection.query(
            "CREATE TABLE IF NOT EXISTS records (kind TEXT NOT NULL, id TEXT NOT NULL, data BLOB NOT NULL, expires REAL, PRIMARY KEY (kind, id))"
        )
        return RecordStore(connection: connection)
    }

    /// Closes the database, even from a cancelled task: the async `close()` of SQLiteNIO drops
    /// its work when the task is cancelled (a server stopped by SIGTERM), and a connection
    /// released unclosed traps in debug builds. The future-based close always runs.
    public func close() async throws { try await connection.close().get() }

    /// Stores `value` under (`kind`, `id`), replacing what was there.
    public func put<Value: Encodable>(_ value: Value, kind: String, id: String, expiresAt: Date? = nil) async throws {
        _ = try await connection.query(
            "INSERT INTO records (kind, id, data, expires) VALUES (?, ?, ?, ?) ON CONFLICT (kind, id) DO UPDATE SET data = excluded.data, expires = excluded.expires",
            [.text(kind), .text(id), .blob(ByteBuffer(bytes: try Self.encoder.encode(value))), Self.expiry(expiresAt)])
    }

    /// The unexpired record (`kind`, `id`).
    public func get<Value: Decodable>(_ type: Value.Type, kind: String, id: String) async throws -> Value? {
        let rows = try await connection.query(
            "SELECT data FROM records WHERE kind = ? AND id = ? AND (expires IS NULL OR expires > ?)",
            [.text(kind), .text(id), .float(Date().timeIntervalSince1970)])
        return try rows.first.flatMap { try Self.decode(type, $0) }
    }

    /// Removes and returns the unexpired record (`kind`, `id`) in one statement: a second
    /// `take` of the same record finds nothing (single-use codes, challenges).
    public func take<Value: Decodable>(_ type: Value.Type, kind: String, id: String) async throws -> Value? {
        let rows = try await connection.query(
            "DELETE FROM records WHERE kind = ? AND id = ? AND (expires IS NULL OR expires > ?) RETURNING data",
            [.text(kind), .text(id), .float(Date().timeIntervalSince1970)])
        return try rows.first.flatMap { try Self.decode(type, $0) }
    }

    /// Records (`kind`, `id`) if it is not there yet; `false` when it was (replay detection).
    public func insertIfAbsent(kind: String, id: String, expiresAt: Date?) async throws -> Bool {
        try await insertIfAbsent([String: String](), kind: kind, id: id, expiresAt: expiresAt)
    }

    /// Stores `value` under (`kind`, `id`) if nothing unexpired is there yet, in one statement;
    /// `false` when something was (of two creations of one name at once, one wins).
    public func insertIfAbsent<Value: Encodable>(_ value: Value, kind: String, id: String, expiresAt: Date? = nil) async throws -> Bool {
        _ = try await connection.query(
            "DELETE FROM records WHERE kind = ? AND id = ? AND expires IS NOT NULL AND expires <= ?",
            [.text(kind), .text(id), .float(Date().timeIntervalSince1970)])
        let rows = try await connection.query(
            "INSERT INTO records (kind, id, data, expires) VALUES (?, ?, ?, ?) ON CONFLICT (kind, id) DO NOTHING RETURNING id",
            [.text(kind), .text(id), .blob(ByteBuffer(bytes: try Self.encoder.encode(value))), Self.expiry(expiresAt)])
        return !rows.isEmpty
    }

    /// How a counter's expiry moves when it is counted again.
    public enum CounterWindow: Sendable {
        /// Each count sets the expiry again: the counter lasts until a quiet period has passed
        /// since the last count (a lockout that ends some time after the last attempt).
        case sliding
        /// The expiry is set by the first count only: the counter covers a fixed window, and
        /// counting more in it cannot keep it alive (a rate limit nobody can extend forever).
        case fixed
    }

    /// Adds one to the counter (`kind`, `id`) and returns the new count, in one statement (an
    /// expired counter starts again at 1): concurrent callers each get a different count.
    public func increment(kind: String, id: String, expiresAt: Date?, window: CounterWindow = .sliding) async throws -> Int {
        let now = SQLiteData.float(Date().timeIntervalSince1970)
        let expires =
            switch window {
            case .sliding: "excluded.expires"
            case .fixed: "CASE WHEN records.expires IS NOT NULL AND records.expires <= ? THEN excluded.expires ELSE records.expires END"
            }
        let rows = try await connection.query(
            """
            INSERT INTO records (kind, id, data, expires) VALUES (?, ?, CAST('1' AS BLOB), ?)
            ON CONFLICT (kind, id) DO UPDATE SET
              data = CASE WHEN records.expires IS NOT NULL AND records.expires <= ? THEN CAST('1' AS BLOB)
                     ELSE CAST(CAST(CAST(records.data AS TEXT) AS INTEGER) + 1 AS BLOB) END,
              expires = \(expires)
            RETURNING data
            """,
            [.text(kind), .text(id), Self.expiry(expiresAt), now] + (window == .fixed ? [now] : []))
        return try rows.first.flatMap { try Self.decode(Int.self, $0) } ?? 1
    }

    /// Changes the unexpired record (`kind`, `id`) atomically: `change` edits what is stored, and
    /// the result replaces it only if nobody wrote the record in between (else `change` runs
    /// again on the newer value), so a read-modify-write never erases another writer's change.
    /// The record's expiry is kept.
    /// - Parameters:
    ///   - type: the type the record's value is stored as.
    ///   - kind: the record's kind (`user`, `client`, `signing-key`, ...).
    ///   - id: the record's id within its kind.
    ///   - change: edits the value; `false` leaves the record as it is.
    /// - Returns: the value before and after the change; `nil` when there is no such record or
    ///   `change` declined.
    public func update<Value: Codable>(
        _ type: Value.Type, kind: String, id: String, _ change: (inout Value) throws -> Bool
    ) async throws -> (before: Value, after: Value)? {
        while true {
            let rows = try await connection.query(
                "SELECT data FROM records WHERE kind = ? AND id = ? AND (expires IS NULL OR expires > ?)",
                [.text(kind), .text(id), .float(Date().timeIntervalSince1970)])
            guard let row = rows.first, let stored = row.column("data"), let before = try Self.decode(type, row) else { return nil }
            var after = before
            guard try change(&after) else { return nil }
            // Compare-and-swap on the stored bytes: one statement, so no other write falls between.
            let updated = try await connection.query(
                "UPDATE records SET data = ? WHERE kind = ? AND id = ? AND data = ? RETURNING id",
                [.blob(ByteBuffer(bytes: try Self.encoder.encode(after))), .text(kind), .text(id), stored])
            if !updated.isEmpty { return (before, after) }
        }
    }

    /// Removes (`kind`, `id`).
    public func delete(kind: String, id: String) async throws {
        _ = try await connection.query("DELETE FROM records WHERE kind = ? AND id = ?", [.text(kind), .text(id)])
    }

    /// Every unexpired record of `kind`, by id.
    public func all<Value: Decodable>(_ type: Value.Type, kind: String) async throws -> [(id: String, value: Value)] {
        let rows = try await connection.query(
            "SELECT id, data FROM records WHERE kind = ? AND (expires IS NULL OR expires > ?) ORDER BY id",
            [.text(kind), .float(Date().timeIntervalSince1970)])
        return try rows.compactMap { row in
            guard let id = row.column("id")?.string, let value = try Self.decode(type, row) else { return nil }
            return (id, value)
        }
    }

    /// How many unexpired records of `kind` there are whose JSON value has `value` at `path`
    /// (`$` for a record that is a string, `$.clientId` for a member).
    public func count(kind: String, where path: String, equals value: String) async throws -> Int {
        let rows = try await connection.query(
            "SELECT COUNT(*) AS n FROM records WHERE kind = ? AND (expires IS NULL OR expires > ?) AND json_extract(CAST(data AS TEXT), ?) = ?",
            [.text(kind), .float(Date().timeIntervalSince1970), .text(path), .text(value)])
        return rows.first?.column("n")?.integer ?? 0
    }

    /// How many records of `kind` are stored, expired ones included.
    public func storedCount(kind: String) async throws -> Int {
        let rows = try await connection.query("SELECT COUNT(*) AS n FROM records WHERE kind = ?", [.text(kind)])
        return rows.first?.column("n")?.integer ?? 0
    }

    /// Deletes expired records.
    public func purgeExpired() async throws {
        _ = try await connection.query(
            "DELETE FROM records WHERE expires IS NOT NULL AND expires <= ?", [.float(Date().timeIntervalSince1970)])
    }

    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .secondsSince1970
        return encoder
    }()

    private static func expiry(_ date: Date?) -> SQLiteData { date.map { .float($0.timeIntervalSince1970) } ?? .null }

    private static func decode<Value: Decodable>(_ type: Value.Type, _ row: SQLiteRow) throws -> Value? {
        guard var buffer = row.column("data")?.blob, let bytes = buffer.readBytes(length: buffer.readableBytes) else { return nil }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        return try decoder.decode(type, from: Data(bytes))
    }
}
