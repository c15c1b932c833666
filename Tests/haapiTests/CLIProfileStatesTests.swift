import Foundation
import HaapiTesting
import Testing

/// `haapi status --json` and `haapi profiles --json` (issue 27): the same keys in every state,
/// `state` one of a fixed set, each state reached for real.
@Suite("haapi status JSON", .serialized, .ownThreads)
struct CLIProfileStatesTests {
    static let keys: Set<String> = [
        "profile", "isDefault", "state", "issuer", "clientId", "subject", "scope", "tokenType", "binding", "expiresAt", "expiresIn",
        "expired",
        "refreshToken", "secretStore", "problem",
    ]

    private func status(_ session: CLITokenTests.LoggedIn, _ profile: String) throws -> (object: [String: Any], status: Int32) {
        let run = try session.haapi(["status", "--profile", profile, "--json"])
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any], "\(run.stdout) \(run.stderr)")
        #expect(Set(object.keys) == Self.keys, "\(profile): \(object.keys.sorted())")
        return (object, run.status)
    }

    @Test func everyStateHasTheSameKeys() throws {
        let session = try CLITokenTests.LoggedIn(profile: "work")
        var (report, code) = try status(session, "work")
        #expect(report["state"] as? String == "loggedIn" && code == 0 && report["subject"] as? String == "demo")
        #expect((report["binding"] as? [String: Any])?["type"] as? String == "DPoP" && report["problem"] is NSNull)

        try session.ageTokens(by: -60)
        (report, code) = try status(session, "work")
        #expect(report["state"] as? String == "refreshable" && code == 0 && report["expired"] as? Bool == true)

        var tokens = try #require(try session.storedTokens())
        tokens["refreshToken"] = nil
        try JSONSerialization.data(withJSONObject: tokens).write(to: session.tokensFile)
        (report, code) = try status(session, "work")
        #expect(report["state"] as? String == "loginNeeded" && code == 4 && report["refreshToken"] as? Bool == false)
        #expect((report["problem"] as? String)?.contains("haapi login --profile work") == true)

        let logout = try session.haapi(["logout", "--profile", "work"])
        #expect(logout.status == 0, "\(logout.stderr)")
        (report, code) = try status(session, "work")
        #expect(
            report["state"] as? String == "loggedOut" && code == 4 && report["subject"] is NSNull
                && report["clientId"] as? String == "haapi-secret")

        (report, code) = try status(session, "nobody")
        #expect(report["state"] as? String == "missing" && code == 4 && report["issuer"] is NSNull)

        try Data("{".utf8).write(to: session.directory.appendingPathComponent("home/profiles/work/config.json"))
        (report, code) = try status(session, "work")
        #expect(report["state"] as? String == "broken" && code == 1)
        #expect((report["problem"] as? String)?.contains("config.json") == true)

        // Every profile, broken or not, in one array; and `profiles --json` is the same objects.
        let all = try session.haapi(["status", "--all", "--json"])
        let array = try #require(try JSONSerialization.jsonObject(with: Data(all.stdout.utf8)) as? [[String: Any]], "\(all.stdout)")
        #expect(all.status == 1 && array.count == 1 && Set(array[0].keys) == Self.keys)
        let listed = try session.haapi(["profiles", "--json"])
        let profiles = try #require(
            try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]], "\(listed.stdout)")
        #expect(listed.status == 0 && profiles.map { $0["state"] as? String } == ["broken"])
    }
}
