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
            (["warning"], .warn, "MessageView.Warn"), (["recipientOfCommunication"], .recipientofcommunication, "MessageView.RecipientOfCommunication"),
            (["username"], .username, "MessageView.Username"), (["userCode"], .usercode, "MessageView.UserCode"),
            (["custom", "error"], .error, "MessageView.Error"), (["custom"], .content, "MessageView.Content"), ([], .content, "MessageView.Content"),
        ]
        for (classes, attribute, section) in cases {
            let message: any InfoMessageModel = KitInfoMessage(text: "t", messageStyleAttribute: MessageStyleAttribute(classList: classes), classList: classes)
            #expect(message.messageStyleAttribute == attribute, "\(classes)")
            #expect(message.messageStyleAttribute.themeSection == section, "\(classes)")
        }
        // Curity's raw values, as an app may have stored them.
        #expect(MessageStyleAttribute.allCases.map(\.rawValue) == ["heading", "info", "error", "warn", "recipientofcommunication", "content", "username", "usercode"])
    }

    @Test func aProblemsHandleableTypeIsCuritysName() throws {
        let kinds: [(String, HandleableProblemType)] = [
            ("authentication-failed", .authenticationFailedProblem), ("invalid-input", .invalidInputProblem),
            ("incorrect-credentials", .incorrectCredentialsProblem), ("mismatch-between-session-and-access-token", .sessionAndAccessTokenMismatchProblem),
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

    @Test func theKitsModelsAnswerToCuritysNames() {
        let option: (any SelectorItemModel)? = nil
        let link: (any LinkItemModel)? = nil
        let style: BaseViewControllerStyle? = nil
        #expect(option == nil && link == nil && style == nil)
        #expect(BaseViewControllerStyle.self == CommonViewControllerStyle.self)
    }
}
