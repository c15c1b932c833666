import Foundation
import HaapiSDK
import Testing

@testable import HaapiUI

/// A wait's next answer patches the screen on show (``ScreenUpdate``): only what changed is
/// replaced, the rest of the views stay (BankID's help open, the Cancel button under the finger).
@Suite @MainActor struct ScreenUpdateTests {
    /// A BankID wait on another device, as the server answers each poll: its message, QR code and time left.
    static func bankIDPoll(message: String, qr: String, secondsLeft: Int) -> String {
        #"""
        {"type": "polling-step", "properties": {"status": "pending", "maxWaitTime": 180, "maxWaitRemainingTime": \#(secondsLeft)},
         "actions": [
           {"template": "form", "kind": "poll", "model": {"href": "/poll", "method": "GET"}},
           {"template": "form", "kind": "cancel", "title": "Cancel", "model": {"href": "/poll/cancel", "method": "GET", "actionTitle": "Cancel"}}],
         "messages": [{"text": "\#(message)", "classList": []}],
         "links": [{"href": "\#(qr)", "rel": "qr-code", "title": "QR Code", "type": "image/png"}],
         "metadata": {"viewName": "authenticator/bankid/wait/index"}}
        """#
    }

    @Test func theNextPollReplacesOnlyWhatChanged() throws {
        let first = try KitBehaviourTests.screen(
            Self.bankIDPoll(message: "Scan the QR code", qr: "data:image/png;base64,AAAA", secondsLeft: 170))
        let next = try KitBehaviourTests.screen(
            Self.bankIDPoll(message: "Scan the QR code", qr: "data:image/png;base64,BBBB", secondsLeft: 168))
        #expect(next.content.contains { if case .countdown = $0 { true } else { false } }, "the time left is on the screen")
        #expect(next.content.contains { if case .qrCode = $0 { true } else { false } }, "the QR code is on the screen")
        let update = ScreenUpdate(from: first, to: next)
        // The structure is the same: nothing is drawn again.
        let content = try #require(update.content, "the content was drawn again")
        #expect(update.messages == first.messages.map { _ in .keep })
        // What replaces: the QR code and the time left; everything else stays.
        for (index, item) in next.content.enumerated() {
            switch item {
            case .qrCode, .countdown: #expect(content[index] == .replace, "\(item) was kept")
            default: #expect(content[index] == .keep, "\(item) was replaced")
            }
        }
        #expect(content.contains(.replace) && content.contains(.keep))
        #expect(next.content.contains { if case .button = $0 { true } else { false } }, "the Cancel button is on the screen")
    }

    @Test func aNewMessageReplacesThatMessageOnly() throws {
        let first = try KitBehaviourTests.screen(
            Self.bankIDPoll(message: "Scan the QR code", qr: "data:image/png;base64,AAAA", secondsLeft: 170))
        let next = try KitBehaviourTests.screen(
            Self.bankIDPoll(message: "Enter your security code in the BankID app", qr: "data:image/png;base64,AAAA", secondsLeft: 170))
        let update = ScreenUpdate(from: first, to: next)
        #expect(update.messages?.contains(.replace) == true)
        #expect(update.content?.allSatisfy { $0 == .keep } == true)
        #expect(ScreenUpdate(from: next, to: next).isEmpty)
    }

    @Test func aChangedButtonDrawsItsStackAgain() throws {
        // A button's view holds its action: a new title or action is a new view, with its stack.
        let first = try KitBehaviourTests.screen(
            Self.bankIDPoll(message: "Scan the QR code", qr: "data:image/png;base64,AAAA", secondsLeft: 170))
        let renamed = try KitBehaviourTests.screen(
            Self.bankIDPoll(message: "Scan the QR code", qr: "data:image/png;base64,AAAA", secondsLeft: 170).replacingOccurrences(
                of: #""actionTitle": "Cancel""#, with: #""actionTitle": "Stop""#))
        #expect(first.buttons.map(\.title) != renamed.buttons.map(\.title), "the button's title changed")
        #expect(ScreenUpdate(from: first, to: renamed).content == nil)
    }

    @Test func anotherShapeIsDrawnAgain() throws {
        let wait = try KitBehaviourTests.screen(
            Self.bankIDPoll(message: "Scan the QR code", qr: "data:image/png;base64,AAAA", secondsLeft: 170))
        let form = try KitBehaviourTests.screen(KitBehaviourTests.form(kind: "login", fields: #"{"type": "text", "name": "otp"}"#))
        let update = ScreenUpdate(from: wait, to: form)
        #expect(update.content == nil)
        #expect(!update.isEmpty)
    }
}
