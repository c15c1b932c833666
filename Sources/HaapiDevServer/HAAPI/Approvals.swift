import Foundation
import Hummingbird
import Logging
import OAuthCore

/// The approvals the waiting authenticators (polling, Duo push, BankID) wait for, as a phone
/// app would give them: the server "sends" the user a link (to the server log, and to the
/// request log as `approve: URL for USERNAME`), and only opening it and choosing Approve ends
/// the wait. A name nobody has gets the same pending answers and no link, so its wait ends as
/// an unapproved one does: after ``DevServerConfiguration/approvalTimeout``.
enum Approvals {
    static let logger = ServerLog(label: "haapi-server.approvals")
    /// The store kind of approval requests (id = the secret in the link).
    static let kind = "approval"

    /// One request for the user's approval.
    struct Record: Codable, Sendable {
        /// The flow that waits.
        var sessionID: String
        var username: String
        /// What the user is asked to approve ("the polling login", "a BankID order").
        var purpose: String
        var clientId: String
        /// `true` approved, `false` denied, `nil` not answered yet.
        var approved: Bool?
        /// When and from which address the login asked: what the page shows, so that a user can
        /// tell a login of their own from someone else's (`nil` in records of older servers).
        var requestedAt: Date?
        var source: String?
    }

    /// Where a wait stands.
    enum Progress {
        /// Still waiting (`done` false) or approved (`done` true).
        case waiting(done: Bool)
        /// Over without an approval: the problem to answer with.
        case failed(Response)
    }

    /// Starts a wait for `user`'s approval of `purpose`, ending any earlier one of the flow, and
    /// sends the link when there is a user. The caller keeps the approval in the flow's
    /// ``FlowSession/pending`` and saves the flow.
    static func ask(_ request: FlowRequest, user: UserRecord?, purpose: String, state: ServerState) async throws -> Pending.Approval {
        if let earlier = request.flow.pending.approval { try await state.store.delete(kind: kind, id: earlier.id) }
        let approval = Pending.Approval(
            id: SeedData.randomToken(24), expires: Date().addingTimeInterval(state.configuration.approvalTimeout.timeInterval))
        let (id, expires) = (approval.id, approval.expires)
        guard let user else { return approval }
        // Push bombing: past a few outstanding requests, a user gets no more links (the login then
        // waits in vain, as one for a name nobody has does), so a flood cannot wear the user down.
        let outstanding = try await state.store.count(kind: kind, where: "$.username", equals: user.username)
        guard outstanding < state.configuration.maxPendingApprovalsPerUser else {
            logger.warning("approval request for \(user.username) (\(purpose)) not sent: \(outstanding) are outstanding")
            return approval
        }
        try await state.store.put(
            Record(
                sessionID: request.sessionID, username: user.username, purpose: purpose, clientId: request.flow.clientId,
                requestedAt: Date(), source: request.source),
            kind: kind, id: id, expiresAt: expires)
        let link = link(id, state: state)
        if let userMessages = state.configuration.userMessages {
            userMessages(.approvalLink(username: user.username, purpose: ServerTexts.translate(purpose), link: link))
        } else {
            logger.notice("approval request for \(user.username) (\(purpose)): open \(link.absoluteString)")
        }
        state.configuration.log("approve: \(link.absoluteString) for \(user.username)")
        return approval
    }

    /// The link that approves (or denies) the request `id`.
    static func link(_ id: String, state: ServerState) -> URL {
        URL(string: Wire.appendingQuery(state.url(HaapiPaths.approve).absoluteString, [("request", id)]))!
    }

    /// Where the flow's wait stands: done once approved; failed (`authentication-failed` saying
    /// `unapproved`, the wait over) when denied or out of time.
    static func progress(_ request: inout FlowRequest, state: ServerState, unapproved: String) async throws -> Progress {
        guard let approval = request.flow.pending.approval else {
            return .failed(Problems.genericUserError("Nothing is being waited for: start again"))
        }
        let id = approval.id
        let record = try await state.store.get(Record.self, kind: kind, id: id)
        let sameFlow = record?.sessionID == request.sessionID
        if sameFlow, record?.approved == true { return .waiting(done: true) }
        let denied = sameFlow && record?.approved == false
        guard denied || Date() >= approval.expires else { return .waiting(done: false) }
        try await state.store.delete(kind: kind, id: id)
        request.flow.endWait()
        try await state.saveFlow(request.flow, id: request.sessionID)
        return .failed(Problems.authenticationFailed(denied ? unapproved : unapproved + " in time"))
    }

    /// How long `approval` waits in all and has left at `now`, in whole seconds (the polling step's
    /// `maxWaitTime` and `maxWaitRemainingTime`).
    static func wait(_ approval: Pending.Approval, state: ServerState, now: Date = Date()) -> (total: Int, left: Int) {
        (
            OutsideNumber.wholeSeconds(state.configuration.approvalTimeout.timeInterval),
            OutsideNumber.wholeSeconds(approval.expires.timeIntervalSince(now))
        )
    }

    /// The approved user of the flow's wait, which it ends; `nil` when it is not approved.
    static func take(_ request: inout FlowRequest, state: ServerState) async throws -> String? {
        guard let id = request.flow.pending.approval?.id,
            let record = try await state.store.get(Record.self, kind: kind, id: id),
            record.sessionID == request.sessionID, record.approved == true,
            // Taken once: of two continues at the same time, one moves on.
            try await state.store.take(Record.self, kind: kind, id: id) != nil
        else { return nil }
        request.flow.endWait()
        return record.username
    }

    /// `GET approve?request=ID`: what is asked, with Approve and Deny.
    static func page(_ request: Request, state: ServerState) async throws -> Response {
        let id = request.uri.queryParameters.get("request") ?? ""
        guard let record = try await state.store.get(Record.self, kind: kind, id: id), record.approved == nil else {
            return HTMLPages.error(unknown, status: .notFound)
        }
        return HTMLPages.approval(id: id, record: record)
    }

    /// `POST approve` (`request`, `decision` = `approve` or `deny`): answers the request once, in
    /// one atomic update as the device consent does: of two answers at once (an Approve and a
    /// Deny from two tabs), one takes effect and the other is told the request was answered.
    static func decide(_ request: Request, state: ServerState) async throws -> Response {
        let parameters = try await FlowRequest.allParameters(request)
        let id = parameters["request"] ?? ""
        guard let decision = parameters["decision"], ["approve", "deny"].contains(decision) else {
            return HTMLPages.error("Choose approve or deny.", status: .badRequest)
        }
        guard let record = try await state.store.get(Record.self, kind: kind, id: id), record.approved == nil,
            let flow = try await state.loadFlow(record.sessionID), let approval = flow.pending.approval, approval.id == id,
            Date() < approval.expires
        else { return HTMLPages.error(unknown, status: .notFound) }
        let approve = decision == "approve"
        // Compare-and-swap: only a record still unanswered (and still there: the flow may have
        // ended the wait since the read) takes the answer.
        let answered = try await state.store.update(Record.self, kind: kind, id: id) { record in
            guard record.approved == nil else { return false }
            record.approved = approve
            return true
        }
        guard answered != nil else { return HTMLPages.error(unknown, status: .notFound) }
        return HTMLPages.page(
            approve ? "Approved" : "Denied",
            "<p>\(markup: HTMLPages.t(approve ? "You can go back to the app." : "The login was refused."))</p>")
    }

    static let unknown = "This approval request is unknown, already answered, or expired."
}

extension ServerState {
    /// The approval links the server has "sent" and nobody has answered yet: what the users'
    /// phones would show (for tools and tests that play the user).
    public func pendingApprovalLinks() async throws -> [URL] {
        try await store.all(Approvals.Record.self, kind: Approvals.kind).filter { $0.value.approved == nil }.map {
            Approvals.link($0.id, state: self)
        }
    }
}
