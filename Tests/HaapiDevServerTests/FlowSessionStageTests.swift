import Foundation
import Testing

@testable import HaapiDevServer

/// How far a flow got (``FlowSession/Stage``): who authenticated comes with when, and an
/// authenticator's wait exists only while authenticating.
@Suite struct FlowSessionStageTests {
    private static func flow() -> FlowSession {
        FlowSession(clientId: "haapi-public", redirectUri: "app:/callback", scope: ["openid"], isHaapi: true)
    }

    @Test func choosingAnAuthenticatorForgetsWhatAnotherLeft() {
        var flow = Self.flow()
        #expect(flow.authenticator == nil && flow.pending == .nothing && flow.username == nil)
        flow.choose("otp")
        flow.wait(for: .oneTimeCode(username: "alice", code: "123456"))
        #expect(flow.authenticator == "otp")
        #expect(flow.pending == .oneTimeCode(username: "alice", code: "123456"))
        flow.choose("duo")
        #expect(flow.authenticator == "duo")
        #expect(flow.pending == .nothing)
    }

    @Test func authenticatingEndsTheWaitAndKeepsWhoAndWhen() throws {
        var flow = Self.flow()
        flow.choose("otp")
        flow.wait(for: .oneTimeCode(username: "alice", code: nil))
        let before = Date()
        flow.authenticated("alice")
        #expect(flow.username == "alice")
        let time = try #require(flow.authTime)
        #expect(time >= before && time <= Date())
        #expect(flow.pending == .nothing)
        #expect(flow.authenticator == nil)
    }

    @Test func anAuthenticationStartedAgainForgetsTheUser() {
        var flow = Self.flow()
        flow.authenticated("alice")
        flow.wait(for: .oneTimeCode(username: "bob", code: "654321"))
        #expect(flow.username == nil && flow.authTime == nil)
        #expect(flow.pending == .oneTimeCode(username: "bob", code: "654321"))
    }

    @Test func theStageSurvivesTheStore() throws {
        var flow = Self.flow()
        flow.choose("bankid")
        flow.wait(for: .webAuthn(username: "alice", challenge: "c", confirmed: true))
        let again = try JSONDecoder().decode(FlowSession.self, from: JSONEncoder().encode(flow))
        #expect(again == flow)
        flow.authenticated("alice")
        #expect(try JSONDecoder().decode(FlowSession.self, from: JSONEncoder().encode(flow)) == flow)
    }
}
