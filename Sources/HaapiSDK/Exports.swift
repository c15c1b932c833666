// One import for the SDK, as the seeds' `import IdsvrHaapiSdk`: the driver and OAuthCore come
// with it, and OIDCClient for the token session that keeps a flow's tokens.
@_exported import HaapiDriver
@_exported import OAuthCore
@_exported import OIDCClient
