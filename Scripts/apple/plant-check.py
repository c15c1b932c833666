#!/usr/bin/env python3
"""Part of `Scripts/check-apple.sh --self-test`: shows that the iOS check compiles every Apple-only
file of Sources/ with its Apple code active. Run after the check, with its build folder.

A copy of each Apple-only file gets a wrong line just inside its Apple-only region; each module
that has such files is then type-checked again exactly as the check's last build compiled it (its
command in the build's manifest, the copies in place of the files), and the type-check must report
an error at every wrong line. The modules below come from the check's build, so this costs one
type-check per module, not the builds of a copy of the package, layer by layer.

Usage: Scripts/apple/plant-check.py BUILD   (BUILD: the check's build folder, .build/ios)
"""
import concurrent.futures
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "lib"))
from swift_build import APPLE_GUARD, ROOT, BuildError, apple_only_files, modules, typecheck_arguments  # noqa: E402

WRONG = 'let appleCheckProbe{}: Int = "a wrong line the check must find"'


def main():
    build = sys.argv[1]
    apple = apple_only_files(ROOT)
    copy = tempfile.mkdtemp(prefix="check-apple-plants-")
    try:
        planted = {}  # the copy's path: (the file's path in the package, the wrong line's number)
        for path in apple:
            lines = open(os.path.join(ROOT, path), encoding="utf-8").read().split("\n")
            guard = next(i for i, line in enumerate(lines) if APPLE_GUARD.match(line))
            lines.insert(guard + 1, WRONG.format(len(planted)))
            target = os.path.join(copy, path)
            os.makedirs(os.path.dirname(target), exist_ok=True)
            open(target, "w", encoding="utf-8").write("\n".join(lines))
            planted[target] = (path, guard + 2)
        try:
            chosen = [(name, args, [os.path.join(copy, os.path.relpath(f, ROOT)) if os.path.join(copy, os.path.relpath(f, ROOT)) in planted else f
                                    for f in files])
                      for name, args, files in modules(build, ROOT, {p.split(os.sep)[1] for p in apple})]
        except BuildError as error:
            sys.exit(f"check-apple: self-test FAILED: {error}")
        chosen = [m for m in chosen if any(f in planted for f in m[2])]

        def typecheck(module):
            name, args, files = module
            return name, subprocess.run(typecheck_arguments(build, args, files) + ["-continue-building-after-errors"], capture_output=True, text=True, cwd=ROOT)

        with concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
            runs = list(pool.map(typecheck, chosen))
        errors = set()
        for name, run in runs:
            for match in re.finditer(r"^(/[^:\n]+):(\d+):\d+: error:", run.stdout + run.stderr, re.M):
                errors.add((match.group(1), int(match.group(2))))
        missed = 0
        for target, (path, number) in sorted(planted.items(), key=lambda item: item[1]):
            if (target, number) in errors:
                print(f"  found: {path}:{number}")
            else:
                missed += 1
                print(f"check-apple: self-test FAILED: the wrong line at {path}:{number} went unseen", file=sys.stderr)
        if missed:
            sys.exit(1)
        print(f"  {len(planted)} wrong lines in the Apple-only files of {len(runs)} modules ({' '.join(n for n, _ in runs)}), each an error")
    finally:
        shutil.rmtree(copy, ignore_errors=True)


main()
