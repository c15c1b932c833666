import Foundation
import OAuthCore
import Testing

@testable import HaapiCLICore

/// A profile's settings (`config.json`, a `--config` file) are typed: a strategy, an
/// attestation, a login and a secret store are one of their words, or the file is refused
/// saying which words it may hold.
@Suite struct ProfileConfigurationTests {
    private static func read(_ json: String) throws(CLIFailure) -> ProfileConfiguration {
        try ProfileConfiguration.read(configData: Data(json.utf8), path: "config.json")
    }

    @Test func theWordsOfTheFileBecomeTheirCases() throws {
        let settings = try Self.read(
            #"""
            {"clientId": "app", "strategy": "attestation", "attestation": "software", "login": "device", "secretStore": "keyring"}
            """#)
        #expect(settings.strategy == .attestation)
        #expect(settings.attestation == .software)
        #expect(settings.login == .device && settings.isDeviceLogin && settings.isBrowserLogin)
        #expect(settings.secrets == .keyring)
    }

    @Test func aWordNotAmongTheCasesIsRefusedWithTheWordsAllowed() {
        for (key, value, words) in [
            ("strategy", "secrte", #""secret", "attestation", "none""#), ("attestation", "apple", #""software""#),
            ("login", "haapi", #""browser", "device""#), ("secretStore", "vault", #""keyring", "file""#),
        ] {
            #expect {
                try Self.read(#"{"clientId": "app", "\#(key)": "\#(value)"}"#)
            } throws: { error in
                (error as? CLIFailure)?.description == #"config.json: "\#(key)" must be one of \#(words)"#
            }
        }
    }

    @Test func theStrategyIsImpliedWhenNotWritten() throws {
        #expect(try Self.read(#"{"clientId": "app", "clientSecret": "s"}"#).effectiveStrategy == .secret)
        #expect(try Self.read(#"{"clientId": "app", "attestation": "software"}"#).effectiveStrategy == .attestation)
        #expect(try Self.read(#"{"clientId": "app"}"#).effectiveStrategy == .dynamicRegistration)
        #expect(try Self.read(#"{"clientId": "app", "clientSecret": "s", "strategy": "none"}"#).effectiveStrategy == .dynamicRegistration)
    }

    @Test func aSavedProfileReadsBackTheSame() throws {
        let settings = try Self.read(
            #"""
            {"clientId": "app", "strategy": "secret", "clientSecret": "s", "login": "browser", "secretStore": "file", "dpop": false}
            """#)
        let stored = try settings.storedData()
        let text = String(decoding: stored, as: UTF8.self)
        #expect(text.contains(#""strategy" : "secret""#) && text.contains(#""login" : "browser""#))
        #expect(try ProfileConfiguration(storedData: stored, path: "config.json", profile: "p") == settings)
    }
}
