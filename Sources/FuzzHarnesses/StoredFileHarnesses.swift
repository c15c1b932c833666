import Foundation
import HaapiCLICore
import OAuthCore

// The files `haapi` keeps in a profile's folder, which a user, a script or a damaged disk may
// have changed: each reader gives settings or a session, or a typed error with a message fit for
// a terminal, and what `haapi` writes it reads back the same.

extension FuzzHarness {
    static func profileConfig(_ data: Data) -> [String] {
        var violations: [String] = []
        let path = "/profiles/fuzz/config.json"
        func readable(_ failure: CLIFailure) {
            // The file's text reaches the message only made safe (PrintableText): it is printed to a terminal.
            if PrintableText(failure.message.description) != failure.message {
                violations.append("a message with control characters: \(failure.message)")
            }
        }
        // Read as every command reads the saved settings...
        var stored: ProfileConfiguration?
        do { stored = try ProfileConfiguration(storedData: data, path: path, profile: "fuzz") } catch { readable(error) }
        // ...and as `haapi login --config FILE` reads a file it is given.
        var given: ProfileConfiguration?
        do { given = try ProfileConfiguration.read(configData: data, path: path) } catch { readable(error) }
        if let stored, let given, stored != given {
            violations.append("the saved settings read as \(stored), the same file given with --config as \(given)")
        }
        for settings in [stored, given].compactMap({ $0 }) {
            // What a login saves reads back the same.
            do {
                let again = try ProfileConfiguration(storedData: try settings.storedData(), path: path, profile: "fuzz")
                if again != settings { violations.append("saved and read again, \(settings) became \(again)") }
            } catch {
                violations.append("saved settings that cannot be read back: \(error)")
            }
            // What each command does next with them.
            _ = settings.scopes
            do { _ = try settings.clientAuthentication() } catch let failure as CLIFailure { readable(failure) } catch {
                violations.append("an untyped error from the client authentication: \(error)")
            }
            for origin in settings.apiOrigins(adding: []) where URL(string: origin)?.origin != origin {
                violations.append("\"\(origin)\" is not an origin")
            }
            do { _ = try settings.provider(transport: RefusingTransport()) } catch let failure as CLIFailure { readable(failure) } catch {
                violations.append("an untyped error from the provider: \(error)")
            }
        }
        return violations
    }

    static func storedTokens(_ data: Data) -> [String] {
        do {
            return storedSession(try AuthState(storedData: data))
        } catch let error as StorageError {
            return error.code == .invalidFormat ? [] : ["a stored session refused with \(error.code.map { "\($0)" } ?? "no code")"]
        } catch {
            return ["an untyped error: \(error)"]
        }
    }

    /// What becomes of a session, whether read from `tokens.json` or made from a token response:
    /// written and read back (each refresh rewrites the file), asked whether its token is fresh
    /// enough (`haapi token --min-ttl`), and reported (`haapi status`).
    static func storedSession(_ state: AuthState) -> [String] {
        var violations: [String] = []
        do {
            let again = try AuthState(storedData: try state.storedData())
            if again != state {
                violations.append(
                    "stored and read again, the session changed (expiry \(since1970(state.accessTokenExpiresAt)) became \(since1970(again.accessTokenExpiresAt)))"
                )
            }
        } catch {
            violations.append("a session that cannot be read back once stored: \(error)")
        }
        for lifetime: TimeInterval in [0, 30, -1, 9.3e18, 1e308, .infinity, .nan] {
            _ = state.isAccessTokenValid(for: lifetime, at: now)
        }
        do {
            let report = try ProfileReport.tokenMembers(state, profile: "fuzz", now: now)
            if let seconds = report["expiresIn"]?.intValue {
                // `now` and stored expiries are whole seconds: "expired" is exactly what makes the next command refresh.
                if report["expired"]?.boolValue != (seconds <= 0) || (seconds <= 0) == state.isAccessTokenValid(for: 0, at: now) {
                    violations.append("haapi status says expiresIn \(seconds), expired \(report["expired"].map { "\($0)" } ?? "nothing")")
                }
                let shown = report["expiresAt"]?.stringValue.flatMap { try? Date.ISO8601FormatStyle().parse($0) }
                if shown != state.accessTokenExpiresAt {
                    violations.append(
                        "haapi status shows the expiry \(since1970(state.accessTokenExpiresAt)) as \(report["expiresAt"].map { "\($0)" } ?? "nothing")"
                    )
                }
            } else if state.accessTokenExpiresAt != nil {
                violations.append("haapi status does not say when the token expires")
            }
        } catch let failure as CLIFailure {
            if !state.isDPoPBound { violations.append("haapi status failed on Bearer tokens: \(failure.message)") }
        } catch {
            violations.append("an untyped error from haapi status: \(error)")
        }
        if let key = state.dpopKey {
            do { _ = try Dpop(privateJWK: key) } catch is DPoPError {} catch {
                violations.append("an untyped error from the DPoP key: \(error)")
            }
        }
        _ = state.idTokenClaims
        return violations
    }
}

/// A date for a message, in seconds since 1970 (a far one has no description).
private func since1970(_ date: Date?) -> String {
    date.map { "\($0.timeIntervalSince1970) s since 1970" } ?? "none"
}

/// The transport of the providers the harnesses make: nothing is sent while reading settings.
private struct RefusingTransport: HTTPTransport {
    func send(_ request: TransportRequest) async throws -> TransportResponse {
        throw HTTPTransportError(.cancelled, "the fuzz harnesses send nothing")
    }
}
