// Apple platforms: TLS settings of URLSessionTransport applied in the session delegate with
// the Security framework (server trust evaluation, the client identity of a PKCS#12 bundle).
// The portable parts (the pin of a certificate, PEM blocks) are in PublicKeyPin.swift and are
// tested on Linux.
#if canImport(Security) && !canImport(FoundationNetworking)
    import Foundation
    import OAuthCore
    import Security

    /// What the server must prove and the client presents, from ``/OAuthCore/TLSOptions``.
    struct ServerTrust: @unchecked Sendable {
        // SecCertificate and URLCredential are immutable once made.
        let tls: TLSOptions
        private let anchors: [SecCertificate]
        /// Trusted besides the system's roots (``/OAuthCore/TLSOptions/additionalTrustedRootsPEM``).
        private let additionalAnchors: [SecCertificate]
        private let clientCredential: URLCredential?

        /// Reads the TLS material now, so that what cannot be read fails when the transport is made.
        init(_ tls: TLSOptions) throws {
            self.tls = tls
            anchors = try tls.trustedRootsPEM.map(Self.certificates(inPEM:)) ?? []
            additionalAnchors = try tls.additionalTrustedRootsPEM.map(Self.certificates(inPEM:)) ?? []
            switch tls.clientIdentity?.material {
            case nil:
                clientCredential = nil
            case .pkcs12(let data, let passphrase)?:
                clientCredential = try Self.credential(pkcs12: data, passphrase: passphrase)
            case .pem?:
                throw HTTPTransportError(
                    .unsupportedConfiguration,
                    "on Apple platforms the client certificate and key come as a PKCS#12 bundle (Security has no way to pair a PEM key with its certificate outside the keychain)"
                )
            }
        }

        /// The answer to a challenge: the client's identity, the server's trust as configured, or
        /// URLSession's own handling.
        func answer(_ challenge: URLAuthenticationChallenge) -> (
            disposition: URLSession.AuthChallengeDisposition, credential: URLCredential?, failure: HTTPTransportError?
        ) {
            let space = challenge.protectionSpace
            switch space.authenticationMethod {
            case NSURLAuthenticationMethodClientCertificate:
                guard let clientCredential else { return (.performDefaultHandling, nil, nil) }
                return (.useCredential, clientCredential, nil)
            case NSURLAuthenticationMethodServerTrust:
                guard let trust = space.serverTrust else { return (.performDefaultHandling, nil, nil) }
                return evaluate(trust, host: space.host)
            default:
                return HTTPAuthentication.refusal
            }
        }

        private func evaluate(_ trust: SecTrust, host: String) -> (
            disposition: URLSession.AuthChallengeDisposition, credential: URLCredential?, failure: HTTPTransportError?
        ) {
            let pins = tls.pins(for: host)
            if !pins.isEmpty {
                // A pinned host is trusted by its key instead of a chain, as with the NIO transport.
                guard let leaf = (SecTrustCopyCertificateChain(trust) as? [SecCertificate])?.first,
                    let hash = try? PublicKeyPin.hash(ofCertificateDER: SecCertificateCopyData(leaf) as Data)
                else {
                    return (
                        .cancelAuthenticationChallenge, nil,
                        HTTPTransportError(.publicKeyPinMismatch, "the server of \(host) presented no readable certificate")
                    )
                }
                guard pins.contains(hash) else {
                    return (
                        .cancelAuthenticationChallenge, nil,
                        HTTPTransportError(.publicKeyPinMismatch, "the key of \(host) is not one of its pins (it hashes to \(hash))")
                    )
                }
                // The pin stands for the chain, not for the certificate's dates or name: the leaf, as
                // its own anchor, must still be valid now and (unless validatesHostname is off) name the host.
                _ = SecTrustSetPolicies(trust, SecPolicyCreateSSL(true, tls.validatesHostname ? host as CFString : nil))
                _ = SecTrustSetAnchorCertificates(trust, [leaf] as CFArray)
                _ = SecTrustSetAnchorCertificatesOnly(trust, true)
                var error: CFError?
                guard SecTrustEvaluateWithError(trust, &error) else {
                    return (
                        .cancelAuthenticationChallenge, nil,
                        HTTPTransportError(
                            .tlsFailure,
                            "the pinned server of \(host) presented a certificate that is expired, not yet valid or not for \(host)",
                            underlying: error)
                    )
                }
                return (.useCredential, URLCredential(trust: trust), nil)
            }
            guard !anchors.isEmpty || !additionalAnchors.isEmpty || !tls.validatesHostname else {
                return (.performDefaultHandling, nil, nil)
            }
            _ = SecTrustSetPolicies(trust, SecPolicyCreateSSL(true, tls.validatesHostname ? host as CFString : nil))
            if !anchors.isEmpty || !additionalAnchors.isEmpty {
                _ = SecTrustSetAnchorCertificates(trust, (anchors + additionalAnchors) as CFArray)
                // Only the given roots, unless these are in addition to the system's.
                _ = SecTrustSetAnchorCertificatesOnly(trust, !anchors.isEmpty)
            }
            var error: CFError?
            guard SecTrustEvaluateWithError(trust, &error) else {
                return (
                    .cancelAuthenticationChallenge, nil,
                    HTTPTransportError(.tlsFailure, "the server of \(host) is not trusted", underlying: error)
                )
            }
            return (.useCredential, URLCredential(trust: trust), nil)
        }

        private static func certificates(inPEM pem: String) throws -> [SecCertificate] {
            let certificates = PEM.blocks(in: pem, label: "CERTIFICATE").compactMap { SecCertificateCreateWithData(nil, $0 as CFData) }
            guard !certificates.isEmpty else { throw HTTPTransportError(.invalidRequest, "the trusted roots PEM holds no certificate") }
            return certificates
        }

        private static func credential(pkcs12: Data, passphrase: String) throws -> URLCredential {
            var items: CFArray?
            let status = SecPKCS12Import(pkcs12 as CFData, [kSecImportExportPassphrase as String: passphrase] as CFDictionary, &items)
            guard status == errSecSuccess, let first = (items as? [[String: Any]])?.first,
                let item = first[kSecImportItemIdentity as String]
            else {
                throw HTTPTransportError(.invalidRequest, "the PKCS#12 bundle cannot be read (wrong passphrase?): OSStatus \(status)")
            }
            let identity = item as! SecIdentity  // a CF type: the cast cannot fail for this key's value
            // The leaf comes with the identity; the rest of the chain is sent with it.
            let chain = (first[kSecImportItemCertChain as String] as? [SecCertificate])?.dropFirst() ?? []
            return URLCredential(identity: identity, certificates: Array(chain), persistence: .forSession)
        }
    }
#endif
