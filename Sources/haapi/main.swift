import HaapiCLI

// The whole command line is the HaapiCLI library; this executable only starts it.
await HaapiCommandLine.main()
