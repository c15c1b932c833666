import Foundation

extension TokenSession {
    /// The user's claims from the UserInfo endpoint, sent with the access token (refreshed
    /// once on a 401). Its `sub` must be the session's user (OpenID Connect Core §5.3.2).
    /// - Throws: ``OIDCError`` [`OIDCError.Code.userInfoSubjectMismatch`](doc:ErrorCode/userInfoSubjectMismatch), [`OIDCError.Code.userInfoFailed`](doc:ErrorCode/userInfoFailed)
    ///   (any answer but 200, with the status's recovery; or a body that is not a JSON object),
    ///   [`OIDCError.Code.notSupported`](doc:ErrorCode/notSupported), [`OIDCError.Code.loginRequired`](doc:ErrorCode/loginRequired); the errors of ``refresh()``;
    ///   ``HTTPTransportError`` and ``DPoPError`` from the request.
    public func userInfo() async throws -> UserInfo {
        guard let endpoint = try await provider.metadata().userInfoEndpoint else {
            throw OIDCError(.notSupported, "the provider publishes no userinfo_endpoint")
        }
        let response = try await AuthorizedHTTPClient(session: self)
            .send(TransportRequest(url: endpoint, headers: ["Accept": "application/json"]))
        guard response.status == 200 else {
            throw OIDCError(
                .userInfoFailed, "the UserInfo endpoint answered HTTP \(response.status)",
                cause: UnexpectedResponseError(response, from: "the UserInfo endpoint", expected: "claims"))
        }
        guard let claims = (try? JSONValue(parsing: response.body))?.objectValue else {
            throw OIDCError(.userInfoFailed, "the UserInfo response is not a JSON object (signed or encrypted UserInfo is not supported)")
        }
        guard let subject = claims["sub"]?.stringValue else {
            throw OIDCError(.userInfoSubjectMismatch, "the UserInfo response has no sub")
        }
        guard let expected = try await current()?.subject, subject == expected else {
            throw OIDCError(.userInfoSubjectMismatch, "the UserInfo response is about \"\(subject)\", not the logged-in user")
        }
        return UserInfo(subject: subject, claims: claims)
    }
}
