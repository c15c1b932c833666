// One import for the SDK, as the seeds' `import IdsvrHaapiSdk`: the driver and OAuthCore come with it.
@_exported import HaapiDriver
@_exported import OAuthCore
