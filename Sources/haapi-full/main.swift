import HaapiCLI

// The whole command line (login, demo, server, preview, inspect, completion and the help), which
// `haapi` hands the commands it does not run itself.
await HaapiFullCommandLine.main()
