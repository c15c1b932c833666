import Foundation
import NIOCore
import NIOPosix
import NIOSSL
import OAuthCore

extension TLSOptions {
    /// The NIOSSL client configuration these options describe.
    /// - Throws: ``/OAuthCore/HTTPTransportError`` with [`HTTPTransportError.Code.invalidRequest`](doc:/OAuthCore/ErrorCode/invalidRequest) when the
    ///   client identity (a PEM that does not parse, a PKCS#12 bundle with another passphrase)
    ///   or the trusted roots cannot be read.
    func makeNIOConfiguration() throws -> TLSConfiguration {
        var configuration = TLSConfiguration.makeClientConfiguration()
        if let clientIdentity {
            let (certificates, key) = try clientIdentity.nioCertificateAndKey()
            configuration.certificateChain = certificates.map { .certificate($0) }
            configuration.privateKey = .privateKey(key)
        }
        if let trustedRootsPEM {
            do {
                configuration.trustRoots = .certificates(try NIOSSLCertificate.fromPEMBytes(Array(trustedRootsPEM.utf8)))
            } catch {
                throw HTTPTransportError(.invalidRequest, "the trusted roots PEM cannot be read", underlying: error)
            }
        }
        if let additionalTrustedRootsPEM {
            do {
                configuration.additionalTrustRoots = [
                    .certificates(try NIOSSLCertificate.fromPEMBytes(Array(additionalTrustedRootsPEM.utf8)))
                ]
            } catch {
                throw HTTPTransportError(.invalidRequest, "the additional trusted roots PEM cannot be read", underlying: error)
            }
        }
        if !validatesHostname { configuration.certificateVerification = .noHostnameVerification }
        return configuration
    }
}

extension ClientIdentity {
    /// The certificate chain and key, read with NIOSSL.
    func nioCertificateAndKey() throws -> ([NIOSSLCertificate], NIOSSLPrivateKey) {
        switch material {
        case .pem(let chain, let key):
            do {
                let certificates = try NIOSSLCertificate.fromPEMBytes(Array(chain.utf8))
                guard !certificates.isEmpty else {
                    throw HTTPTransportError(.invalidRequest, "the client certificate PEM holds no certificate")
                }
                return (certificates, try NIOSSLPrivateKey(bytes: Array(key.utf8), format: .pem))
            } catch let error as HTTPTransportError {
                throw error
            } catch {
                throw HTTPTransportError(.invalidRequest, "the client certificate or key PEM cannot be read", underlying: error)
            }
        case .pkcs12(let data, let passphrase):
            do {
                let bundle = try NIOSSLPKCS12Bundle(buffer: Array(data), passphrase: Array(passphrase.utf8))
                return (bundle.certificateChain, bundle.privateKey)
            } catch {
                throw HTTPTransportError(.invalidRequest, "the PKCS#12 bundle cannot be read (wrong passphrase?)", underlying: error)
            }
        }
    }
}

extension ClientBootstrap {
    /// A TLS client connection to `host` whose certificates `verify` judges (instead of the
    /// context's own chain check), with `handlers` added after the TLS handler. An IP address
    /// is sent no server name (SNI has none for it).
    static func tls(
        to host: String, context: NIOSSLContext, group: any EventLoopGroup, timeout: TimeInterval,
        verify: @escaping @Sendable NIOSSLCustomVerificationCallback,
        handlers: @escaping @Sendable (ChannelPipeline.SynchronousOperations) throws -> Void = { _ in }
    ) -> ClientBootstrap {
        let serverName = host.isIPAddress ? nil : host
        return ClientBootstrap(group: group)
            .connectTimeout(TimeAmount(seconds: timeout))
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    let tlsHandler = try NIOSSLClientHandler(
                        context: context, serverHostname: serverName, customVerificationCallback: verify)
                    try channel.pipeline.syncOperations.addHandler(tlsHandler)
                    try handlers(channel.pipeline.syncOperations)
                }
            }
    }
}
