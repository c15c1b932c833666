import Foundation
import HTTPTypes
import Hummingbird
import OAuthCore

/// The language of the texts the server sends (labels, titles, messages, problems), chosen per
/// request as Curity's server chooses it: `ui_locales` on the request, then `Accept-Language`,
/// then English.
enum ServerLanguage {
    /// The languages the server has texts in; the first is the default.
    static let available = ["en", "sv"]

    /// The language of the request being answered (set by ``LanguageMiddleware``).
    @TaskLocal static var current = "en"

    /// The language `request` asks for.
    static func of(_ request: Request) -> String {
        let accepted = request.headers[.acceptLanguage].map(UserLanguages.ranges(acceptLanguage:)) ?? []
        return requested(uiLocales: request.uri.queryParameters["ui_locales"].map(String.init))
            ?? UserLanguages.negotiate(accepted, available: available) ?? available[0]
    }

    /// The first language of a `ui_locales` value (space-separated, most preferred first) the
    /// server has.
    static func requested(uiLocales: String?) -> String? {
        UserLanguages.negotiate((uiLocales ?? "").split(separator: " ").prefix(16).map(String.init), available: available)
    }
}

/// Answers each request in the language it asks for (``ServerLanguage``).
struct LanguageMiddleware<Context: RequestContext>: RouterMiddleware {
    /// The style sheet of the server's pages (``HTMLPages/style``), which, like the language,
    /// every page reads while it is answered.
    let pageStyle: Markup

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        try await ServerLanguage.$current.withValue(ServerLanguage.of(request)) {
            try await HTMLPages.$style.withValue(pageStyle) { try await next(request, context) }
        }
    }
}

/// The server's texts in other languages than English, by their English text (as gettext keys
/// its messages): a HAAPI document is written in English and translated member by member on its
/// way out, so no route has to know the language.
enum ServerTexts {
    /// The members of a HAAPI document that hold text for the user.
    static let textMembers: Set<String> = ["title", "actionTitle", "label", "placeholder", "text", "detail", "recipientOfCommunication"]

    /// `document` in `language`: each text member the table has is replaced, the others (names,
    /// values, links) are left as they are; so is a text the table does not have. Only whole
    /// texts are looked up: a text with arguments (a name, a number) was made in the request's
    /// language where it was written (``sentence(_:_:)``), so what a user typed is never read
    /// as a text to translate.
    static func localized(_ document: JSONValue, to language: String) -> JSONValue {
        guard let table = tables[language] else { return document }
        func walk(_ value: JSONValue, member: String?) -> JSONValue {
            switch value {
            case .string(let text) where member.map(textMembers.contains) == true: return .string(table.translate(text))
            case .array(let items): return .array(items.map { walk($0, member: member) })
            case .object(let members): return .object(members.reduce(into: [:]) { $0[$1.key] = walk($1.value, member: $1.key) })
            default: return value
            }
        }
        return walk(document, member: nil)
    }

    /// `text` in the language of the request being answered.
    static func translate(_ text: String) -> String {
        tables[ServerLanguage.current]?.translate(text) ?? text
    }

    /// The sentence `english` (with `%@` or `%1$@` markers) in the language of the request being
    /// answered, with `arguments` in its places. The sentence is translated first, then filled in
    /// one pass (``/OAuthCore/Placeholders``): an argument is never translated nor scanned for markers, so
    /// the cost is linear in the texts, whatever a user typed.
    static func sentence(_ english: String, _ arguments: [String]) -> String {
        Placeholders.fill(translate(english), arguments)
    }

    /// One language's texts, by their English text; sentences with markers are translated as
    /// they are written (``sentence(_:_:)``).
    struct Table: Sendable {
        let texts: [String: String]

        init(_ texts: KeyValuePairs<String, String>) {
            self.texts = Dictionary(texts.map { ($0, $1) }, uniquingKeysWith: { _, last in last })
        }

        func translate(_ text: String) -> String { texts[text] ?? text }
    }

    static let tables: [String: Table] = ["sv": swedish]

    static let swedish = Table([
        // The first steps
        "Select Authentication Method": "Välj inloggningsmetod",
        "Username and password": "Användarnamn och lösenord",
        "One-time code": "Engångskod",
        "Approve on your phone": "Godkänn i telefonen",
        "Open the request sent to you and approve the login there.": "Öppna begäran som skickats till dig och godkänn inloggningen där.",
        "Log in with the browser": "Logga in med webbläsaren",
        "Log in with the browser (legacy launch step)": "Logga in med webbläsaren (äldre startsteg)",
        "Passkey": "Lösennyckel",
        "Login": "Logga in",
        "Username": "Användarnamn",
        "username": "användarnamn",
        "Password": "Lösenord",
        "Forgot your password?": "Glömt lösenordet?",
        "Create account": "Skapa konto",
        "Cancel": "Avbryt",
        "Cancel this operation": "Avbryt åtgärden",
        "Continue": "Fortsätt",
        "Confirm": "Bekräfta",
        "Code": "Kod",
        "Enter the code": "Ange koden",
        "Verify": "Verifiera",
        // Accounts and passwords
        "Create an account": "Skapa ett konto",
        "Full name": "Fullständigt namn",
        "E-mail": "E-post",
        "Phone number (a code is sent to it)": "Telefonnummer (en kod skickas dit)",
        "Enter the code sent to your phone": "Ange koden som skickades till din telefon",
        "Reset your password": "Återställ ditt lösenord",
        "Reset password": "Återställ lösenordet",
        "Send a code": "Skicka en kod",
        "Enter the code and a new password": "Ange koden och ett nytt lösenord",
        "Set new password": "Byt lösenord",
        "New password": "Nytt lösenord",
        "Enter your username": "Ange ditt användarnamn",
        "Enter your username and password": "Ange användarnamn och lösenord",
        "Incorrect username or password": "Fel användarnamn eller lösenord",
        "Choose a password": "Välj ett lösenord",
        "Choose a new password": "Välj ett nytt lösenord",
        "A code is sent to this number to confirm the account": "En kod skickas till det här numret för att bekräfta kontot",
        "Enter a username, a password and a phone number": "Ange ett användarnamn, ett lösenord och ett telefonnummer",
        "A message was sent to %@: enter the code it gives to create the account":
            "Ett meddelande skickades till %@: ange koden i det för att skapa kontot",
        "No code was sent: create the account first": "Ingen kod har skickats: skapa kontot först",
        "Create the account first": "Skapa kontot först",
        "Account created: you can log in now": "Kontot är skapat: du kan logga in nu",
        "If the account exists, a code was sent to its owner's phone": "Om kontot finns har en kod skickats till ägarens telefon",
        "The code is not the one sent": "Koden är inte den som skickades",
        "Your password was changed: you can log in now": "Lösenordet är bytt: du kan logga in nu",
        "You have to enter your username": "Du måste ange ditt användarnamn",
        "You have to enter your password": "Du måste ange ditt lösenord",
        "You have to enter the code": "Du måste ange koden",
        "Too long: at most %@ bytes": "För långt: högst %@ byte",
        "The field %1$@ is too long: at most %2$@ bytes": "Fältet %1$@ är för långt: högst %2$@ byte",
        "A field's name is too long: at most %@ bytes": "Ett fälts namn är för långt: högst %@ byte",
        // One-time codes, polling, Duo
        "Send a one-time code": "Skicka en engångskod",
        "Send code": "Skicka kod",
        "A code was sent to %@": "En kod skickades till %@",
        "No code was sent: ask for one first": "Ingen kod har skickats: be om en först",
        "Ask for a code first": "Be om en kod först",
        "Send request": "Skicka förfrågan",
        "Nothing is being waited for: start again": "Inget väntar på svar: börja om",
        "The request was not approved": "Förfrågan godkändes inte",
        "The request was not approved in time": "Förfrågan godkändes inte i tid",
        "The approval is still pending": "Godkännandet väntar fortfarande",
        "Log in with Duo": "Logga in med Duo",
        "a login approved on your phone": "en inloggning som godkänns i telefonen",
        "a BankID order": "en BankID-order",
        "a Duo push to your phone": "en Duo-push till din telefon",
        "a Duo push to your tablet": "en Duo-push till din surfplatta",
        "Device selection": "Välj enhet",
        "Phone (%@)": "Telefon (%@)",
        "Tablet": "Surfplatta",
        "Send push notification": "Skicka en pushnotis",
        "Enter a passcode": "Ange en lösenkod",
        "Passcode": "Lösenkod",
        "You have to enter the passcode": "Du måste ange lösenkoden",
        "Choose push or passcode": "Välj push eller lösenkod",
        "No device was selected: start again": "Ingen enhet valdes: börja om",
        "This device is not one of yours": "Den här enheten är inte din",
        // The browser
        "Continue once you have logged in in the browser": "Fortsätt när du har loggat in i webbläsaren",
        "If you are not redirected automatically, continue here": "Om du inte skickas vidare automatiskt, fortsätt här",
        "The authentication process needs to use an external browser": "Inloggningen behöver använda en extern webbläsare",
        "Use the browser instead": "Använd webbläsaren i stället",
        "The browser did not come back with a resume nonce": "Webbläsaren kom inte tillbaka med något resume-nonce",
        "The resume nonce is not the one the browser was given": "Resume-noncet är inte det som webbläsaren fick",
        // BankID
        "Personal number": "Personnummer",
        "yyyymmddnnnn": "ååååmmddnnnn",
        "Login with BankID installed on this device": "Logga in med BankID på den här enheten",
        "Login with BankID installed on a different device": "Logga in med BankID på en annan enhet",
        "Login with BankID": "Logga in med BankID",
        "Continue once BankID is done": "Fortsätt när BankID är klart",
        "Start your BankID app": "Starta BankID-appen",
        "Scan the QR code with your BankID app": "Skanna QR-koden med BankID-appen",
        "You have to enter your personal number": "Du måste ange ditt personnummer",
        "A personal number has 12 digits: yyyymmddnnnn": "Ett personnummer har 12 siffror: ååååmmddnnnn",
        "No BankID order is under way: start again": "Ingen BankID-order pågår: börja om",
        "The BankID order was not signed": "BankID-ordern signerades inte",
        // Passkeys
        "Register a passkey": "Registrera en lösennyckel",
        "Register the passkey": "Registrera lösennyckeln",
        "Log in with a passkey": "Logga in med en lösennyckel",
        "Log in with the passkey": "Logga in med lösennyckeln",
        "Confirm your password to register a passkey": "Bekräfta ditt lösenord för att registrera en lösennyckel",
        "%@ has no passkey yet": "%@ har ingen lösennyckel ännu",
        "No passkey registration is under way: start again": "Ingen registrering av lösennyckel pågår: börja om",
        "No passkey login is under way: start again": "Ingen inloggning med lösennyckel pågår: börja om",
        "The passkey's credential is missing": "Lösennyckelns svar saknas",
        "The passkey was not registered: it is registered already": "Lösennyckeln registrerades inte: den är redan registrerad",
        "The passkey was not registered: %@": "Lösennyckeln registrerades inte: %@",
        "The passkey was not accepted: it is not one of this user's": "Lösennyckeln godtogs inte: den hör inte till den här användaren",
        "The passkey was not accepted: %@": "Lösennyckeln godtogs inte: %@",
        // Consent
        "Consent": "Samtycke",
        "Accept": "Godkänn",
        "Deny": "Neka",
        "%@ asks for access to your account": "%@ ber om tillgång till ditt konto",
        "Your name, username and locale": "Ditt namn, användarnamn och språk",
        "Your email address and whether it is verified": "Din e-postadress och om den är verifierad",
        "Your phone number": "Ditt telefonnummer",
        "Your postal address": "Din postadress",
        "Access while you are away (a refresh token)": "Åtkomst när du inte är här (en förnyelsetoken)",
        "Consent comes after authentication": "Samtycke ges efter inloggningen",
        // Problems
        "Form Errors": "Fel i formuläret",
        "Incorrect credentials": "Felaktiga inloggningsuppgifter",
        "Too many failed attempts: the account is locked": "För många misslyckade försök: kontot är låst",
        "Too many failed attempts: the account is locked for 15 minutes, or until its password is reset":
            "För många misslyckade försök: kontot är låst i 15 minuter, eller tills lösenordet återställs",
        "The session belongs to another HAAPI access token: start again": "Sessionen hör till en annan HAAPI-åtkomsttoken: börja om",
        "The authentication session is unknown or has expired; start again.": "Inloggningssessionen är okänd eller har gått ut; börja om.",
        "This step is only available to apps (HAAPI).": "Det här steget finns bara för appar (HAAPI).",
        "This authenticator is not offered to the client": "Den här inloggningsmetoden erbjuds inte klienten",
        "This authenticator is only available to apps (HAAPI).": "Den här inloggningsmetoden finns bara för appar (HAAPI).",
        "The user cancelled the authentication": "Användaren avbröt inloggningen",
        "The request is too large.": "Förfrågan är för stor.",
        "An unexpected error happened": "Ett oväntat fel inträffade",
        "An unexpected error happened.": "Ett oväntat fel inträffade.",
        "Authorization failed": "Auktoriseringen misslyckades",
        "This authentication session belongs to an app, not to a browser.":
            "Inloggningssessionen hör till en app, inte till en webbläsare.",
        "This login link is unknown, expired, or has a redirect_uri the app did not register.":
            "Inloggningslänken är okänd, har gått ut eller har en redirect_uri som appen inte har registrerat.",
        "Error": "Fel",
        // Pages of the browser
        "Log in": "Logga in",
        "Phone": "Telefon",
        "%@ asks for access to your account.": "%@ ber om tillgång till ditt konto.",
        "Approve the login?": "Godkänna inloggningen?",
        "%1$@ is logging in as %2$@ (%3$@)": "%1$@ loggar in som %2$@ (%3$@)",
        "asked %@": "begärt %@",
        "at %@": "den %@",
        "from the address %@": "från adressen %@",
        "If you are not signing in yourself right now, choose Deny: someone else may have your password.":
            "Om det inte är du som loggar in just nu, välj Neka: någon annan kan ha ditt lösenord.",
        "Approve": "Godkänn",
        "Approved": "Godkänt",
        "Denied": "Nekat",
        "You can go back to the app.": "Du kan gå tillbaka till appen.",
        "The login was refused.": "Inloggningen nekades.",
        "Choose approve or deny.": "Välj godkänn eller neka.",
        "This approval request is unknown, already answered, or expired.":
            "Förfrågan om godkännande är okänd, redan besvarad eller har gått ut.",
        "Sign in a device": "Logga in en enhet",
        "Enter the code your device shows, then sign in: the next page shows what the device asks for.":
            "Ange koden som din enhet visar och logga sedan in: nästa sida visar vad enheten ber om.",
        "Approve the device?": "Godkänna enheten?",
        "A device showing the code %1$@ wants to use your account as the client %2$@.":
            "En enhet som visar koden %1$@ vill använda ditt konto som klienten %2$@.",
        "Requested at %1$@ (%2$@ minutes ago).": "Begärd %1$@ (för %2$@ minuter sedan).",
        "Approve only if you started this yourself, on a device in front of you. If someone sent you this code, choose Deny.":
            "Godkänn bara om du själv startade detta, på en enhet framför dig. Om någon skickade koden till dig, välj Neka.",
        "Always given: %@": "Ges alltid: %@",
        "The device is signed in: you can go back to it.": "Enheten är inloggad: du kan gå tillbaka till den.",
        "The device was refused.": "Enheten nekades.",
        "This code is unknown, already used or expired: check it, or start again on the device.":
            "Koden är okänd, redan använd eller har gått ut: kontrollera den, eller börja om på enheten.",
        "Too many tries in the last minute: wait a minute, then enter your code again.":
            "För många försök den senaste minuten: vänta en minut och ange sedan koden igen.",
        "Choose Approve or Deny.": "Välj Godkänn eller Neka.",
        "This page expired or was already answered: enter the code again.": "Sidan har gått ut eller är redan besvarad: ange koden igen.",
        "Sign out?": "Logga ut?",
        "%@ asks to sign you out.": "%@ ber om att logga ut dig.",
        "An application": "Ett program",
        "Sign out": "Logga ut",
        "Signed out": "Utloggad",
        "You are signed out.": "Du är utloggad.",
        "Sign-out failed": "Utloggningen misslyckades",
        "This sign-out page has expired or was used; start again.": "Utloggningssidan har gått ut eller är redan använd; börja om.",
        "The id_token_hint is not an ID token of this server.": "id_token_hint är inte en ID-token från den här servern.",
        "client_id does not match the id_token_hint.": "client_id stämmer inte med id_token_hint.",
        "The post_logout_redirect_uri is not registered for the client.": "post_logout_redirect_uri är inte registrerad för klienten.",
        "The sign-out could not be prepared.": "Utloggningen kunde inte förberedas.",
    ])
}
