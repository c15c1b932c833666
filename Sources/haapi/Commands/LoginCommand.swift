import ArgumentParser
import Foundation
import HaapiUI
import OAuthCore

/// `haapi login`: a HAAPI login in the terminal; the tokens are kept in the profile.
struct LoginCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "login",
        abstract: "Log in with a HAAPI flow in the terminal and keep the tokens in a profile.",
        discussion: """
            The connection settings come from the flags or --config FILE and are saved in the profile \
            ($HAAPI_HOME/profiles/NAME, default ~/.config/swift-haapi); later logins can omit them. \
            Tokens are never printed: a one-line summary goes to standard error.
            """)

    @OptionGroup var profileOption: ProfileOption
    @OptionGroup var connection: ConnectionOptions
    @OptionGroup var interaction: InteractionOptions
    @OptionGroup var log: LogOptions

    func run() async throws {
        log.apply()
        let profile = profileOption.profile
        let terminal = Terminal()
        let answers = try interaction.loadAnswers(terminal: terminal)
        let store = try Profile.open(profile)
        let saved = try store.readConfiguration()
        guard connection.isGiven || saved != nil else {
            throw ValidationError("the profile \"\(profile)\" has no connection settings: give --issuer and --client-id, or --config FILE")
        }
        let settings = try await connection.resolve(saved: saved)
        try store.writeConfiguration(settings)
        terminal.catchInterrupts()
        let outcome = try await LoginSession(configuration: settings, answers: answers, browserCommand: interaction.browserCommand, name: profile)
            .run(terminal: terminal)
        // Under the lock: a `haapi token` refreshing the previous login's tokens must not overwrite these.
        try await store.lock.withLock { try store.writeTokens(StoredTokens(outcome.tokens, dpop: outcome.dpop)) }
        Stderr.line(Self.summary(outcome.tokens, issuer: settings.issuer ?? settings.baseURL ?? "", keptIn: profile))
    }

    /// One line about a login: who, where, what token; and where the tokens are kept, if anywhere.
    static func summary(_ tokens: OAuthTokenModel, issuer: String, keptIn profile: String?) -> String {
        let subject = JWTText.claims(tokens.accessToken)?["sub"]?.stringValue ?? JWTText.claims(tokens.idToken ?? "")?["sub"]?.stringValue
        var parts = ["Logged in\(subject.map { " as \($0)" } ?? "") at \(issuer)"]
        parts.append("\(tokens.tokenType) token" + (tokens.expiresIn.map { ", expires in \($0) s" } ?? ""))
        if let scope = tokens.scope { parts.append("scope \(scope)") }
        if tokens.refreshToken != nil { parts.append("with a refresh token") }
        parts.append(profile.map { "kept in profile \($0)" } ?? "not kept")
        return parts.joined(separator: "; ")
    }
}
