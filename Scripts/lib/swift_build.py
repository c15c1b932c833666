"""What the package's source checks share: the Swift files of Sources/ and their code without
comments and literals, each module's compile command from a SwiftPM build replayed as a
type-check only, and the allow-lists of the checks. Used by Scripts/lint.py, Scripts/check-numbers.py,
Scripts/apple/plant-check.py and Scripts/apple/hazards.py; and the planting of their self-tests."""
import json
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
# A positive test for an Apple framework in an `#if` at the start of a line marks Apple-only code
# (the same pattern as Scripts/check-apple.sh's).
APPLE_GUARD = re.compile(r"^#if .*(?<!!)canImport\((UIKit|SwiftUI|AuthenticationServices|Security|DeviceCheck|CryptoKit|LocalAuthentication|Combine)\)")


class BuildError(Exception):
    """The build folder cannot answer: not built, or a module that compiles files from elsewhere."""


def code_lines(path):
    """The file's lines with comments removed and string literals emptied (`"…"` becomes `""`)."""
    text = open(path, encoding="utf-8").read()
    out, i, n = [], 0, len(text)
    depth = 0  # inside /* */ comments
    literal = None  # the closing delimiter of the string literal we are in
    while i < n:
        c = text[i]
        if depth:
            if text.startswith("/*", i): depth, i = depth + 1, i + 2
            elif text.startswith("*/", i): depth, i = depth - 1, i + 2
            else:
                if c == "\n": out.append(c)
                i += 1
        elif literal:
            if text.startswith(literal, i):
                out.append('"')
                i += len(literal)
                literal = None
            else:
                if c == "\\" and not literal.endswith("#"): i += 1
                if i < n and text[i] == "\n": out.append("\n")
                i += 1
        elif text.startswith("//", i):
            while i < n and text[i] != "\n": i += 1
        elif text.startswith("/*", i):
            depth, i = 1, i + 2
        elif c in '#"':
            m = re.match(r'(#*)("""|")', text[i:])
            if not m:
                out.append(c)
                i += 1
                continue
            literal = m.group(2) + m.group(1)
            out.append('"')
            i += m.end()
        else:
            out.append(c)
            i += 1
    return "".join(out).split("\n")


def swift_files(root):
    """The Swift files under `root`/Sources/, as paths relative to `root`."""
    for directory, _, names in os.walk(os.path.join(root, "Sources")):
        for name in sorted(names):
            if name.endswith(".swift"):
                yield os.path.relpath(os.path.join(directory, name), root)


def apple_only_files(root):
    return sorted(p for p in swift_files(root) if any(APPLE_GUARD.match(l) for l in open(os.path.join(root, p), encoding="utf-8")))


def modules(build, root, required):
    """[(name, swiftc arguments, files)] of each module of the package in `build`'s manifest: its
    files are in the package's Sources/ or generated into the build folder, and are given as read
    from `root` (a copy of the package, or the package itself). Raises BuildError when a folder of
    Sources/ in `required` has no module there."""
    manifest = os.path.join(build, "debug.yaml")
    if not os.path.exists(manifest):
        raise BuildError(f"no {manifest}: build first")
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
    sources, build_dir = os.path.join(ROOT, "Sources") + os.sep, os.path.abspath(build) + os.sep
    result = []
    for name, args in sorted(found.items()):
        files_at = [a for a in args if a.startswith("@")]
        if not files_at or not os.path.exists(files_at[0][1:]):
            continue  # a dependency's module, built from its own file list elsewhere
        with open(files_at[0][1:]) as listing:
            files = [f.strip().strip('"') for f in listing if f.strip()]
        if not any(f.startswith(sources) for f in files):
            continue  # a dependency's module
        strays = [f for f in files if not f.startswith(sources) and not f.startswith(build_dir)]
        if strays:
            raise BuildError(f"module {name} compiles files neither in Sources/ nor generated: {strays[:3]}")
        files = [os.path.join(root, os.path.relpath(f, ROOT)) if f.startswith(sources) else f for f in files]
        result.append((name, args, files))
    checked = {os.path.relpath(f, root).split(os.sep)[1] for _, _, files in result for f in files if f.startswith(os.path.join(root, "Sources"))}
    if required - checked:
        raise BuildError(f"no module in {manifest} compiles Sources/{', Sources/'.join(sorted(required - checked))}: build them first "
                         "(`swift build --build-tests`; for iOS, Scripts/check-apple.sh)")
    return result


def typecheck_arguments(build, args, files):
    """The module's compile command from `build`'s manifest as a type-check only of `files`, with
    what check-apple's frontend adds to the package's modules for iOS (its backfill of newer Apple
    API, Scripts/apple/swift-frontend) when `build` is check-apple's."""
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
    backfill = os.path.join(build, "apple-backfill")
    extra = ["-I", backfill, "-Xfrontend", "-import-module", "-Xfrontend", "AppleSDKBackfill"] if os.path.isdir(backfill) else []
    return [args[0], "-typecheck"] + out + files + extra


def allow_list(path, columns, tool):
    """The entries of an allow-list: one line each, `columns` pieces separated by ` | `, none
    empty; `#` starts a comment line. A malformed line stops `tool` with where it is."""
    entries = []
    with open(path) as f:
        for number, line in enumerate(f, 1):
            if not line.strip() or line.startswith("#"):
                continue
            parts = [p.strip() for p in line.split(" | ")]
            if len(parts) != len(columns) or not all(parts):
                sys.exit(f"{tool}: {path}:{number}: expected `{' | '.join(columns)}`")
            entries.append(parts)
    return entries


def allows(entry_path, piece, path, text):
    """Whether an allow-list entry (`entry_path`, a folder when it ends in `/`; `piece`, a piece of
    the line's text) allows a finding at `path` on the line `text`."""
    return (entry_path == path or (entry_path.endswith("/") and path.startswith(entry_path))) and piece in text


def plant(copy, path, line, tool, apple=False, after=None):
    """Writes `line` into the copy of `path` under `copy` (a self-test's copy of Sources/): at the
    end, or with `apple` inside the file's Apple-only region (before its last `#endif`), so that no
    real line moves, or with `after` (a pattern) right after the first line it matches (the lines
    below move down); returns the planted line's number."""
    full = os.path.join(copy, path)
    if not os.path.exists(full):
        sys.exit(f"{tool}: self-test FAILED: {path} is gone; choose another file to plant in")
    lines = open(full, encoding="utf-8").read().split("\n")
    if after is not None:
        at = next((i + 1 for i, l in enumerate(lines) if re.search(after, l)), None)
        if at is None:
            sys.exit(f"{tool}: self-test FAILED: {path} has no line matching {after}; choose another file to plant in")
        lines.insert(at, line)
        number = at + 1
    elif apple:
        at = max(i for i, l in enumerate(lines) if l.startswith("#endif"))
        lines.insert(at, line)
        number = at + 1
    else:
        lines.append(line)
        number = len(lines)
    open(full, "w", encoding="utf-8").write("\n".join(lines))
    return number
