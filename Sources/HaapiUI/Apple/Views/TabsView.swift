#if canImport(UIKit) && !os(watchOS) && !os(tvOS)
    import UIKit

    /// The options of a selector as tabs (`TabView`), with a spinner while the chosen one loads.
    @MainActor final class TabsView: UIStackView, ActionElement {
        let tabs: UISegmentedControl
        private let spinner: UIActivityIndicatorView
        private let normal: UIColor, highlighted: UIColor
        private let appearance: TextAppearance

        init(_ titles: [String], selected: Int, style: TabViewStyle, drawing: ElementDrawing) {
            tabs = UISegmentedControl(items: titles)
            spinner = UIActivityIndicatorView(style: .medium)
            super.init(frame: .zero)
            tabs.selectedSegmentIndex = selected
            normal = drawing.color(style.textColorName) ?? .secondaryLabel
            highlighted = drawing.color(style.highlightTextColorName) ?? .label
            appearance = style.textAppearance
            applyFont()
            // The selected segment's fill is the theme's indicator.
            tabs.selectedSegmentTintColor = drawing.color(style.selectedTabIndicatorColorName)
            tabs.backgroundColor = drawing.color(style.backgroundColorName)
            spinner.hidesWhenStopped = true
            spinner.color = drawing.color(style.selectedTabIndicatorColorName)
            spinner.accessibilityLabel = drawing.strings.string(.waiting)
            addArrangedSubview(tabs)
            addArrangedSubview(spinner)
            spacing = style.iconTextPadding  // between the tabs and their spinner
            alignment = .center
            isLayoutMarginsRelativeArrangement = true
            directionalLayoutMargins = style.directionalInsets
        }

        @available(*, unavailable)
        required init(coder: NSCoder) { fatalError("drawn in code") }

        /// The titles in the theme's font at the reader's text size; a segmented control keeps the
        /// font it was given, so it is given again when the size changes.
        private func applyFont() {
            let font = appearance.fontText
            tabs.setTitleTextAttributes([.foregroundColor: normal, .font: font], for: .normal)
            tabs.setTitleTextAttributes([.foregroundColor: highlighted, .font: font], for: .selected)
        }

        override func traitCollectionDidChange(_ previousTraitCollection: UITraitCollection?) {
            super.traitCollectionDidChange(previousTraitCollection)
            if traitCollection.preferredContentSizeCategory != previousTraitCollection?.preferredContentSizeCategory { applyFont() }
        }

        var isEnabled: Bool {
            get { tabs.isEnabled }
            set { tabs.isEnabled = newValue }
        }

        var showsProgress: Bool {
            get { spinner.isAnimating }
            set { newValue ? spinner.startAnimating() : spinner.stopAnimating() }
        }
    }
#endif
