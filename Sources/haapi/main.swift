import HaapiCLICore

// The commands on a profile's tokens; every other command goes on in `haapi-full`.
await HaapiCommandLine.main()
