#if canImport(UIKit) && !os(watchOS)
    import UIKit

    // The styles' values as UIKit values, by Curity's names and types: what an app that styles its
    // own views from the theme reads. Each is made from the one stored value (a colour's or image's
    // name, the portable enum) the preview and the terminal read too.

    extension UIImage {
        /// The kit's own image `name` (its symbol for a `hui_*` name), not the app's.
        public static func bundledImage(named name: String) -> UIImage? {
            Images.symbol(for: name).flatMap { UIImage(systemName: $0) }
        }
    }

    extension TextAppearance {
        /// ``symbolicTrait`` as UIKit's.
        public var fontSymbolicTrait: UIFontDescriptor.SymbolicTraits? { self.symbolicTrait?.uiTraits }
        /// ``alignment`` as UIKit's.
        public var textAlignment: NSTextAlignment {
            switch alignment {
            case .natural: return .natural
            case .left: return .left
            case .center: return .center
            case .right: return .right
            case .justified: return .justified
            }
        }
        /// ``textStyleName`` as UIKit's.
        public var fontTextStyle: UIFont.TextStyle { UIFont.TextStyle(rawValue: self.textStyleName) }
    }

    extension StackViewStyle {
        /// ``stackAlignment`` as UIKit's.
        public var alignment: UIStackView.Alignment { stackAlignment.uiAlignment }
    }

    extension MessageViewStyle {
        /// ``stackAlignment`` as UIKit's.
        public var alignment: UIStackView.Alignment { stackAlignment.uiAlignment }
        /// The text colour (``textColorName``).
        public var textColor: UIColor { ThemeAssets.color(named: textColorName) ?? .label }
        /// The icon (``imageName``).
        public var image: UIImage? { ThemeAssets.image(named: imageName) }
        /// The border colour (``borderColorName``); clear for none.
        public var borderColor: UIColor { ThemeAssets.color(named: borderColorName) ?? .clear }
        /// The icon's tint (``imageTintColorName``).
        public var imageTintColor: UIColor? { ThemeAssets.color(named: imageTintColorName) }
    }

    extension NotificationBannerViewStyle {
        /// The text colour (``textColorName``).
        public var textColor: UIColor { ThemeAssets.color(named: textColorName) ?? .label }
        /// The action's text colour (``actionTextColorName``).
        public var actionTextColor: UIColor { ThemeAssets.color(named: actionTextColorName) ?? .label }
    }

    extension LoadingIndicatorViewStyle {
        /// The spinner's colour (``strokeColorName``).
        public var strokeColor: UIColor { ThemeAssets.color(named: strokeColorName) ?? .gray }
    }

    extension HaapiFlowViewControllerStyle {
        /// The close button's image (``closeButtonImageName``).
        public var closeButtonImage: UIImage { ThemeAssets.image(named: closeButtonImageName) ?? UIImage() }
        /// The close button's tint (``closeButtonTintColorName``).
        public var closeButtonTintColor: UIColor? { ThemeAssets.color(named: closeButtonTintColorName) }
    }

    extension CommonViewControllerStyle {
        /// The header's text colour (``headerTextColorName``).
        public var headerTextColor: UIColor { ThemeAssets.color(named: headerTextColorName) ?? .label }
    }

    extension UIViewControllerStyle {
        /// The header's text colour (its ``commonVCStyle``'s).
        public var headerTextColor: UIColor { commonVCStyle.headerTextColor }
    }

    extension FormViewControllerStyle {
        /// The content's text colour (``contentTextColorName``).
        public var contentTextColor: UIColor { ThemeAssets.color(named: contentTextColorName) ?? .label }
    }

    extension BankIdViewControllerStyle {
        /// The content's text colour (``contentTextColorName``).
        public var contentTextColor: UIColor { ThemeAssets.color(named: contentTextColorName) ?? .label }
    }

    extension WebAuthnViewControllerStyle {
        /// The content's text colour (``contentTextColorName``).
        public var contentTextColor: UIColor { ThemeAssets.color(named: contentTextColorName) ?? .label }
    }
#endif
