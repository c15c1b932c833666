import Foundation
import HaapiDriver
import HaapiSDK
import OAuthCore

#if canImport(Combine)
    import Combine
#else
    import OpenCombine
#endif

/// Drives a HAAPI flow for any UI (the seeds' `HaapiFlowViewModel`): Curity's prebuilt screens
/// are one UI over it, the terminal is another, an app's own screens a third.
///
/// Observe the `@Published` state as the seeds do:
///
/// ```swift
/// let haapiFlowViewModel = HaapiFlowViewModel(haapiUIKitApplication: haapiUIKitApplication)
/// haapiFlowViewModel.$uiModel
///     .receive(on: DispatchQueue.main)
///     .sink(receiveValue: { uiModel in /* render the step */ })
///     .store(in: &cancellables)
/// ```
///
/// ``isLoading``, ``uiModel`` (the current step as a ``UIModel``: a ``FormModel``, a
/// ``SelectorModel``, a ``PollingModel``, ...), ``problemModel`` (the server's complaint about the
/// last submission, on the same step), ``error`` (a ``HaapiFlowError``), ``oAuthModel`` (how the
/// flow ended: an ``OAuthTokenModel`` or an ``OAuthErrorModel``) and ``isConfirmingInterruption``.
/// Then call the actions: ``start(parameters:)``, ``submit(form:parameters:)``,
/// ``submit(interactionActionModel:parameters:)``, ``select(_:)``, ``followLink(_:)``, ``poll()``,
/// ``cancel()`` / ``confirmCancel()`` / ``dismissCancel()``, ``retry()``, ``acknowledgeError()``,
/// ``resumeExternalBrowser(url:)`` and ``completeWebAuthn(_:kind:)``.
///
/// By itself the view model polls polling steps (every ``HaapiUIKitConfiguration/autoPollingDuration``
/// or the server's interval) and submits their continuing action once done; keeps the flow on
/// the same step when the user can correct a problem; and, at the authorization response,
/// exchanges the code for tokens (bound to the flow's DPoP key when the configuration binds
/// them). How the flow ended also goes to ``haapiFlowResult``, when set.
@MainActor public final class HaapiFlowViewModel: NSObject, ObservableObject {
    /// The application the flow belongs to.
    public nonisolated let haapiUIKitApplication: any HaapiUIKitApplication
    /// The configuration.
    public nonisolated var configuration: HaapiUIKitConfiguration { haapiUIKitApplication.haapiUIKitConfiguration }
    /// Whether a request is under way.
    @Published public private(set) var isLoading = false
    /// The current step, as a UI model (`nil` before the flow starts).
    @Published public private(set) var uiModel: (any UIModel)?
    /// The server's complaint about the last submission, when the step stays for the user to
    /// correct it (its field errors are also on the fields' models); `nil` once another step is shown.
    @Published public private(set) var problemModel: KitProblemModel?
    /// The current error (`nil` when there is none); a retryable one can be ``retry()``-ed.
    @Published public private(set) var error: HaapiFlowError?
    /// How the flow ended: an ``OAuthTokenModel`` or an ``OAuthErrorModel`` (`nil` until it ends).
    @Published public private(set) var oAuthModel: (any OAuthModel)?
    /// Whether ``cancel()`` is waiting for the UI to ``confirmCancel()`` or ``dismissCancel()``.
    @Published public private(set) var isConfirmingInterruption = false
    /// Receives how the flow ended: its ``oAuthModel``, or its ``error`` once the flow stops
    /// on it (see ``HaapiUIKitConfiguration/shouldAutoHandleFlowErrorFeedback``).
    public var haapiFlowResult: (any HaapiFlowResult)?
    /// Where the flow registers while it waits for an external browser or app to come back.
    public var deepLinkManager: (any HaapiDeepLinkManageable)?

    /// The accessor the flow runs on, once ``start(parameters:)`` has it.
    public private(set) var accessor: (any HaapiAccessor)?
    private var dataMapper: any DataMapper { haapiUIKitApplication.dataMapper }
    /// The step shown (a continue-same-step included).
    public private(set) var shownStep: (any HaapiRepresentation)?
    /// Where the flow is and what it decided (``FlowState``); every change publishes
    /// ``isLoading``, ``error`` and ``isConfirmingInterruption`` from it.
    private var state = FlowState() {
        didSet {
            if oldValue.phaseChanges != state.phaseChanges {
                if isLoading != state.isLoading { isLoading = state.isLoading }
                if error != nil || state.error != nil { error = state.error }
            }
            if isConfirmingInterruption != state.isConfirmingInterruption { isConfirmingInterruption = state.isConfirmingInterruption }
        }
    }
    private var pollingTask: Task<Void, Never>?

    /// The images the flow's steps link to, each loaded once (with the configuration's TLS
    /// settings: its pins and trust roots hold for the server's images too).
    public nonisolated let images: RemoteImages

    /// A view model for a flow of `haapiUIKitApplication`; nothing is contacted until ``start(parameters:)``.
    public init(haapiUIKitApplication: any HaapiUIKitApplication) {
        self.haapiUIKitApplication = haapiUIKitApplication
        let haapi = haapiUIKitApplication.haapiUIKitConfiguration.haapiConfiguration
        images = RemoteImages(tls: haapi.clientAuthenticationMethod.tlsOptions ?? TLSOptions(), base: haapi.baseURL)
    }

    /// A view model for a configuration of its own, with these mappers.
    /// - Throws: ``ThemeError`` when the kit's theme cannot be read (a defect of the package).
    public convenience init(
        haapiUIKitConfiguration: HaapiUIKitConfiguration, dataMapper: (any DataMapper)? = nil,
        oAuthDataMapper: any OAuthDataMapper = OAuthDataMapperBuilder().build()
    ) throws {
        let builder = HaapiUIKitApplicationBuilder(haapiUIKitConfiguration: haapiUIKitConfiguration).setOAuthDataMapper(oAuthDataMapper)
        if let dataMapper { builder.setDataMapper(dataMapper) }
        self.init(haapiUIKitApplication: try builder.buildOrThrow())
    }

    /// The HAAPI manager, once the flow has started.
    private var manager: HaapiManager? { accessor?.haapiManager }

    // MARK: Actions

    /// Starts (or restarts) the flow; the application's accessor is built first if it is not yet.
    public func start(parameters: OAuthAuthorizationParameters? = nil) async {
        state.start(parameters: parameters)
        await begin(parameters: parameters)
    }

    private func begin(parameters: OAuthAuthorizationParameters?) async {
        shownStep = nil
        uiModel = nil
        problemModel = nil
        oAuthModel = nil
        state.beginFlow()
        if accessor == nil {
            let request = state.beginRequest()
            stopPolling()
            do {
                let made = try await haapiUIKitApplication.haapiAccessor()
                guard state.isCurrent(request) else { return }
                accessor = made
            } catch {
                guard state.isCurrent(request) else { return }
                publish(HaapiFlowError(failure: error), retry: .start(parameters))
                return
            }
        }
        guard let manager else { return }
        HaapiLogger.debug(UIKitFollowUpTag.flow, "starting a flow")
        await run { await manager.start(parameters: parameters) }
    }

    /// Submits `form` with `parameters`, by field name (a `String` as it is, a `Bool` for a
    /// checkbox as checked or not; hidden fields and readonly checkboxes keep the server's values;
    /// for a checkbox, an empty string unchecks it).
    public func submit(form: FormActionModel, parameters: [String: any Sendable]) async {
        guard let manager = requireManager() else { return }
        let fields = form.fieldValues(parameters)
        await run { await manager.submitForm(form, fields: fields) }
    }

    /// What a UI's element does, as Curity's flow controller is told it: a button's form is
    /// submitted with `parameters`, an option is chosen, a link followed.
    public func submit(interactionActionModel: any InteractionActionModel, parameters: [String: any Sendable]) async {
        switch interactionActionModel {
        case let option as any SelectorItemInteractionActionModel:
            await select(option)
        default:
            switch interactionActionModel.action {
            case let form as FormActionModel:
                // What was submitted is what the step shows again when the server sends it back.
                let items = (interactionActionModel as? KitButtonItem)?.fields ?? uiModel.map(Self.interactionItems(of:)) ?? []
                Self.keep(parameters, in: items)
                await submit(form: form, parameters: parameters)
            case let link as Link: await followLink(link)
            default:
                publish(
                    HaapiFlowError(
                        failure: HaapiUIKitError.unsupported(cause: "\(type(of: interactionActionModel.action)) cannot be submitted")))
            }
        }
    }

    /// Chooses a selector option. On a selector drawn as tabs, an option whose tab is not the
    /// selected one is only selected: the tabs stay, with its elements under them (Curity's
    /// pager). An option that holds options of its own (Duo's device holding
    /// its factors) becomes the ``uiModel``'s selector; an option whose form asks for something
    /// (Duo's passcode) becomes a form to fill in; any other option's form is submitted at once
    /// (its hidden fields as the server gave them). Nothing is sent until a form is submitted;
    /// ``returnToStep()`` goes back to the step as sent.
    public func select(_ option: any SelectorItemInteractionActionModel) async {
        guard let step = shownStep else {
            publish(HaapiFlowError(failure: HaapiUIKitError.illegalState("the flow shows no step to choose from")))
            return
        }
        // Another tab of a selector drawn as tabs: the tabs stay, with that option's elements under them.
        if option.shouldKeepFocus, let selector = uiModel as? KitSelectorModel, let tabbed = selector.selectingTab(of: option),
            tabbed.selectedIndex != selector.selectedIndex
        {
            HaapiLogger.debug(UIKitFollowUpTag.flow, "selected the tab \"\(option.title)\"")
            problemModel = nil
            uiModel = tabbed
            return
        }
        if let form = option.action as? FormActionModel, !form.fields.contains(where: \.isUserInput) {
            await submit(form: form, parameters: [:])
            return
        }
        do {
            let chosen = try dataMapper.mapSelection(option, on: step)
            HaapiLogger.debug(UIKitFollowUpTag.flow, "chose \"\(option.title)\": showing what it holds")
            problemModel = nil
            uiModel = chosen
        } catch {
            publish(HaapiFlowError(failure: HaapiUIKitError.illegalState("the option \"\(option.title)\" has neither a form nor options")))
        }
    }

    /// Shows the current step again as the server sent it (after ``select(_:)`` went into an
    /// option); nothing is sent.
    public func returnToStep() {
        guard let shownStep, let model = map(shownStep) else { return }
        problemModel = nil
        uiModel = model
    }

    /// Exchanges `authorizationCode` for tokens (Curity's `fetchAccessToken`) and ends the
    /// flow with them, bound to the flow's DPoP key when the configuration binds tokens. The
    /// flow exchanges its own code when it reaches the authorization response; asked for that
    /// code again, this publishes the same ``oAuthModel`` without a second exchange.
    /// - Parameters:
    ///   - authorizationCode: the code of the flow's authorization response.
    ///   - additionalParameters: more parameters of the token request (`resource`, ...).
    public func fetchAccessToken(authorizationCode: String, additionalParameters: [String: String]? = nil) async {
        if let model = state.model(exchanging: authorizationCode) {
            oAuthModel = model
            return
        }
        do {
            let accessor: any HaapiAccessor
            if let current = self.accessor { accessor = current } else { accessor = try await haapiUIKitApplication.haapiAccessor() }
            let dpop = configuration.isTokenBound ? accessor.haapiManager.dpop : nil
            let verifier = await accessor.haapiManager.codeVerifier
            let response = await accessor.oAuthTokenManager.fetchAccessToken(
                with: authorizationCode, dpop: dpop, additionalParameters: additionalParameters, codeVerifier: verifier)
            if case .error(let failure) = response { throw failure }
            let model = try oauthModel(response)
            state.exchanged(authorizationCode, endedWith: model)
            end(with: model)
        } catch {
            publish(HaapiFlowError(failure: error))
        }
    }

    /// Refreshes tokens (Curity's `refreshAccessToken`) with the application's token manager,
    /// as ``OAuthLifecycle/refreshToken(_:haapiUIKitApplication:additionalParameters:)`` does,
    /// and publishes the new ``oAuthModel`` (tokens, or the server's OAuth error).
    public func refreshAccessToken(refreshToken: String, additionalParameters: [String: String]? = nil) async {
        do {
            oAuthModel = try await OAuthLifecycle.refreshToken(
                refreshToken, haapiUIKitApplication: haapiUIKitApplication, additionalParameters: additionalParameters)
        } catch {
            publish(HaapiFlowError(failure: error))
        }
    }

    /// Follows a link (a plain GET).
    public func followLink(_ link: Link) async {
        guard let manager = requireManager() else { return }
        await run { await manager.followLink(link) }
    }

    /// Polls the current polling step once (for UIs that poll themselves, with
    /// `autoPollingDuration` 0); on a done or failed step it submits the continuing action.
    public func poll() async {
        guard let step = shownStep as? PollingStep, let manager else {
            publish(HaapiFlowError(failure: HaapiUIKitError.illegalState("the current step is not a polling step")))
            return
        }
        await run { await manager.poll(step) }
    }

    /// Asks to abandon the flow. With ``HaapiUIKitConfiguration/shouldConfirmFlowInterruption``,
    /// this only sets ``isConfirmingInterruption``: the UI then calls ``confirmCancel()`` or
    /// ``dismissCancel()``. Otherwise the flow is cancelled at once (see ``confirmCancel()``).
    public func cancel() async {
        switch state.cancel(confirmationRequired: configuration.shouldConfirmFlowInterruption) {
        case .acknowledge(let seen): report(seen)
        case .askToConfirm: break
        case .interrupt: await interrupt()
        }
    }

    /// Abandons the flow: submits the step's cancel action when it has one (the server ends the
    /// flow with an `access_denied` authorization response), otherwise ends it here; either
    /// way ``oAuthModel`` becomes an ``OAuthErrorModel``.
    public func confirmCancel() async {
        await interrupt()
    }

    /// Keeps the flow going after ``cancel()`` asked for confirmation.
    public func dismissCancel() {
        state.dismissCancel()
    }

    /// Repeats the request that failed with a retryable ``error``.
    public func retry() async {
        guard let action = state.retryAction else { return }
        switch action {
        case .start(let parameters):
            await begin(parameters: parameters)
        case .request(let operation):
            await run(operation)
        case .exchange(let step):
            let request = state.beginRequest()
            await exchange(step)
            state.settle(request)
        }
    }

    /// The user has seen the ``error`` that stopped the flow (with
    /// ``HaapiUIKitConfiguration/shouldAutoHandleFlowErrorFeedback``, the UI's alert was
    /// dismissed): the flow ends and ``haapiFlowResult`` receives the error.
    public func acknowledgeError() {
        guard let seen = state.acknowledge() else { return }
        report(seen)
    }

    /// The operation the flow waits to come back from: an external browser (or Curity's older
    /// launch), when the shown step is one.
    private var browserOperation: (any FormOperationModel)? { uiModel as? any FormOperationModel }

    /// The form that resumes the client operation the flow waits for: an external browser's,
    /// else the operation's first continue action.
    private var resumeForm: FormActionModel? {
        browserOperation?.formActionModel ?? (shownStep as? any ClientOperationStep)?.continueActions.lazy.compactMap(\.form).first
    }

    /// Whether the flow waits for an external browser or app to come back.
    public var isWaitingForReturn: Bool { shownStep is any ClientOperationStep || browserOperation != nil }

    /// Resumes an external-browser operation with the `_resume_nonce` the browser came back with.
    public func resumeExternalBrowser(nonce: String) async {
        guard let form = resumeForm else {
            publish(HaapiFlowError(failure: HaapiUIKitError.illegalState("the current step is not a client operation to resume")))
            return
        }
        let name = form.fields.first { $0 is ContextFormField }?.name ?? ResumeNonce.parameter
        await submit(form: form, parameters: [name: nonce])
    }

    /// Resumes an external-browser operation with the URL the browser came back to (the app
    /// redirect with `_resume_nonce` in its query).
    public func resumeExternalBrowser(url: URL) async {
        guard let nonce = ResumeNonce.of(url) else {
            publish(HaapiFlowError(failure: HaapiUIKitError.illegalState("the URL has no _resume_nonce")))
            return
        }
        await resumeExternalBrowser(nonce: nonce)
    }

    /// Completes a WebAuthn operation with the credential the authenticator made: submits the
    /// continue action with the credential, as JSON, in the field for `kind` (`credential`,
    /// `platformCredential` or `crossPlatformCredential`).
    public func completeWebAuthn(_ credential: WebAuthnCredential, kind: WebAuthnAuthenticatorKind = .any) async {
        guard let operation = uiModel as? KitWebAuthnModel, let form = operation.continueAction(for: kind) else {
            publish(HaapiFlowError(failure: HaapiUIKitError.illegalState("the current step is not a WebAuthn operation to complete")))
            return
        }
        await submit(form: form, parameters: operation.buildParametersWrapper(WebAuthnCeremonyResult(credential: credential, kind: kind)))
    }

    /// The form a passkey step continues with in the browser when no authenticator answers or
    /// the user declines: the step's fallback, unless the configuration turns fallbacks off
    /// (``HaapiUIKitConfiguration/usePasskeysBrowserFallback``): then `nil`, and a passkey
    /// failure never opens the browser.
    public func passkeysBrowserFallback(of operation: KitWebAuthnModel) -> FormActionModel? {
        configuration.usePasskeysBrowserFallback ? operation.browserFallback : nil
    }

    /// The passkey ceremony for an authenticator of `kind` failed with `failure`: the passkey
    /// step is shown again with what follows (``PasskeyFailureOutcome``): a retry, a message,
    /// or a button to the browser fallback when the step has one and the configuration allows
    /// it. Nothing is sent: the browser opens only when the user taps (``takePasskeyFallback()``).
    @discardableResult
    public func passkeyDidFail(_ failure: PasskeyFailure, kind: WebAuthnAuthenticatorKind) -> PasskeyFailureOutcome {
        guard let operation = uiModel as? KitWebAuthnModel else { return .nothing }
        if case .failed(let reason) = failure { HaapiLogger.info(UIKitFollowUpTag.flow, "the passkey ceremony failed: \(reason)") }
        let shown = operation.failed(failure, kind: kind, usesBrowserFallback: configuration.usePasskeysBrowserFallback)
        problemModel = nil
        uiModel = shown
        return shown.failure ?? .nothing
    }

    /// Goes on in the browser after passkeys failed: submits the step's fallback, when the
    /// configuration allows it (otherwise nothing happens).
    public func takePasskeyFallback() async {
        guard let operation = uiModel as? KitWebAuthnModel, let fallback = passkeysBrowserFallback(of: operation) else { return }
        await submit(form: fallback, parameters: [:])
    }

    /// The user came back to the app (from BankID, or another app the step opened): a waiting
    /// step is polled now rather than at its next tick, so the login goes on at once.
    public func pollAfterReturn() async {
        guard shownStep is PollingStep, state.isShowing else { return }
        await poll()
    }

    /// Stops the flow's work under way (polling, requests whose answers are then dropped).
    /// The application's accessor stays open for the next flow.
    public func stop() {
        state.stop()
        stopPolling()
        deepLinkManager?.unregisterHaapiFlowDeeplinkable()
    }

    private func requireManager() -> HaapiManager? {
        guard let manager else {
            publish(HaapiFlowError(failure: HaapiUIKitError.illegalState("the flow has not started")))
            return nil
        }
        return manager
    }

    // MARK: Running requests

    /// Runs a user's request: supersedes what is under way, shows loading, handles the result.
    private func run(_ operation: @escaping @Sendable () async -> HaapiResult) async {
        let request = state.beginRequest()
        stopPolling()
        await execute(operation, as: request)
        state.settle(request)
    }

    /// Sends a request and handles its result, unless a later action superseded it.
    private func execute(_ operation: @escaping @Sendable () async -> HaapiResult, as request: FlowState.Request) async {
        let result = await operation()
        guard state.isCurrent(request) else { return }
        switch result {
        case .representation(let step):
            await show(step, as: request)
        case .problem(let problem):
            await handle(problem)
        case .error(let failure):
            publish(HaapiFlowError(failure: failure), retry: .request(operation))
        }
    }

    private func show(_ step: any HaapiRepresentation, as request: FlowState.Request) async {
        guard let shown = map(step) else { return }
        HaapiLogger.debug(UIKitFollowUpTag.flow, "showing \(type(of: step)) (\(step.metadata?.viewName ?? "no view name"))")
        problemModel = nil
        if step is any ClientOperationStep || shown is any FormOperationModel {
            deepLinkManager?.registerHaapiFlowDeeplinkable(self)
        } else {
            deepLinkManager?.unregisterHaapiFlowDeeplinkable()
        }
        switch step {
        case let response as OAuthAuthorizationResponseStep:
            shownStep = response
            uiModel = shown
            await exchange(response)
        case let polling as PollingStep:
            shownStep = polling
            uiModel = shown
            if polling.pollingProperties.status == .pending {
                schedulePoll(polling, as: request)
            } else if let manager {
                let next = polling.mainAction
                // Done or failed: the continuing action is submitted without the user.
                await execute({ await manager.submit(next) }, as: request)
            }
        default:
            shownStep = step
            uiModel = shown
            if !Self.offersAction(shown, on: step) {
                // Nothing to submit, follow or wait for: say so rather than leave the UI stuck.
                publish(HaapiFlowError(failure: UnsupportedStepError(step)))
            }
        }
    }

    /// Whether `model` offers the user (or the client) a way on: a form to submit, an option to
    /// choose, a link to follow, an operation with an action to continue or fail with, a wait,
    /// or the end of the flow. A step without one is a dead end (``UnsupportedStepError``).
    public nonisolated static func offersAction(_ model: any UIModel, on step: any HaapiRepresentation) -> Bool {
        switch model {
        case is any PollingModel, is any AuthorizationRequestModel: return true
        case let selector as any SelectorModel: return !selector.selectorItems.isEmpty
        // Before forms and generic models: the kit's operations are those too, for their screens.
        case is any UIOperationModel: return !step.allActions.isEmpty
        case let form as any FormModel: return !form.interactionItems.isEmpty || !form.linkItems.isEmpty
        case let continued as any ContinueSameModel: return !(continued.formModel?.interactionItems.isEmpty ?? true)
        case let generic as any GenericModel:
            return !(generic.formModel?.interactionItems.isEmpty ?? true) || !(generic.selectorModel?.selectorItems.isEmpty ?? true)
                || !step.links.filter { !$0.isImage }.isEmpty
        default: return true
        }
    }

    /// The model of `step` from the application's data mapper; its failure ends the flow.
    private func map(_ step: any HaapiRepresentation) -> (any UIModel)? {
        do {
            return try dataMapper.mapHaapiRepresentationToInteraction(haapiRepresentation: step)
        } catch {
            stopPolling()
            publish(HaapiFlowError(failure: error as? HaapiUIKitError ?? HaapiUIKitError.other(error)))
            return nil
        }
    }

    /// The model of the token endpoint's answer from the application's OAuth data mapper.
    private func oauthModel(_ response: TokenResponse) throws -> any OAuthModel {
        try haapiUIKitApplication.oAuthDataMapper.mapTokenResponseToOAuthModel(tokenResponse: response)
    }

    private func handle(_ problem: any ProblemRepresentation) async {
        let model = KitProblemModel(problem, strings: haapiUIKitApplication.localizableStrings)
        HaapiLogger.debug(UIKitFollowUpTag.flow, "problem \(problem.type.rawValue): \(model.handling)")
        if let authorization = problem as? AuthorizationProblem {
            stopPolling()
            end(with: KitOAuthErrorModel(authorization))
            return
        }
        switch model.handling {
        case .correctOnSameStep:
            if let shown = uiModel, shownStep != nil {
                // The step stays with what the user entered (never a password), the server's
                // complaints at the fields they are about.
                Self.mark(shown, with: model)
                problemModel = model
                return
            }
        case .restartFlow:
            // The HAAPI token the flow's session was bound to changed (renewed, another DPoP key):
            // a new flow binds to the new one. Twice in a row means something else is wrong.
            if let parameters = state.restartForMismatch() {
                stopPolling()
                await begin(parameters: parameters)
                return
            }
        default:
            break
        }
        stopPolling()
        // The attempt is over: the problem gets its screen (its messages and links, which may
        // lead on), unless the app gives the feedback itself: then the flow ends with it now.
        if configuration.shouldAutoHandleFlowErrorFeedback {
            problemModel = nil
            uiModel = model
        }
        publish(HaapiFlowError(problem: model))
    }

    /// Publishes an error; `retry` is kept when the error is retryable. One that stops the flow
    /// ends it now, or once the user has seen it (``acknowledgeError()``) when the UI gives the feedback.
    private func publish(_ flowError: HaapiFlowError, retry: FlowState.RetryAction? = nil) {
        HaapiLogger.debug(UIKitFollowUpTag.flow, "flow error: \(flowError.title)")
        switch state.fail(flowError, retry: retry, uiGivesFeedback: configuration.shouldAutoHandleFlowErrorFeedback) {
        case .show: break
        case .report: report(flowError)
        }
    }

    /// Sets each field's error from `problem`'s complaint about it (none for the others), and
    /// empties secure fields: a password is never shown again.
    public static func mark(_ model: any UIModel, with problem: KitProblemModel) {
        let complaints = Dictionary(problem.invalidFields.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        for item in interactionItems(of: model) {
            let complaint = complaints[item.key].map { $0.detail.literal.isEmpty ? ($0.reason ?? "") : $0.detail.literal }
            switch item {
            case let field as KitInputTextItem:
                field.error = complaint
                if field.inputConfiguration.isSecure { field.value = "" }
            case let box as KitCheckboxItem: box.error = complaint
            case let select as KitSelectItem: select.error = complaint
            case var other as any InteractionItemInputTextModel: other.error = complaint
            default: break
            }
        }
    }

    /// Writes submitted values into the elements they were entered in (a checkbox is checked by
    /// `true` or a non-empty value, a select field chooses the option of that value).
    static func keep(_ parameters: [String: any Sendable], in items: [any InteractionItemModel]) {
        for item in items {
            guard let submitted = parameters[item.key] else { continue }
            switch (item, submitted) {
            case (let field as KitInputTextItem, let text as String): field.value = text
            case (let box as KitCheckboxItem, let checked as Bool): box.isChecked = checked
            case (let box as KitCheckboxItem, let text as String): box.isChecked = !text.isEmpty
            case (let select as KitSelectItem, let text as String):
                if let position = select.options.firstIndex(where: { $0.1 == text }) { select.selectedPosition = position }
            default: break
            }
        }
    }

    /// Every element of `model`'s forms.
    public nonisolated static func interactionItems(of model: any UIModel) -> [any InteractionItemModel] {
        switch model {
        case let form as any FormModel: return form.interactionItems
        case let continued as any ContinueSameModel: return continued.formModel?.interactionItems ?? []
        case let generic as any GenericModel: return generic.formModel?.interactionItems ?? []
        case let bankID as KitBankIdModel: return bankID.otherItems
        default: return []
        }
    }

    /// Ends the flow with tokens or an OAuth error.
    private func end(with model: any OAuthModel) {
        HaapiLogger.info(UIKitFollowUpTag.flow, "the flow ended with \(type(of: model))")
        deepLinkManager?.unregisterHaapiFlowDeeplinkable()
        oAuthModel = model
        state.end()
        haapiFlowResult?.didReceiveOAuthModel(model)
    }

    /// The flow stopped on `flowError` (``FlowState`` has it as reported): the app is told.
    private func report(_ flowError: HaapiFlowError) {
        stopPolling()
        deepLinkManager?.unregisterHaapiFlowDeeplinkable()
        haapiFlowResult?.didReceiveError(flowError)
    }

    // MARK: Polling

    private func schedulePoll(_ step: PollingStep, as request: FlowState.Request) {
        stopPolling()
        guard
            let interval = KitPollingModel.interval(
                serverMilliseconds: step.pollingProperties.intervalMilliseconds, autoPollingDuration: configuration.autoPollingDuration)
        else { return }
        pollingTask = Task { [weak self] in
            do { try await Task.sleep(seconds: interval) } catch { return }  // an app's endless autoPollingDuration clamps
            await self?.autoPoll(step, as: request)
        }
    }

    private func autoPoll(_ step: PollingStep, as request: FlowState.Request) async {
        guard state.isCurrent(request), let manager else { return }
        pollingTask = nil  // this task is the one running: it must not be cancelled by what follows
        await execute({ await manager.poll(step) }, as: request)
    }

    private func stopPolling() {
        pollingTask?.cancel()
        pollingTask = nil
    }

    // MARK: The end of the flow

    private func interrupt() async {
        stopPolling()
        guard state.interrupt() else { return }
        if let cancel = cancelForm {
            await submit(form: cancel, parameters: [:])
            return
        }
        endCancelled("The user cancelled the flow")
    }

    /// Ends the flow as cancelled on this side (`access_denied`), superseding what is under way.
    private func endCancelled(_ description: String) {
        state.supersede()
        end(with: KitOAuthErrorModel(error: "access_denied", errorDescription: description, source: .client))
    }

    /// The app took the flow off screen before it ended (a SwiftUI sheet or destination gone, a
    /// controller popped): polling stops, the deep link is let go of, and the app is told the
    /// flow ended as a cancel (`access_denied`), once. Nothing is sent to the server.
    public func abandon() {
        stopPolling()
        guard state.interrupt() else { return }
        endCancelled("The flow was closed before it ended")
    }

    /// The cancel action the shown step offers: among its forms, then its operation's.
    private var cancelForm: FormActionModel? {
        guard let step = shownStep else { return nil }
        let operation = (step as? any ClientOperationStep)?.operationModel
        let candidates = step.allActions + (operation?.continueActions ?? []) + (operation?.errorActions ?? [])
        return candidates.first { $0.kind == .cancel }?.form
    }

    /// Exchanges the authorization response's code for tokens and publishes the ``OAuthModel``.
    private func exchange(_ step: OAuthAuthorizationResponseStep) async {
        let properties = step.oauthAuthorizationResponseProperties
        guard let code = properties.code else {
            if let accessToken = properties.accessToken {
                var members: [String: JSONValue] = [
                    "access_token": .string(accessToken), "token_type": .string(properties.tokenType ?? "Bearer"),
                ]
                if let expiresIn = properties.expiresIn { members["expires_in"] = .number(Double(expiresIn)) }
                if let idToken = properties.idToken { members["id_token"] = .string(idToken) }
                if let scope = properties.scope { members["scope"] = .string(scope) }
                do {
                    end(with: try oauthModel(.successfulToken(try SuccessfulTokenResponse(members: members))))
                } catch {
                    publish(HaapiFlowError(failure: error))
                }
            } else {
                publish(HaapiFlowError(failure: HaapiUIKitError.illegalState("the authorization response has neither a code nor tokens")))
            }
            return
        }
        guard let accessor else { return }
        let dpop = configuration.isTokenBound ? accessor.haapiManager.dpop : nil
        let verifier = await accessor.haapiManager.codeVerifier
        let response = await accessor.oAuthTokenManager.fetchAccessToken(with: code, dpop: dpop, codeVerifier: verifier)
        if case .error(let failure) = response {
            publish(HaapiFlowError(failure: failure), retry: .exchange(step))
            return
        }
        do {
            let model = try oauthModel(response)
            state.exchanged(code, endedWith: model)
            end(with: model)
        } catch {
            publish(HaapiFlowError(failure: error))
        }
    }
}

extension HaapiFlowViewModel: HaapiFlowDeepLinkable {
    /// Whether `url` is the return the flow waits for (see ``checkUrl(_:)``).
    public func canHandleUrl(_ url: URL) -> Bool { (try? checkUrl(url)) != nil }

    /// Says why `url` is not the return the flow waits for: the current step must be a client
    /// operation, and `url` the app's redirect (same scheme, host and path) with a `_resume_nonce`.
    /// - Throws: ``HaapiDeepLinkError``.
    public func checkUrl(_ url: URL) throws {
        guard isWaitingForReturn else {
            throw HaapiDeepLinkError(.noPendingFlow, "the flow does not wait for an external browser or app")
        }
        guard let redirect = URLComponents(string: configuration.haapiConfiguration.appRedirect),
            let incoming = URLComponents(url: url, resolvingAgainstBaseURL: false),
            incoming.scheme?.lowercased() == redirect.scheme?.lowercased(), incoming.host?.lowercased() == redirect.host?.lowercased(),
            incoming.path == redirect.path
        else { throw HaapiDeepLinkError(.notTheAppRedirect, "\(url.redacted) is not the app's redirect") }
        guard ResumeNonce.of(url) != nil else {
            throw HaapiDeepLinkError(.missingResumeNonce, "the app's redirect came back without a _resume_nonce")
        }
    }

    /// Resumes the flow with `url` (see ``resumeExternalBrowser(url:)``).
    public func handleUrl(_ url: URL) async {
        await resumeExternalBrowser(url: url)
    }
}
