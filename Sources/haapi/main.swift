import HaapiCLICore

// The commands on a profile's tokens; every other command goes on in `haapi-full`. Not `await`:
// a synchronous main lets a cached `haapi token` end without dispatch_main (see TokenCommands.main).
HaapiCommandLine.main()
