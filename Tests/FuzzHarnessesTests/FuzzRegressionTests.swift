import Foundation
import FuzzHarnesses
import Testing

/// The fuzz harnesses of `Scripts/fuzz.sh`, replayed on the seed corpus and on every input a
/// fuzzing run found (`Fuzz/Regressions/<harness>/`): each must keep its properties. On the main
/// actor, where libFuzzer runs them: polling-countdown builds the kit's screens.
@Suite("Fuzz regressions")
@MainActor
struct FuzzRegressionTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func files(in directory: URL) -> [URL] {
        ((try? FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)) ?? [])
            .filter { !$0.lastPathComponent.hasPrefix(".") }.sorted { $0.path < $1.path }
    }

    @Test(arguments: FuzzHarness.allCases)
    func foundInputsKeepTheirProperties(_ harness: FuzzHarness) {
        let directory = Self.root.appendingPathComponent("Fuzz/Regressions/\(harness.rawValue)")
        #expect(FileManager.default.fileExists(atPath: directory.path), "\(directory.path) is missing")
        #expect(harness.replay(Self.files(in: directory).map(\.path)).isEmpty)
    }

    @Test(arguments: FuzzHarness.allCases)
    func seedInputsKeepTheirProperties(_ harness: FuzzHarness) throws {
        let fixtures = Self.files(in: Self.root.appendingPathComponent("Tests/HaapiSDKTests/Fixtures"))
        let vectors = Self.files(in: Self.root.appendingPathComponent("Tests/OAuthCoreTests/Vectors")).filter { $0.pathExtension == "json" }
        #expect(fixtures.count > 10)
        #expect(harness.replay((fixtures + vectors).map(\.path)).isEmpty)
    }

    /// Good documents and plain garbage are both fine: only broken properties are reported.
    @Test func onlyBrokenPropertiesAreReported() {
        #expect(FuzzHarness.json.run(Data("{\"a\":[1,2.5,\"x\",null,true]}".utf8)).isEmpty)
        #expect(FuzzHarness.haapiResponse.run(Data([0xff, 0xfe, 0x00])).isEmpty)
        #expect(FuzzHarness.tokenResponse.run(Data([0]) + Data("{\"access_token\":\"a\",\"token_type\":\"Bearer\"}".utf8)).isEmpty)
        #expect(FuzzHarness.jose.run(Data("e30.e30.".utf8)).isEmpty)
        #expect(
            FuzzHarness.pollingCountdown.run(Data([7]) + Data(#"{"status":"pending","maxWaitRemainingTime":"143","interval":"2500"}"#.utf8))
                .isEmpty)
        #expect(
            FuzzHarness.profileConfig.run(Data(#"{"issuer":"https://op.example","clientID":"app","redirectUri":"app:/cb"}"#.utf8)).isEmpty)
        #expect(
            FuzzHarness.storedTokens.run(
                Data(
                    #"{"issuer":"i","clientID":"c","accessToken":"a","tokenType":"Bearer","accessTokenExpiresAt":"2030-01-01T00:00:00Z"}"#
                        .utf8)
            ).isEmpty)
        #expect(!FuzzHarness.haapiResponse.replay(["/nonexistent-\(UUID().uuidString)"]).isEmpty, "a missing file is a failure")
    }
}
