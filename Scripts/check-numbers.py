#!/usr/bin/env python3
"""Fails on a number from outside that could trap: run after `swift build` (CI runs it after the tests).

A number from outside the process (a provider's answer, a stored file, an argument) becomes a
duration, a date or a count through `OutsideNumber` (Sources/OAuthCore/Encoding/OutsideNumber.swift),
which clamps it. Two kinds of code skip that where only the compiler can see them, and this check
finds them in every module of Sources/:

1. A conversion of a floating value to an integer type (`Int(someDouble)`, `UInt64(x * 1e9)`):
   it traps on NaN, on infinities and past the type's range. The compiler finds them: each
   module is type-checked again, exactly as the last `swift build` compiled it (generated files
   too, such as embedded resources), with one more file that declares, for every integer type, a
   deprecated initializer from `Double`, `Float`, `CGFloat` and any `BinaryFloatingPoint`; those shadow the
   standard library's, so every such conversion becomes a warning at its line.
2. An integer parsed from text (`Int(someText)`, `UInt16(field, radix: 16)`), found the same way
   (deprecated initializers from `String` and any `StringProtocol`): arithmetic on it may overflow.

Kinds 3 and 4, plain text patterns (a read of a decoded integer such as `.intValue` or
`decode(Int.self`; a range counted from a list such as `1...options.count`), are rules of
Scripts/lint.py: `decoded-integer` and `counted-range`.

A finding on a line whose code (not its comment) clamps with `OutsideNumber.seconds`, `.count`,
`.date` or `.wholeSeconds` passes. Any other must be allowed in Scripts/lint.allow by a line
`integer-conversion | path | code | why`: `code` is a piece of the line's text (so that the entry
survives edits elsewhere in the file), a path ending in `/` allows the whole folder. An entry of
that rule that matches nothing any more fails too, so the list stays true (the other rules'
entries are Scripts/lint.py's to judge).

Apple-only code (`#if canImport(UIKit)` and the like) is not compiled on Linux: kinds 1 and 2
are found there by type-checking the iOS build of Scripts/check-apple.sh (`.build/ios`), when
it exists; without it the check says which files it could not type-check.

Usage: Scripts/check-numbers.py [--build-path .build] [--apple-build-path .build/ios]
       Scripts/check-numbers.py --self-test   the check runs once, on a copy of Sources/ with a planted
                                              finding of each kind in several modules: each must be
                                              reported at its line, and the rest is the check's result
                                              (every plant sits at the end of its file or region, so
                                              no real finding's line moves)
"""
import concurrent.futures
import os
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "Scripts", "lib"))
from swift_build import BuildError, allow_list, allows, apple_only_files, code_lines, modules, plant, swift_files, typecheck_arguments  # noqa: E402


def option(name, default):
    return sys.argv[sys.argv.index(name) + 1] if name in sys.argv else default


BUILD = option("--build-path", os.path.join(ROOT, ".build"))
APPLE_BUILD = option("--apple-build-path", os.path.join(ROOT, ".build", "ios"))
ALLOW = os.path.join(ROOT, "Scripts", "lint.allow")
RULE = "integer-conversion"  # this check's entries there

INTEGERS = ["Int", "Int8", "Int16", "Int32", "Int64", "UInt", "UInt8", "UInt16", "UInt32", "UInt64"]
FLOATING_MARK = "number-check: an integer from a floating value"
TEXT_MARK = "number-check: an integer parsed from text"
# Foundation (and CoreGraphics on Apple platforms) declares integer initializers from CGFloat of
# its own, more specific than the generic one: they are shadowed too.
PROBE = "// Written by Scripts/check-numbers.py for one type-check; never compiled into the package.\nimport Foundation\n"
for integer in INTEGERS:
    PROBE += f"extension {integer} {{\n"
    for floating in ["Double", "Float", "CGFloat"]:
        PROBE += f'    @available(*, deprecated, message: "{FLOATING_MARK}") init(_ value: {floating}) {{ fatalError() }}\n'
    PROBE += f'    @available(*, deprecated, message: "{FLOATING_MARK}") init<F: BinaryFloatingPoint>(_ value: F) {{ fatalError() }}\n'
    PROBE += f'    @available(*, deprecated, message: "{TEXT_MARK}") init?(_ text: String) {{ fatalError() }}\n'
    PROBE += f'    @available(*, deprecated, message: "{TEXT_MARK}") init?<S: StringProtocol>(_ text: S, radix: Int = 10) {{ fatalError() }}\n'
    PROBE += "}\n"

CLAMPED = re.compile(r"\bOutsideNumber\.(seconds|count|date|wholeSeconds)\b")


def conversions(build, root, where, required):
    """{(path, line): mark} of each conversion the probe finds in `root`/Sources/, type-checking the
    modules of `build`; the folders in `required` must each be a module there."""
    found = {}
    with tempfile.TemporaryDirectory() as scratch:
        probe_file = os.path.join(scratch, "NumberCheckProbe.swift")
        with open(probe_file, "w") as f:
            f.write(PROBE)

        def typecheck(module):
            name, args, files = module
            return name, subprocess.run(typecheck_arguments(build, args, files + [probe_file]), capture_output=True, text=True, cwd=ROOT)

        # One type-check per core at a time.
        with concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
            try:
                chosen = modules(build, root, required)
            except BuildError as error:
                sys.exit(f"check-numbers: {error}")
            runs = list(pool.map(typecheck, chosen))
        for name, run in runs:
            output = run.stdout + run.stderr
            if run.returncode != 0:
                errors = ([l for l in output.splitlines() if "error:" in l] or output.splitlines())[:10]
                sys.exit(f"check-numbers: the type-check of {name} ({where}) failed:\n" + "\n".join(errors))
            for match in re.finditer(r"^(/[^:\n]+):(\d+):\d+: warning: .*(" + re.escape(FLOATING_MARK) + "|" + re.escape(TEXT_MARK) + ")",
                                     output, re.M):
                path = os.path.relpath(match.group(1), root)
                if path.startswith("Sources" + os.sep):
                    found[(path, int(match.group(2)))] = match.group(3)
        print(f"check-numbers: type-checked {len(runs)} modules ({where}): {' '.join(n for n, _ in runs)}")
    return found


def check(root, apple_build, planted=frozenset()):
    """The findings in `root`/Sources/ that neither clamp nor are allowed, the allow-list's stale
    entries, a summary, and which of the `planted` lines (path, number) were found: those are
    neither judged nor counted."""
    entries = [(path, piece) for rule, path, piece, _ in allow_list(ALLOW, ["rule", "path", "code", "why"], "check-numbers") if rule == RULE]
    used = [0] * len(entries)
    failures = []
    lines_of = {}

    def judge(path, number, kind):
        if path not in lines_of:
            lines_of[path] = (open(os.path.join(root, path), encoding="utf-8").read().splitlines(), code_lines(os.path.join(root, path)))
        text, code = lines_of[path][0][number - 1], lines_of[path][1][number - 1]
        if CLAMPED.search(code):
            return
        for index, (entry_path, piece) in enumerate(entries):
            if allows(entry_path, piece, path, text):
                used[index] += 1
                return
        failures.append(f"{path}:{number}: {kind}: {text.strip()}")

    found = conversions(BUILD, root, "Linux", {p.split(os.sep)[1] for p in swift_files(root)})
    apple = apple_only_files(root)
    if os.path.exists(os.path.join(apple_build, "debug.yaml")):
        found.update(conversions(apple_build, root, "iOS, the Apple-only code too", {p.split(os.sep)[1] for p in apple}))
        apple_note = f"the {len(apple)} Apple-only files type-checked for iOS"
    else:
        apple_note = (f"NOT type-checked for iOS (no {os.path.relpath(apple_build, ROOT)}: Scripts/check-apple.sh makes it): "
                      f"{len(apple)} Apple-only files: {' '.join(apple)}")
    kinds = {FLOATING_MARK: "an integer from a floating value (use OutsideNumber.wholeSeconds or .seconds)",
             TEXT_MARK: "an integer parsed from text, unclamped (clamp it: OutsideNumber.count or .seconds)"}
    seen = {where for where in found if where in planted}
    found = {where: mark for where, mark in found.items() if where not in planted}
    for (path, number), mark in sorted(found.items()):
        judge(path, number, kinds[mark])
    stale = [f"{ALLOW}: `{RULE} | {path} | {piece}` matches nothing any more: delete the entry"
             for index, (path, piece) in enumerate(entries) if used[index] == 0]
    summary = (f"{sum(m == FLOATING_MARK for m in found.values())} floating-to-integer conversions and "
               f"{sum(m == TEXT_MARK for m in found.values())} integers parsed from text in Sources/, each clamped or allowed "
               f"with a reason ({len(entries)} {RULE} entries in Scripts/lint.allow); {apple_note}")
    return failures, stale, summary, seen


# Each planted line: (file, where, line). `where` is "end" (appended) or "apple" (inside the
# file's Apple-only region: found only by the iOS type-check). The plants sit in several modules,
# HaapiUI among them: the module the check once dropped without a word.
PLANTS = [
    ("Sources/HaapiUI/Theme/Theme.swift", "end", "func numberCheckPlantA(_ x: Double) -> Int { Int(x * 2) }"),
    ("Sources/OIDCClient/Login/DeviceLogin.swift", "end", "func numberCheckPlantB(_ x: Float) -> UInt64 { UInt64(x) }"),
    ("Sources/HaapiPreview/Glyphs.swift", "end", "func numberCheckPlantC(_ t: Substring) -> Int? { Int(t) }"),
    ("Sources/OAuthTransportURLSession/URLSessionTransport.swift", "end", "func numberCheckPlantD(_ t: String) -> Int32? { Int32(t, radix: 16) }"),
]
PLANTS_APPLE = [
    # The first file with UIKit code; the plant goes at the end of its region (any will do).
    ("apple", "apple", "func numberCheckPlantE(_ x: CGFloat) -> Int { Int(x) }"),
]


def self_test():
    """The check, run on a copy of Sources/ with the plants in: each must be found; the rest of
    the result is the real tree's, as no plant moves a line that was there."""
    copy = tempfile.mkdtemp(prefix="check-numbers-self-test-")
    try:
        shutil.copytree(os.path.join(ROOT, "Sources"), os.path.join(copy, "Sources"))
        plants = list(PLANTS)
        apple_build = os.path.exists(os.path.join(APPLE_BUILD, "debug.yaml"))
        if apple_build:
            uikit = [p for p in apple_only_files(copy) if any(re.match(r"^#if .*canImport\(UIKit\)", l) for l in open(os.path.join(copy, p)))]
            plants += [(uikit[0], where, line) for _, where, line in PLANTS_APPLE]
        # "apple": before the file's last `#endif`, inside the Apple-only region, after every real line.
        expected = [(path, plant(copy, path, line, "check-numbers", apple=where == "apple")) for path, where, line in plants]
        failures, stale, summary, seen = check(copy, APPLE_BUILD, planted=frozenset(expected))
        for where in expected:
            if where not in seen:
                sys.exit(f"check-numbers: self-test FAILED: the planted line {where[0]}:{where[1]} went unseen")
            print(f"  found: {where[0]}:{where[1]}")
        modules_planted = len({p.split(os.sep)[1] for p, _ in expected})
        print(f"check-numbers: self-test passed: each of {len(expected)} planted lines was reported, in {modules_planted} modules"
              + ("" if apple_build else " (the Apple-only plant skipped: no iOS build)"))
        return failures, stale, summary
    finally:
        shutil.rmtree(copy, ignore_errors=True)


def main():
    failures, stale, summary = self_test() if "--self-test" in sys.argv else check(ROOT, APPLE_BUILD)[:3]
    failures += stale
    if failures:
        print(f"check-numbers: {len(failures)} problems:")
        for failure in failures:
            print("  " + failure)
        return 1
    print("check-numbers: " + summary)
    return 0


sys.exit(main())
