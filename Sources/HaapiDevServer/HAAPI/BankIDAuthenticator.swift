import Crypto
import Foundation
import Hummingbird
import OAuthCore

/// A simulated BankID, shaped as Curity's BankID authenticator sends it: a choice of this
/// device or another; on this device a `bankid` client operation with the autostart token
/// (continuing polls); on another a polling step carrying the operation with QR data, which
/// changes every second as BankID's animated QR code does
/// (`bankid.<qrStartToken>.<seconds>.<HMAC-SHA256(qrStartSecret, seconds)>`).
///
/// The order is "signed" when the user opens the approval link the server sends (``Approvals``)
/// and approves; for a number nobody has, no link is sent and the order ends, as an unsigned
/// one does, in `authentication-failed`.
enum BankIDAuthenticator {
    static let name = "bankid"

    static func show(_ request: FlowRequest) -> Response { Wire.reply(Steps.bankIDChoice()) }

    /// `POST start`: a new order.
    static func start(_ request: inout FlowRequest, state: ServerState) async throws -> Response {
        guard let number = request.value("personalnumber")?.filter({ !$0.isWhitespace && $0 != "-" }), !number.isEmpty else {
            return Problems.invalidInput([.missing("personalnumber", "You have to enter your personal number")])
        }
        guard number.count == 12, number.allSatisfy(\.isNumber) else {
            return Problems.invalidInput([.invalid("personalnumber", "A personal number has 12 digits: yyyymmddnnnn")])
        }
        let otherDevice = request.value("usesamedevice") == "false"
        let user = try await state.store.all(UserRecord.self, kind: "user").first { $0.value.personalNumber == number }?.value
        let order = Pending.BankIDOrder(
            autoStartToken: UUID().uuidString.lowercased(), qrStartToken: UUID().uuidString.lowercased(),
            qrStartSecret: SeedData.randomToken(16), start: Date(), otherDevice: otherDevice,
            approval: try await Approvals.ask(request, user: user, purpose: "a BankID order", state: state))
        request.flow.wait(for: .bankID(order))
        try await state.saveFlow(request.flow, id: request.sessionID)
        return Wire.reply(
            otherDevice
                ? Steps.bankIDPolling(
                    done: false, autoStartToken: order.autoStartToken, qrData: qrData(order), wait: wait(order, state: state))
                : Steps.bankIDSameDevice(autoStartToken: order.autoStartToken))
    }

    /// `GET poll`: pending, then done (continued by the polling authenticator's `moveOn`), or
    /// `authentication-failed` for an order nobody can sign.
    static func poll(_ request: inout FlowRequest, state: ServerState) async throws -> Response {
        guard case .bankID(let order) = request.flow.pending else {
            return Problems.genericUserError("No BankID order is under way: start again")
        }
        switch try await Approvals.progress(&request, state: state, unapproved: "The BankID order was not signed") {
        case .waiting(let done):
            return Wire.reply(
                Steps.bankIDPolling(
                    done: done, autoStartToken: order.autoStartToken, qrData: order.otherDevice ? qrData(order) : nil,
                    wait: order.otherDevice ? wait(order, state: state) : nil))
        case .failed(let problem):
            return problem
        }
    }

    /// How long an order waits to be signed, and how long it has left, in whole seconds.
    static func wait(_ order: Pending.BankIDOrder, state: ServerState, now: Date = Date()) -> (total: Int, left: Int) {
        let total = OutsideNumber.wholeSeconds(state.configuration.approvalTimeout.timeInterval)
        return (total, total - OutsideNumber.wholeSeconds(now.timeIntervalSince(order.start)))
    }

    /// The animated QR code's text at `now`, as BankID's relying-party guidelines define it.
    static func qrData(_ order: Pending.BankIDOrder, now: Date = Date()) -> String {
        let seconds = String(max(0, OutsideNumber.wholeSeconds(now.timeIntervalSince(order.start))))
        let code = HMAC<SHA256>.authenticationCode(for: Data(seconds.utf8), using: SymmetricKey(data: Data(order.qrStartSecret.utf8)))
        return "bankid.\(order.qrStartToken).\(seconds).\(code.map { String(format: "%02x", $0) }.joined())"
    }
}
