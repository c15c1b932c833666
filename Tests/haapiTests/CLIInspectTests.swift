import Foundation
import HaapiTesting
import OAuthCore
import Testing

/// `haapi inspect` run on its own (it reads only what it is given), and the SDK's fixtures it
/// reads (Tests/HaapiSDKTests/Fixtures).
enum Inspect {
    /// Runs `haapi` with `arguments`, feeding `input` to its standard input.
    static func run(_ arguments: [String], input: Data = Data()) throws -> HaapiCommand.Run {
        try HaapiCommand.requireBinary()
        let run = try Subprocess.run(HaapiCommand.binary, arguments, input: input)
        return HaapiCommand.Run(status: run.status, stdout: run.output, stderr: run.errors, seconds: run.seconds, timedOut: run.timedOut)
    }

    /// Writes `text` to a temporary file and returns its path.
    static func temporaryFile(_ text: String) throws -> String {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("haapi-inspect-\(UUID().uuidString).json")
        try Data(text.utf8).write(to: url)
        return url.path
    }

    /// The SDK's fixture `name`.json.
    static func fixture(_ name: String) throws -> URL {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("HaapiSDKTests/Fixtures/\(name).json")
        try #require(FileManager.default.fileExists(atPath: url.path), "no fixture \(name).json")
        return url
    }

    /// The bytes of the SDK's fixture `name`.json.
    static func fixtureData(_ name: String) throws -> Data { try Data(contentsOf: fixture(name)) }
}

@Suite("haapi inspect (the built executable)")
struct InspectTests {
    @Test("Text: class, type, metadata, messages, links, fields with options and defaults")
    func text() throws {
        let result = try Inspect.run(["inspect", try Inspect.fixture("form-fields").path])
        #expect(result.status == 0)
        #expect(result.stderr.isEmpty)
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first == "class: InteractiveFormStep")
        #expect(lines.contains("type: registration-step"))
        #expect(lines.contains("metadata: viewName=views/register/profile"))
        #expect(lines.contains("  [heading] Tell us about you"))
        #expect(lines.contains("  help \"Help\": /help/profile"))
        #expect(lines.contains("  - form user-register \"Create your profile\": POST /authn/register/create/profile [Create]"))
        #expect(lines.contains("    field text age \"Age\" required kind=number minLength=1 maxLength=3"))
        #expect(lines.contains("    field text nickname \"Nickname\" optional"), "the initial value of a visible field is not shown")
        #expect(lines.contains("    field select country \"Country\" required"))
        #expect(lines.contains("      option SE \"Sweden\" (selected)"))
        #expect(lines.contains("    field checkbox terms \"I accept the terms\" required checked"))
        #expect(lines.contains("    field drawing-pad signature \"Sign here\" required"))
        #expect(lines.contains("    field hidden flow value=\"profile-v2\""))
    }

    @Test("Text: nested selectors indented, client operations with arguments and continue/error actions")
    func nesting() throws {
        let path = try Inspect.temporaryFile(
            #"{"type":"authentication-step","actions":[{"template":"selector","kind":"device-selector","title":"Devices","model":{"options":[{"template":"selector","kind":"device-option","title":"Phone","model":{"options":[{"template":"form","kind":"login","title":"push","model":{"href":"/d","method":"POST","fields":[{"name":"factor","type":"hidden","value":"push"}]}}]}}]}}]}"#
        )
        defer { try? FileManager.default.removeItem(atPath: path) }
        let nested = try Inspect.run(["inspect", path])
        #expect(nested.status == 0)
        #expect(
            nested.stdout.contains(
                """
                actions:
                  - selector device-selector "Devices": 1 options
                    - selector device-option "Phone": 1 options
                      - form login "push": POST /d
                        field hidden factor value="push"
                """))

        let operation = try Inspect.run(["inspect", try Inspect.fixture("external-browser-flow").path])
        #expect(operation.status == 0)
        #expect(operation.stdout.hasPrefix("class: ExternalBrowserClientOperationStep\n"))
        #expect(
            operation.stdout.contains(
                """
                  - client-operation external-browser-launch "Continue in your browser": operation external-browser-flow
                    argument href: https://login.riverbank.example/authn/federate/partner-idp?_launch=Lq7vR2
                    continue actions:
                      - form continue: POST /authn/federate/partner-idp/resume
                        field context _resume_nonce
                    error actions:
                      - form cancel "Choose another way to sign in": GET /authn/authenticate
                """))
    }

    @Test("Text: image links are marked and data: URLs shortened; polling properties shown")
    func imageLinks() throws {
        let result = try Inspect.run(["inspect", try Inspect.fixture("polling-pending").path])
        #expect(result.status == 0)
        #expect(result.stdout.hasPrefix("class: PollingStep\ntype: polling-step\n"))
        #expect(result.stdout.contains("  status: pending\n"))
        #expect(result.stdout.contains("  interval: 2500\n"))
        #expect(
            result.stdout.contains(
                "  qr-code [image image/png] \"Scan with the app\": data:image/png;base64,iVBORw0KGgoAAAAN… (114 characters)\n"))
        #expect(!result.stdout.contains("ASUVORK5CYII="), "the whole data: URL is not printed")
    }

    @Test("Text: problems with title and invalid fields")
    func problems() throws {
        let invalid = try Inspect.run(["inspect", try Inspect.fixture("problem-invalid-input").path])
        #expect(invalid.status == 0)
        #expect(invalid.stdout.contains("class: InvalidInputProblem\ntype: https://curity.se/problems/invalid-input\n"))
        #expect(invalid.stdout.contains("title: Some fields need your attention\n"))
        #expect(
            invalid.stdout.contains(
                "invalid fields:\n  email: missing (Enter your e-mail address)\n  age: invalidValue (Age must be a number)\n"))
        let oauth = try Inspect.run(["inspect", try Inspect.fixture("problem-error-authorization-response").path])
        #expect(oauth.stdout.contains("class: AuthorizationProblem\n"))
        #expect(oauth.stdout.contains("error: access_denied\n"))
    }

    @Test("Password values are never printed")
    func passwordsHidden() throws {
        let path = try Inspect.temporaryFile(
            #"{"type":"authentication-step","actions":[{"template":"form","kind":"login","model":{"href":"/l","method":"POST","fields":[{"name":"password","type":"password","value":"hunter2-secret"}]}}]}"#
        )
        defer { try? FileManager.default.removeItem(atPath: path) }
        for arguments in [["inspect", path], ["inspect", "--json", path]] {
            let result = try Inspect.run(arguments)
            #expect(result.status == 0)
            #expect(result.stdout.contains("password"))
            #expect(!result.stdout.contains("hunter2-secret"))
        }
    }

    @Test("--json: the same facts as JSON with stable keys")
    func json() throws {
        let result = try Inspect.run(["inspect", "--json", try Inspect.fixture("user-consent-step").path])
        #expect(result.status == 0)
        let json = try JSONValue(parsing: Data(result.stdout.utf8))
        #expect(json["result"] == "representation")
        #expect(json["class"] == "UserConsentStep")
        #expect(json["type"] == "user-consent-step")
        #expect(json["metadata"] == ["viewName": "views/consent/scopes", "templateArea": "consent-area"])
        #expect(json["messages"]?.arrayValue?.first == ["text": "Northwind Notes wants to use your account", "classList": ["heading"]])
        let action = try #require(json["actions"]?.arrayValue?.first)
        #expect(action["template"] == "form")
        #expect(action["kind"] == "user-consent")
        #expect(action["method"] == "POST")
        #expect(action["href"] == "/authn/consent/northwind-notes")
        let fields = try #require(action["fields"]?.arrayValue)
        #expect(
            fields.first
                == [
                    "type": "checkbox", "name": "scope_openid", "label": "Sign you in", "required": true, "value": "openid",
                    "checked": true, "readonly": true, "userInput": true,
                ])
        // A hidden field is sent without the user: the text says neither required nor optional.
        #expect(
            fields.last == ["type": "hidden", "name": "consent_ticket", "required": true, "value": "ticket-8c1e77", "userInput": false])
        // Stable: sorted keys, the same bytes every time.
        let again = try Inspect.run(["inspect", "--json", try Inspect.fixture("user-consent-step").path])
        #expect(again.stdout == result.stdout)
        #expect(result.stdout.range(of: "\"actions\"")!.lowerBound < result.stdout.range(of: "\"class\"")!.lowerBound)

        let selector = try Inspect.run(["inspect", "--json", try Inspect.fixture("polling-pending").path])
        let link = try #require(try JSONValue(parsing: Data(selector.stdout.utf8))["links"]?.arrayValue?.first)
        #expect(link["image"] == true)
        #expect(link["href"] == "data:image/png;base64,iVBORw0KGgoAAAAN… (114 characters)")

        let problem = try Inspect.run(["inspect", "--json", try Inspect.fixture("problem-invalid-input").path])
        let problemJSON = try JSONValue(parsing: Data(problem.stdout.utf8))
        #expect(problemJSON["result"] == "problem")
        #expect(problemJSON["class"] == "InvalidInputProblem")
        #expect(problemJSON["title"] == "Some fields need your attention")
        #expect(
            problemJSON["invalidFields"]
                == [
                    ["name": "email", "reason": "missing", "detail": "Enter your e-mail address"],
                    ["name": "age", "reason": "invalidValue", "detail": "Age must be a number"],
                ])
    }

    @Test("Standard input, and --content-type overriding the classification by content")
    func stdinAndContentType() throws {
        let bytes = try Inspect.fixtureData("unknown-kind")
        let byContent = try Inspect.run(["inspect", "-"], input: bytes)
        #expect(byContent.status == 0)
        #expect(byContent.stdout.hasPrefix("class: InteractiveFormStep\n"))
        let asProblem = try Inspect.run(["inspect", "--content-type", "application/problem+json", "-"], input: bytes)
        #expect(asProblem.status == 0)
        #expect(asProblem.stdout.hasPrefix("class: Problem\ntype: authentication-step\n"))
        let problemBytes = try Inspect.fixtureData("problem-unexpected")
        let asStep = try Inspect.run(
            ["inspect", "--content-type", "application/vnd.auth+json; charset=utf-8", "-"], input: problemBytes)
        // Read as a step, its type is not one a step can have: the typed error names it.
        #expect(asStep.status == 2)
        #expect(
            asStep.stderr.contains(
                "\"https://curity.se/problems/unexpected\" is not a step type this SDK knows (code haapi_unknown_step_type, at type)"))
    }

    @Test("Unusable input: the typed error (message, code, path) in one line on standard error, exit status 2")
    func badInput() throws {
        let path = try Inspect.temporaryFile(
            #"{"type":"authentication-step","actions":[{"template":"form","model":{"href":"/a","fields":[{"name":"a"},{"type":"text"}]}}]}"#
        )
        defer { try? FileManager.default.removeItem(atPath: path) }
        let shape = try Inspect.run(["inspect", path])
        #expect(shape.status == 2)
        #expect(shape.stdout.isEmpty)
        #expect(
            shape.stderr
                == "haapi: error: not a usable HAAPI document: the required string is missing (code haapi_missing_member, at actions[0].model.fields[1].name)\n"
        )

        let notJSON = try Inspect.run(["inspect", "-"], input: Data("<html>502</html>".utf8))
        #expect(notJSON.status == 2)
        #expect(notJSON.stderr == "haapi: error: not a usable HAAPI document: the body is not JSON (code haapi_not_json, at $)\n")

        let jsonError = try Inspect.run(
            ["inspect", "--json", "-"], input: Data(#"{"type":"authentication-step","links":[{"href":42}]}"#.utf8))
        #expect(jsonError.status == 2)
        #expect(jsonError.stdout.isEmpty)
        let error = try JSONValue(parsing: Data(jsonError.stderr.utf8))["error"]
        #expect(error?["code"] == "haapi_wrong_type")
        #expect(error?["path"] == "links[0].href")
        #expect(error?["message"]?.stringValue?.isEmpty == false)

        let missing = try Inspect.run(["inspect", "/nonexistent/haapi-response.json"])
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("cannot read /nonexistent/haapi-response.json"))
    }
}
