#!/usr/bin/env python3
"""Fails on a number from outside that could trap: run after `swift build` (CI runs it after the tests).

A number from outside the process (a provider's answer, a stored file, an argument) becomes a
duration, a date or a count through `OutsideNumber` (Sources/OAuthCore/Encoding/OutsideNumber.swift),
which clamps it. Two kinds of code skip that, and this check finds both in Sources/:

1. A conversion of a floating value to an integer type (`Int(someDouble)`, `UInt64(x * 1e9)`):
   it traps on NaN, on infinities and past the type's range. The compiler finds them: each
   module is type-checked again, exactly as the last `swift build` compiled it, with one more
   file that declares, for every integer type, a deprecated initializer from `Double` and
   `Float` and from any `BinaryFloatingPoint`; those shadow the standard library's, so every
   such conversion becomes a warning at its line.
2. A read of a decoded integer (`.integer(let n)`, `.intValue`, `optionalInt(`, `decode(Int.self`)
   outside the readers that clamp it: arithmetic on it may overflow.

Each finding must be in Scripts/check-numbers.allow, a line `path | code | why`: `code` is a
piece of the line's text (so that the entry survives edits elsewhere in the file). An entry that
matches nothing any more fails too, so the list stays true.

Usage: Scripts/check-numbers.py [--build-path .build]
"""
import json
import os
import re
import subprocess
import sys
import tempfile

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
build = sys.argv[sys.argv.index("--build-path") + 1] if "--build-path" in sys.argv else os.path.join(root, ".build")
allow_path = os.path.join(root, "Scripts", "check-numbers.allow")
sources = os.path.join(root, "Sources") + os.sep

INTEGERS = ["Int", "Int8", "Int16", "Int32", "Int64", "UInt", "UInt8", "UInt16", "UInt32", "UInt64"]
MARK = "number-check: an integer from a floating value"
probe = "// Written by Scripts/check-numbers.py for one type-check; never compiled into the package.\n"
for integer in INTEGERS:
    probe += f"extension {integer} {{\n"
    for floating in ["Double", "Float"]:
        probe += f'    @available(*, deprecated, message: "{MARK}") init(_ value: {floating}) {{ fatalError() }}\n'
    probe += f'    @available(*, deprecated, message: "{MARK}") init<F: BinaryFloatingPoint>(_ value: F) {{ fatalError() }}\n'
    probe += "}\n"

DECODED = re.compile(r"\.integer\(let |\.intValue\b|\boptionalInt\(|decode\(Int(8|16|32|64)?\.self")
# The places that clamp what they read, where a read is the point.
READERS = {"Sources/OAuthCore/Encoding/JSONValue.swift", "Sources/OAuthCore/Encoding/OutsideNumber.swift"}


def modules():
    """(name, swiftc arguments) of each module whose sources are in Sources/, from the build manifest."""
    manifest = os.path.join(build, "debug.yaml")
    if not os.path.exists(manifest):
        sys.exit(f"check-numbers: no {manifest}: run `swift build` first")
    found = {}
    with open(manifest) as lines:
        name = None
        for line in lines:
            if re.match(r'\s+"C\..+-debug\.module":', line):
                name = True
            elif name and line.strip().startswith("args: ["):
                args = json.loads(line.strip()[len("args: "):])
                if "-module-name" in args:
                    found[args[args.index("-module-name") + 1]] = args
                name = None
    result = []
    for name, args in sorted(found.items()):
        files_at = [a for a in args if a.startswith("@")]
        if not files_at or not os.path.exists(files_at[0][1:]):
            continue  # a dependency's module
        with open(files_at[0][1:]) as listing:
            files = [f.strip().strip('"') for f in listing if f.strip()]
        if files and all(f.startswith(sources) for f in files):
            result.append((name, args, files))
    return result


def typecheck_arguments(args, files, probe_file):
    """The module's compile command as a type-check only, with the probe added."""
    drop_with_value = {"-emit-module-path", "-output-file-map", "-index-store-path", "-emit-objc-header-path", "-j"}
    drop = {"-emit-dependencies", "-emit-module", "-incremental", "-c", "-enable-batch-mode", "-serialize-diagnostics",
            "-parseable-output", "-emit-objc-header", "-whole-module-optimization"}
    out, skip = [], False
    for arg in args[1:]:
        if skip:
            skip = False
            continue
        if arg in drop_with_value:
            skip = True
            continue
        if arg in drop or arg.startswith("-j") or arg.startswith("@"):
            continue
        out.append(arg)
    return [args[0], "-typecheck"] + out + files + [probe_file]


def conversions():
    """(path, line number, line text) of each floating-to-integer conversion in Sources/."""
    found = set()
    with tempfile.TemporaryDirectory() as scratch:
        probe_file = os.path.join(scratch, "NumberCheckProbe.swift")
        with open(probe_file, "w") as f:
            f.write(probe)
        for name, args, files in modules():
            run = subprocess.run(typecheck_arguments(args, files, probe_file), capture_output=True, text=True, cwd=root)
            output = run.stdout + run.stderr
            if run.returncode != 0:
                errors = ([l for l in output.splitlines() if "error:" in l] or output.splitlines())[:10]
                sys.exit(f"check-numbers: the type-check of {name} failed:\n" + "\n".join(errors))
            for match in re.finditer(r"^(/[^:\n]+):(\d+):\d+: warning: .*" + re.escape(MARK), output, re.M):
                found.add((os.path.relpath(match.group(1), root), int(match.group(2))))
    return sorted(found)


def decoded_reads():
    """(path, line number) of each read of a decoded integer outside the readers that clamp."""
    found = []
    for directory, _, names in os.walk(sources):
        for file in names:
            if not file.endswith(".swift"):
                continue
            path = os.path.relpath(os.path.join(directory, file), root)
            if path in READERS:
                continue
            with open(os.path.join(root, path)) as f:
                for number, text in enumerate(f, 1):
                    if DECODED.search(text) and "OutsideNumber" not in text and not text.lstrip().startswith("///"):
                        found.append((path, number))
    return found


def main():
    entries = []
    with open(allow_path) as f:
        for number, line in enumerate(f, 1):
            if not line.strip() or line.startswith("#"):
                continue
            parts = [p.strip() for p in line.split(" | ")]
            if len(parts) != 3 or not all(parts):
                sys.exit(f"check-numbers: {allow_path}:{number}: expected `path | code | why`")
            entries.append(parts)
    used = [0] * len(entries)
    failures = []

    def allowed(path, number, kind):
        with open(os.path.join(root, path)) as f:
            text = f.read().splitlines()[number - 1]
        for index, (entry_path, code, _) in enumerate(entries):
            if entry_path == path and code in text:
                used[index] += 1
                return
        failures.append(f"{path}:{number}: {kind}: {text.strip()}")

    found_conversions = conversions()
    for path, number in found_conversions:
        allowed(path, number, "an integer from a floating value (use OutsideNumber.wholeSeconds or .seconds)")
    found_reads = decoded_reads()
    for path, number in found_reads:
        allowed(path, number, "a decoded integer read without OutsideNumber (clamp it: OutsideNumber.seconds or .count)")
    for index, (path, code, _) in enumerate(entries):
        if used[index] == 0:
            failures.append(f"{allow_path}: `{path} | {code}` matches nothing any more: delete the entry")
    print(f"check-numbers: {len(found_conversions)} floating-to-integer conversions and {len(found_reads)} decoded-integer reads "
          f"in Sources/, each allowed with a reason ({len(entries)} entries in Scripts/check-numbers.allow)" if not failures else
          f"check-numbers: {len(failures)} problems:")
    for failure in failures:
        print("  " + failure)
    return 1 if failures else 0


sys.exit(main())
