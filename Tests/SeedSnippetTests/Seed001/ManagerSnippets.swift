import Foundation
import HaapiUI
import Testing

// Seed 001 (the HAAPI SDK), "How to get started" and "Running the HAAPI flow": the
// configuration, the accessor, the manager and the handling of its results.

// MARK: 001-3 HaapiConfiguration
// Changed: inside a function that returns it; the address `https://localhost:8443` is the
// test server's.

func fooHaapiConfiguration() -> HaapiConfiguration {
let baseURL = URL(string: Constants.baseURL.absoluteString)!
let haapiConfiguration = HaapiConfiguration(name: "foo-name",
clientId: "foo-client-id",
baseURL: baseURL,
tokenEndpointURL: URL(string: "/oauth/token",
relativeTo: baseURL)!,
authorizationEndpointURL: URL(string: "/oauth/authorize",
relativeTo: baseURL)!,
appRedirect: "foo-app-redirect",
httpHeadersProvider: nil,
authorizationParametersProvider: nil)
    return haapiConfiguration
}

// MARK: 001-19 DCRConfiguration (used by 001-4 and 001-8)
// Changed: inside a function that returns it; `serverBaseURL` is its parameter.

func fooDCRConfiguration(serverBaseURL: URL) -> DCRConfiguration {
let dcrEndpointURL = URL(string: "/oauth/oauth-registration", relativeTo: serverBaseURL)
let dcrConfiguration = DCRConfiguration(templateClientId: "dcr-client-template-id", clientRegistrationEndpointUrl: dcrEndpointURL)
    return dcrConfiguration
}

// MARK: 001-4 HaapiAccessorBuilder, the recommended way (DCR fallback)
// Changed: the `...` of both configurations filled in (001-3's with the client secret DCR
// needs, 001-19's); the builder's `build()`, missing in the seed, added with `try await`.

func accessorSnippet(_ configuredHaapi: HaapiConfiguration, _ configuredDCR: DCRConfiguration) async throws -> HaapiAccessor {
let haapiConfiguration: HaapiConfiguration = configuredHaapi
let dcrConfiguration: DCRConfiguration = configuredDCR
let haapiAccessor: HaapiAccessor = try await HaapiAccessorBuilder(haapiConfiguration: haapiConfiguration)
.setDCRConfiguration(configuration: dcrConfiguration)
.build()
// HAAPI flow
let haapiManager: HaapiManager = haapiAccessor.haapiManager
// ... haapiManager.submit/follow ...
    _ = haapiManager
    return haapiAccessor
}

// MARK: 001-5, 001-6, 001-7 The manager made by hand, its results, forms and links
// Changed: inside one type (`self`); the closures' bodies, lost in the seed's text, call the
// handlers; closing braces restored; the empty `RedirectionStep` case prints like the others;
// `handleHaapiRepresentation` keeps what it is given, `handleProblemRepresentation` and
// `handleError` (named, not shown, by the seed) keep theirs.

final class ManagerScreen: @unchecked Sendable {
    let haapiConfiguration: HaapiConfiguration
    var representations = Delivered<[HaapiRepresentation]>()
    var problems = Delivered<[ProblemRepresentation]>()
    var errors = Delivered<[Error]>()
    var handledHaapiErrors: [HaapiError] = []

    init(haapiConfiguration: HaapiConfiguration) { self.haapiConfiguration = haapiConfiguration }

var haapiManager: HaapiManager!
// ...
func makeManager() {
do {
haapiManager = try HaapiManager(haapiConfiguration: haapiConfiguration)
} catch let haapiError as HaapiError {
handleHaapiError(haapiError) // Check the section `Handling HaapiError`
} catch { // Error
}
}

func startFlow() {
haapiManager.start { [weak self] haapiResult in
self?.handleHaapiResult(haapiResult)
}
}

private func handleHaapiResult(_ haapiResult: HaapiResult) {
switch haapiResult {
case .representation(let haapiRepresentation): handleHaapiRepresentation(haapiRepresentation)
case .problem(let problemRepresentation): handleProblemRepresentation(problemRepresentation)
case .error(let anError): handleError(anError)
}
}

private func handleHaapiRepresentation(_ haapiRepresentation: HaapiRepresentation) {
representations.append(haapiRepresentation)
switch haapiRepresentation {
case let redirectionStep as RedirectionStep: print(redirectionStep)
case let authenticatorSelectorStep as AuthenticatorSelectorStep: print(authenticatorSelectorStep)
case let interactiveFormStep as InteractiveFormStep: print(interactiveFormStep)
case let pollingStep as PollingStep: print(pollingStep)
case let continueSameStep as ContinueSameStep: print(continueSameStep)
case let userConsentStep as UserConsentStep: print(userConsentStep)
case let genericRepresentationStep as GenericRepresentationStep: print(genericRepresentationStep)
case let clientOperationStep as ClientOperationStep: print(clientOperationStep)
case let oAuthAuthorizationResponseStep as OAuthAuthorizationResponseStep: print(oAuthAuthorizationResponseStep)
default: break
}
}

func submit(formActionModel: FormActionModel, parameters: [String: Any]) {
haapiManager.submitForm(formActionModel, parameters: parameters) { [weak self] haapiResult in
self?.handleHaapiResult(haapiResult)
}
}

func followLink(_ link: Link) {
haapiManager.followLink(link) { [weak self] haapiResult in
self?.handleHaapiResult(haapiResult)
}
}

    private func handleProblemRepresentation(_ problem: ProblemRepresentation) { problems.append(problem) }
    private func handleError(_ error: Error) { errors.append(error) }
    private func handleHaapiError(_ error: HaapiError) { handledHaapiErrors.append(error) }
}

extension Delivered {
    func append<Element>(_ element: Element) where Value == [Element] {
        update { $0 = ($0 ?? []) + [element] }
    }
}

extension SeedSnippets {
    @Suite("Seed 001: the HAAPI flow")
    @MainActor struct Flow {
        @Test("001-3, 001-5, 001-6, 001-7: a manager made by hand runs a flow: a link, then the form, to the authorization response")
        func manualManager() async throws {
            try await SnippetServer.with { server in
                try await server.addClient("foo-client-id", strategy: .attestation, tokenBound: false)
                let haapiConfiguration = fooHaapiConfiguration()
                #expect(haapiConfiguration.tokenBoundConfiguration.bindsTokens)  // bound unless told otherwise (seed 001)
                // This device cannot attest: the manager cannot be made, and the error is handled.
                let refused = ManagerScreen(haapiConfiguration: haapiConfiguration)
                refused.makeManager()
                guard case .invalidConfiguration? = refused.handledHaapiErrors.first else {
                    Issue.record("got \(refused.handledHaapiErrors)"); return
                }
                try await withDevelopmentAttestation {
                    let screen = ManagerScreen(haapiConfiguration: haapiConfiguration)
                    screen.makeManager()
                    #expect(screen.handledHaapiErrors.isEmpty)
                    screen.startFlow()
                    let login = try await waitFor { screen.representations.value?.last as? InteractiveFormStep }
                    // A link of the step (creating an account), then back to the form through the flow's start.
                    let link = try #require(login.links.first)
                    screen.followLink(link)
                    _ = try await waitFor { (screen.representations.value?.count ?? 0) >= 2 ? true : nil }
                    #expect((screen.errors.value ?? []).isEmpty)
                    screen.startFlow()
                    let again = try await waitFor { (screen.representations.value?.count ?? 0) >= 3 ? screen.representations.value?.last as? InteractiveFormStep : nil }
                    let form = try #require(again.actions.first { $0.kind == .login }?.form)
                    screen.submit(formActionModel: form, parameters: ["userName": "demo", "password": "Password1"] as [String: Any])
                    let done = try await waitFor { screen.representations.value?.last as? OAuthAuthorizationResponseStep }
                    #expect(done.oauthAuthorizationResponseProperties.code != nil)
                    screen.haapiManager.close()
                }
            }
        }

        @Test("001-4, 001-19: the accessor registers with DCR on a device that cannot attest and runs the flow as that client")
        func accessorWithDCR() async throws {
            try await SnippetServer.with { server in
                try await server.addClient("dcr-client-template-id", secret: "foo", strategy: .dcr, tokenBound: false)
                var configuration = fooHaapiConfiguration()
                configuration = HaapiConfiguration(
                    name: configuration.name, clientId: "dcr-client-template-id", baseURL: configuration.baseURL,
                    tokenEndpointURL: configuration.tokenEndpointURL, authorizationEndpointURL: configuration.authorizationEndpointURL,
                    appRedirect: configuration.appRedirect, clientAuthenticationMethod: ClientAuthenticationMethodSecret("foo"))
                let accessor = try await accessorSnippet(configuration, fooDCRConfiguration(serverBaseURL: server.baseURL))
                let haapiManager = accessor.haapiManager
                let done = try await runToAuthorizationResponse(haapiManager, from: await haapiManager.start())
                let registered = try await server.registeredClients(from: "dcr-client-template-id")
                #expect(registered.count == 1)
                #expect(done.oauthAuthorizationResponseProperties.code != nil)
                accessor.close()
            }
        }
    }
}
