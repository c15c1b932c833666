import Foundation
import Hummingbird
import OAuthCore

/// `GET /oauth/token/cat` (a challenge) and `POST /oauth/token/cat` (the answer, giving a client
/// attestation token). The only answer accepted is the SDK's software attestation (a JWS signed
/// with the key in its header): it proves nothing about the device, which is fine for a
/// development server and must never be copied into a real one.
enum AttestationEndpoints {
    static let path = "/oauth/token/cat"
    static let answerType = "haapi-software-attestation+jwt"
    static let challengeKind = "cat-challenge"
    static let challengeLifetime: TimeInterval = 120
    /// How far the answer's `iat` may be from now.
    static let answerMaximumAge: TimeInterval = 120

    static func add(to router: Router<DevServerRequestContext>, state: ServerState) {
        router.get(RouterPath(path)) { request, _ -> Response in
            do {
                guard let clientID = request.query["client_id"], !clientID.isEmpty else {
                    throw OAuthFailure.invalidRequest("client_id is missing")
                }
                _ = try await attestationClient(clientID, state: state)
                let pending = try await state.store.count(kind: challengeKind, where: "$", equals: clientID)
                guard pending < state.configuration.maxPendingChallengesPerClient else {
                    return Reply.oauthError(
                        "slow_down", "too many unanswered challenges for this client: answer one or wait", status: .tooManyRequests)
                }
                let challenge = SeedData.randomToken()
                try await state.store.put(
                    clientID, kind: challengeKind, id: challenge, expiresAt: Date().addingTimeInterval(challengeLifetime))
                return Reply.json(["challenge": .string(challenge)])
            } catch let failure as OAuthFailure {
                return failure.response()
            }
        }
        router.post(RouterPath(path)) { request, _ -> Response in
            do {
                let parameters = try await OAuthSupport.form(request)
                guard let clientID = parameters["client_id"], let challenge = parameters["challenge"],
                    let answer = parameters["challenge_response"]
                else { throw OAuthFailure.invalidRequest("client_id, challenge and challenge_response are required") }
                let client = try await attestationClient(clientID, state: state)
                guard let issuedTo = try await state.store.take(String.self, kind: challengeKind, id: challenge) else {
                    throw OAuthFailure("invalid_attestation", "the challenge is unknown, expired or already answered")
                }
                guard issuedTo == client.clientId else {
                    throw OAuthFailure("invalid_attestation", "the challenge was issued to another client")
                }
                try verifySoftwareAttestation(answer, challenge: challenge, clientID: clientID)
                let cat = SeedData.randomToken()
                try await state.store.put(
                    ClientAttestationTokenRecord(clientId: clientID), kind: ClientAttestationTokenRecord.kind, id: cat,
                    expiresAt: Date().addingTimeInterval(ClientAttestationTokenRecord.lifetime))
                return Reply.json([
                    "cat": .string(cat), "expires_in": .integer(OutsideNumber.wholeSeconds(ClientAttestationTokenRecord.lifetime)),
                ])
            } catch let failure as OAuthFailure {
                return failure.response()
            }
        }
    }

    private static func attestationClient(_ clientID: String, state: ServerState) async throws -> ClientRecord {
        guard let client = try await state.store.get(ClientRecord.self, kind: "client", id: clientID) else {
            throw OAuthFailure("invalid_client", "unknown client")
        }
        guard client.strategy == .attestation else {
            throw OAuthFailure("invalid_attestation", "client \"\(clientID)\" does not use attestation")
        }
        return client
    }

    /// Checks an `InsecureSoftwareAttestationProvider` answer: a compact JWS of type
    /// `haapi-software-attestation+jwt`, ES256, signed by the public key in its header, whose
    /// payload names this challenge and client, `platform: software`, and a recent `iat`.
    static func verifySoftwareAttestation(_ answer: String, challenge: String, clientID: String, now: Date = Date()) throws {
        func refuse(_ reason: String) -> OAuthFailure { OAuthFailure("invalid_attestation", reason) }
        guard let jws = try? CompactJWS(answer, maximumLength: 16 * 1024) else {
            throw refuse("the challenge_response is not a compact JWS")
        }
        guard jws.header.typ == answerType else { throw refuse("the challenge_response's typ is not \(answerType)") }
        guard jws.header.alg == "ES256" else { throw refuse("the challenge_response must be signed with ES256") }
        guard let jwk = jws.header.jwk, !jwk.isPrivate, let key = try? JWSVerificationKey(jwk: jwk) else {
            throw refuse("the challenge_response has no public jwk")
        }
        do {
            try jws.verify(with: key, allowedAlgorithms: [.es256])
        } catch {
            throw refuse("the challenge_response's signature does not verify")
        }
        guard let claims = try? JSONValue(parsing: jws.payload) else { throw refuse("the challenge_response's payload is not JSON") }
        guard claims["challenge"]?.stringValue == challenge else { throw refuse("the challenge_response answers another challenge") }
        guard claims["client_id"]?.stringValue == clientID else { throw refuse("the challenge_response names another client") }
        guard claims["platform"]?.stringValue == "software" else { throw refuse("the challenge_response's platform is not software") }
        guard let iat = claims["iat"]?.doubleValue, abs(now.timeIntervalSince1970 - iat) <= answerMaximumAge else {
            throw refuse("the challenge_response's iat is missing or not recent")
        }
    }
}
