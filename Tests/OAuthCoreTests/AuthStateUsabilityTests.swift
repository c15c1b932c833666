import Foundation
import OAuthCore
import Testing

/// ``AuthState/usability(at:)``: the one rule for "is someone logged in".
@Suite struct AuthStateUsabilityTests {
    private static func state(expiresAt: Date?, refreshToken: String?) -> AuthState {
        AuthState(
            issuer: "https://op.example", clientID: "app", accessToken: "at", tokenType: "Bearer", accessTokenExpiresAt: expiresAt,
            refreshToken: refreshToken)
    }

    @Test func aValidTokenIsUsableAnExpiredOneNeedsItsRefreshTokenOrALogin() {
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        #expect(Self.state(expiresAt: now.addingTimeInterval(60), refreshToken: nil).usability(at: now) == .usable)
        #expect(Self.state(expiresAt: now.addingTimeInterval(-1), refreshToken: "rt").usability(at: now) == .refreshable)
        #expect(Self.state(expiresAt: now.addingTimeInterval(-1), refreshToken: nil).usability(at: now) == .loginNeeded)
        // The moment of expiry is expired: valid means time left.
        #expect(Self.state(expiresAt: now, refreshToken: nil).usability(at: now) == .loginNeeded)
        // No known expiry: assumed valid (the API's 401 tells otherwise).
        #expect(Self.state(expiresAt: nil, refreshToken: nil).usability(at: now) == .usable)
    }
}
