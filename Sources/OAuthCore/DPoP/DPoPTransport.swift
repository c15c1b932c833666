import Crypto
import Foundation

/// An ``HTTPTransport`` middleware that adds a DPoP proof to every request.
///
/// When a request carries `Authorization: DPoP <token>`, the proof's `ath` binds that token.
/// Nonces are learned and the one `use_dpop_nonce` retry is made as ``Dpop/send(using:accessToken:_:)`` describes.
public struct DPoPTransport: HTTPTransport {
    /// The transport underneath.
    public let base: any HTTPTransport
    /// The key holder that signs the proofs.
    public let dpop: Dpop

    /// Wraps `base` so that every request carries a proof from `dpop`.
    public init(base: any HTTPTransport, dpop: Dpop) {
        self.base = base
        self.dpop = dpop
    }

    /// Sends `request` with a proof from ``dpop``, bound to the request's DPoP access token when it has one;
    /// learns the server's nonces and retries once on `use_dpop_nonce`.
    /// - Throws: ``DPoPError`` when no proof can be signed, or the server asks for a nonce again after the
    ///   retry; the base transport's errors.
    public func send(_ request: TransportRequest) async throws -> TransportResponse {
        let authorization = request.headers["Authorization"] ?? ""
        let token = authorization.lowercased().hasPrefix("dpop ") ? String(authorization.dropFirst(5)) : nil
        return try await dpop.send(using: base, accessToken: token) { request }
    }
}
