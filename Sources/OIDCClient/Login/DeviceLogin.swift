import Foundation
import OAuthCore

/// A device login under way (RFC 8628): the code and address to show the user, and what the
/// client polls with. For machines without a browser (SSH sessions, TVs): the user opens the
/// address on another device, enters the code there and approves.
public struct DeviceAuthorization: Sendable {
    /// The code the user enters (`user_code`).
    public let userCode: String
    /// Where the user enters it (`verification_uri`).
    public let verificationURI: URL
    /// The same address with the code in it, when the provider gives one (`verification_uri_complete`): for a QR code or a link.
    public let verificationURIComplete: URL?
    /// When the codes expire.
    public let expiresAt: Date
    /// How long to wait between polls now (`interval`, default 5 s; `slow_down` adds 5 s).
    public internal(set) var interval: TimeInterval
    /// The code the client polls with (`device_code`): a secret, never shown.
    let deviceCode: String
    /// The key the tokens will be bound to (a new one per login), when DPoP is used.
    let dpop: Dpop?

    /// Reads a device authorization response (RFC 8628 §3.2).
    /// - Throws: ``/OAuthCore/OIDCError`` `OIDCError.Code.deviceAuthorizationFailed` when a member is
    ///   missing or out of range (an `expires_in` over ``longestLifetime``, an `interval` longer than it).
    package init(json: Data, now: Date, dpop: Dpop?) throws {
        guard let document = try? JSONValue(parsing: json), document.objectValue != nil else {
            throw OIDCError(.deviceAuthorizationFailed, "the device authorization response is not a JSON object")
        }
        guard let deviceCode = document["device_code"]?.stringValue, !deviceCode.isEmpty,
            let userCode = document["user_code"]?.stringValue, !userCode.isEmpty,
            let uri = (document["verification_uri"] ?? document["verification_url"])?.stringValue, let verification = URL(string: uri),
            verification.scheme != nil, let expiresIn = document["expires_in"]?.doubleValue, expiresIn > 0
        else {
            throw OIDCError(
                .deviceAuthorizationFailed, "the device authorization response lacks device_code, user_code, verification_uri or expires_in"
            )
        }
        // A provider's numbers become a date, minutes on a screen and waits: out of range they would trap.
        guard expiresIn <= Self.longestLifetime else {
            throw OIDCError(
                .deviceAuthorizationFailed,
                "the device authorization response's expires_in (\(expiresIn) s) is longer than a device code lives (at most \(OutsideNumber.wholeSeconds(Self.longestLifetime)) s)"
            )
        }
        let interval = document["interval"]?.doubleValue
        if let interval, interval > expiresIn {
            throw OIDCError(
                .deviceAuthorizationFailed,
                "the device authorization response's interval (\(interval) s) is longer than the codes live (\(expiresIn) s)")
        }
        self.deviceCode = deviceCode
        self.userCode = userCode
        self.verificationURI = verification
        self.verificationURIComplete = document["verification_uri_complete"]?.stringValue.flatMap(URL.init(string:))
        self.expiresAt = now.addingTimeInterval(expiresIn)
        self.interval = max(1, interval ?? 5)
        self.dpop = dpop
    }

    /// The longest `expires_in` accepted: device codes live minutes (RFC 8628's example: 30 minutes),
    /// and a far larger number is a broken or hostile provider's.
    public static let longestLifetime: TimeInterval = 24 * 3600
}

/// What one poll of a device login found (RFC 8628 §3.5).
public enum DevicePoll: Sendable {
    /// The user has not answered yet: poll again after the authorization's interval.
    case pending
    /// The provider asks for slower polling: the authorization's interval is now longer.
    case slowDown
    /// The user approved: the session holds the new tokens.
    case approved(AuthState)
}

extension OIDCClient {
    /// Starts a device login (RFC 8628 §3.1): asks the provider's `device_authorization_endpoint`
    /// for the codes to show the user.
    /// - Throws: ``/OAuthCore/OIDCError`` `OIDCError.Code.notSupported` when the provider has no device
    ///   authorization endpoint, `OIDCError.Code.deviceAuthorizationFailed` when it refuses
    ///   (its OAuth error in ``/OAuthCore/OIDCError/serverError``) or answers something else; the errors of discovery;
    ///   ``/OAuthCore/HTTPTransportError``.
    public func startDeviceAuthorization(options: AuthorizationOptions = AuthorizationOptions()) async throws -> DeviceAuthorization {
        let metadata = try await discover()
        guard let endpoint = metadata.deviceAuthorizationEndpoint else {
            throw OIDCError(.notSupported, "the provider publishes no device_authorization_endpoint (RFC 8628)")
        }
        let parameters = [("scope", configuration.requestedScopes(options).joined(separator: " "))] + options.additionalParameters
        let response = try await transport.send(
            try configuration.clientAuthentication.form(endpoint, parameters: parameters, metadata: metadata))
        guard response.isSuccess else {
            let refusal = OAuthErrorResponse(response)
            throw OIDCError(
                .deviceAuthorizationFailed,
                "the device authorization endpoint answered HTTP \(response.status)" + (refusal.map { " (\($0.error))" } ?? ""),
                serverError: refusal?.error, cause: refusal ?? UnexpectedResponseError(response, from: "the device authorization endpoint"))
        }
        HaapiLogger.info(OIDCFollowUpTag.flow, "device login: codes received from \(endpoint.absoluteString)")
        return try DeviceAuthorization(json: response.body, now: Date(), dpop: configuration.useDPoP ? try Dpop() : nil)
    }

    /// Polls the token endpoint once for a device login (RFC 8628 §3.4).
    /// - Throws: ``/OAuthCore/OIDCError`` `OIDCError.Code.accessDenied` when the user refused,
    ///   `OIDCError.Code.deviceCodeExpired` when the codes expired, the errors of a token
    ///   request and of ID-token validation otherwise.
    public func poll(_ authorization: inout DeviceAuthorization) async throws -> DevicePoll {
        guard Date() < authorization.expiresAt else {
            throw OIDCError(.deviceCodeExpired, "the device code expired before the login was approved")
        }
        let metadata = try await discover()
        let tokens: TokenSuccessResponse
        do {
            tokens = try await session.requestTokens(.deviceCode(authorization.deviceCode), metadata: metadata, dpop: authorization.dpop)
        } catch let error as OIDCError where error.code == .tokenRequestFailed {
            switch error.serverError {
            case "authorization_pending": return .pending
            case "slow_down":
                authorization.interval += 5
                return .slowDown
            case "access_denied":
                throw OIDCError(.accessDenied, "the user refused the device login", serverError: "access_denied", cause: error)
            case "expired_token":
                throw OIDCError(
                    .deviceCodeExpired, "the device code expired before the login was approved", serverError: "expired_token", cause: error)
            default: throw error
            }
        }
        // Validated as a browser login's ID token is (a device login has no nonce).
        return .approved(
            try await session.start(
                with: tokens, dpop: authorization.dpop, maximumIDTokenAge: configuration.maximumIDTokenAge, requiresIDToken: true))
    }

    /// Polls until the user approves the device login, waiting the authorization's interval
    /// between polls (longer after `slow_down`); `onPoll` hears each poll's outcome.
    /// - Throws: the errors of ``poll(_:)``; `OIDCError.Code.cancelled` when the task is cancelled.
    public func completeDeviceAuthorization(
        _ authorization: DeviceAuthorization, onPoll: (@Sendable (DevicePoll) -> Void)? = nil
    ) async throws -> AuthState {
        var authorization = authorization
        while true {
            do { try await Task.sleep(seconds: authorization.interval) } catch {
                throw OIDCError(.cancelled, "the device login was cancelled")
            }
            let outcome = try await poll(&authorization)
            onPoll?(outcome)
            if case .approved(let state) = outcome {
                HaapiLogger.info(OIDCFollowUpTag.flow, "device login: approved")
                return state
            }
        }
    }
}
