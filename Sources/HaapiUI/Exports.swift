// One import for the whole stack, as the seeds' `import IdsvrHaapiUIKit`: the UI layer, the SDK,
// the driver and OAuthCore, and the Combine the view model publishes with (Apple's where it
// exists, OpenCombine elsewhere; OpenCombineDispatch makes `DispatchQueue` a scheduler there).
@_exported import HaapiDriver
@_exported import HaapiSDK
@_exported import OAuthCore

#if canImport(Combine)
    @_exported import Combine
#else
    @_exported import OpenCombine
    @_exported import OpenCombineDispatch
#endif
