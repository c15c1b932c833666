import Foundation
import Testing

@testable import OAuthCore

/// ``TokenSessionState``: a ``TokenSession``'s decisions, driven event by event without a
/// provider or a storage (the session's behaviour with both is TokenSessionTests' and
/// TokenSessionAcrossProcessesTests').
@Suite("TokenSession's decisions")
struct TokenSessionStateTests {
    static func session(access: String = "a1", refresh: String? = "r1", subject: String? = "alice", expires: Date? = nil) -> AuthState {
        AuthState(
            issuer: "https://op.example", clientID: "app", accessToken: access, tokenType: "Bearer",
            accessTokenExpiresAt: expires ?? Date().addingTimeInterval(600), refreshToken: refresh, subject: subject)
    }

    static func answer(access: String, refresh: String?, expiresIn: Int = 600) throws -> TokenSuccessResponse {
        var members: [String: JSONValue] = ["access_token": .string(access), "token_type": "Bearer", "expires_in": .integer(expiresIn)]
        if let refresh { members["refresh_token"] = .string(refresh) }
        return try TokenSuccessResponse(members: members)
    }

    @Test func anUnchangedValueIsNotDecodedAgainAndAnotherIs() throws {
        var state = TokenSessionState()
        let first = Self.session()
        let data = try first.storedData()
        #expect(try state.read(data) == first)
        #expect(state.known == .stored(data: data, state: first))
        let second = Self.session(access: "a2")
        #expect(try state.read(try second.storedData()) == second)
        #expect(try state.read(nil) == nil)
        #expect(state.known == .nothing)
        #expect(throws: (any Error).self) { try state.read(Data("not a session".utf8)) }
    }

    /// The decisions of a refresh that began from what a caller saw.
    @Test func aRefreshRenewsOnlyWhatTheCallerSaw() {
        let seen = Self.session()
        #expect(TokenSessionState.refresh(from: seen, stored: nil) == .ended)
        #expect(TokenSessionState.refresh(from: seen, stored: seen) == .renew(seen, refreshToken: "r1"))
        // Another caller or process refreshed meanwhile: its tokens, not a second refresh.
        let replaced = Self.session(access: "a2", refresh: "r2")
        #expect(TokenSessionState.refresh(from: seen, stored: replaced) == .take(replaced))
        let rotatedOnly = Self.session(refresh: "r2")
        #expect(TokenSessionState.refresh(from: seen, stored: rotatedOnly) == .take(rotatedOnly))
        let withoutRefresh = Self.session(refresh: nil)
        #expect(TokenSessionState.refresh(from: withoutRefresh, stored: withoutRefresh) == .noRefreshToken)
    }

    /// Refused tokens stand for the session until the storage takes them, unless the storage
    /// moved on: then they are dropped.
    @Test func refusedTokensAreUsedWrittenLaterOrDroppedWhenTheStorageMovedOn() throws {
        var state = TokenSessionState()
        let stored = Self.session()
        _ = try state.read(try stored.storedData())
        let refreshed = Self.session(access: "a2", refresh: "r2")
        state.refused(refreshed, replacing: stored)
        #expect(state.unsaved == refreshed)
        // A refresh of the unsaved tokens, refused again, still replaces what was stored first.
        let again = Self.session(access: "a3", refresh: "r3")
        state.refused(again, replacing: refreshed)
        #expect(state.known == .unsaved(again, replacing: stored))
        // Reading the storage leaves them known.
        #expect(try state.read(try stored.storedData()) == stored)
        #expect(state.unsaved == again)
        #expect(state.pending(stored: stored) == .write(again))
        // Another process wrote meanwhile: they are dropped, and the storage's session counts.
        #expect(state.pending(stored: Self.session(access: "other")) == .dropped)
        #expect(state.unsaved == nil)
        #expect(state.pending(stored: stored) == .none)
    }

    /// A late presenter of a rotated refresh token gets that refresh's answer while it lasts;
    /// a revocation or the end of the session forgets it.
    @Test func aRotatedRefreshTokenIsAnsweredOnceItWasSpent() throws {
        var state = TokenSessionState()
        let rotated = try Self.answer(access: "a2", refresh: "r2")
        state.refreshed(presenting: "r1", answer: rotated)
        #expect(state.answerForLatePresenter(of: "r1", now: Date()) == rotated)
        #expect(state.answerForLatePresenter(of: "r2", now: Date()) == nil)
        #expect(state.answerForLatePresenter(of: "r1", now: Date().addingTimeInterval(3600)) == nil, "its access token expired")
        state.revoked()
        #expect(state.answerForLatePresenter(of: "r1", now: Date()) == nil)
        // A refresh that did not rotate keeps nothing; a deletion forgets.
        state.refreshed(presenting: "r1", answer: try Self.answer(access: "a3", refresh: "r1"))
        #expect(state.lastRotation == nil)
        state.refreshed(presenting: "r1", answer: rotated)
        state.deleted()
        #expect(state.lastRotation == nil && state.known == .nothing)
    }

    @Test func aRefreshedIDTokenJoinsOnlyTheSameUser() {
        #expect(TokenSessionState.refreshedIDToken(about: "alice", stored: Self.session()) == .adopt(subject: "alice"))
        #expect(TokenSessionState.refreshedIDToken(about: "mallory", stored: Self.session()) == .anotherUser)
        #expect(TokenSessionState.refreshedIDToken(about: "bob", stored: Self.session(subject: nil)) == .adopt(subject: "bob"))
    }

    @Test func aRevokedTokenIsForgottenAndASessionLeftWithNothingUsableEnds() {
        let now = Date()
        let stored = Self.session()
        #expect(TokenSessionState.forgetting("other", from: stored, now: now) == .unchanged)
        var withoutRefresh = stored
        withoutRefresh.refreshToken = nil
        #expect(TokenSessionState.forgetting("r1", from: stored, now: now) == .write(withoutRefresh))
        var expired = stored
        expired.accessTokenExpiresAt = now
        #expect(TokenSessionState.forgetting("a1", from: stored, now: now) == .write(expired))
        // An access token revoked when no refresh token is left: nothing usable remains.
        #expect(TokenSessionState.forgetting("a1", from: withoutRefresh, now: now) == .delete)
    }
}
