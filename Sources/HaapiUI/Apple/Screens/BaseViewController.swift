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
    @MainActor @preconcurrency
    open class BaseViewController<AssociatedModel, AssociatedStyle: UIViewControllerStyle>: UIViewController, HaapiUIViewController,
        UIStylable
    {
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
        /// The flow that performs what the screen asks; set before the screen loads.
        public weak var haapiFlowViewControllerDelegate: (any HaapiFlowViewControllerDelegate)?
        /// Where the screen finds its styles and texts; set before the screen loads.
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
        /// The buttons, links and tabs drawn: disabled while a request of the flow runs.
        private var actionElements: [any ActionElement] = []
        /// The element last tapped: it shows progress while its request runs.
        private weak var tappedElement: (any ActionElement)?
        /// Whether the flow's request runs (the buttons are disabled): the return key then submits nothing.
        private var isLoading = false
        private var countdown: (label: UILabel, seconds: Int, timer: Timer?)?
        /// What the elements are drawn with; made when first drawn, once the delegates are set.
        private lazy var drawing = ElementDrawing(
            color: { [weak self] in self?.color($0) }, image: { [weak self] in self?.image($0) }, strings: screenBuilder.strings)

        /// A screen showing `model` with `style`.
        public init(_ model: AssociatedModel, style: AssociatedStyle, commonStyle: HaapiUIViewControllerStyle) {
            self.model = model
            shownModel = model as Any as? any UIModel
            self.style = style
            self.commonStyle = commonStyle
            super.init(nibName: nil, bundle: nil)
        }

        /// Unavailable: the kit's screens are made in code, never from a storyboard.
        @available(*, unavailable)
        public required init?(coder: NSCoder) { nil }

        isolated deinit {
            countdown?.timer?.invalidate()
        }

        /// Lays out the scroll view and the screen's stacks, applies the style and draws the model.
        open override func viewDidLoad() {
            super.viewDidLoad()
            scrollView.translatesAutoresizingMaskIntoConstraints = false
            columnStackView.translatesAutoresizingMaskIntoConstraints = false
            columnStackView.axis = .vertical
            for stack in [messagesStackView, contentStackView, linksStackView] {
                stack.axis = .vertical
                columnStackView.addArrangedSubview(stack)
            }
            if let header = drawing.headerView(commonStyle.header) { columnStackView.insertArrangedSubview(header, at: 0) }
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

        /// Resolves the borders' colours once the screen is in its window: drawn before, they took
        /// the light appearance of a view with no window yet.
        open override func viewWillAppear(_ animated: Bool) {
            super.viewWillAppear(animated)
            drawing.refreshBorders()
        }

        /// Redraws the borders when light and dark change (a layer's border colour does not follow them).
        open override func traitCollectionDidChange(_ previousTraitCollection: UITraitCollection?) {
            super.traitCollectionDidChange(previousTraitCollection)
            // Layer borders hold a CGColor, which does not follow light and dark by itself.
            if traitCollection.hasDifferentColorAppearance(comparedTo: previousTraitCollection) { drawing.refreshBorders() }
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
            let screen = screen()
            // A wait's next answer patches the screen on show (ScreenUpdate): the views of what did
            // not change stay, with their state (BankID's help open) and VoiceOver's place.
            if let drawnScreen, drawnScreen.kind == screen.kind, patch(ScreenUpdate(from: drawnScreen, to: screen), to: screen) {
                self.drawnScreen = screen
                return
            }
            // The keyboard stays when the form is drawn again in place (Screen.focusAfterRedraw).
            let typing = textFields.first { $0.value.isFirstResponder }?.key
            defer { if let name = screen.focusAfterRedraw(typingIn: typing) { textFields[name]?.becomeFirstResponder() } }
            countdown?.timer?.invalidate()
            countdown = nil
            inputs = []
            textFields = [:]
            actionElements = []
            drawnScreen = screen
            fill(messagesStackView, with: screen.messages)
            fill(contentStackView, with: screen.content)
            fill(linksStackView, with: screen.links)
            // The first field with a complaint, else a form-level error, takes VoiceOver's focus
            // (ScreenBuilder.accessibilityFocus(of:)); the complaints are announced besides, so nobody misses them.
            if let focus = screenBuilder.accessibilityFocus(of: screen) {
                let view = focus.fieldName.flatMap { textFields[$0] } ?? drawnItems.first { $0.item == focus }?.view
                if let view { UIAccessibility.post(notification: .layoutChanged, argument: view) }
            }
            let announcements = screen.items.compactMap { screenBuilder.accessibility(of: $0).announcement }
            if !announcements.isEmpty { UIAccessibility.post(notification: .announcement, argument: announcements.joined(separator: "\n")) }
        }

        /// The screen the stacks show.
        private var drawnScreen: Screen?
        /// The view of each element of each stack, in order (`nil` where ``makeView(for:)`` left one out).
        private var stackViews: [ObjectIdentifier: [UIView?]] = [:]

        /// Each element drawn, with its view.
        private var drawnItems: [(item: ScreenItem, view: UIView)] {
            guard let drawnScreen else { return [] }
            return [
                (messagesStackView, drawnScreen.messages), (contentStackView, drawnScreen.content), (linksStackView, drawnScreen.links),
            ]
            .flatMap { stack, items in
                zip(items, stackViews[ObjectIdentifier(stack)] ?? []).compactMap { item, view in view.map { (item, $0) } }
            }
        }

        private func fill(_ stack: UIStackView, with items: [ScreenItem]) {
            for view in stack.arrangedSubviews { view.removeFromSuperview() }
            var views: [UIView?] = []
            for item in items {
                let view = makeView(for: item)
                views.append(view)
                guard let view else { continue }
                stack.addArrangedSubview(view)
            }
            stackViews[ObjectIdentifier(stack)] = views
        }

        /// Replaces, in place, the views of the elements `update` says changed; `false` when a
        /// stack must be drawn again (then nothing was touched).
        private func patch(_ update: ScreenUpdate, to screen: Screen) -> Bool {
            let stacks: [(UIStackView, [ScreenItem], [ScreenUpdate.Change]?)] = [
                (messagesStackView, screen.messages, update.messages), (contentStackView, screen.content, update.content),
                (linksStackView, screen.links, update.links),
            ]
            guard stacks.allSatisfy({ $0.2 != nil && stackViews[ObjectIdentifier($0.0)]?.count == $0.1.count }) else { return false }
            for (stack, items, changes) in stacks {
                guard let changes, var views = stackViews[ObjectIdentifier(stack)] else { continue }
                for (index, change) in changes.enumerated() where change == .replace {
                    if case .countdown = items[index] {
                        countdown?.timer?.invalidate()
                        countdown = nil
                    }
                    let old = views[index]
                    let new = makeView(for: items[index])
                    // Where the element goes among the views drawn: after those drawn before it.
                    let position = views[..<index].compactMap { $0 }.count
                    if let old {
                        stack.removeArrangedSubview(old)
                        old.removeFromSuperview()
                    }
                    if let new { stack.insertArrangedSubview(new, at: position) }
                    views[index] = new
                }
                stackViews[ObjectIdentifier(stack)] = views
            }
            return true
        }

        /// The view of one element; `nil` leaves it out. Override to draw an element your way.
        open func makeView(for item: ScreenItem) -> UIView? {
            switch item {
            case .message(let text, let section):
                return drawing.messageView(
                    text, style: commonStyle.messageViewStyles.style(section: section),
                    isHeader: screenBuilder.accessibility(of: item).isHeader)
            case .text(let text):
                guard let content = style as? any ContentTextStyled else {
                    return drawing.messageView(text, style: commonStyle.messageViewStyles.content)
                }
                return drawing.label(text, appearance: content.contentTextAppearance, colorNamed: content.contentTextColorName)
            case .section(let title):
                let label = UILabel()
                style.headerTextAppearance.apply(to: label, text: title, color: color(style.headerTextColorName))
                label.accessibilityTraits.insert(.header)
                return label
            case .textField(let field):
                let (view, input) = drawing.textFieldView(
                    field, style: commonStyle.inputTextField, accessibility: screenBuilder.accessibility(of: item))
                inputs.append((field.name, { input.text ?? "" }))
                textFields[field.name] = input
                // Return goes on as the screen value says: into the next field, or submitting the form.
                input.addAction(UIAction { [weak self] _ in self?.returnPressed(in: field.name) }, for: .editingDidEndOnExit)
                return view
            case .checkbox(let checkbox):
                let (view, isChecked) = drawing.checkboxView(checkbox, style: commonStyle.checkbox)
                let value = checkbox.item.value.isEmpty ? "on" : checkbox.item.value
                inputs.append((checkbox.name, { isChecked() ? value : "" }))
                return view
            case .picker(let picker):
                return pickerView(picker)
            case .button(let button):
                let drawn = drawing.button(button.title, style: style(of: button.role))
                if let icon = button.icon { drawn.configuration?.image = image(icon) }
                return actionable(drawn, action: button.action)
            case .tabs(let titles, let selected):
                let tabs = TabsView(titles, selected: selected, style: commonStyle.tabView, drawing: drawing)
                tabs.tabs.addAction(
                    UIAction { [weak self, weak tabs] _ in
                        let options = ((self?.shownModel as? any SelectorModel)?.selectorItems ?? []).compactMap {
                            $0 as? any SelectorItemInteractionActionModel
                        }
                        guard let self, let tabs, options.indices.contains(tabs.tabs.selectedSegmentIndex) else { return }
                        self.tappedElement = tabs
                        self.perform(.select(options[tabs.tabs.selectedSegmentIndex]))
                    }, for: .valueChanged)
                actionElements.append(tabs)
                return tabs
            case .loadingIndicator:
                let spinner: UIActivityIndicatorView
                if let styled = style as? any LoadingIndicatorStyled {
                    spinner = makeSpinner(styled.loadingIndicatorViewStyle, side: styled.loadingIndicatorSideDimension, color: color)
                } else {
                    spinner = UIActivityIndicatorView(style: .large)
                }
                spinner.accessibilityLabel = screenBuilder.strings.string(.waiting)
                spinner.startAnimating()
                return spinner
            case .countdown(let countdown):
                let label = UILabel()
                commonStyle.messageViewStyles.content.textAppearance.apply(
                    to: label, text: countdown.text, color: color(commonStyle.messageViewStyles.content.textColorName))
                label.accessibilityTraits.insert(.updatesFrequently)
                guard countdown.showsProgress, let total = countdown.total, total > 0 else {
                    startCountdown(label, bar: nil, seconds: countdown.seconds, total: nil)
                    return label
                }
                // BankID's QR code expires: a bar shows how much of its time is left.
                let bar = UIProgressView(progressViewStyle: .bar)
                bar.progress = Float(countdown.fractionLeft ?? 0)
                bar.tintColor = color(commonStyle.primaryButton.backgroundColorName)
                bar.isAccessibilityElement = false  // the label says the same in words
                startCountdown(label, bar: bar, seconds: countdown.seconds, total: total)
                let column = UIStackView(arrangedSubviews: [bar, label])
                column.axis = .vertical
                column.spacing = 8
                return column
            case .image(let name, let label):
                guard let drawn = image(name) ?? UIImage(systemName: "person.crop.rectangle") else { return nil }
                let view = UIImageView(image: drawn)
                view.contentMode = .scaleAspectFit
                view.isAccessibilityElement = true
                view.accessibilityLabel = label
                view.heightAnchor.constraint(equalToConstant: 64).isActive = true
                return view
            case .qrCode(let data, let image):
                let view = UIImageView(image: data.flatMap(Self.qrImage))
                view.contentMode = .scaleAspectFit
                view.isAccessibilityElement = true
                view.accessibilityLabel = screenBuilder.accessibility(of: item).label
                view.heightAnchor.constraint(equalToConstant: 220).isActive = true
                if data == nil, let image { load(image, into: view) }
                return view
            case .serverImage(let image):
                let view = UIImageView()
                view.contentMode = .scaleAspectFit
                view.isAccessibilityElement = true
                view.accessibilityLabel = screenBuilder.accessibility(of: item).label
                view.heightAnchor.constraint(lessThanOrEqualToConstant: 240).isActive = true
                load(image, into: view)
                return view
            case .expandable(let title, let body):
                let boxStyle = (uiStylableThemeDelegate as? any ScreenBuilding).flatMap {
                    try? $0.theme.style(ExpandableViewStyle.self, named: "ExpandableView")
                }
                return makeExpandableView(title: title, body: body, style: boxStyle)
            case .link(let title, let action):
                return actionable(drawing.link(title, style: commonStyle.linkView), action: action)
            }
        }

        private func color(_ name: String?) -> UIColor? {
            uiStylableThemeDelegate?.colorOptional(named: name) ?? ThemeAssets.color(named: name)
        }

        /// Draws a server's image into `view` once the flow's ``RemoteImages`` has it; where it
        /// cannot be shown (not https, too large, not an image, not sent), a label in the view says why.
        func load(_ image: KitLinkItem, into view: UIImageView) {
            let images = (uiStylableThemeDelegate as? any ScreenBuilding)?.images ?? RemoteImages(transport: nil)
            let strings = screenBuilder.strings
            Task { [weak view] in
                let outcome = await images.load(image.href)
                guard let view else { return }
                if case .image(let data, _) = outcome, let drawn = UIImage(data: data) {
                    view.image = drawn
                    return
                }
                let reason: RemoteImages.Reason = if case .unavailable(let why) = outcome { why } else { .notAnImage }
                let label = UILabel()
                label.text = strings.string(reason.text)
                label.numberOfLines = 0
                label.textAlignment = .center
                label.font = .preferredFont(forTextStyle: .footnote)
                label.adjustsFontForContentSizeCategory = true
                label.translatesAutoresizingMaskIntoConstraints = false
                view.addSubview(label)
                NSLayoutConstraint.activate([
                    label.centerXAnchor.constraint(equalTo: view.centerXAnchor),
                    label.centerYAnchor.constraint(equalTo: view.centerYAnchor),
                    label.widthAnchor.constraint(lessThanOrEqualTo: view.widthAnchor, constant: -16),
                    view.heightAnchor.constraint(greaterThanOrEqualToConstant: 80),
                ])
                view.accessibilityLabel = [view.accessibilityLabel, label.text].compactMap { $0 }.joined(separator: ", ")
            }
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

        /// `button`, sending `action` when tapped, and disabled while the flow's requests run.
        private func actionable(_ button: ProgressButton, action: ScreenAction) -> UIButton {
            button.addAction(
                UIAction { [weak self, weak button] _ in
                    guard let self else { return }
                    self.tappedElement = button
                    self.perform(action)
                }, for: .touchUpInside)
            actionElements.append(button)
            return button
        }

        private func pickerView(_ picker: ScreenItem.Picker) -> UIView {
            let field = PickerField(picker, style: commonStyle.textPicker, drawing: drawing)
            field.heightAnchor.constraint(greaterThanOrEqualToConstant: 44).isActive = true
            inputs.append((picker.name, { [weak field] in field?.chosen?.value ?? "" }))
            let title = UILabel()
            commonStyle.inputTextField.titleTextAppearance.apply(
                to: title, text: picker.label, color: color(commonStyle.inputTextField.titleColorName))
            title.isAccessibilityElement = false  // the field says its label itself
            let column = UIStackView(arrangedSubviews: [title, field])
            column.axis = .vertical
            column.spacing = 4
            return column
        }

        /// A title that opens to show `body`, in `boxStyle` (plain when `nil`).
        func makeExpandableView(title: String, body: String, style boxStyle: ExpandableViewStyle?) -> UIView {
            drawing.expandableView(title: title, body: body, style: boxStyle)
        }

        /// Counts the time left down, a second at a time, in the screen builder's words (the theme's keys).
        private func startCountdown(_ label: UILabel, bar: UIProgressView?, seconds: Int, total: Int?) {
            let builder = screenBuilder
            label.accessibilityLabel = label.text
            countdown = (
                label, seconds,
                Timer.scheduledTimer(withTimeInterval: 1, repeats: true) { [weak self, weak bar] _ in
                    MainActor.onMainThread {
                        guard let self, var countdown = self.countdown else { return }
                        countdown.seconds = max(0, countdown.seconds - 1)
                        self.countdown = countdown
                        let text = builder.timeLeft(seconds: countdown.seconds)
                        // The attributes of the text on show; an empty text has none to read (reading them would trap).
                        let shown = countdown.label.attributedText
                        let attributes = (shown?.length ?? 0) > 0 ? shown?.attributes(at: 0, effectiveRange: nil) ?? [:] : [:]
                        countdown.label.attributedText = NSAttributedString(string: text, attributes: attributes)
                        countdown.label.accessibilityLabel = text
                        if let bar, let total, total > 0 { bar.setProgress(Float(countdown.seconds) / Float(total), animated: true) }
                    }
                }
            )
        }

        /// The text fields drawn, by name: where return moves the keyboard, and the first focus.
        private var textFields: [String: UITextField] = [:]

        /// The return key of the field `name`: on to the next field, or the form's submission.
        private func returnPressed(in name: String) {
            switch (drawnScreen ?? screen()).afterReturn(in: name, isLoading: isLoading) {
            case .field(let next)?: textFields[next]?.becomeFirstResponder()
            case .submit(let action)?: perform(action)
            case .dismissKeyboard?, .waitForRequest?, nil: break
            }
        }

        /// Puts the keyboard in the screen's first field (not while VoiceOver runs).
        open override func viewDidAppear(_ animated: Bool) {
            super.viewDidAppear(animated)
            // The keyboard starts in the field the screen value names (none on waits and problems).
            if let focus = screen().focus, let field = textFields[focus], !UIAccessibility.isVoiceOverRunning {
                field.becomeFirstResponder()
            }
        }

        /// A QR code drawn by Core Image's `CIQRCodeGenerator`, scaled without smoothing.
        static func qrImage(_ text: String) -> UIImage? {
            guard let filter = CIFilter(name: "CIQRCodeGenerator") else { return nil }
            filter.setValue(Data(text.utf8), forKey: "inputMessage")
            filter.setValue("M", forKey: "inputCorrectionLevel")
            guard let code = filter.outputImage?.transformed(by: CGAffineTransform(scaleX: 8, y: 8)),
                let drawn = QRCodeContext.shared.createCGImage(code, from: code.extent)
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
            case .passkeyFallback:
                (delegate as? any KitFlowActions)?.takePasskeyFallback()
            case .copy(let text):
                UIPasteboard.general.string = text
                stopLoading()
            }
        }

        // MARK: Hooks

        /// Stops the progress shown on the tapped button, link or tab.
        @preconcurrency open func stopLoading() {
            tappedElement?.showsProgress = false
            tappedElement = nil
        }

        /// Whether a tapped element shows progress.
        @preconcurrency open func hasLoading() -> Bool { tappedElement?.showsProgress == true }

        /// Enables or disables every button, link and tab: the flow disables them while a request
        /// runs (the tapped one shows progress), so that no second request starts meanwhile.
        func setInteractionEnabled(_ enabled: Bool) {
            isLoading = !enabled
            for element in actionElements { element.isEnabled = enabled }
            if enabled { stopLoading() } else { tappedElement?.showsProgress = true }
        }

        /// Leaves problems to the flow; the kit's form screens show the complaints about their fields.
        @preconcurrency open func handleProblemModel(_ problemModel: any ProblemModel) -> Bool { false }

        /// Shows `infoMessageModels` in place of the screen's messages, each in its message style.
        @preconcurrency open func handleInfoMessageModels(_ infoMessageModels: [any InfoMessageModel]) {
            fill(
                messagesStackView,
                with: infoMessageModels.compactMap { message in message.text.map { .message(text: $0, style: message.themeSection) } })
        }

        /// Shows `linkItemModels` in place of the screen's links.
        @preconcurrency open func handleLinkItemModels(_ linkItemModels: [any LinkItemModel]) {
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
        @preconcurrency open func handleFormModel(_ formModel: any FormModel) -> Bool { false }

        /// Shows progress on the tapped element and goes on with `parameters` unchanged; a subclass may change
        /// them or stop.
        open func preSubmit(
            interactionActionModel: any InteractionActionModel, parameters: [String: any Sendable],
            closure: @escaping (Bool, [String: any Sendable]) -> Void
        ) {
            tappedElement?.showsProgress = true
            closure(true, parameters)
        }

        /// Goes on: a subclass may stop the choice.
        open func preSelect(selectorItemModel: any SelectorItemInteractionActionModel, closure: @escaping (Bool) -> Void) { closure(true) }

        /// Goes on: a subclass may stop the link from being followed.
        open func preFollow(linkItemModel: any LinkItemModel, closure: @escaping (Bool) -> Void) { closure(true) }

        // MARK: Style

        /// Applies the screen's style: its background, padding, and the styles of its three stacks.
        @preconcurrency public func apply(style: AssociatedStyle) {
            view.backgroundColor = color(style.backgroundColorName)
            columnStackView.isLayoutMarginsRelativeArrangement = true
            columnStackView.directionalLayoutMargins = style.directionalInsets
            // The stacks as the screen's layout has them (ScreenLayout: what the preview draws too).
            let stacks = ScreenLayout.stacks(of: style)
            stacks.messages.apply(to: messagesStackView)
            stacks.content.apply(to: contentStackView)
            stacks.links.apply(to: linksStackView)
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
    /// A screen whose buttons, links and tabs the flow disables while a request runs.
    /// One Core Image context for every QR code drawn: a context is costly to make, and each poll of
    /// a BankID wait draws a code.
    @MainActor private enum QRCodeContext {
        static let shared = CIContext()
    }

    @MainActor protocol InteractionEnabling: AnyObject {
        func setInteractionEnabled(_ enabled: Bool)
    }

    extension BaseViewController: InteractionEnabling {}
#endif
