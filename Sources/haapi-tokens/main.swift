import HaapiCLICore

// The commands on a profile's tokens, installed as `haapi` (Scripts/build-cli.sh); every other
// command goes on in `haapi-full` beside it. Not `await`: a synchronous main lets a cached
// `haapi token` end without dispatch_main (see TokenCommands.main).
TokenCommandLine.main()
