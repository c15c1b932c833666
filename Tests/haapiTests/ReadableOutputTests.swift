import Foundation
import HaapiTesting
import OAuthCore
import Testing

@testable import HaapiCLICore

/// Issue 38, item 13: what the commands print for a person reads as peers print it.
@Suite struct ReadableOutputTests {
    /// `haapi api` on a terminal pretty-prints JSON as `gh api` does, ends the last line, and
    /// still neutralises what the server sent.
    @Test func jsonIsPrettyAndEveryBodyEndsItsLastLine() {
        #expect(
            Stdout.onTerminal(Data(#"{"sub":"demo","n":[1,2]}"#.utf8)).description
                == "{\n  \"n\" : [\n    1,\n    2\n  ],\n  \"sub\" : \"demo\"\n}\n")
        #expect(Stdout.onTerminal(Data("plain".utf8)).description == "plain\n")
        #expect(Stdout.onTerminal(Data("two\nlines\n".utf8)).description == "two\nlines\n")
        #expect(Stdout.onTerminal(Data()).description == "")
        #expect(!Stdout.onTerminal(Data("bad \u{1B}]0;title\u{07} text".utf8)).description.contains("\u{1B}"))
        #expect(!Stdout.onTerminal(Data(#"{"a":"\u001b[2J"}"#.utf8)).description.contains("\u{1B}"))
    }

    /// Shell completion of `--profile` offers the saved profiles (the shells' scripts ask `haapi ---completion`).
    @Test func completionOffersTheSavedProfiles() throws {
        let directory = try CLITests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        for name in ["default", "work"] {
            let folder = directory.appendingPathComponent("home/profiles/\(name)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try Data(#"{"clientID": "x", "redirectUri": "haapi://callback"}"#.utf8).write(to: folder.appendingPathComponent("config.json"))
        }
        let run = try CLITests.haapi(
            ["---completion", "token", "--", "--profile", "3", "0", "haapi", "token", "--profile", ""], home: directory)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.split(separator: "\n") == ["default", "work"], "\(run.stdout)")
    }

    /// `haapi status`: the expiry in local time to the minute, and the time left in words.
    @Test func statusSaysWhenInLocalTimeAndHowLongIsLeft() {
        #expect(ProfileReport.duration(45) == "45 s" && ProfileReport.duration(14 * 60 + 59) == "14 min")
        #expect(ProfileReport.duration(7500) == "2 h 5 min" && ProfileReport.duration(7200) == "2 h")
        let date = Date(timeIntervalSince1970: 1_800_000_000)
        #expect(ProfileReport.localMinute(date).wholeMatch(of: /\d{4}-\d{2}-\d{2} \d{2}:\d{2}/) != nil)
    }
}
