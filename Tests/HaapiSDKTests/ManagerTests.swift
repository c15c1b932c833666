import Foundation
import HaapiDriver
import HaapiSDK
import HaapiTesting
import OAuthCore
import Testing

/// A HAAPI answer: a step below 300, a problem from there on.
func step(_ json: String, status: Int = 200, headers: HeaderFields = [:]) -> TransportAnswer {
    { .text(json, status: status, type: status < 300 ? "application/vnd.auth+json" : "application/problem+json", headers: headers, to: $0) }
}

func raw(_ status: Int, _ type: String?, _ body: String) -> TransportAnswer {
    { .text(body, status: status, type: type, to: $0) }
}

enum Documents {
    static let redirect =
        #"{"type":"redirection-step","actions":[{"template":"form","kind":"redirect","model":{"href":"/authn/authenticate","method":"GET"}}]}"#
    static let postRedirect =
        #"{"type":"redirection-step","actions":[{"template":"form","kind":"redirect","model":{"href":"/authn/done","method":"POST","fields":[{"name":"token","type":"hidden","value":"t-1"}]}}]}"#
    static let login = #"""
        {"type":"authentication-step","links":[{"href":"/authn/forgot","rel":"forgot-password","title":"Forgot?"}],
         "actions":[{"template":"form","kind":"login","model":{"href":"/authn/login?lang=en","method":"POST",
           "fields":[{"name":"userName","type":"username"},{"name":"password","type":"password"},{"name":"csrf","type":"hidden","value":"c-9"}]}}]}
        """#
    static let otpWithContinue = #"""
        {"type":"authentication-step","actions":[{"template":"form","kind":"send-code","model":{"href":"/authn/send","method":"POST",
          "fields":[{"name":"phone","type":"text","kind":"tel"}],
          "continueActions":[{"template":"form","kind":"login","model":{"href":"/authn/otp","method":"POST","fields":[{"name":"otp","type":"text"}]}}]}}]}
        """#
    static let continueSame = #"{"type":"continue-same-step","messages":[{"text":"Code sent","classList":["info"]}]}"#
    static let done =
        #"{"type":"oauth-authorization-response","properties":{"code":"c0de","state":"s-1","iss":"https://idsvr.example"},"links":[{"href":"app:/cb?code=c0de&state=s-1","rel":"authorization-response"}]}"#
    static let polling =
        #"{"type":"polling-step","properties":{"status":"pending","recipientOfCommunication":"+46 70","interval":"2000"},"actions":[{"template":"form","kind":"poll","model":{"href":"/authn/poll","method":"GET"}},{"template":"form","kind":"cancel","model":{"href":"/authn/cancel","method":"GET"}}]}"#
    static let jsonForm =
        #"{"type":"authentication-step","actions":[{"template":"form","kind":"continue","model":{"href":"/authn/webauthn","method":"POST","type":"application/json","fields":[{"name":"credential","type":"context"}]}}]}"#
    static let badCredentials = #"{"type":"https://curity.se/problems/incorrect-credentials","title":"Incorrect credentials"}"#
}

@Suite("HaapiManager")
struct HaapiManagerTests {
    let base = URL(string: "https://idsvr.example/")!

    func configuration(autoRedirect: Bool = true, pkce: Bool = false) -> HaapiConfiguration {
        HaapiConfiguration(
            name: "test", clientId: "haapi-client", baseURL: base,
            tokenEndpointURL: URL(string: "/oauth/token", relativeTo: base)!.absoluteURL,
            authorizationEndpointURL: URL(string: "https://idsvr.example/oauth/authorize")!, appRedirect: "app:/cb",
            httpHeadersProvider: { ["X-App-Version": "1.2"] },
            authorizationParametersProvider: {
                OAuthAuthorizationParameters(
                    scopes: ["openid", "read"], nonce: "n-1", acrValues: ["urn:acr:pwd"], extraRequestParameters: ["ui": "dark"],
                    state: "s-1")
            },
            isAutoRedirect: autoRedirect, usesPKCE: pkce)
    }

    @Test func startSendsTheAuthorizationRequestAndFollowsRedirects() async throws {
        let transport = ScriptedTransport([step(Documents.redirect, headers: ["Set-Session-Id": "sess-1"]), step(Documents.login)])
        let manager = HaapiManager(haapiConfiguration: configuration(pkce: true), transport: transport)
        let result = await manager.start()
        let login = try #require(result.representation as? InteractiveFormStep)
        #expect(login.actions.count == 1)
        let requests = transport.sent
        #expect(requests.count == 2)
        let authorize = requests[0].query
        #expect(requests[0].url.path == "/oauth/authorize")
        #expect(authorize["client_id"] == "haapi-client" && authorize["response_type"] == "code" && authorize["redirect_uri"] == "app:/cb")
        #expect(authorize["scope"] == "openid read" && authorize["state"] == "s-1" && authorize["nonce"] == "n-1")
        #expect(authorize["acr_values"] == "urn:acr:pwd" && authorize["ui"] == "dark" && authorize["code_challenge_method"] == "S256")
        let verifier = try #require(await manager.codeVerifier)
        #expect(authorize["code_challenge"] == PKCE.challenge(for: verifier))
        for request in requests {
            #expect(request.headers["Accept"] == "application/vnd.auth+json")
            #expect(request.headers["X-App-Version"] == "1.2")
        }
        #expect(requests[0].headers["Session-Id"] == nil)
        #expect(requests[1].headers["Session-Id"] == "sess-1")
        #expect(requests[1].url.absoluteString == "https://idsvr.example/authn/authenticate")
        #expect(await manager.currentSessionID == "sess-1")
    }

    /// Every HAAPI request asks for the user's languages, as URLSession does on Apple platforms,
    /// so that the server words its steps for the user; the app's own header wins.
    @Test func requestsAskForTheUsersLanguagesUnlessTheAppSaysOtherwise() async throws {
        let transport = ScriptedTransport([step(Documents.redirect), step(Documents.login)])
        _ = await HaapiManager(haapiConfiguration: configuration(), transport: transport).start()
        let expected = UserLanguages.acceptLanguage(UserLanguages.preferred)
        #expect(transport.sent.count == 2)
        for request in transport.sent { #expect(request.headers["Accept-Language"] == expected) }

        var ownHeader = configuration()
        ownHeader.httpHeadersProvider = { ["accept-language": "fr-CA"] }
        let second = ScriptedTransport([step(Documents.login)])
        _ = await HaapiManager(haapiConfiguration: ownHeader, transport: second).start()
        #expect(second.sent.first?.headers.values(for: "Accept-Language") == ["fr-CA"])
    }

    /// Extra parameters never replace or repeat a protocol parameter (one builder for the HAAPI
    /// flow and the browser login, which once differed: the flow sent both values).
    @Test func extraParametersCannotOverrideTheProtocolsOnes() async throws {
        var configuration = configuration(pkce: true)
        configuration.authorizationParametersProvider = {
            OAuthAuthorizationParameters(
                scopes: ["openid"],
                extraRequestParameters: [
                    "state": "forged", "redirect_uri": "https://evil.example/cb", "code_challenge": "x", "ui": "dark",
                ], state: "s-1")
        }
        let transport = ScriptedTransport([step(Documents.login)])
        _ = await HaapiManager(haapiConfiguration: configuration, transport: transport).start()
        let pairs = FormURLEncoding.decode(try #require(transport.sent.first?.url.query))
        for name in ["state", "redirect_uri", "code_challenge", "client_id"] {
            #expect(pairs.filter { $0.0 == name }.count == 1, "\(name) sent once")
        }
        let sent = Dictionary(pairs, uniquingKeysWith: { first, _ in first })
        #expect(sent["state"] == "s-1" && sent["redirect_uri"] == "app:/cb" && sent["ui"] == "dark")
    }

    @Test func withoutAutoRedirectTheRedirectionStepIsReturned() async throws {
        let transport = ScriptedTransport([step(Documents.redirect)])
        let manager = HaapiManager(haapiConfiguration: configuration(autoRedirect: false), transport: transport)
        #expect(await manager.start().representation is RedirectionStep)
        #expect(await manager.codeVerifier == nil)
        #expect(transport.sent[0].query["code_challenge"] == nil)
    }

    @Test func postRedirectsSendTheirHiddenFields() async throws {
        let transport = ScriptedTransport([step(Documents.postRedirect), step(Documents.done)])
        let manager = HaapiManager(haapiConfiguration: configuration(), transport: transport)
        let done = try #require(await manager.start().representation as? OAuthAuthorizationResponseStep)
        #expect(done.oauthAuthorizationResponseProperties.code == "c0de")
        #expect(done.oauthAuthorizationResponseProperties.iss == "https://idsvr.example")
        #expect(transport.sent[1].method == "POST")
        #expect(transport.sent[1].form == ["token": "t-1"])
    }

    @Test func endlessRedirectsAreAnError() async throws {
        let transport = ScriptedTransport(Array(repeating: step(Documents.redirect), count: 40))
        let manager = HaapiManager(haapiConfiguration: configuration(), transport: transport)
        let error = try #require(await manager.start().error as? HaapiError)
        guard case .illegalState = error else {
            Issue.record("got \(error)")
            return
        }
        #expect(transport.sent.count == HaapiManager.maximumRedirects + 1)
    }

    @Test func formsAreSubmittedByTheRules() async throws {
        let transport = ScriptedTransport([
            step(Documents.login, headers: ["Set-Session-Id": "s"]), step(Documents.badCredentials, status: 400), step(Documents.done),
        ])
        let manager = HaapiManager(haapiConfiguration: configuration(), transport: transport)
        let login = try #require(await manager.start().representation as? InteractiveFormStep)
        let formModel = try #require(login.actions.first?.form)
        // A problem is a result the user can correct.
        let problem = try #require(
            await manager.submitForm(formModel, parameters: ["userName": "alice", "password": "wrong", "csrf": "forged"]).problem)
        #expect(problem.type == .incorrectCredentialsProblem && problem.title == "Incorrect credentials")
        let request = transport.sent[1]
        #expect(request.method == "POST")
        #expect(request.url.absoluteString == "https://idsvr.example/authn/login?lang=en")
        #expect(request.headers["Content-Type"] == "application/x-www-form-urlencoded")
        #expect(request.form == ["userName": "alice", "password": "wrong", "csrf": "c-9"])
        #expect(request.headers["Session-Id"] == "s")
        _ = await manager.submitForm(formModel, parameters: ["userName": "alice", "password": "right"])
        #expect(transport.sent[2].form["password"] == "right")
    }

    @Test func getFormsAndLinksUseTheQuery() async throws {
        let transport = ScriptedTransport([step(Documents.polling), step(Documents.polling), step(Documents.login)])
        let manager = HaapiManager(haapiConfiguration: configuration(), transport: transport)
        let polling = try #require(await manager.start().representation as? PollingStep)
        #expect(polling.pollingProperties.status == .pending && polling.pollingProperties.intervalMilliseconds == 2000)
        #expect(polling.pollingProperties.recipientOfCommunication == "+46 70")
        _ = await manager.poll(polling)
        #expect(transport.sent[1].url.absoluteString == "https://idsvr.example/authn/poll")
        #expect(transport.sent[1].method == "GET" && transport.sent[1].body == nil)
        let cancel = try #require(polling.cancelAction?.form).asLink
        let login = try #require(await manager.followLink(cancel).representation as? InteractiveFormStep)
        #expect(login.links.first?.rel == "forgot-password")
        #expect(transport.sent[2].url.path == "/authn/cancel")
    }

    @Test func continueSameStepKeepsTheSubmittedFormsContinueActions() async throws {
        let transport = ScriptedTransport([step(Documents.otpWithContinue), step(Documents.continueSame)])
        let manager = HaapiManager(haapiConfiguration: configuration(), transport: transport)
        let send = try #require(await manager.start().representation as? InteractiveFormStep)
        let sendForm = try #require(send.actions.first?.form)
        let next = try #require(await manager.submitForm(sendForm, parameters: ["phone": "+4670"]).representation as? ContinueSameStep)
        #expect(next.messages.map(\.text) == ["Code sent"])
        #expect(next.continueActions.first?.form?.href == "/authn/otp")
        // The current step is still the one with the form.
        #expect(await manager.currentRepresentation is InteractiveFormStep)
    }

    @Test func jsonFormsSendAJSONObject() async throws {
        let transport = ScriptedTransport([step(Documents.jsonForm), step(Documents.done)])
        let manager = HaapiManager(haapiConfiguration: configuration(), transport: transport)
        let step = try #require(await manager.start().representation as? InteractiveFormStep)
        let jsonForm = try #require(step.actions.first?.form)
        _ = await manager.submitForm(jsonForm, parameters: ["credential": #"{"id":"x"}"#])
        let request = transport.sent[1]
        #expect(request.headers["Content-Type"] == "application/json")
        #expect(try JSONValue(parsing: try #require(request.body)) == ["credential": #"{"id":"x"}"#])
    }

    @Test func whatIsNeitherStepNorProblemIsATypedErrorKeepingStatusAndBody() async throws {
        let transport = ScriptedTransport([
            raw(500, "text/html", "<html>Oops</html>"), raw(200, "application/json", "{}"),
            raw(400, "application/json", #"{"error":"invalid_request","error_description":"bad client"}"#),
            raw(200, "application/vnd.auth+json", "not json"),
            raw(200, "application/vnd.auth+json", #"{"type":"authentication-step","actions":{}}"#),
            { _ in throw HTTPTransportError(.connectionFailed, "refused") },
        ])
        let manager = HaapiManager(haapiConfiguration: configuration(), transport: transport)
        guard case .invalidURLResponse(let response, _, let cause as UnexpectedResponseError)? = await manager.start().error as? HaapiError
        else {
            Issue.record("500 HTML was not an unexpected response")
            return
        }
        #expect(cause.statusCode == 500 && cause.contentType == "text/html" && cause.body == Data("<html>Oops</html>".utf8))
        #expect(response?.statusCode == 500 && response?.url.host == configuration().authorizationEndpointURL.host)
        guard case .invalidURLResponse(_, _, let plain as UnexpectedResponseError)? = await manager.start().error as? HaapiError,
            plain.statusCode == 200
        else {
            Issue.record("plain JSON accepted")
            return
        }
        guard case .serverError("invalid_request", "bad client", 400)? = await manager.start().error as? HaapiError else {
            Issue.record("OAuth error not a serverError")
            return
        }
        #expect((await manager.start().error as? HaapiModelError)?.code == .notJSON)
        let shape = try #require(await manager.start().error as? HaapiModelError)
        #expect(shape.code == .wrongType && shape.path == "actions")
        let communication = try #require(await manager.start().error as? HaapiError)
        guard case .communication(_, let cause) = communication else {
            Issue.record("got \(communication)")
            return
        }
        #expect((cause as? HTTPTransportError)?.code == .connectionFailed)
        #expect(communication.recoverySuggestion == .retryable(condition: .now))
    }

    @Test func closedManagerRefusesWork() async throws {
        let manager = HaapiManager(haapiConfiguration: configuration(), transport: ScriptedTransport([]))
        manager.close()
        guard case .haapiTokenManagerIsClosed? = await manager.start().error as? HaapiError else {
            Issue.record("not closed")
            return
        }
    }

    @Test func completionHandlersDeliverTheSameResults() async throws {
        let transport = ScriptedTransport([step(Documents.login)])
        let manager = HaapiManager(haapiConfiguration: configuration(), transport: transport)
        let result = await withCheckedContinuation { continuation in
            manager.start { continuation.resume(returning: $0) }
        }
        #expect(result.representation is InteractiveFormStep)
    }
}

extension FormActionModel {
    /// A GET form with no fields, followed like a link (test convenience).
    var asLink: Link {
        get throws {
            let link = try HaapiModel.representation(from: ["type": "authentication-step", "links": [["href": .string(href)]]]).links[0]
            return link
        }
    }
}

/// Where HAAPI requests (with the HAAPI token, the `Session-Id` and a proof) may go: the
/// configured server's origin, compared as scheme, host and port whatever their spelling.
@Suite("The configured server's origin")
struct ServerOriginTests {
    @Test func onlyTheSameSchemeHostAndPortAreTheServer() {
        let configuration = HaapiManagerTests().configuration()
        for same in ["https://idsvr.example/authn", "HTTPS://IDSVR.example:443/x?y#z", "https://user@idsvr.example/"] {
            #expect(configuration.isServerOrigin(URL(string: same)!), "\(same)")
        }
        for other in [
            "http://idsvr.example/", "https://idsvr.example:8443/", "https://idsvr.example.evil/", "https://idsvr.example@evil.example/",
            "app:/cb",
        ] {
            #expect(!configuration.isServerOrigin(URL(string: other)!), "\(other)")
        }
    }
}

/// An app's own configuration types (Curity's `HaapiConfigurable` and `OAuthTokenConfigurable`),
/// as the managers take them.
@Suite("An app's own configurations")
struct ConfigurableTests {
    struct AppHaapiConfiguration: HaapiConfigurable {
        let name = "app-flow"
        let clientId = "app-client"
        let baseURL = URL(string: "https://idsvr.example/")!
        let tokenEndpointURL = URL(string: "https://idsvr.example/oauth/token")!
        let authorizationEndpointURL = URL(string: "https://idsvr.example/oauth/authorize")!
        let appRedirect = "app:/cb"
        let isAutoRedirect = false
        let httpHeadersProvider: HttpHeadersProvider? = { ["X-App": "1"] }
        let authorizationParametersProvider: OAuthAuthorizationParametersProvider? = nil
        let minTokenTtl: TimeInterval = 45
        let attestationConfiguration = AttestationConfiguration()
        let tokenBoundConfiguration: any TokenBoundConfiguration = UnboundedTokenConfiguration()
        let clientAuthenticationMethod: any ClientAuthenticationMethod = ClientAuthenticationMethodNone()
        let riskAssessmentConfiguration: RiskAssessmentConfiguration? = nil
    }

    struct AppTokenConfiguration: OAuthTokenConfigurable {
        let clientId = "token-client"
        let tokenEndpointURL = URL(string: "https://idsvr.example/oauth/token")!
        let appRedirect = "app:/cb"
        let revocationEndpointURL: URL? = URL(string: "https://idsvr.example/oauth/revoke")
        let tokenBoundConfiguration: any TokenBoundConfiguration = UnboundedTokenConfiguration()
        let tokenEndpointResponseListener: (any OAuthTokenManager.TokenEndpointResponseListener)? = nil
        let clientAuthenticationMethod: any ClientAuthenticationMethod = ClientAuthenticationMethodNone()
    }

    @Test func aHaapiConfigurableIsCopiedMemberByMemberWithTheDefaultsForTheRest() {
        let made = HaapiConfiguration(haapiConfigurable: AppHaapiConfiguration())
        #expect(made.name == "app-flow" && made.clientId == "app-client" && made.appRedirect == "app:/cb")
        #expect(made.authorizationEndpointURL.absoluteString == "https://idsvr.example/oauth/authorize")
        #expect(!made.isAutoRedirect && made.minTokenTtl == 45 && made.httpHeadersProvider?() == ["X-App": "1"])
        #expect(made.tokenBoundConfiguration is UnboundedTokenConfiguration)
        #expect(made.revocationEndpointURL == nil && made.timeout == 30)
    }

    @Test func anOAuthTokenConfigurableIsNamedAfterItsClientAndStartsAtItsTokenEndpoint() {
        let made = HaapiConfiguration(oauthTokenConfigurable: AppTokenConfiguration())
        #expect(made.name == "token-client" && made.clientId == "token-client")
        #expect(made.baseURL == made.tokenEndpointURL && made.authorizationEndpointURL == made.tokenEndpointURL)
        #expect(made.revocationEndpointURL?.absoluteString == "https://idsvr.example/oauth/revoke")
    }

    @Test func aHaapiConfigurationIsKeptWholeEvenWhatNeitherProtocolHas() {
        var configuration = HaapiManagerTests().configuration()
        configuration.timeout = 7
        configuration.isAutoRedirect = false
        #expect(HaapiConfiguration(haapiConfigurable: configuration).timeout == 7)
        #expect(HaapiConfiguration(oauthTokenConfigurable: configuration).timeout == 7)
        #expect(HaapiConfiguration(oauthTokenConfigurable: configuration).name == configuration.name)
        #expect(!HaapiConfiguration(oauthTokenConfigurable: configuration).isAutoRedirect)
    }
}
