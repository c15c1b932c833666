// Seed 003 (Swift iOS App using HAAPI), the form to view-models code: the app draws its own login
// screens from the steps HaapiFlowViewModel shows and submits through it. The seed's `FormModel`
// and `FieldModel` are the app's names for the SDK's form action and its fields (below). What changed is said above the snippet and in docs/PORTING.md. Type-checked for iOS
// by Scripts/check-apple.sh.
import HaapiUI
import SwiftUI

/// The view model of the screen that renders a step's form: the seed's `processForm` feeds
/// its published properties.
@MainActor final class FormViewModel: ObservableObject {
    @Published var problemViewModel: ProblemViewModel?
    @Published var form: FormModel?
    @Published var isRedirect = false
    @Published var fieldViewModels = [FieldViewModel]()

    private let flow: HaapiFlowViewModel
    private var cancellables = Set<AnyCancellable>()

    init(flow: HaapiFlowViewModel) {
        self.flow = flow
        flow.$uiModel
            .receive(on: DispatchQueue.main)
            .sink { [weak self] uiModel in self?.show(uiModel) }
            .store(in: &cancellables)
        flow.$problemModel
            .receive(on: DispatchQueue.main)
            .sink { [weak self] problem in self?.problemViewModel = problem.map(ProblemViewModel.init) }
            .store(in: &cancellables)
    }

    /// The step's first form that does not cancel, then the problem about the last submission.
    private func show(_ uiModel: (any UIModel)?) {
        guard uiModel != nil, let step = flow.shownStep as? InteractiveFormStep,
            let form = step.actions.compactMap({ $0 as? FormAction }).first(where: { $0.kind != .cancel })
        else { return }
        // HaapiFlowViewModel follows redirection steps itself: a form never comes from one.
        processForm(form.model, isRedirect: false)
    }

    // MARK: 003-5 Form to view-models
    // Changed: the lost braces of the function and of the closure restored. `form` is the app's
    // `FormModel` (the SDK's FormActionModel), `form.fields` its fields, whose `isHidden` the
    // filter reads as printed.

private func processForm(_ form: FormModel,
                             isRedirect: Bool) {
        problemViewModel = nil
        self.form = form
        self.isRedirect = isRedirect

        let fields = form.fields.filter { !$0.isHidden }
        fieldViewModels = fields.map{ field in
            FieldViewModel(field: field)
        }
}

    /// Submits the form with what the user entered, by field name.
    func submit() async {
        guard let form else { return }
        let values = Dictionary(fieldViewModels.map { ($0.field.name, $0.value) }, uniquingKeysWith: { first, _ in first })
        await flow.submit(form: form, parameters: values)
    }

    func start() async { await flow.start() }
}

// MARK: the app's own types, named by the seed but not shown

/// A form of a step, as the app's view models see it.
typealias FormModel = FormActionModel

/// A field of a form.
typealias FieldModel = any FormField

extension FormField {
    /// Whether the field is sent without being shown.
    var isHidden: Bool { self is HiddenFormField }
    /// Whether what is typed is hidden.
    var isSecure: Bool { self is PasswordFormField }
}

/// One field the user fills in.
@MainActor final class FieldViewModel: ObservableObject, Identifiable {
    let field: FieldModel
    @Published var value: String

    init(field: FieldModel) {
        self.field = field
        value = field.value ?? ""
    }

    var label: String { field.label?.literal ?? field.name }
}

/// The problem shown above the form.
struct ProblemViewModel {
    let title: String
    let messages: [String]

    init(_ problem: any ProblemModel) {
        title = problem.title ?? problem.message
        messages = problem.messageItems.compactMap(\.text)
    }
}

struct FormView: View {
    @ObservedObject var model: FormViewModel

    var body: some View {
        VStack(spacing: 12) {
            if let problem = model.problemViewModel {
                Text(problem.title).foregroundStyle(.red)
                ForEach(problem.messages, id: \.self) { Text($0).font(.footnote) }
            }
            ForEach(model.fieldViewModels) { field in FieldView(model: field) }
            if let form = model.form {
                Button(form.actionTitle?.literal ?? "Submit") { Task { await model.submit() } }
            }
        }
        .padding()
        .task { await model.start() }
    }
}

struct FieldView: View {
    @ObservedObject var model: FieldViewModel

    var body: some View {
        if model.field.isSecure {
            SecureField(model.label, text: $model.value)
        } else {
            TextField(model.label, text: $model.value)
        }
    }
}

/// The app's settings (003-1's `Constants`).
private enum Constants {
    static let defaultAuthorizationEndpointURI = "https://ef5540f40573.eu.ngrok.io/oauth/v2/oauth-authorize"
    static let defaultTokenEndpointURI = "https://ef5540f40573.eu.ngrok.io/oauth/v2/oauth-token"
    static let defaultClientId = "haapi-ios-dev-client"
    static let defaultBaseURLString = "https://ef5540f40573.eu.ngrok.io"
}

@main @MainActor struct HaapiApp: App {
    @StateObject private var model = FormViewModel(flow: HaapiFlowViewModel(haapiUIKitApplication: HaapiUIKitApplicationBuilder(
        haapiUIKitConfiguration: HaapiUIKitConfigurationBuilder(
            clientId: Constants.defaultClientId, baseUrl: URL(string: Constants.defaultBaseURLString)!,
            tokenEndpointUrl: URL(string: Constants.defaultTokenEndpointURI)!,
            authorizationEndpointUrl: URL(string: Constants.defaultAuthorizationEndpointURI)!, appRedirect: "haapi:start"
        ).build()).build()))

    var body: some Scene {
        WindowGroup { FormView(model: model) }
    }
}
