import Foundation

/// What a ``TokenSession`` knows of its stored tokens, and what each event makes of it: the
/// session's decisions as a value. Each transition takes what happened (a read, a write the
/// storage took or refused, a refresh's answer, a revocation) and returns what the session
/// must do next; the session does the work (storage, the lock, the token endpoint) and never
/// changes this state but through these transitions, so tests drive every decision without a
/// provider or a storage.
struct TokenSessionState {
    /// What the process knows of the stored session.
    enum Known: Equatable {
        /// Nothing read yet, or nothing stored.
        case nothing
        /// The value last read or written, so that an unchanged value is not decoded again.
        case stored(data: Data, state: AuthState)
        /// Tokens the storage refused after a refresh, in use until it takes them at a later call,
        /// and the stored state they replace (the refresh token in it may be spent already).
        case unsaved(AuthState, replacing: AuthState?)
    }

    /// What the process knows of the stored session.
    private(set) var known = Known.nothing
    /// The last refresh that rotated a refresh token a caller presented: the token it spent, and
    /// what it gave (``answerForLatePresenter(of:now:)``).
    private(set) var lastRotation: (spent: String, tokens: TokenSuccessResponse)?

    // MARK: Storage

    /// Tokens the storage refused, which stand for the session until it takes them.
    var unsaved: AuthState? {
        if case .unsaved(let pending, _) = known { pending } else { nil }
    }

    /// Reads what the storage holds (`data`): the state last seen when the bytes are the same,
    /// else decoded. Tokens the storage refused earlier stay known.
    /// - Throws: what ``AuthState/init(storedData:)`` throws for bytes that are not a session.
    mutating func read(_ data: Data?) throws -> AuthState? {
        if case .stored(let last, let state) = known, last == data { return state }
        let state = try data.map(AuthState.init(storedData:))
        if case .unsaved = known { return state }
        known = data.flatMap { data in state.map { .stored(data: data, state: $0) } } ?? .nothing
        return state
    }

    /// The storage took `state`, as `data`.
    mutating func wrote(_ data: Data, as state: AuthState) { known = .stored(data: data, state: state) }

    /// The storage refused refreshed tokens: they stand for the session, and replace what was
    /// stored before the first refusal (a later refresh of unsaved tokens replaces the same).
    mutating func refused(_ state: AuthState, replacing previous: AuthState) {
        if case .unsaved(_, let replacing) = known {
            known = .unsaved(state, replacing: replacing)
        } else {
            known = .unsaved(state, replacing: previous)
        }
    }

    /// The session was removed from the storage: nothing is known, and no answer is kept for
    /// late presenters.
    mutating func deleted() {
        known = .nothing
        lastRotation = nil
    }

    /// The app replaces the session: tokens the storage refused earlier are dropped with it.
    mutating func replacing() { known = .nothing }

    /// What to do with tokens the storage refused earlier, now that it holds `stored`.
    enum PendingAction: Equatable {
        /// None are waiting: the stored session is the session.
        case none
        /// The storage moved on meanwhile (another process wrote or removed the session): they
        /// are dropped, and the stored session is the session.
        case dropped
        /// Write them (again); they are the session whether or not the storage takes them now.
        case write(AuthState)
    }

    /// What to do with refused tokens, once the storage was read while changing (`stored`).
    mutating func pending(stored: AuthState?) -> PendingAction {
        guard case .unsaved(let pending, let replacing) = known else { return .none }
        guard stored == replacing else {
            known = .nothing
            return .dropped
        }
        return .write(pending)
    }

    // MARK: Refresh

    /// What a refresh that began from `seen` does, given the session stored now.
    enum RefreshDecision: Equatable {
        /// The session ended while the caller waited (a logout, a refused refresh token).
        case ended
        /// Another caller or process replaced the tokens meanwhile: take them.
        case take(AuthState)
        /// The session has no refresh token: only a new login helps.
        case noRefreshToken
        /// Renew the stored session with its refresh token.
        case renew(AuthState, refreshToken: String)
    }

    /// The refresh of a caller who saw `seen`, now that the storage holds `stored`.
    static func refresh(from seen: AuthState, stored: AuthState?) -> RefreshDecision {
        guard let stored else { return .ended }
        if stored.accessToken != seen.accessToken || stored.refreshToken != seen.refreshToken { return .take(stored) }
        guard let refreshToken = stored.refreshToken else { return .noRefreshToken }
        return .renew(stored, refreshToken: refreshToken)
    }

    /// The answer for a caller who presents `refreshToken` after the refresh that rotated it:
    /// that refresh's, while its access token is unexpired, so the spent token is not sent
    /// again (a server may take a reused refresh token for a stolen one, RFC 9700 §4.14.2).
    func answerForLatePresenter(of refreshToken: String, now: Date) -> TokenSuccessResponse? {
        guard let last = lastRotation, last.spent == refreshToken, (last.tokens.expiresAt ?? .distantFuture) > now else { return nil }
        return last.tokens
    }

    /// A presented refresh token was refreshed: when the provider rotated it, its answer is
    /// kept for late presenters.
    mutating func refreshed(presenting refreshToken: String, answer tokens: TokenSuccessResponse) {
        if let next = tokens.refreshToken, next != refreshToken { lastRotation = (refreshToken, tokens) }
    }

    /// A token was revoked: no answer is kept for late presenters any more.
    mutating func revoked() { lastRotation = nil }

    /// What a validated ID token from a refresh makes of the session that was `stored`.
    enum RefreshedIDToken: Equatable {
        /// It is the session's user (or the session had none): keep it, with this subject.
        case adopt(subject: String?)
        /// It names another user (OpenID Connect Core §12.2): the session ends.
        case anotherUser
    }

    /// Whether a refreshed ID token about `subject` may join the session that was `stored`.
    static func refreshedIDToken(about subject: String?, stored: AuthState) -> RefreshedIDToken {
        guard stored.subject == nil || subject == stored.subject else { return .anotherUser }
        return .adopt(subject: stored.subject ?? subject)
    }

    // MARK: Revocation

    /// What revoking `revoked`, one of the session's tokens, does to the session `stored`.
    enum Forgetting: Equatable {
        /// It was neither of the session's tokens.
        case unchanged
        /// Nothing usable is left: the session is removed.
        case delete
        /// The session goes on without it (a refresh token dropped, an access token expired).
        case write(AuthState)
    }

    /// Forgets a revoked token of the session: a refresh token is dropped, an access token
    /// counts as expired (`now`); a session left with neither usable is removed.
    static func forgetting(_ revoked: String, from stored: AuthState, now: Date) -> Forgetting {
        var next = stored
        if next.refreshToken == revoked { next.refreshToken = nil }
        if next.accessToken == revoked { next.accessTokenExpiresAt = now }
        guard next != stored else { return .unchanged }
        return next.usability() == .loginNeeded ? .delete : .write(next)
    }
}
