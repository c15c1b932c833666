#if canImport(UIKit) && !os(watchOS) && !os(tvOS)
    import UIKit

    /// A text field whose text keeps the theme's padding on all four sides.
    @MainActor class PaddedTextField: UITextField {
        var padding = UIEdgeInsets.zero

        override func textRect(forBounds bounds: CGRect) -> CGRect { super.textRect(forBounds: bounds.inset(by: padding)) }
        override func editingRect(forBounds bounds: CGRect) -> CGRect { super.editingRect(forBounds: bounds.inset(by: padding)) }
        override func placeholderRect(forBounds bounds: CGRect) -> CGRect { super.placeholderRect(forBounds: bounds.inset(by: padding)) }
    }

    extension ElementDrawing {
        /// A text field with its title above and the server's complaint below (`InputTextField*`),
        /// and the field itself (to read, and to point VoiceOver at).
        func textFieldView(_ field: ScreenItem.TextField, style: InputTextFieldStyle, accessibility: ScreenAccessibility) -> (
            view: UIView, input: UITextField
        ) {
            let title = UILabel()
            style.titleTextAppearance.apply(to: title, text: field.label, color: color(style.titleColorName))
            title.heightAnchor.constraint(greaterThanOrEqualToConstant: style.titleMinimumHeight).isActive = true
            title.isAccessibilityElement = false  // the field says its label itself
            let titleRow = UIStackView(arrangedSubviews: [title])
            titleRow.isLayoutMarginsRelativeArrangement = true
            titleRow.directionalLayoutMargins = NSDirectionalEdgeInsets(
                top: 0, leading: style.titlePaddingLeft, bottom: 0, trailing: style.titlePaddingRight)

            let input = PaddedTextField()
            let content = style.textFieldContentPadding
            input.padding = UIEdgeInsets(top: content.top, left: content.left, bottom: content.bottom, right: content.right)
            input.text = field.value
            input.font = style.textFieldTextAppearance.fontText
            input.adjustsFontForContentSizeCategory = true
            if let placeholder = field.placeholder {
                input.attributedPlaceholder = NSAttributedString(
                    string: placeholder, attributes: [.foregroundColor: color(style.textFieldPlaceholderColorName) ?? .placeholderText])
            }
            input.isSecureTextEntry = field.isSecure
            input.autocapitalizationType = .none
            input.autocorrectionType = .no
            input.textColor = color(style.textFieldColorName)
            input.tintColor = color(style.tintColorName)
            input.backgroundColor = color(style.backgroundColorName)
            border(
                input, colorNamed: field.error == nil ? style.borderColorName : style.errorColorName, width: style.borderWidth,
                cornerRadius: style.cornerRadius)
            input.heightAnchor.constraint(greaterThanOrEqualToConstant: style.textFieldMinimumHeight).isActive = true
            // VoiceOver reads the complaint with the field it is about.
            input.accessibilityLabel = accessibility.label
            input.accessibilityHint = field.error
            setContentType(field.contentType, of: input)
            input.keyboardType = Self.keyboardType(field.keyboard)
            input.returnKeyType = field.returnKey == .next ? .next : .go
            if let rules = field.passwordRules { input.passwordRules = UITextInputPasswordRules(descriptor: rules) }
            if field.showsSecureEntryToggle {
                input.rightView = revealButton(for: input, style: style)
                input.rightViewMode = .always
            }
            if let maxLength = field.maxLength {
                input.addAction(
                    UIAction { [weak input] _ in
                        if let input, let text = input.text, text.count > maxLength { input.text = String(text.prefix(maxLength)) }
                    }, for: .editingChanged)
            }

            let column = UIStackView(arrangedSubviews: [titleRow, input])
            column.axis = .vertical
            column.spacing = 4
            if let error = field.error { column.addArrangedSubview(errorRow(error, style: style)) }
            column.isLayoutMarginsRelativeArrangement = true
            column.directionalLayoutMargins = style.directionalInsets
            return (column, input)
        }

        /// The complaint under a field, after the theme's error icon.
        private func errorRow(_ error: String, style: InputTextFieldStyle) -> UIView {
            let label = UILabel()
            style.errorTextAppearance.apply(to: label, text: error, color: color(style.errorColorName))
            label.isAccessibilityElement = false  // read as the field's hint
            let row = UIStackView(arrangedSubviews: [label])
            row.spacing = style.iconPadding
            row.alignment = .firstBaseline
            if let icon = image(style.errorImageName) {
                let iconView = UIImageView(image: icon)
                iconView.tintColor = color(style.errorColorName)
                iconView.setContentHuggingPriority(.required, for: .horizontal)
                row.insertArrangedSubview(iconView, at: 0)
            }
            return row
        }

        /// The eye that shows or hides a secure field's text.
        private func revealButton(for input: UITextField, style: InputTextFieldStyle) -> UIButton {
            var configuration = UIButton.Configuration.plain()
            configuration.contentInsets = NSDirectionalEdgeInsets(
                top: 0, leading: style.iconPadding, bottom: 0, trailing: style.iconPadding)
            let reveal = UIButton(configuration: configuration)
            reveal.tintColor = color(style.textFieldPasswordImageTintColorName)
            // What a tap does next, in the kit's words: show the password, or hide it again.
            let strings = strings
            let draw = { [weak input, weak reveal] in
                guard let input, let reveal else { return }
                reveal.configuration?.image = ThemeAssets.image(
                    named: input.isSecureTextEntry ? Images.revealPassword : Images.hidePassword)
                reveal.accessibilityLabel = strings.string(input.isSecureTextEntry ? .showPassword : .hidePassword)
            }
            reveal.addAction(
                UIAction { [weak input] _ in
                    input?.isSecureTextEntry.toggle()
                    draw()
                }, for: .touchUpInside)
            draw()
            return reveal
        }

        private func setContentType(_ contentType: ScreenItem.TextField.ContentType, of input: UITextField) {
            switch contentType {
            case .username: input.textContentType = .username
            case .password: input.textContentType = .password
            case .newPassword: input.textContentType = .newPassword
            // A code may have letters: its keyboard is the field's kind's (a number pad only for `number`).
            case .oneTimeCode: input.textContentType = .oneTimeCode
            case .emailAddress: input.textContentType = .emailAddress
            case .telephoneNumber: input.textContentType = .telephoneNumber
            case .url: input.textContentType = .URL
            case .none: break
            }
        }

        static func keyboardType(_ keyboard: InputTextConfiguration.Keyboard) -> UIKeyboardType {
            switch keyboard {
            case .text: return .default
            case .number: return .asciiCapableNumberPad
            case .email: return .emailAddress
            case .phone: return .phonePad
            case .url: return .URL
            }
        }
    }
#endif
