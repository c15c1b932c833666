import IdsvrHaapiSdk
import Foundation

// A wallet app that signs in with the HAAPI SDK alone and draws every screen itself: each HAAPI step becomes a
// question for the app's UI (WalletLoginUI), the answer the next request. Unit-test fixtures close the file.

enum WalletConfig {
    static let baseURL = URL(string: "https://idsvr.wallet.example")!
    static let clientId = "wallet-ios"
    static let redirect = "wallet:callback"
    static let version = Bundle.main.object(forInfoDictionaryKey: "CFBundleShortVersionString") as? String ?? "dev"
    static func url(_ path: String) -> URL { URL(string: path, relativeTo: baseURL)! }
    static let risk = RiskAssessmentConfiguration(operatingSystemName: "iOS", operatingSystemVersion: ProcessInfo.processInfo.operatingSystemVersionString,
                                                  deviceModelName: ProcessInfo.processInfo.hostName,
                                                  applicatonIdentifier: Bundle.main.bundleIdentifier ?? "example.wallet")

    /// `boundKeys: .p256` is the fallback for devices whose Secure Enclave keys keep failing.
    static func haapi(boundKeys: CryptoKeyType = .secureEnclave, audit: TokenEndpointAudit? = nil) -> HaapiConfiguration {
        let binding: any TokenBoundConfiguration = boundKeys == .security ? UnboundedTokenConfiguration() : BoundedTokenConfiguration(keyPairType: boundKeys)
        let secret = Bundle.main.object(forInfoDictionaryKey: "WalletClientSecret") as? String
        return HaapiConfiguration(name: "wallet-\(boundKeys.rawValue)", clientId: clientId, baseURL: baseURL, tokenEndpointURL: url("/oauth/v2/oauth-token"),
                                  authorizationEndpointURL: url("/oauth/v2/oauth-authorize"), appRedirect: redirect,
                                  httpHeadersProvider: { ["X-Wallet-Version": version] },
                                  authorizationParametersProvider: { OAuthAuthorizationParameters(scopes: ["openid", "wallet"], nonce: UUID().uuidString,
                                                                                                  acrValues: [], extraRequestParameters: ["ui_locales": "en"]) },
                                  isAutoRedirect: false, urlSession: URLSession(configuration: .haapi),
                                  revocationEndpointURL: url("/oauth/v2/oauth-revoke"), minTokenTtl: 20,
                                  attestationConfiguration: AttestationConfiguration(useAttestation: true, attestationMaxRetries: 3),
                                  tokenBoundConfiguration: binding, tokenEndpointResponseListener: audit,
                                  clientAuthenticationMethod: secret.map { ClientAuthenticationMethodSecret(secret: $0) } ?? ClientAuthenticationMethodNone(),
                                  riskAssessmentConfiguration: risk)
    }
}

/// Records every token endpoint response for the support log.
final class TokenEndpointAudit: NSObject, OAuthTokenManager.TokenEndpointResponseListener {
    let record: @Sendable (String) -> Void
    init(record: @escaping @Sendable (String) -> Void) { self.record = record }
    func onSuccess(_ value: OAuthTokenManager.SuccessTokenHTTPURLResponseContent) {
        record("token ok \(value.httpURLResponse?.statusCode ?? 0) scope=\(value.successfulTokenResponse.scope ?? "-")")
    }
    func onError(_ value: ErrorHTTPURLResponseContent) {
        record("token transport failure: \(value.error.localizedDescription) body=\(value.data?.stringUtf8Encoding?.masked ?? "-")")
    }
    func onTokenError(_ value: OAuthTokenManager.ErrorTokenHTTPURLResponseContent) {
        record("token refused: \(value.errorTokenResponse.error) \(value.dataAsDictionary["error_description"] ?? "")")
    }
}

/// Dynamic-client data kept in files the OS encrypts while the device is locked.
final class ProtectedFileStorage: Storage {
    let directory: URL
    init(directory: URL) { self.directory = directory }
    private func file(_ key: String) -> URL { directory.appendingPathComponent(key.sha256Hex) }
    func read(key: String) throws -> Data? {
        do { return FileManager.default.fileExists(atPath: file(key).path) ? try Data(contentsOf: file(key)) : nil }
        catch { throw StorageError.readError(cause: error) }
    }
    func write(key: String, data: Data) throws {
        do { try data.write(to: file(key), options: [.atomic, .completeFileProtection]) } catch { throw StorageError.writeError(cause: error) }
    }
    func delete(key: String) throws {
        do { try FileManager.default.removeItem(at: file(key)) } catch { throw StorageError.deleteError(cause: error) }
    }
}

enum WalletAccess {
    static func dcr(storageIn directory: URL) -> DCRConfiguration {
        DCRConfiguration(templateClientId: "wallet-dcr-template", clientRegistrationEndpointUrl: WalletConfig.url("/oauth/v2/oauth-registration"),
                         storage: ProtectedFileStorage(directory: directory))
    }

    /// HAAPI and OAuth for the login; falls back to a dynamic client on devices without attestation.
    static func connect(_ configuration: HaapiConfiguration, storageIn directory: URL, reset: Bool = false) async throws -> any HaapiAccessor {
        guard Haapi.isSupported, HaapiManager.isSupported else { throw HaapiError.illegalState(message: "HAAPI is not supported here") }
        return try await HaapiAccessorBuilder(haapiConfiguration: configuration)
            .setHaapiAccessorOption(option: .all)
            .setDCRConfiguration(configuration: dcr(storageIn: directory))
            .setAttestationValidationRetryCount(maxRetries: 2)
            .setAttestationValidationKeyName(keyName: "wallet-attestation")
            .build(shouldClearExistingDCRClient: reset)
    }

    /// Background refresh needs only OAuth.
    static func oauthOnly(_ configuration: HaapiConfiguration, storageIn directory: URL) async throws -> OAuthTokenManager {
        let accessor: any OAuthAccessor = try await HaapiAccessorBuilder(haapiConfiguration: configuration)
            .setHaapiAccessorOption(option: .oauth)
            .setDCRConfiguration(configuration: dcr(storageIn: directory))
            .build()
        return accessor.oAuthTokenManager
    }

    /// Test builds on attested devices skip the builder.
    static func attestedOnly(_ configuration: HaapiConfiguration) throws -> (HaapiManager, OAuthTokenManager) {
        (try HaapiManager(haapiConfiguration: configuration), OAuthTokenManager(oauthTokenConfiguration: configuration))
    }
}

enum Keyboard { case text, number, email, url, phone, color, other(String) }

struct FieldPrompt {
    let name: String, label: String
    var placeholder: String? = nil, initial: String? = nil
    var keyboard: Keyboard = .text, secure = false, readOnly = false
    var choices: [(label: String, value: String)] = []
}

struct PasskeyRequest {
    var relyingParty: String?, challenge: Data?, userID: Data?, userName: String?, displayName: String?
    var userVerification: String?, attestation: String?
    var algorithms: [Int] = [], excluded: [Data] = [], allowed: [Data] = []
}

@MainActor
protocol WalletLoginUI: AnyObject {
    func fill(_ prompts: [FieldPrompt], title: String?, messages: [String], errors: [String: String]) async -> [String: String]?
    func choose(_ title: String, options: [String]) async -> Int?
    func open(_ url: URL, code: String?) async -> URL?
    func show(_ messages: [String], waiting: Bool) async
    func createPasskey(_ request: PasskeyRequest) async -> (attestation: Data, clientData: Data, credentialID: Data)?
    func usePasskey(_ request: PasskeyRequest) async -> (authenticatorData: Data, clientData: Data, signature: Data, credentialID: Data, userID: Data?)?
}

enum NextRequest { case submit(FormActionModel, [String: any Sendable]), follow(Link), done(code: String), abort(String) }

enum Advice: Equatable { case retryNow, retryLater, restart, fixConfiguration(String), unsupportedDevice, contactSupport(String) }

@MainActor
final class StepResponder {
    let ui: WalletLoginUI
    private(set) var lastForm: FormActionModel?
    private(set) var visited: [String] = []
    init(ui: WalletLoginUI) { self.ui = ui }
    func respond(to step: any HaapiRepresentation) async -> NextRequest {
        visited.append(Self.screenName(for: step))
        let texts = step.messages.map { (message: UserMessage) -> String in  // localised by key; errors flagged
            let text = NSLocalizedString(message.text.key ?? message.text.literal, value: message.text.literal, comment: "")
            return message.classList.contains("error") ? "⚠️ \(text)" : text }
        switch step {
        case let form as InteractiveFormStep:
            guard let action = form.actions.first(where: { Self.isPrimary($0.kind) }) ?? form.actions.first else { return .abort("empty form") }
            return await ask(action.model, title: action.title?.literal ?? action.model.actionTitle?.literal, messages: texts)
        case let selector as AuthenticatorSelectorStep:
            let labels = selector.authenticators.map { [$0.title.literal, $0.type ?? $0.action.properties?.authenticatorType].compactMap { $0 }.joined(separator: " · ") }
            guard let index = await ui.choose(selector.title.literal, options: labels) else { return .abort("no authenticator chosen") }
            return .submit(selector.authenticators[index].action.model, [:])
        case let redirect as RedirectionStep: return .submit(redirect.redirectAction.model, [:])
        case let polling as PollingStep:
            let properties = polling.pollingProperties
            switch properties.status {
            case .pending, .done:
                await ui.show(texts + [properties.recipientOfCommunication].compactMap { $0 }, waiting: properties.status == .pending)
                if properties.status == .pending { try? await Task.sleep(nanoseconds: 2_000_000_000) }
                return .submit(polling.mainAction.model, [:])
            case .failed: return polling.cancelAction.map { .submit($0.model, [:]) } ?? .abort("polling failed")
            }
        case let same as ContinueSameStep:
            await ui.show(texts, waiting: false)
            return Self.formActions(same.actions).first.map { .submit($0.model, [:]) } ?? .abort("nothing to continue")
        case let consent as UserConsentStep:
            let choices = Self.formActions(consent.actions)
            guard let index = await ui.choose(texts.joined(separator: "\n"), options: choices.map { $0.title?.literal ?? $0.kind.rawValue })
            else { return .abort("consent declined") }
            return await ask(choices[index].model, title: nil, messages: [])
        case let response as OAuthAuthorizationResponseStep:
            let properties = response.oauthAuthorizationResponseProperties
            guard let code = properties.code else { return .abort(properties.rawJson["error"] ?? "no code") }
            visited.append("scope=\(properties.scope ?? "") state=\(properties.state ?? "") id_token=\(properties.idToken != nil)")
            return .done(code: code)
        case let browser as ExternalBrowserClientOperationStep:
            guard let url = browser.urlToLaunch(redirectTo: WalletConfig.redirect) ?? browser.actionModel.urlToLaunch(redirectTo: WalletConfig.redirect),
                  let callback = await ui.open(url, code: nil),
                  let parameters = try? browser.formattedParametersFromURL(callback) else {
                return Self.formActions(browser.actionsToPresent).first.map { .submit($0.model, [:]) } ?? .abort("browser cancelled")
            }
            return .submit(browser.continueFormActionModel, parameters)
        case let bankId as BankIdClientOperationStep:
            let model = bankId.actionModel
            let url = bankId.urlToLaunch(redirectTo: WalletConfig.redirect) ?? model.urlToLaunch(redirectTo: model.redirect)
                ?? bankId.activationLink.flatMap { URL(string: $0.href) }
            var launched: URL?
            if let url = url { launched = await ui.open(url, code: model.autoStartToken) }
            let next = Self.formActions(launched == nil ? bankId.errorActions : bankId.continueActions).first
            return next.map { .submit($0.model, [:]) } ?? .abort("BankID unavailable")
        case let encap as EncapClientOperationStep:
            var launched: URL?
            if let url = encap.urlToLaunch ?? encap.actionModel.urlToLaunch { launched = await ui.open(url, code: encap.actionModel.activationCode) }
            let next = Self.formActions(launched == nil ? encap.errorActions : encap.continueActions).first
            return next.map { .submit($0.model, [:]) } ?? .abort("activation unavailable")
        case let registration as WebAuthnRegistrationClientOperationStep: return await register(registration)
        case let authentication as WebAuthnAuthenticationClientOperationStep: return await authenticate(authentication)
        case let generic as GenericClientOperationStep:
            // The wallet's own "confirm with PIN" operation; anything else takes the error path.
            let model = generic.actionModel
            if case .unknown(value: "wallet-pin") = model.name,
               let pin = await ui.fill([FieldPrompt(name: "pin", label: "PIN", keyboard: .number, secure: true)],
                                       title: model.arguments["title"] as? String, messages: texts, errors: [:])?["pin"],
               let next = Self.formActions(model.continueActions).first {
                return .submit(next.model, ["pin": pin])
            }
            return Self.formActions(model.errorActions).first.map { .submit($0.model, [:]) } ?? .abort("unsupported operation \(model.name.rawValue)")
        case let other as GenericRepresentationStep:
            if let form = Self.formActions(other.actions).first { return await ask(form.model, title: form.title?.literal, messages: texts) }
            return other.links.first.map { .follow($0) } ?? .abort("unknown step \(other.type.rawValue)")
        default: return .abort("unhandled \(type(of: step))")
        }
    }
    private func ask(_ form: FormActionModel, title: String?, messages: [String], errors: [String: String] = [:]) async -> NextRequest {
        lastForm = form
        visited.append("\(form.method) \(form.href) (\(form.type))")
        let (prompts, fixed) = Self.prompts(for: form)
        if prompts.isEmpty { return .submit(form, fixed) }
        guard let answers = await ui.fill(prompts, title: title, messages: messages, errors: errors) else {
            return Self.formActions(form.errorActions + form.continueActions).first { $0.kind == .cancel }.map { .submit($0.model, [:]) } ?? .abort("cancelled")
        }
        return .submit(form, fixed.merging(answers) { _, typed in typed })
    }
    private func register(_ step: WebAuthnRegistrationClientOperationStep) async -> NextRequest {
        let model = step.actionModel
        var options: (any WebAuthnRegistrationClientOperationActionModel.CredentialRequestOptions)? = model.platformOptions
        var request = PasskeyRequest()
        if let cross = model.crossPlatformOptions {
            request.algorithms = cross.publicKeyCredParams?.filter { $0.type == "public-key" }.map { $0.algorithmId } ?? []
            request.excluded = cross.excludedCredentials?.map { $0.credentialID } ?? []
            if options == nil { options = cross }
        }
        guard let chosen = options else { return Self.fallback(step.fallbackActions + model.fallbackActions) }
        (request.relyingParty, request.challenge, request.userID) = (chosen.relyingPartyId, chosen.challengeData, chosen.userIdData)
        (request.userName, request.displayName) = (chosen.userName, chosen.displayName)
        (request.userVerification, request.attestation) = (chosen.userVerification, chosen.attestation)
        guard let created = await ui.createPasskey(request) else { return Self.fallback(step.fallbackActions) }
        let parameters = step.formattedParametersForRegistration(credentialOptions: chosen, attestationObject: created.attestation,
                                                                 rawClientDataJSON: created.clientData, credentialID: created.credentialID)
        return .submit(step.continueAction.model, Self.sendable(parameters))
    }
    private func authenticate(_ step: WebAuthnAuthenticationClientOperationStep) async -> NextRequest {
        let options = step.actionModel.credentialOptions
        let allowed = (options.platformAllowCredentials ?? []) + (options.crossPlatformAllowCredentials ?? [])
        let request = PasskeyRequest(relyingParty: options.relyingPartyId, challenge: options.challengeData,
                                     userVerification: options.userVerificationPreference,
                                     allowed: allowed.filter { $0.type == "public-key" }.map { $0.credentialID })
        guard let assertion = await ui.usePasskey(request) else { return Self.fallback(step.fallbackActions + step.actionModel.fallbackActions) }
        let parameters = step.formattedParametersForAssertion(rawAuthenticatorData: assertion.authenticatorData,
                                                              rawClientDataJSON: assertion.clientData, signature: assertion.signature,
                                                              credentialID: assertion.credentialID, userId: assertion.userID)
        return .submit(step.continueAction.model, Self.sendable(parameters))
    }

    /// Problems: wrong input goes back to the same form with the server's field errors.
    func recover(from problem: any ProblemRepresentation) async -> NextRequest {
        var fieldErrors: [String: String] = [:]
        switch problem {
        case let invalid as InvalidInputProblem:
            for field in invalid.invalidFields { fieldErrors[field.name] = field.detail.literal + (field.reason.map { " (\($0))" } ?? "") }
            if fieldErrors.isEmpty, let description = invalid.errorDescription { fieldErrors["_"] = description }
        case let authorization as AuthorizationProblem: return .abort("\(authorization.error): \(authorization.errorDescription ?? "")")
        case let plain as Problem:
            visited.append("problem \(plain.metadata?.viewName ?? "-") \(plain.rawJsonString?.maskedPrefix ?? "")")
        default: break
        }
        let messages = [problem.title?.literal].compactMap { $0 } + problem.messages.map { $0.text.literal }
        switch problem.type {
        case .invalidInputProblem, .incorrectCredentialsProblem:
            guard let form = lastForm else { return .abort(messages.joined(separator: " ")) }
            return await ask(form, title: nil, messages: messages, errors: fieldErrors)
        case .errorAuthorizationResponseProblem, .unexpectedProblem, .genericUserProblem:
            return problem.links.first.map { .follow($0) } ?? .abort(messages.joined(separator: " "))
        case .authenticationFailedProblem, .tooManyAttemptsProblem, .sessionAndAccessTokenMismatchProblem:
            return .abort(messages.first ?? problem.type.rawValue)
        case .other(let value): return .abort(value)
        }
    }

    // Pure helpers, unit-tested by the fixtures below.
    static func isPrimary(_ kind: ActionKind) -> Bool {
        switch kind {
        case .login, .continue, .continueAutoLogin, .form, .redirect, .poll, .selectAuthenticator, .bankIdSameDevice, .userRegister: return true
        case .cancel, .deviceOption, .deviceSelector, .authenticatorSelector, .bankIdOtherDevice, .passwordReset, .accountIdRecovery: return false
        case .other(let value): return value.hasPrefix("submit")
        }
    }

    /// Form actions the user can take, selectors flattened; client operations are only logged.
    static func formActions(_ actions: [any Action]) -> [FormAction] {
        actions.flatMap { action -> [FormAction] in
            switch action {
            case let form as FormAction: return [form]
            case let selector as SelectorAction:  // the server flags legacy selectors in their properties
                return selector.properties?.rawJsonString.contains("\"legacy\":true") == true ? [] : formActions(selector.model.options)
            case let operation as ClientOperationAction:
                print("skipping \(describe(operation.model)) [\(operation.properties?.rawJsonString ?? "")] \(operation.title?.literal ?? "")")
                return []
            default: return []
            }
        }
    }
    static func describe(_ model: any ClientOperationActionModelRepresentation) -> String {
        let name: String
        switch model.name {
        case .externalBrowser: name = "browser"
        case .bankId: name = "BankID"
        case .encapAutoActivation: name = "Encap"
        case .webAuthnRegistration: name = "passkey registration"
        case .webAuthnAuthentication: name = "passkey sign-in"
        case .unknown(let value): name = value
        }
        switch model {
        case let browser as ExternalBrowserClientOperationActionModel: return "\(name) → \(browser.href)"
        case let bankId as BankIdClientOperationActionModel: return "\(name) token=\(bankId.autoStartToken.maskedPrefix) → \(bankId.href)"
        case let encap as EncapAutoActivationClientOperationActionModel: return "\(name) → \(encap.href)"
        case let registration as WebAuthnRegistrationClientOperationActionModel: return "\(name) platform=\(registration.platformOptions != nil)"
        case let authentication as WebAuthnAuthenticationClientOperationActionModel: return "\(name) rp=\(authentication.credentialOptions.relyingPartyId ?? "-")"
        case let generic as GenericClientOperationActionModel: return "\(name) args=\(generic.arguments.keys.sorted())"
        case let plain as ClientOperationActionModel: return "\(name) continue=\(plain.continueActions.count) error=\(plain.errorActions.count)"
        default: return name
        }
    }

    /// Prompts for what the user types, and the values the form already fixes (hidden fields).
    static func prompts(for form: FormActionModel) -> ([FieldPrompt], [String: any Sendable]) {
        var prompts: [FieldPrompt] = [], fixed: [String: any Sendable] = [:]
        for field in form.fields {
            var prompt = FieldPrompt(name: field.name, label: field.label?.literal ?? field.name, placeholder: field.placeholder?.literal)
            switch field {
            case let text as TextFormField:
                prompt.initial = text.value
                switch text.kind {
                case .number?: prompt.keyboard = .number
                case .email?: prompt.keyboard = .email
                case .url?: prompt.keyboard = .url
                case .tel?: prompt.keyboard = .phone
                case .color?: prompt.keyboard = .color
                case .unknown(let value)?: prompt.keyboard = .other(value)
                case nil: break
                }
            case let password as PasswordFormField: (prompt.secure, prompt.initial) = (true, password.value)
            case let username as UsernameFormField: prompt.initial = username.value
            case let select as SelectFormField:
                prompt.choices = select.options.map { ($0.label.literal, $0.value) }
                prompt.initial = select.options.first { $0.selected }?.value ?? select.value
            case let checkbox as CheckboxFormField:
                prompt.choices = [(checkbox.label?.literal ?? checkbox.name, checkbox.value ?? "on")]
                (prompt.initial, prompt.readOnly) = (checkbox.checked ? checkbox.value ?? "on" : nil, checkbox.readonly)
                if checkbox.readonly { if checkbox.checked { fixed[checkbox.name] = checkbox.value ?? "on" }; continue }
            case is ContextFormField: prompt.readOnly = true
            case let hidden as HiddenFormField: fixed[hidden.name] = hidden.value; continue
            default: break
            }
            prompts.append(prompt)
        }
        return (prompts, fixed)
    }
    static func screenName(for step: any HaapiRepresentation) -> String {
        if let view = step.metadata?.viewName { return [step.metadata?.templateArea, view].compactMap { $0 }.joined(separator: "/") }
        switch step.type {
        case .authenticationStep: return "authentication"
        case .redirectionStep: return "redirect"
        case .registrationStep: return "registration"
        case .pollingStep: return "polling"
        case .continueSameStep: return "continue"
        case .oauthAuthorizationResponse: return "done"
        case .consentorStep, .userConsentStep: return "consent"
        }
    }
    static func fallback(_ actions: [any Action]) -> NextRequest {
        formActions(actions).first.map { .submit($0.model, [:]) } ?? .abort("no fallback offered")
    }

    /// The SDK formats WebAuthn results as `[String: Any]`; HaapiManager wants Sendable values.
    static func sendable(_ dictionary: [String: Any]) -> [String: any Sendable] {
        dictionary.compactMapValues { value -> (any Sendable)? in
            switch value {
            case let text as String: return text
            case let number as Int: return number
            case let flag as Bool: return flag
            case let data as Data: return data
            case let nested as [String: Any]: return sendable(nested)
            default: return nil
            }
        }
    }
}

struct WalletTokens { let access: String, refresh: String?, idToken: String?, scope: String?, type: String?, expiresAt: Date }

enum LoginOutcome { case signedIn(WalletTokens), cancelled(String), failed(Advice) }

@MainActor
final class WalletLogin {
    private let accessor: any HaapiAccessor, manager: HaapiManager, tokens: OAuthTokenManager
    let responder: StepResponder
    init(accessor: any HaapiAccessor, ui: WalletLoginUI) {
        (self.accessor, manager, tokens, responder) = (accessor, accessor.haapiManager, accessor.oAuthTokenManager, StepResponder(ui: ui))
    }
    func run(maxSteps: Int = 40) async -> LoginOutcome {
        var result = await manager.start()
        for _ in 0..<maxSteps {
            let next: NextRequest
            switch result {
            case .representation(let step): next = await responder.respond(to: step)
            case .problem(let problem): next = await responder.recover(from: problem)
            case .error(let error): return .failed(ErrorPolicy.advice(for: error))
            }
            switch next {
            case let .submit(form, parameters): result = await manager.submitForm(form, parameters: parameters)
            case .follow(let link): result = await manager.followLink(link)
            case .done(let code): return await exchange(code)
            case .abort(let reason): return .cancelled(reason)
            }
        }
        return .failed(.restart)
    }

    // SDK 5.0.0 declares only the completion-handler forms of OAuthTokenManager's calls.
    private func exchange(_ code: String) async -> LoginOutcome {
        let dpop = manager.dpop
        let response = await withCheckedContinuation { (done: CheckedContinuation<TokenResponse, Never>) in
            tokens.fetchAccessToken(with: code, dpop: dpop, additionalParameters: ["resource": "https://api.wallet.example"]) { done.resume(returning: $0) }
        }
        return Self.outcome(response)
    }
    func refresh(_ current: WalletTokens) async -> LoginOutcome {
        guard let refreshToken = current.refresh else { return .failed(.restart) }
        return Self.outcome(await withCheckedContinuation { done in
            tokens.refreshAccessToken(with: refreshToken, additionalParameters: nil) { done.resume(returning: $0) }
        })
    }
    /// Revokes both tokens and releases the accessor; true when the server confirmed both.
    func signOut(_ current: WalletTokens) async -> Bool {
        defer { accessor.close() }
        func revoked(_ response: TokenRevocationResponse) -> Bool {
            switch response {
            case .success: return true
            case .error(let error): print("revocation failed: \(ErrorPolicy.advice(for: error))"); return false
            }
        }
        let accessRevoked = revoked(await withCheckedContinuation { done in tokens.revokeAccessToken(with: current.access) { done.resume(returning: $0) } })
        guard let refresh = current.refresh else { return accessRevoked }
        return revoked(await withCheckedContinuation { done in tokens.revokeRefreshToken(with: refresh) { done.resume(returning: $0) } }) && accessRevoked
    }
    static func outcome(_ response: TokenResponse) -> LoginOutcome {
        switch response {
        case .successfulToken(let token):
            return .signedIn(WalletTokens(access: token.accessToken, refresh: token.refreshToken, idToken: token.idToken, scope: token.scope,
                                          type: token.tokenType, expiresAt: Date().addingTimeInterval(TimeInterval(token.expiresIn))))
        case .errorToken(let error):
            return error.error == "invalid_grant" ? .failed(.restart)
                : .failed(.contactSupport([error.error, error.errorDescription, error.errorUri].compactMap { $0 }.joined(separator: " ")))
        case .error(let error): return .failed(ErrorPolicy.advice(for: error))
        }
    }
}

enum ErrorPolicy {
    static func advice(for error: any Error) -> Advice {
        if let storage = error as? StorageError { return .contactSupport("storage: \(storage.localizedDescription)") }
        guard let idsvr = error as? any IdsvrError else { return .restart }
        if let haapi = idsvr as? HaapiError {
            switch haapi {
            case .attestationNotSupported, .attestationRefusedByServer: return .unsupportedDevice
            case .haapiTokenManagerIsClosed, .haapiTokenManagerIsExpired, .haapiTokenManagerAlreadyExists: return .restart
            case .communication(let message, _): print("network: \(message)")
            case let .serverError(code, description, status): print("server \(status) \(code): \(description)")
            case .invalidURLResponse(let response, let reason, _): print("bad response \(response?.url?.masked ?? "-"): \(reason)")
            case .attestationFailure, .attestationKeyGenFailure, .assertionFailure: print("attestation: \(haapi.cause.map { "\($0)" } ?? "-")")
            case .dpopKeyCreationFailure(let cause), .dpopProofCreationFailure(let cause), .dpopProofFailure(_, let cause): print("dpop: \(cause)")
            case .illegalState(let message), .invalidConfiguration(let message): return .fixConfiguration(message)
            default: break
            }
        }
        switch idsvr.recoverySuggestion {
        case .retryable(condition: .now): return .retryNow
        case .retryable(condition: .whenAppInForeground): return .retryLater
        case .newHaapiFlow: return .restart
        case .unrecoverable(action: .modifyConfiguration(let reason)): return .fixConfiguration(reason)
        case .unrecoverable(action: .invalidPlatform): return .unsupportedDevice
        case .unrecoverable(action: .introspectCause):
            return .contactSupport("\(idsvr.error): \(idsvr.failureReason) \(idsvr.errorDescription ?? "") \(idsvr.cause.map { "\($0)" } ?? "")")
        @unknown default: return .restart
        }
    }
}

/// The wallet's device-registration API accepts HAAPI tokens; the SDK's own client attaches them.
final class DeviceRegistrationAPI {
    private let tokenManager: HaapiTokenManager, client: HaapiClient
    private var sessionId: String?, dpopNonce: String?
    init(simulator: Bool = ProcessInfo.processInfo.environment["SIMULATOR_DEVICE_NAME"] != nil) throws {
        let builder = HaapiTokenManagerBuilder(tokenEndpoint: WalletConfig.url("/oauth/v2/oauth-token"), clientId: WalletConfig.clientId)
            .setName("wallet-devices")
            .setInternalUrlSession(URLSession(configuration: .haapi))
            .setHaapiTokenMinTtl(30)
            .setAttestationMaxRetryCount(maxRetries: 2)
            .setTokenBoundConfiguration(config: BoundedTokenConfiguration(keyPairType: .p256))
            .setClientAuthenticationMethod(method: ClientAuthenticationMethodNone())
            .setRiskAssessmentConfiguration(WalletConfig.risk)
        if simulator { builder.disableDeviceCheckAttestation() }
        tokenManager = try builder.build()
        client = tokenManager.createClient()
    }
    func register(pushToken: String) async throws -> Bool {
        var request = URLRequest(url: WalletConfig.url("/wallet/devices"))
        request.httpMethod = "POST"
        request.setValue(MimeTypes.json.rawValue, forHTTPHeaderField: HttpHeaderNames.contentType)
        request.addHaapiMediaTypeAcceptHeader()
        request.addClientInfoHeader(headerValue: "wallet-ios/\(WalletConfig.version)")
        if let sessionId = sessionId { request.addHaapiSessionIdHeader(sessionId) }
        request.httpBody = try JSONSerialization.data(withJSONObject: ["push_token": pushToken])
        let reply = try await client.performDataTask(for: request)
        let http = reply.response as? HTTPURLResponse
        sessionId = reply.response.haapiSessionId() ?? http?.value(forHTTPHeaderField: HttpHeaderNames.haapiSetSessionId) ?? sessionId
        print("POST \(request.masked) [\(request.value(forHTTPHeaderField: HttpHeaderNames.clientInfo) ?? "")]"
              + " → \(String.optionalData(reply.data, fallback: "<empty>").masked) dpop=\(client.dpop?.jwkThumbprint ?? "-")")
        return http?.statusCode == 201
    }

    /// The fraud service sits outside HAAPI: the HAAPI token and its DPoP proof are attached by hand.
    func reportFraudSignals(_ signals: [String: String]) async throws -> Int {
        let url = WalletConfig.url("/fraud/signals")
        var info = try await tokenManager.getHaapiTokenAsync(forceFresh: false, dpopNonce: dpopNonce)
        if !info.accessToken.isValid(atTime: Date(), minTtl: 10) { info = try await tokenManager.getHaapiTokenAsync(forceFresh: true, dpopNonce: dpopNonce) }
        var request = URLRequest(url: url)
        request.httpMethod = "PUT"
        request.setValue(MimeTypes.xWwwFormUrlEncoded.rawValue, forHTTPHeaderField: HttpHeaderNames.contentType)
        request.httpBody = signals.map { "\($0.key)=\($0.value)" }.joined(separator: "&").dataUtf8Encoding
        try request.addDpopAccessTokenHeaders(from: info, httpMethod: "PUT", url: url)
        print("fraud report \(signals.masked) token=\(info.accessToken.value.maskedPrefix) until \(info.accessToken.expiresOn)")
        let (_, response) = try await URLSession.shared.data(for: request)
        // A DPoP nonce challenge (401 + WWW-Authenticate) is answered on the next report.
        let http = response as? HTTPURLResponse
        if http?.value(forHTTPHeaderField: HttpHeaderNames.wwwAuthenticate)?.contains("use_dpop_nonce") == true {
            dpopNonce = response.dpopNonce() ?? http?.value(forHTTPHeaderField: HttpHeaderNames.dpopNonce)
        }
        return http?.statusCode ?? 0
    }

    /// Headers support staff paste into curl to reproduce a call (printed masked).
    func diagnosticHeaders(for url: URL) async throws -> [String: String] {
        let info = try await tokenManager.getHaapiTokenAsync()
        return [HttpHeaderNames.authorization: info.authorizationHeaderValue(), HttpHeaderNames.dpop: try info.dpopHeaderValue(httpMethod: "GET", url: url),
                HttpHeaderNames.dpopNonce: info.dpopNonce ?? "", HttpHeaderNames.accept: MimeTypes.happi.rawValue,
                HttpHeaderNames.haapiSessionId: sessionId ?? ""]
    }
    func signOut() { tokenManager.clearState(); tokenManager.close() }
}

/// The user's own access token is DPoP-bound to the key the login used (HaapiManager.dpop).
func walletRequest(_ url: URL, method: String, tokens: WalletTokens, dpop: Dpop?, nonce: String?) throws -> URLRequest {
    var request = URLRequest(url: url)
    request.httpMethod = method
    request.setValue(MimeTypes.json.rawValue, forHTTPHeaderField: HttpHeaderNames.accept)
    guard let dpop = dpop, tokens.type?.caseInsensitiveCompare("DPoP") == .orderedSame else {
        request.addAuthorizationHeader(headerValue: "Bearer \(tokens.access)")
        return request
    }
    request.setValue("DPoP \(tokens.access)", forHTTPHeaderField: HttpHeaderNames.authorization)
    request.addDpopHeader(headerValue: try dpop.getHeaderValue(httpMethod: method, url: url, nonce: nonce, accessToken: tokens.access))
    return request
}

struct WalletLogSink: LogSink {
    let forward: @Sendable (String) -> Void
    func writeLog(logType: LogType, followUpTag: any FollowUpTag, message: String, file: String, line: Int) {
        let level: String
        switch logType {
        case .debug: level = "D"
        case .info: level = "I"
        case .warning: level = "W"
        case .error: level = "E"
        @unknown default: level = "?"
        }
        let area: String
        switch followUpTag {
        case let sdk as SdkFollowUpTag: area = "sdk.\(sdk.rawValue)"
        case let driver as DriverFollowUpTag: area = "driver.\(driver.rawValue)"
        default: area = followUpTag.tagName
        }
        forward("[\(level)] \(followUpTag.subsystem) \(area) \((file as NSString).lastPathComponent):\(line) \(message)")
    }
    static func install(verbose: Bool, forward: @escaping @Sendable (String) -> Void) {
        HaapiLogger.followUpTags = verbose ? (SdkFollowUpTag.allCases as [any FollowUpTag]) + (DriverFollowUpTag.allCases as [any FollowUpTag])
                                           : [SdkFollowUpTag.flow, SdkFollowUpTag.oAuth, DriverFollowUpTag.attestation]
        (HaapiLogger.isDebugEnabled, HaapiLogger.isInfoEnabled, HaapiLogger.isWarningEnabled) = (verbose, true, true)
        (HaapiLogger.isErrorEnabled, HaapiLogger.isSensitiveValueMasked) = (true, true)
        HaapiLogger.appendLogSink(WalletLogSink(forward: forward))
        forward("logging \(LogType.debug.rawValue)=\(verbose) for \(WalletConfig.baseURL.masked) \(Data([1, 2]).masked)")
    }
}

/// Answers the login's questions from a script, as the app's unit tests do.
@MainActor
final class ScriptedUI: WalletLoginUI {
    var answers: [String: String] = [:], choice: Int? = 0, callback: URL?
    func fill(_ prompts: [FieldPrompt], title: String?, messages: [String], errors: [String: String]) async -> [String: String]? { answers }
    func choose(_ title: String, options: [String]) async -> Int? { options.isEmpty ? nil : choice }
    func open(_ url: URL, code: String?) async -> URL? { callback }
    func show(_ messages: [String], waiting: Bool) async {}
    func createPasskey(_ request: PasskeyRequest) async -> (attestation: Data, clientData: Data, credentialID: Data)? { nil }
    func usePasskey(_ request: PasskeyRequest) async -> (authenticatorData: Data, clientData: Data, signature: Data, credentialID: Data, userID: Data?)? { nil }
}

enum LoginFixtures {
    typealias M = HaapiModel
    static let title = M.ContentFactory.message(key: "title", literal: "Sign in")
    static let meta = M.ContentFactory.metadata(templateArea: "wallet", viewName: "authenticator/html-form/authenticate/get")
    static let note = [M.ContentFactory.userMessage(text: M.ContentFactory.message(key: nil, literal: "Welcome"), classList: ["info"])]
    static let help = M.ActionModelFactory.link(href: "/help", rel: "help", title: title, type: "text/html")
    static func formAction(kind: ActionKind = .login, href: String = "/authn") -> FormAction {
        let fields: [any FormField] = [
            M.FormFieldFactory.username(name: "userName", value: nil, label: title, placeholder: nil),
            M.FormFieldFactory.password(name: "password", value: nil, label: nil, placeholder: title),
            M.FormFieldFactory.text(kind: .email, name: "email", value: nil, label: nil, placeholder: nil),
            M.FormFieldFactory.select(options: [M.FormFieldFactory.selectOption(label: title, value: "sv", selected: true)], name: "lang", label: nil),
            M.FormFieldFactory.checkbox(checked: true, readonly: true, name: "terms", value: "yes", label: title),
            M.FormFieldFactory.context(name: "ctx"),
            M.FormFieldFactory.hidden(name: "state", value: "abc"),
        ]
        let model = M.ActionModelFactory.form(actionTitle: title, continueActions: [], errorActions: [], fields: fields,
                                              type: "application/x-www-form-urlencoded", method: "POST", href: href)
        return M.ActionFactory.form(properties: M.PropertiesFactory.formAction(authenticatorType: "html-form", rawJsonString: "{}"),
                                    model: model, kind: kind, title: title)
    }
    static func steps() throws -> [(String, any HaapiRepresentation)] {
        let login = formAction(), cancel = formAction(kind: .cancel, href: "/cancel")
        let generic = M.PropertiesFactory.generic(rawJsonString: "{}")
        let selector = M.ActionFactory.selector(properties: M.PropertiesFactory.selectorAction(rawJsonString: "{}"),
                                                model: M.ActionModelFactory.selector(options: [login]), kind: .authenticatorSelector, title: title)
        let pinOperation = M.ActionModelFactory.clientOperation(arguments: ["title": "PIN"], name: .unknown(value: "wallet-pin"),
                                                                continueActions: [login], errorActions: [cancel])
        let operation = M.ActionFactory.clientOperation(properties: M.PropertiesFactory.clientOperation(rawJsonString: "{}"),
                                                        model: pinOperation, kind: .other(value: "pin"), title: nil)
        let browser = try M.ActionModelFactory.externalBrowserClientOperation(arguments: ["href": "https://idp.example/start"],
                                                                              name: .externalBrowser, continueActions: [login], errorActions: [cancel])
        let bankId = try M.ActionModelFactory.bankIdClientOperation(arguments: ["autoStartToken": "t", "redirect": "null", "href": "bankid:///"],
                                                                    name: .bankId, continueActions: [login], errorActions: [cancel])
        let encap = try M.ActionModelFactory.encapClientOperation(arguments: ["activationCode": "1234", "href": "encap://activate"],
                                                                  name: .encapAutoActivation, continueActions: [login], errorActions: [cancel])
        let passkeyArguments: [String: any Sendable] = ["credentialRequestOptions": ["publicKey": ["rpId": "wallet.example", "challenge": "AAEC"]]]
        let register = try M.ActionModelFactory.webAuthnRegistrationClientOperation(arguments: passkeyArguments, name: .webAuthnRegistration,
                                                                                    continueActions: [login], errorActions: [cancel])
        let assert = try M.ActionModelFactory.webauthnAuthenticationClientOperation(arguments: passkeyArguments, name: .webAuthnAuthentication,
                                                                                    continueActions: [login], errorActions: [cancel])
        let pin = M.ActionModelFactory.genericClientOperation(arguments: ["title": "PIN"], name: .unknown(value: "wallet-pin"),
                                                              continueActions: [login], errorActions: [cancel])
        let oauth = M.PropertiesFactory.oAuthAuthorizationResponse(rawJsonString: "{}", scope: "openid", state: "s", code: "c0de",
                                                                   idToken: nil, rawJson: ["code": "c0de"])
        let pending = M.PropertiesFactory.polling(rawJsonString: "{}", recipientOfCommunication: "+46 70 •••", status: .done)
        let option = M.StepFactory.authenticatorOption(title: title, type: "html-form", action: login)
        return [
            ("form", M.StepFactory.interactiveForm(actions: [login, cancel], type: .authenticationStep, metadata: meta, messages: note, links: [help], properties: generic)),
            ("selector", M.StepFactory.authenticatorSelector(title: title, authenticators: [option], metadata: meta, actions: [selector], messages: note, links: [], properties: nil)),
            ("redirect", M.StepFactory.redirection(redirectAction: login, metadata: nil, actions: [], properties: nil)),
            ("polling", M.StepFactory.polling(mainAction: login, cancelAction: cancel, metadata: nil, actions: [], messages: note, links: [], properties: pending)),
            ("continue", M.StepFactory.continueSame(metadata: nil, messages: note, properties: nil)),
            ("consent", M.StepFactory.userConsent(metadata: nil, actions: [login, operation], messages: note, links: [], properties: generic)),
            ("done", M.StepFactory.oAuthAuthorization(metadata: nil, messages: [], links: [], properties: oauth)),
            ("browser", M.StepFactory.externalBrowserClientOperation(actionModel: browser, metadata: nil, type: .authenticationStep, actions: [cancel], properties: nil)),
            ("bankid", M.StepFactory.bankIdClientOperation(activationLink: help, actionModel: bankId, metadata: nil, type: .authenticationStep, actions: [], messages: [], links: [], properties: nil)),
            ("encap", M.StepFactory.encapClientOperation(actionModel: encap, metadata: nil, type: .registrationStep, actions: [], messages: [], links: [], properties: nil)),
            ("passkey-new", try M.StepFactory.webauthnRegistrationClientOperation(actionModel: register, metadata: nil, type: .registrationStep, actions: [cancel], messages: [], links: [], properties: nil)),
            ("passkey", try M.StepFactory.webAuthnAuthenticationClientOperation(actionModel: assert, metadata: nil, type: .authenticationStep, actions: [cancel], messages: [], links: [], properties: nil)),
            ("pin", M.StepFactory.genericClientOperation(actionModel: pin, metadata: nil, type: .authenticationStep, actions: [], messages: [], links: [], properties: nil)),
            ("other", M.StepFactory.genericRepresentation(type: .consentorStep, metadata: nil, actions: [], messages: [], links: [help], properties: generic)),
        ]
    }
    static let problems: [any ProblemRepresentation] = [
        M.ProblemFactory.problem(type: .unexpectedProblem, metadata: nil, title: title, messages: note, links: [help]),
        M.ProblemFactory.invalidInput(invalidFields: [M.ProblemFactory.invalidInputField(name: "userName", reason: "required", detail: title)],
                                      errorDescription: "missing", type: .invalidInputProblem, metadata: nil, title: title, messages: [], links: []),
        M.ProblemFactory.authorization(error: "access_denied", errorDescription: "denied", type: .errorAuthorizationResponseProblem,
                                       metadata: nil, title: nil, messages: [], links: []),
    ]

    /// Runs every fixture through the responder; returns the names whose request was not what the app expects.
    @MainActor
    static func check() async throws -> [String] {
        let ui = ScriptedUI(); ui.answers = ["userName": "alice", "password": "pw"]
        let responder = StepResponder(ui: ui)
        var failures: [String] = []
        for (name, step) in try steps() {
            switch (name, await responder.respond(to: step)) {
            case ("done", .done(code: "c0de")), ("other", .follow), (_, .submit): break
            default: failures.append(name)
            }
        }
        for problem in problems {
            if case .abort = await responder.recover(from: problem), problem.type == .invalidInputProblem { failures.append("invalid-input") }
        }
        let success = M.TokenResponseFactory.success(accessToken: "at", tokenType: "DPoP", scope: "openid", expiresIn: 300, refreshToken: "rt", idToken: nil)
        if case .signedIn = WalletLogin.outcome(.successfulToken(success)) {} else { failures.append("token") }
        let refused = M.TokenResponseFactory.error(error: "invalid_grant", errorDescription: nil)
        if case .failed(.restart) = WalletLogin.outcome(.errorToken(refused)) {} else { failures.append("token-error") }
        if ErrorPolicy.advice(for: HaapiError.attestationNotSupported) != .unsupportedDevice { failures.append("attestation") }
        return failures
    }
}
