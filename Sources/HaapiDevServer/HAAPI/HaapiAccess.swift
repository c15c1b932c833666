import Foundation
import HTTPTypes
import Hummingbird
import OAuthCore

/// A response that ends a request early (a refused token, a bad session, a problem). Thrown
/// from anywhere in a HAAPI handler; Hummingbird sends it as it is.
struct HaapiRefusal: HTTPResponseError {
    let reply: Response
    var status: HTTPResponse.Status { reply.status }
    func response(from request: Request, context: some RequestContext) throws -> Response { reply }
}

/// Who made a HAAPI request: its checked access token and DPoP proof.
struct HaapiCaller: Sendable {
    let claims: AccessTokenClaims
    /// The thumbprint of the proof's key (equal to the token's `cnf.jkt`).
    let thumbprint: String
}

/// The checks every HAAPI request goes through.
enum HaapiAccess {
    /// Whether the request asks for HAAPI representations (`Accept: application/vnd.auth+json`).
    static func isHaapi(_ request: Request) -> Bool {
        request.headers[values: .accept].contains { $0.lowercased().contains(Reply.authMediaType) }
    }

    /// Checks `Authorization: DPoP <HAAPI access token>` and the DPoP proof (bound to the
    /// token's key, with `ath`, `htm`, `htu`, replay and nonce checks).
    /// - Throws: ``HaapiRefusal``: 401 `invalid_token` (the SDK renews its token once on that),
    ///   401 `invalid_dpop_proof` or `use_dpop_nonce` (with `DPoP-Nonce`), 403 `insufficient_scope`.
    static func authenticate(_ request: Request, state: ServerState) async throws -> HaapiCaller {
        func refuse(_ error: String, _ description: String, status: HTTPResponse.Status = .unauthorized, nonce: String? = nil)
            -> HaapiRefusal
        {
            var headers: HTTPFields = [.wwwAuthenticate: "DPoP error=\"\(error)\", error_description=\"\(description)\""]
            if let nonce { headers[.dpopNonce] = nonce }
            return HaapiRefusal(reply: Reply.oauthError(error, description, status: status, headers: headers))
        }
        let authorization = request.headers[.authorization] ?? ""
        guard authorization.lowercased().hasPrefix("dpop ") else {
            throw refuse("invalid_token", "a HAAPI request needs Authorization: DPoP with a HAAPI access token")
        }
        let token = String(authorization.dropFirst(5)).trimmingCharacters(in: .whitespaces)
        guard let claims = try await state.verifyAccessToken(token) else {
            throw refuse("invalid_token", "the HAAPI access token is not valid or has expired")
        }
        guard let jkt = claims.jkt else { throw refuse("invalid_token", "the HAAPI access token is not DPoP-bound") }
        guard claims.scope.contains(SeedData.haapiScope) else {
            throw refuse("insufficient_scope", "the access token lacks the HAAPI scope", status: .forbidden)
        }
        guard let proof = request.headers[.dpop] else { throw refuse("invalid_dpop_proof", "the request has no DPoP proof") }
        do {
            let thumbprint = try await state.checkDPoP(
                proof, method: request.method.rawValue, path: request.uri.path, accessToken: token, boundThumbprint: jkt)
            return HaapiCaller(claims: claims, thumbprint: thumbprint)
        } catch let failure as DPoPProofVerifier.Failure {
            if failure.needsNonce {
                throw refuse("use_dpop_nonce", failure.reason, nonce: try await state.currentNonce())
            }
            throw refuse("invalid_dpop_proof", failure.reason)
        }
    }
}

/// A request of a flow: its parameters, its flow session, and (for HAAPI) its caller.
struct FlowRequest: Sendable {
    let isHaapi: Bool
    let sessionID: String
    var flow: FlowSession
    let client: ClientRecord
    /// Query parameters and, for POST and PUT, the form-encoded body.
    let parameters: [String: String]
    let caller: HaapiCaller?
    /// The address the request came from (``DevServerRequestContext``), shown where a user is
    /// asked to approve what it started.
    var source = "unknown"

    /// Loads the flow of a request to the authentication service.
    ///
    /// HAAPI requests carry `Session-Id` and must present a HAAPI token of the flow's client
    /// (otherwise the problem mismatch-between-session-and-access-token); browser requests
    /// carry the session in a `session` parameter.
    static func load(_ request: Request, source: String, state: ServerState) async throws -> FlowRequest {
        let isHaapi = HaapiAccess.isHaapi(request)
        let caller = isHaapi ? try await HaapiAccess.authenticate(request, state: state) : nil
        let parameters = try await allParameters(request)
        let sessionID = isHaapi ? request.headers[.sessionID] : parameters["session"]
        guard let sessionID, !sessionID.isEmpty, let flow = try await state.loadFlow(sessionID) else {
            throw HaapiRefusal(
                reply: isHaapi
                    ? Problems.genericUserError("The authentication session is unknown or has expired; start again.")
                    : HTMLPages.error("The authentication session is unknown or has expired; start again.", status: .badRequest))
        }
        if flow.isHaapi != isHaapi {
            throw HaapiRefusal(
                reply: isHaapi
                    ? Problems.mismatchBetweenSessionAndAccessToken()
                    : HTMLPages.error("This authentication session belongs to an app, not to a browser.", status: .badRequest))
        }
        // The session belongs to the HAAPI token's key that started it, not merely to its client:
        // another app instance of the same client, holding a stolen Session-Id, cannot continue it.
        if let caller, caller.claims.clientId != flow.clientId || flow.sessionJkt.map({ $0 != caller.thumbprint }) == true {
            throw HaapiRefusal(reply: Problems.mismatchBetweenSessionAndAccessToken())
        }
        guard let client = try await state.client(flow.clientId) else {
            throw FlowError("the flow's client \(flow.clientId) no longer exists")
        }
        return FlowRequest(
            isHaapi: isHaapi, sessionID: sessionID, flow: flow, client: client, parameters: parameters, caller: caller, source: source)
    }

    /// Query parameters, with a POST or PUT form body's on top.
    /// - Throws: ``HaapiRefusal`` (400, naming the fields) when one is past its bound
    ///   (``InputBounds``): nothing has read them yet.
    static func allParameters(_ request: Request) async throws -> [String: String] {
        var parameters = request.query
        if request.method == .post || request.method == .put {
            let contentType = request.headers[.contentType]?.lowercased() ?? ""
            if contentType.hasPrefix("application/json") {
                let buffer = try await request.body.collect(upTo: 64 * 1024)
                if let object = try? JSONValue(parsing: Data(buffer.readableBytesView)).objectValue {
                    for (name, value) in object { if let text = value.stringValue { parameters[name] = text } }
                }
            } else {
                for (name, value) in try await request.formParameters() { parameters[name] = value }
            }
        }
        let tooLong = InputBounds.tooLong(parameters)
        guard tooLong.isEmpty else {
            throw HaapiRefusal(reply: HaapiAccess.isHaapi(request) ? Problems.tooLong(tooLong) : HTMLPages.tooLong(tooLong))
        }
        return parameters
    }

    /// A parameter, `nil` when missing or blank.
    func value(_ name: String) -> String? {
        guard let value = parameters[name]?.trimmingCharacters(in: .whitespaces), !value.isEmpty else { return nil }
        return value
    }
}

/// An internal fault (answered with the problem `unexpected`, 500).
struct FlowError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
