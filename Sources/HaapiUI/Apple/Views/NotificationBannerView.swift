#if canImport(UIKit) && !os(watchOS) && !os(tvOS)
    import UIKit

    /// A message over the top of the flow for a few seconds (`NotificationBannerView*` styles),
    /// with an action that closes it.
    @MainActor final class NotificationBanner {
        private weak var shown: UIView?

        /// Shows `text` over `view` in `style`, for four seconds or until its action (`actionTitle`) is tapped.
        func show(_ text: String, actionTitle: String, style: NotificationBannerViewStyle, over view: UIView) {
            shown?.removeFromSuperview()
            let label = UILabel()
            style.textAppearance.apply(to: label, text: text, color: ThemeAssets.color(named: style.textColorName))
            let action = UIButton(type: .system)
            let actionLabel = UILabel()
            style.actionTextAppearance.apply(to: actionLabel, text: actionTitle, color: ThemeAssets.color(named: style.actionTextColorName))
            action.setAttributedTitle(actionLabel.attributedText, for: .normal)
            action.titleLabel?.adjustsFontForContentSizeCategory = true
            action.setContentHuggingPriority(.required, for: .horizontal)
            action.setContentCompressionResistancePriority(.required, for: .horizontal)
            let banner = UIStackView(arrangedSubviews: [label, action])
            banner.spacing = 12
            banner.alignment = .center
            banner.isLayoutMarginsRelativeArrangement = true
            // A theme that gives no vertical padding keeps the banner's own.
            let padding = style.directionalInsets
            banner.directionalLayoutMargins = NSDirectionalEdgeInsets(
                top: padding.top > 0 ? padding.top : 12, leading: padding.leading, bottom: padding.bottom > 0 ? padding.bottom : 12,
                trailing: padding.trailing)
            banner.backgroundColor = ThemeAssets.color(named: style.backgroundColorName)
            banner.layer.cornerRadius = 10
            banner.translatesAutoresizingMaskIntoConstraints = false
            view.addSubview(banner)
            NSLayoutConstraint.activate([
                banner.topAnchor.constraint(equalTo: view.safeAreaLayoutGuide.topAnchor, constant: 8),
                banner.leadingAnchor.constraint(equalTo: view.safeAreaLayoutGuide.leadingAnchor, constant: 12),
                banner.trailingAnchor.constraint(equalTo: view.safeAreaLayoutGuide.trailingAnchor, constant: -12),
            ])
            action.addAction(UIAction { [weak banner] _ in banner?.removeFromSuperview() }, for: .touchUpInside)
            shown = banner
            UIAccessibility.post(notification: .announcement, argument: text)
            Task { [weak banner] in
                try? await Task.sleep(seconds: 4)
                banner?.removeFromSuperview()
            }
        }
    }
#endif
