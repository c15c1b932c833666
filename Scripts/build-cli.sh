#!/bin/bash
# Builds the two binaries to install side by side and prints their paths, in .build/cli/install:
# haapi (the haapi-tokens product: the commands on a profile's tokens, which hands every other
# command to the binary beside it) and haapi-full (the haapi product: the whole command line, what
# `swift run haapi` runs). Release mode; on Linux the Swift
# runtime and Foundation are linked into it (--static-swift-stdlib, with lld): at each start the dynamic
# loader binds no symbols across twenty shared libraries, which was a third of a cached
# `haapi token`, and scripts call `haapi token` in loops. lld packs its 144,000 relative
# relocations (-z pack-relative-relocs: 3 MiB of records become 30 KiB; 13% of the start-up).
# The binary needs only the C and C++ runtimes (libc 2.36 or later, libstdc++, libm, libz), so
# it also runs where no Swift toolchain is installed.
# The build has a folder of its own (.build/cli): its flags differ from every other build's.
#   install -m 755 $(Scripts/build-cli.sh) ~/.local/bin/
set -euo pipefail
cd "$(dirname "$0")/.."
flags=(-c release)
if [ "$(uname -s)" = Linux ]; then
  flags+=(--scratch-path .build/cli --static-swift-stdlib -Xswiftc -use-ld=lld -Xlinker -z -Xlinker pack-relative-relocs)
  # Not position-independent: the Swift metadata's 1.4 MB of pointers are written by the linker,
  # not relocated at every start (350 pages copied and written before main, 2 ms of a cached
  # haapi token); and main the only exported symbol (Scripts/lib/haapi.exports).
  flags+=(-Xlinker --no-pie -Xlinker "--version-script=$PWD/Scripts/lib/haapi.exports")
  # No $ORIGIN run path: the binary loads no library of its own, and with one the loader looks
  # for each system library in a dozen folders beside the binary first (34 failed calls a start).
  flags+=(--disable-local-rpath)
fi
swift build "${flags[@]}" --product haapi >&2
swift build "${flags[@]}" --product haapi-tokens >&2
bin=$(swift build "${flags[@]}" --show-bin-path)
install=$PWD/.build/cli/install
mkdir -p "$install"
# Hard links to what the linker wrote (copies where links cannot be made).
ln -f "$bin/haapi-tokens" "$install/haapi" 2>/dev/null || cp -f "$bin/haapi-tokens" "$install/haapi"
ln -f "$bin/haapi" "$install/haapi-full" 2>/dev/null || cp -f "$bin/haapi" "$install/haapi-full"
echo "$install/haapi"
echo "$install/haapi-full"
