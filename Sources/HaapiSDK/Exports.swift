// One import for the SDK, as the seeds' `import IdsvrHaapiSdk`: the driver and the protocol core
// (OAuthCore, with the token session that keeps a flow's tokens) come with it.
@_exported import HaapiDriver
@_exported import OAuthCore

#if canImport(Darwin)
    // The default transport of Apple platforms, with `URLSessionConfiguration.haapi`.
    @_exported import OAuthTransportURLSession
#endif
