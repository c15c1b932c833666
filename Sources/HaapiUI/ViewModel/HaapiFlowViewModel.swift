import Foundation
import HaapiDriver
import HaapiSDK
import OAuthCore

/// Drives a HAAPI flow for any UI (the seeds' `HaapiFlowViewModel`, without UIKit or Combine).
///
/// Observe the state (each a ``FlowState``: read `value`, or iterate `values`):
/// ``isLoading``, ``uiModel`` (the current step as a ``UIModel``), ``error`` (a
/// ``HaapiFlowError``), ``oAuthModel`` (how the flow ended: tokens or an OAuth error) and
/// ``isConfirmingInterruption``. Then call the actions: ``start(parameters:)``,
/// ``submit(_:values:)``, ``select(_:)``, ``followLink(_:)``, ``poll()``, ``cancel()`` /
/// ``confirmCancel()`` / ``dismissCancel()``, ``retry()`` and
/// ``resumeExternalBrowser(nonce:)``.
///
/// By itself the view model polls polling steps (every ``HaapiUIConfiguration/autoPollingDuration``
/// or the server's interval) and submits their continuing action once done; keeps the flow on
/// the same step when the user can correct a problem; and, at the authorization response,
/// exchanges the code for tokens (bound to the flow's DPoP key when the configuration binds them).
public actor HaapiFlowViewModel {
    /// The configuration.
    public nonisolated let configuration: HaapiUIConfiguration
    /// The HAAPI and OAuth managers the flow runs on.
    public nonisolated let accessor: HaapiAccessor
    /// Whether a request is under way.
    public nonisolated let isLoading = FlowState(false)
    /// The current step, as a UI model (`nil` before the flow starts).
    public nonisolated let uiModel = FlowState<UIModel?>(nil)
    /// The current error (`nil` when there is none); a retryable one can be ``retry()``-ed.
    public nonisolated let error = FlowState<HaapiFlowError?>(nil)
    /// How the flow ended: tokens or an OAuth error (`nil` until it ends).
    public nonisolated let oAuthModel = FlowState<OAuthModel?>(nil)
    /// Whether ``cancel()`` is waiting for the UI to ``confirmCancel()`` or ``dismissCancel()``.
    public nonisolated let isConfirmingInterruption = FlowState(false)

    private let manager: HaapiManager
    private let factory: UIModelFactory
    /// The step shown (a continue-same-step included), with the values the user submitted last.
    private var shownStep: (any HaapiRepresentation)?
    private var retryAction: RetryAction?
    private var pollingTask: Task<Void, Never>?
    /// Bumped by every user action: results of superseded requests are dropped.
    private var generation = 0

    private enum RetryAction {
        case request(@Sendable () async -> HaapiResult, entered: [String: String])
        case exchange(OAuthAuthorizationResponseStep)
    }

    /// A view model for `configuration`, building its accessor.
    /// - Throws: ``HaapiError`` when the configuration cannot make an accessor.
    public init(configuration: HaapiUIConfiguration) throws {
        try self.init(configuration: configuration, accessor: configuration.makeAccessor())
    }

    /// A view model on an accessor made elsewhere (its ``HaapiAccessor/haapiManager`` must exist).
    /// - Throws: ``HaapiError/invalidConfiguration(reason:)`` for an OAuth-only accessor.
    public init(configuration: HaapiUIConfiguration, accessor: HaapiAccessor) throws {
        guard let manager = accessor.haapiManager else {
            throw HaapiError.invalidConfiguration(reason: "the accessor was built without a HAAPI manager (option .oauth)")
        }
        self.configuration = configuration
        self.accessor = accessor
        self.manager = manager
        factory = UIModelFactory(configuration: configuration)
    }

    // MARK: Actions

    /// Starts (or restarts) the flow.
    public func start(parameters: OAuthAuthorizationParameters? = nil) async {
        shownStep = nil
        uiModel.send(nil)
        oAuthModel.send(nil)
        isConfirmingInterruption.send(false)
        let manager = self.manager
        await run(entered: [:]) { await manager.start(parameters: parameters) }
    }

    /// Submits a form of the current UI model with the values the user entered, by field name
    /// (hidden fields and readonly checkboxes keep the server's values; for a checkbox, an
    /// empty string unchecks it).
    public func submit(_ form: FormModel, values: [String: String] = [:]) async {
        let manager = self.manager
        let model = form.form
        await run(entered: values) { await manager.submitForm(model, parameters: values) }
    }

    /// Chooses a selector option (submits its form).
    public func select(_ option: SelectorOptionModel) async {
        guard let form = option.form else {
            publish(HaapiFlowError(failure: HaapiError.illegalState(message: "the option \"\(option.title)\" has no form to submit")))
            return
        }
        await submit(form)
    }

    /// Follows a link (a plain GET).
    public func followLink(_ link: LinkModel) async {
        let manager = self.manager
        let value = link.link
        await run(entered: [:]) { await manager.followLink(value) }
    }

    /// Polls the current polling step once (for UIs that poll themselves, with
    /// `autoPollingDuration` 0); on a done or failed step it submits the continuing action.
    public func poll() async {
        guard let step = shownStep as? PollingStep else {
            publish(HaapiFlowError(failure: HaapiError.illegalState(message: "the current step is not a polling step")))
            return
        }
        let manager = self.manager
        await run(entered: [:]) { await manager.poll(step) }
    }

    /// Asks to abandon the flow. With ``HaapiUIConfiguration/shouldConfirmFlowInterruption``,
    /// this only sets ``isConfirmingInterruption``: the UI then calls ``confirmCancel()`` or
    /// ``dismissCancel()``. Otherwise the flow is cancelled at once (see ``confirmCancel()``).
    public func cancel() async {
        if configuration.shouldConfirmFlowInterruption && !isConfirmingInterruption.value {
            isConfirmingInterruption.send(true)
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
        isConfirmingInterruption.send(false)
    }

    /// Repeats the request that failed with a retryable ``error``.
    public func retry() async {
        guard let action = retryAction else { return }
        retryAction = nil
        switch action {
        case .request(let operation, let entered):
            await run(entered: entered, operation)
        case .exchange(let step):
            generation += 1
            isLoading.send(true)
            error.send(nil)
            await exchange(step)
            isLoading.send(false)
        }
    }

    /// Resumes an external-browser operation with the `_resume_nonce` the browser came back with.
    public func resumeExternalBrowser(nonce: String) async {
        guard case .clientOperation(let operation)? = uiModel.value?.content, let form = operation.actions.continueActions.first else {
            publish(HaapiFlowError(failure: HaapiError.illegalState(message: "the current step is not a client operation to resume")))
            return
        }
        let name = form.fields.first { $0.kind == .context }?.name ?? "_resume_nonce"
        await submit(form, values: [name: nonce])
    }

    /// Resumes an external-browser operation with the URL the browser came back to (the app
    /// redirect with `_resume_nonce` in its query).
    public func resumeExternalBrowser(url: URL) async {
        let query = URLComponents(url: url, resolvingAgainstBaseURL: false)?.percentEncodedQuery ?? ""
        guard let nonce = FormURLEncoding.decode(query).first(where: { $0.0 == "_resume_nonce" })?.1 else {
            publish(HaapiFlowError(failure: HaapiError.illegalState(message: "the URL has no _resume_nonce")))
            return
        }
        await resumeExternalBrowser(nonce: nonce)
    }

    /// Ends the view model: stops polling, closes the HAAPI managers, ends every state sequence.
    public func close() async {
        generation += 1
        stopPolling()
        await manager.close()
        await accessor.haapiTokenManager.close()
        isLoading.finish()
        uiModel.finish()
        error.finish()
        oAuthModel.finish()
        isConfirmingInterruption.finish()
    }

    // MARK: Running requests

    /// Runs a user's request: supersedes what is under way, shows loading, handles the result.
    private func run(entered: [String: String], _ operation: @escaping @Sendable () async -> HaapiResult) async {
        generation += 1
        let current = generation
        stopPolling()
        retryAction = nil
        error.send(nil)
        isLoading.send(true)
        await execute(operation, entered: entered, generation: current)
        if generation == current { isLoading.send(false) }
    }

    /// Sends a request and handles its result, unless a later action superseded it.
    private func execute(_ operation: @escaping @Sendable () async -> HaapiResult, entered: [String: String], generation current: Int) async {
        let result = await operation()
        guard generation == current else { return }
        switch result {
        case .representation(let step):
            await show(step, entered: entered, generation: current)
        case .problem(let problem):
            handle(problem, entered: entered)
        case .error(let failure):
            let flowError = HaapiFlowError(failure: failure)
            if flowError.isRetryable { retryAction = .request(operation, entered: entered) }
            publish(flowError)
        }
    }

    private func show(_ step: any HaapiRepresentation, entered: [String: String], generation current: Int) async {
        switch step {
        case let response as OAuthAuthorizationResponseStep:
            shownStep = response
            uiModel.send(factory.makeUIModel(response))
            await exchange(response)
        case let polling as PollingStep:
            shownStep = polling
            uiModel.send(factory.makeUIModel(polling))
            if polling.properties.status == .pending {
                schedulePoll(polling, generation: current)
            } else if let next = polling.mainAction {
                // Done or failed: the continuing action is submitted without the user.
                let manager = self.manager
                await execute({ await manager.submit(next) }, entered: [:], generation: current)
            }
        default:
            shownStep = step
            uiModel.send(factory.makeUIModel(step))
        }
    }

    private func handle(_ problem: any ProblemRepresentation, entered: [String: String]) {
        if let authorization = problem as? AuthorizationProblem {
            stopPolling()
            oAuthModel.send(.error(OAuthErrorModel(authorization)))
            return
        }
        if configuration.shouldAutoHandleFlowErrorFeedback, problem.type.isRetryableOnSameStep, let step = shownStep {
            uiModel.send(factory.makeUIModel(step, problem: problem, enteredValues: entered))
            return
        }
        stopPolling()
        publish(HaapiFlowError(problem: ProblemModel(problem)))
    }

    private func publish(_ flowError: HaapiFlowError) {
        error.send(flowError)
    }

    // MARK: Polling

    private func schedulePoll(_ step: PollingStep, generation current: Int) {
        stopPolling()
        guard let interval = PollingModel.interval(
            serverMilliseconds: step.properties.interval, autoPollingDuration: configuration.autoPollingDuration)
        else { return }
        pollingTask = Task { [weak self] in
            do { try await Task.sleep(for: interval) } catch { return }
            await self?.autoPoll(step, generation: current)
        }
    }

    private func autoPoll(_ step: PollingStep, generation current: Int) async {
        guard generation == current else { return }
        pollingTask = nil  // this task is the one running: it must not be cancelled by what follows
        let manager = self.manager
        await execute({ await manager.poll(step) }, entered: [:], generation: current)
    }

    private func stopPolling() {
        pollingTask?.cancel()
        pollingTask = nil
    }

    // MARK: The end of the flow

    private func interrupt() async {
        isConfirmingInterruption.send(false)
        stopPolling()
        if let cancel = uiModel.value?.cancelForm, oAuthModel.value == nil {
            await submit(cancel)
            return
        }
        generation += 1
        isLoading.send(false)
        if oAuthModel.value == nil {
            oAuthModel.send(.error(OAuthErrorModel(error: "access_denied", errorDescription: "The user cancelled the flow", source: .client)))
        }
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
                    oAuthModel.send(.token(OAuthTokenModel(try SuccessfulTokenResponse(members: members))))
                } catch {
                    publish(HaapiFlowError(failure: error))
                }
            } else {
                publish(HaapiFlowError(failure: HaapiError.illegalState(message: "the authorization response has neither a code nor tokens")))
            }
            return
        }
        let dpop = configuration.isTokenBound ? accessor.dpop : nil
        let verifier = await manager.codeVerifier
        switch await accessor.oAuthTokenManager.fetchAccessToken(with: code, dpop: dpop, codeVerifier: verifier) {
        case .successfulToken(let tokens):
            oAuthModel.send(.token(OAuthTokenModel(tokens)))
        case .errorToken(let response):
            oAuthModel.send(.error(OAuthErrorModel(response)))
        case .error(let failure):
            let flowError = HaapiFlowError(failure: failure)
            if flowError.isRetryable { retryAction = .exchange(step) }
            publish(flowError)
        }
    }
}
