#if canImport(UIKit) && canImport(CoreImage) && !os(watchOS) && !os(tvOS)
import CoreImage
import UIKit

/// The base of the kit's screens (Curity's `BaseViewController`): it draws the ``Screen`` of
/// its model (messages, content, links, each element styled by the theme) and forwards each tap
/// to the flow through the `pre…` hooks, which a subclass overrides to check, change or stop it.
///
/// Subclass a screen to change one element (``makeView(for:)``), add views
/// (``insertView(_:aboveView:)``), or intercept actions; register the subclass with
/// ``ViewControllerFactoryRegistry``.
@MainActor open class BaseViewController<AssociatedModel, AssociatedStyle: UIViewControllerStyle>: UIViewController, HaapiUIViewController, UIStylable {
    /// The model the screen was made for.
    public final let model: AssociatedModel
    /// The model drawn: ``model``, then what ``handleFormModel(_:)`` or a wait's update takes in place.
    public private(set) var shownModel: (any UIModel)?
    /// The problem with the last submission, drawn above the content.
    public private(set) var shownProblem: (any ProblemModel)?
    /// The screen's style.
    public let style: AssociatedStyle
    /// The styles every screen shares.
    public let commonStyle: HaapiUIViewControllerStyle
    public weak var haapiFlowViewControllerDelegate: (any HaapiFlowViewControllerDelegate)?
    public weak var uiStylableThemeDelegate: (any UIStylableThemeDelegate)?

    /// The messages.
    public var messagesStackView = UIStackView()
    /// The fields, choices, buttons and waits.
    public var contentStackView = UIStackView()
    /// The links.
    public var linksStackView = UIStackView()
    /// The view that holds the three stacks.
    public private(set) weak var mainView: UIView?
    private let scrollView = UIScrollView()
    private let columnStackView = UIStackView()
    /// What the user entered, by field: read when a form is submitted.
    private var inputs: [(name: String, read: () -> String)] = []
    private weak var loadingButton: UIButton?
    private var countdown: (label: UILabel, seconds: Int, timer: Timer?)?

    /// A screen showing `model` with `style`.
    public init(_ model: AssociatedModel, style: AssociatedStyle, commonStyle: HaapiUIViewControllerStyle) {
        self.model = model
        shownModel = model as Any as? any UIModel
        self.style = style
        self.commonStyle = commonStyle
        super.init(nibName: nil, bundle: nil)
    }

    @available(*, unavailable)
    public required init?(coder: NSCoder) { nil }

    isolated deinit {
        countdown?.timer?.invalidate()
    }

    open override func viewDidLoad() {
        super.viewDidLoad()
        scrollView.translatesAutoresizingMaskIntoConstraints = false
        columnStackView.translatesAutoresizingMaskIntoConstraints = false
        columnStackView.axis = .vertical
        for stack in [messagesStackView, contentStackView, linksStackView] {
            stack.axis = .vertical
            columnStackView.addArrangedSubview(stack)
        }
        view.addSubview(scrollView)
        scrollView.addSubview(columnStackView)
        mainView = columnStackView
        NSLayoutConstraint.activate([
            scrollView.topAnchor.constraint(equalTo: view.safeAreaLayoutGuide.topAnchor),
            scrollView.bottomAnchor.constraint(equalTo: view.keyboardLayoutGuide.topAnchor),
            scrollView.leadingAnchor.constraint(equalTo: view.safeAreaLayoutGuide.leadingAnchor),
            scrollView.trailingAnchor.constraint(equalTo: view.safeAreaLayoutGuide.trailingAnchor),
            columnStackView.topAnchor.constraint(equalTo: scrollView.contentLayoutGuide.topAnchor),
            columnStackView.bottomAnchor.constraint(equalTo: scrollView.contentLayoutGuide.bottomAnchor),
            columnStackView.leadingAnchor.constraint(equalTo: scrollView.frameLayoutGuide.leadingAnchor),
            columnStackView.trailingAnchor.constraint(equalTo: scrollView.frameLayoutGuide.trailingAnchor),
        ])
        apply(style: style)
        preRender(uiModel: model)
        render()
    }

    // MARK: Drawing

    /// Called before the model is drawn, the first time and each time it is replaced.
    open func preRender(uiModel: AssociatedModel) {}

    /// What decides the elements: the flow's builder, in the application's language and theme.
    public var screenBuilder: ScreenBuilder { (uiStylableThemeDelegate as? any ScreenBuilding)?.screenBuilder ?? ScreenBuilder() }

    /// The elements of the model shown, with the problem shown.
    open func screen() -> Screen {
        guard let shownModel else { return Screen(kind: .generic, messages: [], content: [], links: []) }
        return screenBuilder.screen(for: shownModel, problem: shownProblem)
    }

    /// Draws `model` in place of the model shown, with `problem` (a wait's next answer, a form
    /// with the server's complaints).
    public func show(_ model: any UIModel, problem: (any ProblemModel)? = nil) {
        shownModel = model
        shownProblem = problem
        if let model = model as Any as? AssociatedModel { preRender(uiModel: model) }
        if isViewLoaded { render() }
    }

    private func render() {
        countdown?.timer?.invalidate()
        countdown = nil
        inputs = []
        let screen = screen()
        fill(messagesStackView, with: screen.messages)
        fill(contentStackView, with: screen.content)
        fill(linksStackView, with: screen.links)
    }

    private func fill(_ stack: UIStackView, with items: [ScreenItem]) {
        stack.arrangedSubviews.forEach { $0.removeFromSuperview() }
        for item in items { if let view = makeView(for: item) { stack.addArrangedSubview(view) } }
    }

    /// The view of one element; `nil` leaves it out. Override to draw an element your way.
    open func makeView(for item: ScreenItem) -> UIView? {
        switch item {
        case .message(let text, let section):
            return messageView(text, style: commonStyle.messageViewStyles.style(section: section))
        case .text(let text):
            return messageView(text, style: commonStyle.messageViewStyles.content)
        case .section(let title):
            let label = UILabel()
            style.headerTextAppearance.apply(to: label, text: title, color: color(style.headerTextColorName))
            label.accessibilityTraits.insert(.header)
            return label
        case .textField(let field):
            return textFieldView(field)
        case .checkbox(let checkbox):
            return checkboxView(checkbox)
        case .picker(let picker):
            return pickerView(picker)
        case .button(let button):
            return buttonView(button.title, style: style(of: button.role), action: button.action)
        case .tabs(let titles, let selected):
            return tabsView(titles, selected: selected)
        case .loadingIndicator:
            let spinner = UIActivityIndicatorView(style: .large)
            spinner.startAnimating()
            return spinner
        case .countdown(let text, let seconds):
            let label = UILabel()
            commonStyle.messageViewStyles.content.textAppearance.apply(to: label, text: text, color: color(commonStyle.messageViewStyles.content.textColorName))
            startCountdown(label, seconds: seconds)
            return label
        case .qrCode(let data, let image):
            let drawn = data.flatMap(Self.qrImage) ?? image?.link.imageData.flatMap(UIImage.init(data:))
            guard let drawn else { return nil }
            let view = UIImageView(image: drawn)
            view.contentMode = .scaleAspectFit
            view.accessibilityLabel = image?.text
            view.heightAnchor.constraint(equalToConstant: 220).isActive = true
            return view
        case .expandable(let title, let body):
            let boxStyle = (uiStylableThemeDelegate as? any ScreenBuilding).flatMap { try? $0.theme.style(ExpandableViewStyle.self, named: "ExpandableView") }
            return makeExpandableView(title: title, body: body, style: boxStyle)
        case .link(let title, let action):
            return buttonView(title, style: commonStyle.linkView.actionableButtonStyle, action: action)
        }
    }

    private func color(_ name: String?) -> UIColor? {
        uiStylableThemeDelegate?.colorOptional(named: name) ?? ThemeAssets.color(named: name)
    }

    private func image(_ name: String?) -> UIImage? {
        uiStylableThemeDelegate?.imageOptional(named: name) ?? ThemeAssets.image(named: name)
    }

    private func style(of role: ScreenItem.Button.Role) -> ActionableButtonStyle {
        switch role {
        case .primary: return commonStyle.primaryButton
        case .secondary: return commonStyle.secondaryButton
        case .text: return commonStyle.textButton
        }
    }

    private func messageView(_ text: String, style: MessageViewStyle) -> UIView {
        let label = UILabel()
        style.textAppearance.apply(to: label, text: text, color: color(style.textColorName))
        let row = UIStackView(arrangedSubviews: [label])
        if let icon = image(style.imageName) {
            let iconView = UIImageView(image: icon)
            iconView.tintColor = color(style.imageTintColorName)
            iconView.setContentHuggingPriority(.required, for: .horizontal)
            row.insertArrangedSubview(iconView, at: 0)
        }
        row.spacing = style.iconTextPadding
        row.alignment = style.alignment.uiAlignment
        row.isLayoutMarginsRelativeArrangement = true
        row.directionalLayoutMargins = style.directionalInsets
        row.backgroundColor = style.backgroundColor
        row.layer.cornerRadius = style.cornerRadius
        row.layer.borderWidth = style.borderWidth
        row.layer.borderColor = color(style.borderColorName)?.cgColor
        return row
    }

    private func textFieldView(_ field: ScreenItem.TextField) -> UIView {
        let fieldStyle = commonStyle.inputTextField
        let title = UILabel()
        fieldStyle.titleTextAppearance.apply(to: title, text: field.label, color: color(fieldStyle.titleColorName))
        let input = UITextField()
        input.text = field.value
        input.placeholder = field.placeholder
        input.isSecureTextEntry = field.isSecure
        input.autocapitalizationType = .none
        input.autocorrectionType = .no
        input.font = fieldStyle.textFieldTextAppearance.fontText
        input.textColor = color(fieldStyle.textFieldColorName)
        input.tintColor = color(fieldStyle.tintColorName)
        input.backgroundColor = color(fieldStyle.backgroundColorName)
        input.layer.cornerRadius = fieldStyle.cornerRadius
        input.layer.borderWidth = fieldStyle.borderWidth
        input.layer.borderColor = color(field.error == nil ? fieldStyle.borderColorName : fieldStyle.errorColorName)?.cgColor
        input.heightAnchor.constraint(greaterThanOrEqualToConstant: fieldStyle.textFieldMinimumHeight).isActive = true
        input.leftView = UIView(frame: CGRect(x: 0, y: 0, width: fieldStyle.textFieldContentPadding.left, height: 1))
        input.leftViewMode = .always
        input.accessibilityLabel = field.label
        switch field.contentType {
        case .username: input.textContentType = .username
        case .password: input.textContentType = .password
        case .newPassword: input.textContentType = .newPassword
        case .oneTimeCode:
            input.textContentType = .oneTimeCode
            input.keyboardType = .asciiCapableNumberPad
        case .emailAddress:
            input.textContentType = .emailAddress
            input.keyboardType = .emailAddress
        case .telephoneNumber:
            input.textContentType = .telephoneNumber
            input.keyboardType = .phonePad
        case .url:
            input.textContentType = .URL
            input.keyboardType = .URL
        case .none: break
        }
        if let maxLength = field.maxLength {
            input.addAction(UIAction { _ in
                if let text = input.text, text.count > maxLength { input.text = String(text.prefix(maxLength)) }
            }, for: .editingChanged)
        }
        inputs.append((field.name, { input.text ?? "" }))
        let column = UIStackView(arrangedSubviews: [title, input])
        column.axis = .vertical
        column.spacing = 4
        if let error = field.error {
            let errorLabel = UILabel()
            fieldStyle.errorTextAppearance.apply(to: errorLabel, text: error, color: color(fieldStyle.errorColorName))
            column.addArrangedSubview(errorLabel)
        }
        return column
    }

    private func checkboxView(_ checkbox: ScreenItem.Checkbox) -> UIView {
        let boxStyle = commonStyle.checkbox
        var checked = checkbox.isChecked
        let button = UIButton(type: .custom)
        let label = UILabel()
        boxStyle.textAppearance.apply(to: label, text: checkbox.label, color: color(boxStyle.textColorName))
        let draw = { [weak self] in
            button.setImage(self?.image(checked ? boxStyle.imageNameChecked : boxStyle.imageNameUnchecked), for: .normal)
            button.accessibilityValue = checked ? "1" : "0"
        }
        draw()
        button.isEnabled = !checkbox.isReadonly
        button.accessibilityLabel = checkbox.label
        button.addAction(UIAction { _ in
            checked.toggle()
            draw()
        }, for: .touchUpInside)
        let value = checkbox.item.value.isEmpty ? "on" : checkbox.item.value
        inputs.append((checkbox.name, { checked ? value : "" }))
        let row = UIStackView(arrangedSubviews: [button, label])
        row.spacing = boxStyle.iconTextPadding
        row.alignment = .center
        row.isLayoutMarginsRelativeArrangement = true
        row.directionalLayoutMargins = boxStyle.directionalInsets
        return row
    }

    private func pickerView(_ picker: ScreenItem.Picker) -> UIView {
        var selected = picker.options.first(where: \.isSelected) ?? picker.options.first
        let button = UIButton(type: .system)
        let pickerStyle = commonStyle.textPicker
        button.setTitle(selected?.label ?? picker.label, for: .normal)
        button.setTitleColor(color(pickerStyle.textColorName), for: .normal)
        button.backgroundColor = color(pickerStyle.backgroundColorName)
        button.showsMenuAsPrimaryAction = true
        button.menu = UIMenu(title: picker.label, children: picker.options.map { option in
            UIAction(title: option.label, state: option == selected ? .on : .off) { _ in
                selected = option
                button.setTitle(option.label, for: .normal)
            }
        })
        inputs.append((picker.name, { selected?.value ?? "" }))
        let title = UILabel()
        commonStyle.inputTextField.titleTextAppearance.apply(to: title, text: picker.label, color: color(commonStyle.inputTextField.titleColorName))
        let column = UIStackView(arrangedSubviews: [title, button])
        column.axis = .vertical
        column.spacing = 4
        return column
    }

    private func buttonView(_ title: String, style: ActionableButtonStyle, action: ScreenAction) -> UIButton {
        var configuration = UIButton.Configuration.filled()
        configuration.title = title
        configuration.baseBackgroundColor = color(style.backgroundColorName) ?? .clear
        configuration.baseForegroundColor = color(style.textColorName)
        configuration.background.cornerRadius = style.cornerRadius
        configuration.background.strokeWidth = style.borderWidth
        configuration.background.strokeColor = color(style.borderColorName)
        configuration.image = image(style.imageName)
        configuration.imagePadding = style.iconTextPadding
        let font = style.textAppearance.fontText
        configuration.titleTextAttributesTransformer = UIConfigurationTextAttributesTransformer { attributes in
            var attributes = attributes
            attributes.font = font
            return attributes
        }
        let button = UIButton(configuration: configuration)
        button.heightAnchor.constraint(greaterThanOrEqualToConstant: style.minHeight).isActive = true
        button.addAction(UIAction { [weak self, weak button] _ in
            guard let self else { return }
            self.loadingButton = button
            self.perform(action)
        }, for: .touchUpInside)
        return button
    }

    private func tabsView(_ titles: [String], selected: Int) -> UIView {
        let tabs = UISegmentedControl(items: titles)
        tabs.selectedSegmentIndex = selected
        let tabStyle = commonStyle.tabView
        tabs.setTitleTextAttributes([.foregroundColor: color(tabStyle.textColorName) ?? .secondaryLabel], for: .normal)
        tabs.setTitleTextAttributes([.foregroundColor: color(tabStyle.highlightTextColorName) ?? .label], for: .selected)
        tabs.addAction(UIAction { [weak self, weak tabs] _ in
            let options = ((self?.shownModel as? any SelectorModel)?.selectorItems ?? []).compactMap { $0 as? any SelectorItemInteractionActionModel }
            guard let self, let index = tabs?.selectedSegmentIndex, options.indices.contains(index) else { return }
            self.perform(.select(options[index]))
        }, for: .valueChanged)
        return tabs
    }

    /// A title that opens to show `body`, in `boxStyle` (plain when `nil`).
    func makeExpandableView(title: String, body: String, style boxStyle: ExpandableViewStyle?) -> UIView {
        let header = UIButton(type: .system)
        header.setTitle(title, for: .normal)
        header.setImage(image(boxStyle?.iconImageName), for: .normal)
        header.tintColor = color(boxStyle?.iconTintColorName)
        let text = UILabel()
        if let boxStyle {
            boxStyle.contentTextAppearance.apply(to: text, text: body, color: color(boxStyle.contentTextColorName))
        } else {
            text.text = body
            text.numberOfLines = 0
        }
        text.isHidden = true
        header.addAction(UIAction { _ in text.isHidden.toggle() }, for: .touchUpInside)
        let column = UIStackView(arrangedSubviews: [header, text])
        column.axis = .vertical
        column.spacing = 8
        column.layer.cornerRadius = boxStyle?.cornerRadius ?? 0
        column.layer.borderWidth = boxStyle?.borderWidth ?? 0
        column.layer.borderColor = color(boxStyle?.borderColorName)?.cgColor
        column.isLayoutMarginsRelativeArrangement = true
        column.directionalLayoutMargins = boxStyle?.directionalInsets ?? .zero
        return column
    }

    /// Counts the time left down, a second at a time.
    private func startCountdown(_ label: UILabel, seconds: Int) {
        let strings = screenBuilder.strings
        countdown = (label, seconds, Timer.scheduledTimer(withTimeInterval: 1, repeats: true) { [weak self] _ in
            MainActor.assumeIsolatedOnMainThread {
                guard let self, var countdown = self.countdown else { return }
                countdown.seconds = max(0, countdown.seconds - 1)
                self.countdown = countdown
                let text = strings.timeLeft(seconds: countdown.seconds)
                countdown.label.attributedText = NSAttributedString(string: text, attributes: countdown.label.attributedText?.attributes(at: 0, effectiveRange: nil) ?? [:])
            }
        })
    }

    /// A QR code drawn by Core Image's `CIQRCodeGenerator`, scaled without smoothing.
    static func qrImage(_ text: String) -> UIImage? {
        guard let filter = CIFilter(name: "CIQRCodeGenerator") else { return nil }
        filter.setValue(Data(text.utf8), forKey: "inputMessage")
        filter.setValue("M", forKey: "inputCorrectionLevel")
        guard let code = filter.outputImage?.transformed(by: CGAffineTransform(scaleX: 8, y: 8)),
            let drawn = CIContext().createCGImage(code, from: code.extent)
        else { return nil }
        return UIImage(cgImage: drawn)
    }

    // MARK: Actions

    /// Sends `action` to the flow, through the hook that may stop or change it.
    open func perform(_ action: ScreenAction) {
        guard let delegate = haapiFlowViewControllerDelegate else { return }
        switch action {
        case .submit(let button):
            // The button's own fields when it names them, else every field on the screen.
            let names = (button as? KitButtonItem).map { Set($0.fields.map(\.key)) }
            var values: [String: any Sendable] = [:]
            for input in inputs where names?.contains(input.name) ?? true { values[input.name] = input.read() }
            preSubmit(interactionActionModel: button, parameters: values) { [weak self] go, parameters in
                if go { delegate.submit(interactionActionModel: button, parameters: parameters) } else { self?.stopLoading() }
            }
        case .select(let option):
            preSelect(selectorItemModel: option) { [weak self] go in
                if go { delegate.select(selectorItemModel: option) } else { self?.stopLoading() }
            }
        case .follow(let link):
            preFollow(linkItemModel: link) { [weak self] go in
                if go { delegate.follow(linkItemModel: link) } else { self?.stopLoading() }
            }
        case .open(let url):
            delegate.openURL(url)
        case .poll:
            (delegate as? any KitFlowActions)?.poll()
        case .passkey(let kind):
            (delegate as? any KitFlowActions)?.performPasskey(kind: kind)
        }
    }

    // MARK: Hooks

    open func stopLoading() {
        loadingButton?.configuration?.showsActivityIndicator = false
        loadingButton = nil
    }

    open func hasLoading() -> Bool { loadingButton != nil }

    /// Leaves problems to the flow; the kit's form screens show the complaints about their fields.
    open func handleProblemModel(_ problemModel: any ProblemModel) -> Bool { false }

    open func handleInfoMessageModels(_ infoMessageModels: [any InfoMessageModel]) {
        fill(messagesStackView, with: infoMessageModels.compactMap { message in message.text.map { .message(text: $0, style: message.themeSection) } })
    }

    open func handleLinkItemModels(_ linkItemModels: [any LinkItemModel]) {
        fill(linksStackView, with: linkItemModels.map { .link(title: $0.text ?? $0.href, action: .follow($0)) })
    }

    /// Shows a problem the user corrects on the same screen (invalid input, wrong credentials)
    /// over the model shown, its complaints at their fields; `false` for any other problem.
    public func showCorrections(_ problem: any ProblemModel) -> Bool {
        guard let shownModel, problem.type == .invalidInputProblem || problem.type == .incorrectCredentialsProblem else { return false }
        stopLoading()
        show(shownModel, problem: problem)
        return true
    }

    /// Leaves new forms to the flow; the kit's form screens take them in place.
    open func handleFormModel(_ formModel: any FormModel) -> Bool { false }

    open func preSubmit(
        interactionActionModel: any InteractionActionModel, parameters: [String: any Sendable],
        closure: @escaping (Bool, [String: any Sendable]) -> Void
    ) {
        loadingButton?.configuration?.showsActivityIndicator = true
        closure(true, parameters)
    }

    open func preSelect(selectorItemModel: any SelectorItemInteractionActionModel, closure: @escaping (Bool) -> Void) { closure(true) }

    open func preFollow(linkItemModel: any LinkItemModel, closure: @escaping (Bool) -> Void) { closure(true) }

    // MARK: Style

    /// Applies the screen's style: its background, padding, and the styles of its three stacks.
    public func apply(style: AssociatedStyle) {
        view.backgroundColor = color(style.backgroundColorName)
        columnStackView.isLayoutMarginsRelativeArrangement = true
        columnStackView.directionalLayoutMargins = style.directionalInsets
        style.messagesStyle.apply(to: messagesStackView)
        style.linksStyle.apply(to: linksStackView)
        contentStackView.axis = .vertical
        if let content = (style as? any ContentStackStyled)?.contentStyle {
            content.apply(to: contentStackView)
        } else {
            contentStackView.spacing = 16
            contentStackView.alignment = .fill
        }
    }

    /// Puts `view` just above `aboveView` in its stack; `false` when `aboveView` is in none.
    @discardableResult
    public func insertView(_ view: UIView, aboveView: UIView) -> Bool { insert(view, next: aboveView, offset: 0) }

    /// Puts `view` just below `belowView` in its stack; `false` when `belowView` is in none.
    @discardableResult
    public func insertView(_ view: UIView, belowView: UIView) -> Bool { insert(view, next: belowView, offset: 1) }

    private func insert(_ view: UIView, next: UIView, offset: Int) -> Bool {
        guard let stack = next.superview as? UIStackView, let index = stack.arrangedSubviews.firstIndex(of: next) else { return false }
        stack.insertArrangedSubview(view, at: index + offset)
        return true
    }
}
#endif
