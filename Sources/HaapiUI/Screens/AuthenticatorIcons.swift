import Foundation

/// The icons of authenticators in a selector: each option's ``SelectorItemInteractionActionModel/icon``
/// is an image name as Curity's kit names them (`hui_ic_authenticator_<type>`, the type's hyphens
/// written as underscores: `sign-in-with-apple` is `hui_ic_authenticator_sign_in_with_apple`),
/// which an app's asset catalog may provide; the kit draws an SF Symbol of its own choosing for
/// each type it knows.
public enum AuthenticatorIcons {
    /// The image name for an authenticator of `type` (`freja-eid` → `hui_ic_authenticator_freja_eid`).
    public static func imageName(for type: String) -> String {
        prefix + type.lowercased().replacingOccurrences(of: "-", with: "_")
    }

    /// The SF Symbol the kit draws for each image name (``imageName(for:)``); an unknown type
    /// gets ``fallbackSymbol``. Symbols that iOS 15 has.
    public static let symbols: [String: String] = Dictionary(
        uniqueKeysWithValues: [
            ("html-form", "person.text.rectangle"),
            ("username", "person.text.rectangle"),
            ("sms", "message"),
            ("email", "envelope"),
            ("totp", "clock.arrow.circlepath"),
            ("otp", "number.square"),
            ("polling", "iphone.radiowaves.left.and.right"),
            ("external-browser", "safari"),
            ("duo", "checkmark.shield"),
            ("bankid", "person.crop.rectangle"),
            ("webauthn", "person.crop.circle.badge.checkmark"),
            ("passkeys", "person.crop.circle.badge.checkmark"),
            ("freja-eid", "person.crop.rectangle"),
            ("github", "chevron.left.forwardslash.chevron.right"),
            ("google", "globe"),
            ("facebook", "globe"),
            ("oidc", "globe"),
            ("saml", "building.columns"),
            ("encap", "lock.shield"),
            ("authenticator", "key"),
        ].map { (imageName(for: $0.0), $0.1) })

    /// The symbol of an authenticator type the kit has no symbol for.
    public static let fallbackSymbol = "key"

    /// The symbol drawn for the image `name`, when it is an authenticator's.
    public static func symbol(for name: String) -> String? {
        guard name.hasPrefix(prefix) else { return nil }
        return symbols[name] ?? fallbackSymbol
    }

    private static let prefix = "hui_ic_authenticator_"
}
