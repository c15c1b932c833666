// One import for the browser login: the protocol core (provider, token session, errors) comes with it.
@_exported import OAuthCore
