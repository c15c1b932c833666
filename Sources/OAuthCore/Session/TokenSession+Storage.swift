import Foundation

// The storage's part of ``TokenSession``: reads and writes of the one stored record, the refused
// tokens kept in memory, and the lock under which a change is made.
extension TokenSession {
    /// The session as stored, first writing tokens the storage refused earlier.
    func current() async throws -> AuthState? {
        if state.unsaved != nil { _ = try? await whileChanging { try storedWhileChanging() } }
        if let pending = state.unsaved { return pending }
        return try readStored()
    }

    /// The stored session, read while changing; tokens the storage refused earlier are
    /// written first (unless the storage moved on meanwhile) and win when it refuses again.
    func storedWhileChanging() throws -> AuthState? {
        let stored = try readStored()
        switch state.pending(stored: stored) {
        case .none:
            return stored
        case .dropped:
            HaapiLogger.warning(OIDCFollowUpTag.session, "the session changed in storage; the tokens it could not take earlier are dropped")
            return stored
        case .write(let pending):
            do {
                try write(pending)
            } catch {
                HaapiLogger.error(OIDCFollowUpTag.session, "the storage still refuses the refreshed tokens: \(error)")
            }
            return pending
        }
    }

    /// The stored session, decoded unless it is the value last read or written. Tokens the
    /// storage refused earlier stay known.
    func readStored() throws -> AuthState? {
        try state.read(try storage.read(key: storageKey))
    }

    func write(_ session: AuthState) throws {
        let data = try session.storedData()
        try storage.write(key: storageKey, data: data)
        state.wrote(data, as: session)
    }

    /// Writes refreshed tokens; when the storage refuses, keeps them in memory to use and to
    /// write at the next call, since the refresh token they replace may be spent already.
    func keep(_ session: AuthState, replacing previous: AuthState) {
        do {
            try write(session)
        } catch {
            HaapiLogger.error(
                OIDCFollowUpTag.session, "the refreshed tokens could not be stored (\(error)); kept in memory, stored at the next call")
            state.refused(session, replacing: previous)
        }
    }

    func delete() throws {
        try storage.delete(key: storageKey)
        state.deleted()
    }

    func dpop(for session: AuthState?) throws -> Dpop? {
        guard let key = session?.dpopKey else { return nil }
        if let holder, holder.key == key { return holder.dpop }
        let dpop = try Dpop(privateJWK: key)
        holder = (key, dpop)
        return dpop
    }

    /// Runs `body` as the only change of the session in this process and, with a ``lock``,
    /// among all the processes sharing the storage.
    func whileChanging<T>(_ body: () async throws -> T) async throws -> T {
        try await changes.run {
            guard let lock else { return try await body() }
            let key = storageKey
            return try await lock.withLock(
                timeout: options.lockTimeout,
                whileWaiting: { holder in
                    HaapiLogger.debug(
                        OIDCFollowUpTag.session,
                        "waiting for the lock of \"\(key)\", held by \(holder.map { "\($0)" } ?? "another process")")
                }, body)
        }
    }
}
