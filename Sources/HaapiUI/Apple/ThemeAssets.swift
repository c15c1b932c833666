#if canImport(UIKit) && !os(watchOS)
    import UIKit

    /// Colours and images by their `hui_*` names: the app's asset catalog first, then the kit's
    /// palette (``Colors``) and symbols (``Images``). Any thread may ask: UIKit makes colours,
    /// images and fonts off the main thread too, and a style's values are read where an app is.
    public enum ThemeAssets {
        /// The colour `name`; `nil` for no name or an unknown one.
        public static func color(named name: String?, in bundle: Bundle = .main) -> UIColor? {
            guard let name, !name.isEmpty else { return nil }
            if let color = UIColor(named: name, in: bundle, compatibleWith: nil) { return color }
            guard let value = Colors.kit[name] else { return nil }
            return UIColor { traits in uiColor(traits.userInterfaceStyle == .dark ? value.dark : value.light) }
        }

        /// The image `name`: the app's, else the kit's symbol for it, else the SF Symbol of that name.
        public static func image(named name: String?, in bundle: Bundle = .main) -> UIImage? {
            guard let name, !name.isEmpty else { return nil }
            return UIImage(named: name, in: bundle, compatibleWith: nil) ?? UIImage.bundledImage(named: name) ?? UIImage(systemName: name)
        }

        private static func uiColor(_ rgba: UInt32) -> UIColor {
            let parts = Colors.Value.components(rgba)
            return UIColor(red: parts.red, green: parts.green, blue: parts.blue, alpha: parts.alpha)
        }
    }

    extension TextAppearance {
        /// The font: the theme's family (else the system font) at the style's size, with the trait,
        /// scaled by Dynamic Type as the Apple text style of the same name, else as body text. A view
        /// with `adjustsFontForContentSizeCategory` rescales it when the user's text size changes.
        public var fontText: UIFont { font(compatibleWith: nil) }

        /// ``fontText`` scaled for `traits` (for views that restyle themselves when traits change,
        /// such as a button's configuration); the current traits when `nil`.
        func font(compatibleWith traits: UITraitCollection?) -> UIFont {
            let size = CGFloat(self.pointSize)
            var font = self.fontName.flatMap { UIFont(name: $0, size: size) } ?? UIFont.systemFont(ofSize: size)
            if let trait = self.fontSymbolicTrait, let descriptor = font.fontDescriptor.withSymbolicTraits(trait) {
                font = UIFont(descriptor: descriptor, size: size)
            }
            let style = self.fontTextStyle
            let appleStyles: [UIFont.TextStyle] = [
                .largeTitle, .title1, .title2, .title3, .headline, .subheadline, .body, .callout, .footnote, .caption1, .caption2,
            ]
            return UIFontMetrics(forTextStyle: appleStyles.contains(style) ? style : .body).scaledFont(for: font, compatibleWith: traits)
        }

        /// Applies the font, alignment, letter spacing and line height to `label` showing `text`.
        @MainActor public func apply(to label: UILabel, text: String, color: UIColor?) {
            var attributes: [NSAttributedString.Key: Any] = [.font: fontText]
            if let color { attributes[.foregroundColor] = color }
            if self.kern != 0 { attributes[.kern] = self.kern }
            let paragraph = NSMutableParagraphStyle()
            paragraph.alignment = textAlignment
            if self.lineHeightMultiple > 0 { paragraph.lineHeightMultiple = self.lineHeightMultiple }
            attributes[.paragraphStyle] = paragraph
            // The plain font too: a label that follows Dynamic Type rescales it, and the text with it.
            label.font = fontText
            label.attributedText = NSAttributedString(string: text, attributes: attributes)
            label.adjustsFontForContentSizeCategory = true
            label.numberOfLines = 0
        }
    }

    extension TextAppearance.SymbolicTrait {
        /// The trait, for UIKit.
        public var uiTraits: UIFontDescriptor.SymbolicTraits {
            switch self {
            case .bold: return .traitBold
            case .italic: return .traitItalic
            case .monoSpace: return .traitMonoSpace
            case .condensed: return .traitCondensed
            }
        }
    }

    extension StackViewStyle.Alignment {
        /// The alignment, for UIKit.
        public var uiAlignment: UIStackView.Alignment {
            switch self {
            case .fill: return .fill
            case .leading: return .leading
            case .top: return .top
            case .firstBaseline: return .firstBaseline
            case .center: return .center
            case .trailing: return .trailing
            case .bottom: return .bottom
            case .lastBaseline: return .lastBaseline
            }
        }
    }

    extension UIStyle {
        /// The background colour.
        public var backgroundColor: UIColor? { ThemeAssets.color(named: backgroundColorName) }

        /// The padding, for UIKit layout.
        public var directionalInsets: NSDirectionalEdgeInsets {
            let padding = commonUIStyle.paddingStyle
            return NSDirectionalEdgeInsets(top: padding.top, leading: padding.left, bottom: padding.bottom, trailing: padding.right)
        }
    }

    extension StackViewStyle {
        /// Applies the spacing, alignment, padding and background to `stack` (as ``ScreenLayout/Stack`` does).
        @MainActor public func apply(to stack: UIStackView) { ScreenLayout.Stack(self).apply(to: stack) }
    }

    extension ScreenLayout.Stack {
        /// Lays `stack` out as this stack: vertical, its spacing, alignment, padding and background.
        @MainActor public func apply(to stack: UIStackView) {
            stack.axis = .vertical
            stack.spacing = spacing
            stack.alignment = alignment.uiAlignment
            stack.isLayoutMarginsRelativeArrangement = true
            stack.directionalLayoutMargins = NSDirectionalEdgeInsets(
                top: padding.top, leading: padding.left, bottom: padding.bottom, trailing: padding.right)
            stack.backgroundColor = ThemeAssets.color(named: backgroundColorName)
        }
    }
#endif
