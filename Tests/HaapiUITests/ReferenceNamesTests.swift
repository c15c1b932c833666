import Foundation
import HaapiSDK
import HaapiUI
import Testing

/// Seed 000's reference names that are this kit's own models under Curity's name: each says
/// what Curity's says.
@Suite struct ReferenceNamesTests {
    @Test func aMessagesStyleAttributeIsItsFirstKnownClass() {
        let cases: [([String], MessageStyleAttribute, String)] = [
            (["heading"], .heading, "MessageView.Heading"), (["info"], .info, "MessageView.Info"),
            (["error"], .error, "MessageView.Error"), (["is-error"], .error, "MessageView.Error"),
            (["warning"], .warn, "MessageView.Warn"),
            (["recipientOfCommunication"], .recipientofcommunication, "MessageView.RecipientOfCommunication"),
            (["username"], .username, "MessageView.Username"), (["userCode"], .usercode, "MessageView.UserCode"),
            (["custom", "error"], .error, "MessageView.Error"), (["custom"], .content, "MessageView.Content"),
            ([], .content, "MessageView.Content"),
            // Several known classes: a user code, then a heading, win whatever their order.
            (["info", "userCode"], .usercode, "MessageView.UserCode"), (["info", "heading"], .heading, "MessageView.Heading"),
            (["heading", "userCode"], .usercode, "MessageView.UserCode"), (["info", "error"], .error, "MessageView.Error"),
        ]
        for (classes, attribute, section) in cases {
            let message: any InfoMessageModel = KitInfoMessage(
                text: "t", messageStyleAttribute: MessageStyleAttribute(classList: classes), classList: classes)
            #expect(message.messageStyleAttribute == attribute, "\(classes)")
            #expect(message.messageStyleAttribute.themeSection == section, "\(classes)")
        }
        // Curity's raw values, as an app may have stored them: `MessageStyleAttribute: String` in
        // IdsvrHaapiUIKit's .swiftinterface (curityio/ios-idsvr-haapi-ui-kit-dist, 4033a92) has these
        // cases, in this order, with no raw values of their own, so each is its name.
        #expect(
            MessageStyleAttribute.allCases.map(\.rawValue) == [
                "heading", "info", "error", "warn", "recipientofcommunication", "content", "username", "usercode",
            ])
    }

    @Test func aProblemsHandleableTypeIsCuritysName() throws {
        let kinds: [(String, HandleableProblemType)] = [
            ("authentication-failed", .authenticationFailedProblem), ("invalid-input", .invalidInputProblem),
            ("incorrect-credentials", .incorrectCredentialsProblem),
            ("mismatch-between-session-and-access-token", .sessionAndAccessTokenMismatchProblem),
            ("too-many-attempts", .tooManyAttemptsProblem), ("unexpected", .unhandleable), ("generic-user-error", .unhandleable),
            ("error-authorization-response", .unhandleable),
        ]
        for (type, kind) in kinds {
            let json = #"{"type":"https://curity.se/problems/\#(type)","title":"T"}"#
            guard case .problem(let problem) = try HaapiModel.response(from: Data(json.utf8)) else {
                Issue.record("\(type) is not a problem")
                continue
            }
            #expect(KitProblemModel(problem).type == kind, "\(type)")
        }
    }

    /// A captured selector step (Curity's own answer) maps to a ``SelectorModel`` whose options
    /// and links are the kit's models under Curity's names, in the server's order.
    @Test func theKitsModelsAnswerToCuritysNames() throws {
        let selector = try #require(
            try factory.model(try Documents.step(Documents.captured, "selectAuthenticationWithLinks.json")) as? any SelectorModel)
        let options: [any SelectorItemModel] = selector.selectorItems
        let links: [any LinkItemModel] = selector.linkItems
        #expect(links.map(\.text) == ["Forgot your password?", "Forgot your username?", "Create account"])
        #expect(options.map(\.title) == ["google1", "username"])
        #expect(BaseViewControllerStyle.self == CommonViewControllerStyle.self)
    }

    @Test func dropFirstAndSinkSkipsTheValueAPublisherHoldsNow() async {
        let subject = CurrentValueSubject<Int, Never>(1)
        var received: [Int] = []
        let subscription = subject.dropFirstAndSink { received.append($0) }
        subject.send(2)
        subject.send(3)
        #expect(received == [2, 3])
        subscription.cancel()

        // The main queue, told apart from others by a value only it holds.
        let mainQueue = DispatchSpecificKey<Int>()
        DispatchQueue.main.setSpecific(key: mainQueue, value: 1)
        let onMain = CurrentValueSubject<Int, Never>(1)
        let value = await withCheckedContinuation { (continuation: CheckedContinuation<(Int, Bool), Never>) in
            var subscription: AnyCancellable?
            subscription = onMain.dropFirstAndSinkOnMainThread { value in
                continuation.resume(returning: (value, DispatchQueue.getSpecific(key: mainQueue) == 1))
                subscription?.cancel()
                subscription = nil
            }
            onMain.send(7)
        }
        #expect(value == (7, true))
    }

    /// Curity's OAuthDataMapperBuilder: a handler per response type, the kit's model for the others.
    @Test func theOAuthDataMapperMapsEachResponseTypeWithItsHandler() throws {
        struct AppError: OAuthModel { let code: String }
        let mapper = OAuthDataMapperBuilder()
            .customize(modelType: ErrorTokenResponse.self) { response in AppError(code: (response as? ErrorTokenResponse)?.error ?? "?") }
            .build()
        let refused = try JSONDecoder().decode(ErrorTokenResponse.self, from: Data(#"{"error":"invalid_grant"}"#.utf8))
        #expect((try mapper.mapTokenResponseToOAuthModel(tokenResponse: .errorToken(refused)) as? AppError)?.code == "invalid_grant")
        let tokens = try SuccessfulTokenResponse(members: ["access_token": .string("at"), "token_type": .string("Bearer")])
        #expect(
            (try mapper.mapTokenResponseToOAuthModel(tokenResponse: .successfulToken(tokens)) as? KitOAuthTokenModel)?.accessToken == "at")
    }
}
