import Foundation
import Testing

@testable import OAuthCore

/// The turn-taking a TokenSession's changes go through.
@Suite struct TurnQueueTests {
    /// An actor whose work awaits in the middle, where reentrancy would let another piece start.
    actor Recorder {
        let turns = TurnQueue()
        var events: [String] = []

        func work(_ name: String) async {
            await turns.run {
                events.append("\(name) starts")
                try? await Task.sleep(for: .milliseconds(5))
                events.append("\(name) ends")
            }
        }
    }

    @Test func piecesOfWorkNeverInterleave() async {
        let recorder = Recorder()
        await withTaskGroup(of: Void.self) { group in
            for index in 0..<20 { group.addTask { await recorder.work("w\(index)") } }
        }
        let events = await recorder.events
        #expect(events.count == 40)
        // Every start is followed by its own end.
        for pair in stride(from: 0, to: events.count, by: 2) {
            #expect(
                events[pair].replacingOccurrences(of: " starts", with: "") == events[pair + 1].replacingOccurrences(of: " ends", with: ""))
        }
    }

    @Test func aFailureGivesTheTurnToTheNext() async {
        actor Failing {
            let turns = TurnQueue()
            func fail() async throws { try await turns.run { throw CancellationError() } }
            func succeed() async -> Bool { await turns.run { true } }
        }
        let failing = Failing()
        await #expect(throws: CancellationError.self) { try await failing.fail() }
        #expect(await failing.succeed())
    }
}
