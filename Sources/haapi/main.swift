import HaapiCLI

// The whole command line: what `swift run haapi` runs, and what Scripts/build-cli.sh installs as
// `haapi-full`, beside the `haapi` that runs the commands on a profile's tokens by itself.
await HaapiCommandLine.main()
