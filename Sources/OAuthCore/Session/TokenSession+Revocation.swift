import Foundation

extension TokenSession {
    /// Revokes tokens at the provider (RFC 7009) and forgets what was revoked.
    ///
    /// ``Revocation/all`` removes the session first, so the user is logged out here even when
    /// the provider cannot be reached or refuses; the failure is still thrown. The narrower
    /// revocations change the session only after the provider accepted.
    /// - Returns: what was revoked, in order.
    /// - Throws: ``OIDCError`` [`OIDCError.Code.notSupported`](doc:ErrorCode/notSupported) (no revocation endpoint),
    ///   [`OIDCError.Code.loginRequired`](doc:ErrorCode/loginRequired) (nothing to revoke, for the narrower revocations);
    ///   ``OAuthErrorResponse``, ``UnexpectedResponseError`` or ``TokenEndpointError`` when the provider refuses; ``HTTPTransportError``.
    @discardableResult
    public func revoke(_ which: Revocation = .all) async throws -> [TokenRevocationClient.TokenTypeHint] {
        state.revoked()
        if which == .all {
            let removed = try await whileChanging { () throws -> AuthState? in
                let stored = try storedWhileChanging()
                try delete()
                return stored
            }
            guard let removed else { return [] }
            let client = try await revocationClient()
            var revoked: [TokenRevocationClient.TokenTypeHint] = []
            // The refresh token first: revoking it usually revokes the access tokens issued with it (RFC 7009 §2.1).
            if let refreshToken = removed.refreshToken {
                try await client.revoke(refreshToken, hint: .refreshToken)
                revoked.append(.refreshToken)
            }
            try await client.revoke(removed.accessToken, hint: .accessToken)
            return revoked + [.accessToken]
        }
        return try await whileChanging {
            guard let stored = try storedWhileChanging() else { throw Self.noSession }
            let client = try await revocationClient()
            let hint: TokenRevocationClient.TokenTypeHint = which == .refreshToken ? .refreshToken : .accessToken
            guard let token = hint == .refreshToken ? stored.refreshToken : stored.accessToken else { return [] }
            try await client.revoke(token, hint: hint)
            try forget(token, from: stored)
            return [hint]
        }
    }

    /// Revokes a token the caller holds (RFC 7009), which may or may not be the session's
    /// (HaapiSDK's `OAuthTokenManager` revokes with it), and forgets it when it is the
    /// session's: its refresh token ends the session, with the key (the provider should revoke
    /// the access tokens of its grant too, RFC 7009 §2.1); its access token counts as expired.
    /// The answer kept for late presenters of a rotated refresh token is forgotten too.
    /// - Throws: the errors of ``revoke(_:)``.
    public func revoke(presenting token: String, hint: TokenRevocationClient.TokenTypeHint) async throws {
        state.revoked()
        try await revocationClient().revoke(token, hint: hint)
        try await whileChanging {
            guard let stored = try storedWhileChanging() else { return }
            if stored.refreshToken == token { try delete() } else { try forget(token, from: stored) }
        }
    }

    /// Forgets a revoked token of the session (``TokenSessionState/forgetting(_:from:now:)``).
    /// Called while changing.
    private func forget(_ revoked: String, from stored: AuthState) throws {
        switch TokenSessionState.forgetting(revoked, from: stored, now: Date()) {
        case .unchanged: return
        case .delete: try delete()
        case .write(let next): try write(next)
        }
    }

    private func revocationClient() async throws -> TokenRevocationClient {
        let metadata = try await provider.metadata()
        guard let endpoint = metadata.revocationEndpoint else {
            throw OIDCError(.notSupported, "the provider publishes no revocation_endpoint")
        }
        return TokenRevocationClient(
            endpoint: endpoint, clientAuthentication: try await clientAuthentication(), transport: provider.transport,
            tokenEndpoint: metadata.tokenEndpoint, issuer: assertionIssuer(metadata))
    }
}
