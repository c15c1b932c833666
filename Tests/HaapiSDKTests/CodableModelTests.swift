import Foundation
import OAuthCore
import Testing

@testable import HaapiSDK

// Each model's `Codable` members are written once for its family (`_RepresentationPartsHolder`,
// `_ProblemPartsHolder`, `_FieldPartsHolder`, `_OperationPartsHolder`, `_RawJSONEncodable`). These
// check that those are the members used, not a conformance the compiler made up: every model of
// every fixture encodes as the JSON it was read from and decodes back to itself, and a
// document of another type is refused with the SDK's error.
@Suite("Models encode as received and decode back")
struct CodableModelTests {
    static let steps: [String] = [
        "consentor-step", "encap-auto-activation", "external-browser-flow", "form-fields", "oauth-authorization-response", "polling-failed",
        "polling-pending", "unknown-client-operation", "unknown-kind", "unknown-template", "user-consent-step", "webauthn-authentication",
        "webauthn-registration",
    ]
    static let problems: [String] = [
        "problem-authentication-failed", "problem-error-authorization-response", "problem-generic-user-error", "problem-invalid-input",
        "problem-mismatch-between-session-and-access-token", "problem-too-many-attempts", "problem-unexpected", "problem-unknown-type",
    ]

    /// `model` encodes as `rawJSON` and decodes, as its own type, back to itself.
    func roundTrip<T: Codable & Equatable>(_ model: T, _ rawJSON: JSONValue, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let data = try JSONEncoder().encode(model)
        #expect(try JSONValue(parsing: data) == rawJSON, "\(T.self)", sourceLocation: sourceLocation)
        #expect(try JSONDecoder().decode(T.self, from: data) == model, "\(T.self)", sourceLocation: sourceLocation)
    }

    func roundTrip(_ action: any Action) throws {
        try roundTrip(action, action.rawJSON)
        let properties: (any ActionProperties)? =
            (action as? FormAction)?.properties ?? (action as? SelectorAction)?.properties
            ?? (action as? ClientOperationAction)?.properties
        if let properties = properties as? any ActionProperties & _RawJSONEncodable {
            try roundTrip(properties, properties.rawJSON)
            #expect(JSONValue(text: properties.rawJsonString) == properties.rawJSON)
        }
        if let form = action.form {
            try roundTrip(form, form.rawJSON)
            for field in form.fields {
                try roundTrip(field, field.rawJSON)
                for option in (field as? SelectFormField)?.options ?? [] { try roundTrip(option, option.rawJSON) }
            }
            try (form.continueActions + form.errorActions).forEach(roundTrip)
        }
        if let selector = action.selector { try selector.options.forEach(roundTrip) }
        if let operation = action.clientOperation {
            try roundTrip(operation, operation.rawJSON)
            try (operation.continueActions + operation.errorActions).forEach(roundTrip)
        }
    }

    @Test(arguments: steps) func stepsAndWhatTheyHold(_ name: String) throws {
        guard case .representation(let step) = try HaapiModel.response(from: Fixture.data(name)) else { throw FactError.notA("step") }
        try roundTrip(step, Fixture.json(name))
        try step.allActions.forEach(roundTrip)
        for link in step.links { try roundTrip(link, link.rawJSON) }
        for message in step.messages { try roundTrip(message, message.rawJSON) }
        if let metadata = step.metadata { try roundTrip(metadata, metadata.rawJSON) }
        if let properties = step.properties {
            try roundTrip(properties, properties.rawJSON)
            #expect(JSONValue(text: properties.rawJsonString) == properties.rawJSON)
        }
    }

    @Test(arguments: problems) func problem(_ name: String) throws {
        guard case .problem(let problem) = try HaapiModel.response(from: Fixture.data(name)) else { throw FactError.notA("problem") }
        try roundTrip(problem, Fixture.json(name))
    }

    /// Decoding `json` as `T` fails with the SDK's `wrongType`.
    func refused<T: Decodable>(_ json: String, as _: T.Type, sourceLocation: SourceLocation = #_sourceLocation) {
        do {
            _ = try JSONDecoder().decode(T.self, from: Data(json.utf8))
            Issue.record("\(json) decoded as \(T.self)", sourceLocation: sourceLocation)
        } catch let error as HaapiModelError {
            #expect(error.code == .wrongType, "\(error)", sourceLocation: sourceLocation)
        } catch {
            Issue.record("\(T.self): \(error)", sourceLocation: sourceLocation)
        }
    }

    @Test func anotherTypeIsRefused() throws {
        refused(String(decoding: try Fixture.data("user-consent-step"), as: UTF8.self), as: PollingStep.self)
        refused(String(decoding: try Fixture.data("encap-auto-activation"), as: UTF8.self), as: BankIdClientOperationStep.self)
        refused(String(decoding: try Fixture.data("problem-unexpected"), as: UTF8.self), as: InvalidInputProblem.self)
        refused(#"{"type":"password","name":"p"}"#, as: TextFormField.self)
        refused(#"{"name":"bankid","arguments":{"autoStartToken":"t"}}"#, as: ExternalBrowserClientOperationActionModel.self)
        refused(#"{"template":"form","kind":"login","model":{"href":"/x"}}"#, as: SelectorAction.self)
    }
}

/// The models Curity declares as `NSObject` subclasses compare by value, as before, through
/// `isEqual` and `hash`: in `==`, in a `Set`, and as an `NSObject`.
@Suite struct NSObjectModelTests {
    @Test func equalTextsAreEqualEverywhere() throws {
        let a = Message(key: "k", literal: "Sign in")
        let b = Message(key: "k", literal: "Sign in")
        let c = Message(literal: "Sign in")
        #expect(a == b && a !== b)
        #expect(a != c)
        #expect(Set([a, b, c]).count == 2)
        #expect((a as NSObject).isEqual(b) && !(a as NSObject).isEqual(c) && !a.isEqual("Sign in"))
        #expect(a.hash == b.hash)
        #expect(a.description == "Sign in")
        let metadata = try JSONDecoder().decode(Metadata.self, from: Data(#"{"templateArea":"a","viewName":"v"}"#.utf8))
        let same = try JSONDecoder().decode(Metadata.self, from: Data(#"{"viewName":"v","templateArea":"a"}"#.utf8))
        #expect(metadata == same && metadata.hash == same.hash)
    }
}

/// The polling properties an app makes, with the waits Curity's UI kit 5.4 takes.
@Suite struct PollingPropertiesFactoryTests {
    @Test func theWaitsGivenReplaceThoseOfTheJSON() {
        let made = HaapiModel.PropertiesFactory.polling(
            rawJsonString: #"{"status":"pending","maxWaitTime":"60","interval":"2000"}"#, recipientOfCommunication: nil, status: .pending,
            maxWaitTime: "120", maxWaitRemainingTime: "90")
        #expect(made.maxWaitTime == "120" && made.maxWaitTimeSeconds == 120)
        #expect(made.maxWaitRemainingTime == "90" && made.maxWaitRemainingTimeSeconds == 90)
        #expect(made.interval == "2000" && made.intervalMilliseconds == 2000)
        let plain = HaapiModel.PropertiesFactory.polling(rawJsonString: "{}", recipientOfCommunication: "+46 70", status: .done)
        #expect(plain.maxWaitTime == nil && plain.recipientOfCommunication == "+46 70" && plain.status == .done)
    }
}
