// Curity's UI kit module name over ours. Curity's kit carries the SDK's types itself, so an app
// written for it names them through the kit's module (`IdsvrHaapiUIKit.FormAction`): HaapiUI
// exports HaapiSDK and the layers below, and this module exports HaapiUI.
@_exported import HaapiUI
