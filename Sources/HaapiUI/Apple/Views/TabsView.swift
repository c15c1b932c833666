#if canImport(UIKit) && !os(watchOS) && !os(tvOS)
import UIKit

/// The options of a selector as tabs (`TabView`), with a spinner while the chosen one loads.
@MainActor final class TabsView: UIStackView, ActionElement {
    let tabs: UISegmentedControl
    private let spinner: UIActivityIndicatorView

    init(_ titles: [String], selected: Int, style: TabViewStyle, drawing: ElementDrawing) {
        tabs = UISegmentedControl(items: titles)
        spinner = UIActivityIndicatorView(style: .medium)
        super.init(frame: .zero)
        tabs.selectedSegmentIndex = selected
        let font = style.textAppearance.fontText
        tabs.setTitleTextAttributes([.foregroundColor: drawing.color(style.textColorName) ?? .secondaryLabel, .font: font], for: .normal)
        tabs.setTitleTextAttributes([.foregroundColor: drawing.color(style.highlightTextColorName) ?? .label, .font: font], for: .selected)
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
