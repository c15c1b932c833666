// Curity's SDK module name over ours. An app written for Curity's IdsvrHaapiSdk imports this
// module and names its declarations as before (`IdsvrHaapiSdk.Link`): they are HaapiSDK's, and
// the layers below it that HaapiSDK exports (HaapiDriver, OAuthCore).
@_exported import HaapiSDK
