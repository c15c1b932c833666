// Passkeys need ASAuthorizationController's public-key credential providers: iOS 15, macOS 12.
#if canImport(AuthenticationServices) && !os(watchOS) && !os(tvOS)
    import AuthenticationServices
    import Foundation

    /// Performs a ``WebAuthnOperationModel`` with the platform's authenticators (passkeys in iCloud
    /// Keychain, or a security key), through `ASAuthorizationController`: a thin adapter, the
    /// options and the credential's JSON are the model's.
    ///
    /// ```swift
    /// if let operation = viewModel.uiModel as? KitWebAuthnModel {
    ///     let made = try await PasskeyAuthenticator(anchor: { view.window! }).perform(operation)
    ///     await viewModel.completeWebAuthn(made.credential, kind: made.kind)
    /// }
    /// ```
    ///
    /// The relying party id must be a domain of the app's associated domains (`webcredentials:`).
    /// When it throws, ``failure(of:)`` says why, and ``HaapiFlowViewModel/passkeyDidFail(_:kind:)``
    /// what the screen shows next (a retry, a message, the browser fallback).
    @available(iOS 15.0, macOS 12.0, macCatalyst 15.0, visionOS 1.0, *)
    @MainActor public final class PasskeyAuthenticator: NSObject {
        /// Supplies the window the system sheet is presented on.
        public let anchor: @MainActor () -> ASPresentationAnchor
        /// The relying party id to use when the server's options name none (its host, usually).
        public let defaultRelyingPartyID: String?
        private var continuation: CheckedContinuation<ASAuthorization, any Error>?

        /// An authenticator presenting on the window `anchor` returns.
        public init(defaultRelyingPartyID: String? = nil, anchor: @escaping @MainActor () -> ASPresentationAnchor) {
            self.anchor = anchor
            self.defaultRelyingPartyID = defaultRelyingPartyID
        }

        /// Why a ceremony threw `error`, as the kit tells the cases apart: the user's cancel, no
        /// credential for a request that may not ask the user, an app whose associated domains do
        /// not name the relying party (the system says so in the error's text), no authenticator.
        public nonisolated static func failure(of error: any Error) -> PasskeyFailure {
            let described = "\(error) \((error as NSError).userInfo)".lowercased()
            if described.contains("not associated") || described.contains("associated domain") { return .appAssociation }
            guard let authorization = error as? ASAuthorizationError else { return .failed("\(error)") }
            switch authorization.code {
            case .canceled: return .cancelled
            case .notInteractive: return .noCredentials
            case .notHandled: return .notSupported
            default: return .failed("\(error)")
            }
        }

        /// Asks the platform for the credential `operation` wants, from an authenticator of
        /// `authenticator` (the choice the user tapped: this device's passkey, or a security key): a
        /// registration, with that kind's creation options or those for any authenticator, or an
        /// assertion. The kind returned is whose field carries the credential.
        /// - Throws: ``HaapiUIKitError/unsupported(cause:)`` when the options do not decode or name no
        ///   relying party; `ASAuthorizationError` when the user cancels or nothing can answer.
        public func perform(
            _ operation: KitWebAuthnModel, authenticator: WebAuthnAuthenticatorKind = .platform
        ) async throws -> (credential: WebAuthnCredential, kind: WebAuthnAuthenticatorKind) {
            let securityKey = authenticator == .crossPlatform
            if let registration = operation.actionModel as? WebAuthnRegistrationClientOperationActionModel {
                let all = registration.creationOptions
                guard let kind = operation.optionsKind(for: authenticator) ?? [.platform, .crossPlatform].first(where: { all[$0] != nil }),
                    let options = all[kind]
                else { throw HaapiUIKitError.unsupported(cause: "the WebAuthn registration options do not decode") }
                let relyingParty = try relyingPartyID(options.relyingPartyID)
                let request: ASAuthorizationRequest
                if kind == .crossPlatform || (kind == .any && securityKey) {
                    let provider = ASAuthorizationSecurityKeyPublicKeyCredentialProvider(relyingPartyIdentifier: relyingParty)
                    let keyRequest = provider.createCredentialRegistrationRequest(
                        challenge: options.challenge, displayName: options.userDisplayName ?? options.userName, name: options.userName,
                        userID: options.userID)
                    keyRequest.credentialParameters = options.algorithms.map {
                        ASAuthorizationPublicKeyCredentialParameters(algorithm: ASCOSEAlgorithmIdentifier(rawValue: $0))
                    }
                    keyRequest.excludedCredentials = options.excludedCredentials.map {
                        ASAuthorizationSecurityKeyPublicKeyCredentialDescriptor(
                            credentialID: $0.id, transports: ASAuthorizationSecurityKeyPublicKeyCredentialDescriptor.Transport.allSupported)
                    }
                    if let preference = options.userVerification { keyRequest.userVerificationPreference = .init(rawValue: preference) }
                    if let residentKey = options.residentKey { keyRequest.residentKeyPreference = .init(rawValue: residentKey) }
                    request = keyRequest
                } else {
                    let provider = ASAuthorizationPlatformPublicKeyCredentialProvider(relyingPartyIdentifier: relyingParty)
                    let passkeyRequest = provider.createCredentialRegistrationRequest(
                        challenge: options.challenge, name: options.userName, userID: options.userID)
                    passkeyRequest.displayName = options.userDisplayName
                    if let preference = options.userVerification { passkeyRequest.userVerificationPreference = .init(rawValue: preference) }
                    if #available(iOS 17.4, macOS 14.4, macCatalyst 17.4, visionOS 1.1, *) {
                        passkeyRequest.excludedCredentials = options.excludedCredentials.map {
                            ASAuthorizationPlatformPublicKeyCredentialDescriptor(credentialID: $0.id)
                        }
                    }
                    request = passkeyRequest
                }
                guard let made = try await authorize([request]).credential as? any ASAuthorizationPublicKeyCredentialRegistration,
                    let attestation = made.rawAttestationObject
                else { throw HaapiUIKitError.unsupported(cause: "the authenticator returned no attestation object") }
                let attachment = request is ASAuthorizationSecurityKeyPublicKeyCredentialRegistrationRequest ? "cross-platform" : "platform"
                return (
                    .registration(
                        id: made.credentialID, clientDataJSON: made.rawClientDataJSON, attestationObject: attestation,
                        attachment: attachment), kind
                )
            }

            guard let authentication = operation.actionModel as? WebAuthnAuthenticationClientOperationActionModel,
                let options = authentication.requestOptions
            else {
                throw HaapiUIKitError.unsupported(cause: "the WebAuthn authentication options do not decode")
            }
            let relyingParty = try relyingPartyID(options.relyingPartyID)
            let known = authentication.knownCredentials
            let platformAllowed = known[.platform] ?? options.allowedCredentials
            let passkeys = ASAuthorizationPlatformPublicKeyCredentialProvider(relyingPartyIdentifier: relyingParty)
                .createCredentialAssertionRequest(challenge: options.challenge)
            passkeys.allowedCredentials = platformAllowed.map { ASAuthorizationPlatformPublicKeyCredentialDescriptor(credentialID: $0.id) }
            var requests: [ASAuthorizationRequest] = securityKey ? [] : [passkeys]
            if securityKey || !(known[.crossPlatform] ?? []).isEmpty {
                // A security key the user chose, or keys or phones the server knows of the user's, beside passkeys.
                let keyRequest = ASAuthorizationSecurityKeyPublicKeyCredentialProvider(relyingPartyIdentifier: relyingParty)
                    .createCredentialAssertionRequest(challenge: options.challenge)
                keyRequest.allowedCredentials = (known[.crossPlatform] ?? options.allowedCredentials).map {
                    ASAuthorizationSecurityKeyPublicKeyCredentialDescriptor(
                        credentialID: $0.id, transports: ASAuthorizationSecurityKeyPublicKeyCredentialDescriptor.Transport.allSupported)
                }
                requests.append(keyRequest)
            }
            if let preference = options.userVerification {
                passkeys.userVerificationPreference = .init(rawValue: preference)
            }
            let authorization = try await authorize(requests)
            guard let assertion = authorization.credential as? any ASAuthorizationPublicKeyCredentialAssertion else {
                throw HaapiUIKitError.unsupported(cause: "the authenticator returned no assertion")
            }
            let isSecurityKey = authorization.credential is ASAuthorizationSecurityKeyPublicKeyCredentialAssertion
            let kind: WebAuthnAuthenticatorKind = known.isEmpty ? .any : (isSecurityKey ? .crossPlatform : .platform)
            return (
                .assertion(
                    id: assertion.credentialID, clientDataJSON: assertion.rawClientDataJSON,
                    authenticatorData: assertion.rawAuthenticatorData,
                    signature: assertion.signature, userHandle: assertion.userID, attachment: isSecurityKey ? "cross-platform" : "platform"),
                kind
            )
        }

        private func relyingPartyID(_ fromServer: String?) throws -> String {
            guard let id = fromServer ?? defaultRelyingPartyID, !id.isEmpty else {
                throw HaapiUIKitError.unsupported(cause: "the WebAuthn options name no relying party and no default is configured")
            }
            return id
        }

        private func authorize(_ requests: [ASAuthorizationRequest]) async throws -> ASAuthorization {
            try await withCheckedThrowingContinuation { continuation in
                self.continuation = continuation
                let controller = ASAuthorizationController(authorizationRequests: requests)
                controller.delegate = self
                controller.presentationContextProvider = self
                controller.performRequests()
            }
        }
    }

    @available(iOS 15.0, macOS 12.0, macCatalyst 15.0, visionOS 1.0, *)
    extension PasskeyAuthenticator: ASAuthorizationControllerDelegate, ASAuthorizationControllerPresentationContextProviding {
        /// Hands the credential the user made or chose to the waiting ceremony.
        public nonisolated func authorizationController(
            controller: ASAuthorizationController, didCompleteWithAuthorization authorization: ASAuthorization
        ) {
            MainActor.onMainThread {
                continuation?.resume(returning: authorization)
                continuation = nil
            }
        }

        /// Hands the failure (cancelled, no credential, ...) to the waiting ceremony.
        public nonisolated func authorizationController(controller: ASAuthorizationController, didCompleteWithError error: any Error) {
            MainActor.onMainThread {
                continuation?.resume(throwing: error)
                continuation = nil
            }
        }

        /// The window the passkey sheet presents over (the system asks on the main thread).
        public nonisolated func presentationAnchor(for controller: ASAuthorizationController) -> ASPresentationAnchor {
            MainActor.onMainThread { anchor() }
        }
    }
#endif
