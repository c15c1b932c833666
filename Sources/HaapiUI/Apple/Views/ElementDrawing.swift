#if canImport(UIKit) && !os(watchOS) && !os(tvOS)
    import UIKit

    /// What the element views of a screen draw with: colours and images by their `hui_*` names
    /// (the app's first), the kit's texts, and the layer borders to re-resolve when the appearance
    /// switches between light and dark (a `CGColor` is one resolved colour, unlike a `UIColor`).
    @MainActor final class ElementDrawing {
        let color: (String?) -> UIColor?
        let image: (String?) -> UIImage?
        let strings: LocalizableStrings
        private var borders: [Border] = []

        private struct Border {
            weak var view: UIView?
            let color: UIColor
        }

        init(color: @escaping (String?) -> UIColor?, image: @escaping (String?) -> UIImage?, strings: LocalizableStrings) {
            self.color = color
            self.image = image
            self.strings = strings
        }

        /// Draws a border of `width` in the colour `name` with corners of `cornerRadius` around `view`.
        func border(_ view: UIView, colorNamed name: String?, width: Double, cornerRadius: Double) {
            view.layer.borderWidth = width
            view.layer.cornerRadius = cornerRadius
            borders.removeAll { $0.view == nil || $0.view === view }
            guard let resolved = color(name) else {
                view.layer.borderColor = nil
                return
            }
            borders.append(Border(view: view, color: resolved))
            view.layer.borderColor = resolved.resolvedColor(with: view.traitCollection).cgColor
        }

        /// Resolves every border's colour again, for the appearance each view has now.
        func refreshBorders() {
            borders.removeAll { $0.view == nil }
            for border in borders {
                border.view?.layer.borderColor = border.color.resolvedColor(with: border.view?.traitCollection ?? .current).cgColor
            }
        }

        /// A label showing `text` in `appearance`, inside the appearance's own padding.
        func label(_ text: String, appearance: TextAppearance, colorNamed name: String?) -> UIView {
            let label = UILabel()
            appearance.apply(to: label, text: text, color: color(name))
            let padding = appearance.directionalInsets
            guard padding != .zero else { return label }
            let padded = UIStackView(arrangedSubviews: [label])
            padded.isLayoutMarginsRelativeArrangement = true
            padded.directionalLayoutMargins = padding
            padded.backgroundColor = color(appearance.backgroundColorName)
            return padded
        }
    }

    /// An element that runs an action of the flow (a button, a link, tabs): disabled while any
    /// request runs, and showing progress when it is the one tapped.
    @MainActor protocol ActionElement: UIView {
        var isEnabled: Bool { get set }
        var showsProgress: Bool { get set }
    }

    /// A spinner in `style`'s colour, `side` points wide (the system's size when `nil`).
    @MainActor func makeSpinner(_ style: LoadingIndicatorViewStyle, side: Double?, color: (String?) -> UIColor?) -> UIActivityIndicatorView
    {
        let spinner = UIActivityIndicatorView(style: .medium)
        spinner.color = color(style.strokeColorName)
        spinner.backgroundColor = color(style.backgroundColorName)
        spinner.hidesWhenStopped = true
        if let side {
            // The system draws its spinner at one size: scaling it is the way to another.
            let drawn = spinner.intrinsicContentSize.width
            if drawn > 0 { spinner.transform = CGAffineTransform(scaleX: side / drawn, y: side / drawn) }
            spinner.widthAnchor.constraint(equalToConstant: side).isActive = true
            spinner.heightAnchor.constraint(equalToConstant: side).isActive = true
        }
        return spinner
    }
#endif
