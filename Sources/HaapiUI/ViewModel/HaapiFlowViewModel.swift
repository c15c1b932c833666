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
@MainActor public final class HaapiFlowViewModel: ObservableObject {
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
    /// Where the flow is; ``enter(_:)`` is the one way to change it.
    private var phase = Phase.idle
    private var pollingTask: Task<Void, Never>?
    /// Bumped by every user action: results of superseded requests are dropped.
    private var generation = 0
    /// What the flow was started with, for a restart the server asks for.
    private var startParameters: OAuthAuthorizationParameters?
    /// Whether the flow has been restarted for a `mismatch-between-session-and-access-token` (only once).
    private var restartedForMismatch = false
    /// The code the flow exchanged and what that ended with: a code is spent once, so asking
    /// for it again (``fetchAccessToken(authorizationCode:additionalParameters:)``) gives this.
    private var exchanged: (code: String, model: any OAuthModel)?

    /// What ``retry()`` repeats.
    private enum RetryAction {
        case start(OAuthAuthorizationParameters?)
        case request(@Sendable () async -> HaapiResult)
        case exchange(OAuthAuthorizationResponseStep)
    }

    /// Where the flow is. ``isLoading`` and ``error`` are read from it (see ``enter(_:)``).
    private enum Phase {
        /// Before ``start(parameters:)``.
        case idle
        /// A request the user asked for (or its retry) is under way.
        case loading
        /// A step is shown: the user acts next, or the poll timer for a pending polling step.
        case showing
        /// An error is shown. `retry` repeats what failed, when it may succeed; `reported` once
        /// ``haapiFlowResult`` has received the error (the flow stopped on it).
        case failed(HaapiFlowError, retry: RetryAction?, reported: Bool)
        /// The flow ended: ``oAuthModel`` says how.
        case ended
    }

    /// Moves the flow to `next` and publishes what changes with it.
    private func enter(_ next: Phase) {
        phase = next
        if case .failed(let flowError, _, _) = next {
            error = flowError
        } else if error != nil {
            error = nil
        }
        let loading = if case .loading = next { true } else { false }
        if isLoading != loading { isLoading = loading }
    }

    /// After a request: the step it left shown, unless it moved the flow on (an error, the end)
    /// or a later action superseded it.
    private func settle(after request: Int) {
        guard generation == request, case .loading = phase else { return }
        enter(.showing)
    }

    /// A view model for a flow of `haapiUIKitApplication`; nothing is contacted until ``start(parameters:)``.
    public init(haapiUIKitApplication: any HaapiUIKitApplication) {
        self.haapiUIKitApplication = haapiUIKitApplication
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
        startParameters = parameters
        restartedForMismatch = false
        await begin(parameters: parameters)
    }

    private func begin(parameters: OAuthAuthorizationParameters?) async {
        shownStep = nil
        uiModel = nil
        problemModel = nil
        oAuthModel = nil
        isConfirmingInterruption = false
        if accessor == nil {
            generation += 1
            let current = generation
            stopPolling()
            enter(.loading)
            do {
                let made = try await haapiUIKitApplication.haapiAccessor()
                guard generation == current else { return }
                accessor = made
            } catch {
                guard generation == current else { return }
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
                publish(HaapiFlowError(failure: HaapiUIKitError.unsupported(cause: "\(type(of: interactionActionModel.action)) cannot be submitted")))
            }
        }
    }

    /// Chooses a selector option. An option that holds options of its own (Duo's device holding
    /// its factors) becomes the ``uiModel``'s selector; an option whose form asks for something
    /// (Duo's passcode) becomes a form to fill in; any other option's form is submitted at once
    /// (its hidden fields as the server gave them). Nothing is sent until a form is submitted;
    /// ``returnToStep()`` goes back to the step as sent.
    public func select(_ option: any SelectorItemInteractionActionModel) async {
        guard let step = shownStep else {
            publish(HaapiFlowError(failure: HaapiUIKitError.illegalState("the flow shows no step to choose from")))
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
        if let exchanged, exchanged.code == authorizationCode {
            oAuthModel = exchanged.model
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
            exchanged = (authorizationCode, model)
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
        // Closing the screen of an error that stopped the flow is seeing it: nothing is left to lose.
        if case .failed(_, nil, reported: false) = phase {
            acknowledgeError()
            return
        }
        if configuration.shouldConfirmFlowInterruption && !isConfirmingInterruption {
            isConfirmingInterruption = true
            return
        }
        await interrupt()
    }

    /// Abandons the flow: submits the step's cancel action when it has one (the server ends the
    /// flow with an `access_denied` authorization response), otherwise ends it here; either
    /// way ``oAuthModel`` becomes an ``OAuthErrorModel``.
    public func confirmCancel() async {
        await interrupt()
    }

    /// Keeps the flow going after ``cancel()`` asked for confirmation.
    public func dismissCancel() {
        isConfirmingInterruption = false
    }

    /// Repeats the request that failed with a retryable ``error``.
    public func retry() async {
        guard case .failed(_, let action?, _) = phase else { return }
        switch action {
        case .start(let parameters):
            await begin(parameters: parameters)
        case .request(let operation):
            await run(operation)
        case .exchange(let step):
            generation += 1
            let current = generation
            enter(.loading)
            await exchange(step)
            settle(after: current)
        }
    }

    /// The user has seen the ``error`` that stopped the flow (with
    /// ``HaapiUIKitConfiguration/shouldAutoHandleFlowErrorFeedback``, the UI's alert was
    /// dismissed): the flow ends and ``haapiFlowResult`` receives the error.
    public func acknowledgeError() {
        guard case .failed(let flowError, _, reported: false) = phase else { return }
        finish(with: flowError)
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
        guard shownStep is PollingStep, !isLoading, case .showing = phase else { return }
        await poll()
    }

    /// Stops the flow's work under way (polling, requests whose answers are then dropped).
    /// The application's accessor stays open for the next flow.
    public func stop() {
        generation += 1
        stopPolling()
        if case .loading = phase { enter(.showing) }
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
        generation += 1
        let current = generation
        stopPolling()
        enter(.loading)
        await execute(operation, generation: current)
        settle(after: current)
    }

    /// Sends a request and handles its result, unless a later action superseded it.
    private func execute(_ operation: @escaping @Sendable () async -> HaapiResult, generation current: Int) async {
        let result = await operation()
        guard generation == current else { return }
        switch result {
        case .representation(let step):
            await show(step, generation: current)
        case .problem(let problem):
            await handle(problem)
        case .error(let failure):
            publish(HaapiFlowError(failure: failure), retry: .request(operation))
        }
    }

    private func show(_ step: any HaapiRepresentation, generation current: Int) async {
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
                schedulePoll(polling, generation: current)
            } else if let manager {
                let next = polling.mainAction
                // Done or failed: the continuing action is submitted without the user.
                await execute({ await manager.submit(next) }, generation: current)
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
        case .restartFlow where !restartedForMismatch:
            // The HAAPI token the flow's session was bound to changed (renewed, another DPoP key):
            // a new flow binds to the new one. Twice in a row means something else is wrong.
            restartedForMismatch = true
            stopPolling()
            await begin(parameters: startParameters)
            return
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
    private func publish(_ flowError: HaapiFlowError, retry: RetryAction? = nil) {
        HaapiLogger.debug(UIKitFollowUpTag.flow, "flow error: \(flowError.title)")
        enter(.failed(flowError, retry: flowError.isRetryable ? retry : nil, reported: false))
        if !flowError.isRetryable && !configuration.shouldAutoHandleFlowErrorFeedback {
            finish(with: flowError)
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
        enter(.ended)
        haapiFlowResult?.didReceiveOAuthModel(model)
    }

    /// Ends the flow with an error.
    private func finish(with flowError: HaapiFlowError) {
        enter(.failed(flowError, retry: nil, reported: true))
        stopPolling()
        deepLinkManager?.unregisterHaapiFlowDeeplinkable()
        haapiFlowResult?.didReceiveError(flowError)
    }

    // MARK: Polling

    private func schedulePoll(_ step: PollingStep, generation current: Int) {
        stopPolling()
        guard let interval = KitPollingModel.interval(
            serverMilliseconds: step.pollingProperties.intervalMilliseconds, autoPollingDuration: configuration.autoPollingDuration)
        else { return }
        pollingTask = Task { [weak self] in
            do { try await Task.sleep(seconds: interval) } catch { return }  // an app's endless autoPollingDuration clamps
            await self?.autoPoll(step, generation: current)
        }
    }

    private func autoPoll(_ step: PollingStep, generation current: Int) async {
        guard generation == current, let manager else { return }
        pollingTask = nil  // this task is the one running: it must not be cancelled by what follows
        await execute({ await manager.poll(step) }, generation: current)
    }

    private func stopPolling() {
        pollingTask?.cancel()
        pollingTask = nil
    }

    // MARK: The end of the flow

    private func interrupt() async {
        isConfirmingInterruption = false
        stopPolling()
        if case .ended = phase { return }
        if let cancel = cancelForm {
            await submit(form: cancel, parameters: [:])
            return
        }
        generation += 1
        end(with: KitOAuthErrorModel(error: "access_denied", errorDescription: "The user cancelled the flow", source: .client))
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
                var members: [String: JSONValue] = ["access_token": .string(accessToken), "token_type": .string(properties.tokenType ?? "Bearer")]
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
            exchanged = (code, model)
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
