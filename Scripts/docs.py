#!/usr/bin/env python3
"""Builds the DocC documentation of every library target, warnings as errors: a link to a symbol
that does not exist, an undocumented parameter or an ambiguous name fails.

It reads what the last `swift build` made (CI: the tests' build), as swift-docc-plugin would, but
without a build per target: each module's public symbols are extracted from its built module
(`swift-symbolgraph-extract`, with the search paths of its compile command in the build's
manifest), then `docc convert` runs, two at a time, each target after the targets it depends on,
whose archives it is given, so that its comments link to their symbols by absolute path
(``/OAuthCore/HTTPTransport``). Last, the archives are merged into one:
.build/docs/swift-haapi.doccarchive (each target's own in .build/docs/targets/).

Usage: Scripts/docs.py                  every target with a DocC catalog (Sources/X/X.docc)
       Scripts/docs.py OAuthCore ...    only these, and the targets they depend on
"""
import concurrent.futures
import json
import os
import shutil
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "lib"))
from swift_build import ROOT, BuildError, modules  # noqa: E402

BUILD = os.path.join(ROOT, ".build")
OUT = os.path.join(BUILD, "docs")
# The flags of a module's compile command that say where its imports are found.
SEARCH = {"-I", "-F", "-Xcc", "-target", "-sdk", "-module-cache-path"}


def fail(message):
    sys.exit(f"docs: {message}")


def catalogued():
    """{target: [targets of the package it depends on, directly]} for each target with a catalog."""
    dump = subprocess.run(["swift", "package", "dump-package"], capture_output=True, text=True, cwd=ROOT)
    if dump.returncode != 0:
        fail("swift package dump-package failed:\n" + dump.stderr)
    targets = {t["name"]: t for t in json.loads(dump.stdout)["targets"]}
    result = {}
    for name, target in targets.items():
        if os.path.isdir(os.path.join(ROOT, "Sources", name, f"{name}.docc")):
            named = [d.get("byName", d.get("target", [None]))[0] for d in target["dependencies"]]
            result[name] = [n for n in named if n in targets]
    return result


def closure(graph, names):
    """`names` and every target they depend on, through the graph."""
    seen, stack = set(), list(names)
    while stack:
        name = stack.pop()
        if name not in seen:
            seen.add(name)
            stack += graph.get(name, [])
    return seen


def run(command, what):
    started = time.monotonic()
    done = subprocess.run(command, capture_output=True, text=True, cwd=ROOT)
    if done.returncode != 0:
        fail(f"{what} failed:\n{done.stdout[-4000:]}{done.stderr[-4000:]}")
    return time.monotonic() - started


def main():
    graph = catalogued()
    wanted = sys.argv[1:] or sorted(graph)
    unknown = [n for n in wanted if n not in graph]
    if unknown:
        fail(f"no target with a DocC catalog named {', '.join(unknown)}")
    chosen = closure(graph, wanted) & set(graph)
    try:
        built = {name: args for name, args, _ in modules(BUILD, ROOT, set())}
    except BuildError as error:
        fail(str(error))
    missing = sorted(chosen - set(built))
    if missing:
        # A target nothing the tests build depends on (OAuthTransportURLSession on Linux).
        for name in missing:
            run(["swift", "build", "--target", name], f"swift build --target {name}")
        built = {name: args for name, args, _ in modules(BUILD, ROOT, set())}
    shutil.rmtree(OUT, ignore_errors=True)
    os.makedirs(os.path.join(OUT, "targets"))

    def extract(name):
        args, search, index = built[name], [], 1
        while index < len(args):
            if args[index] in SEARCH:
                search += args[index:index + 2]
                index += 2
            else:
                index += 1
        symbols = os.path.join(OUT, "symbols", name)
        os.makedirs(symbols)
        run(["swift-symbolgraph-extract", "-module-name", name, "-minimum-access-level", "public",
             "-emit-extension-block-symbols", "-output-dir", symbols] + search, f"extracting the symbols of {name}")

    def convert(name):
        dependencies = sorted(closure(graph, graph[name]) & chosen)
        command = ["docc", "convert", os.path.join("Sources", name, f"{name}.docc"), "--warnings-as-errors",
                   "--emit-lmdb-index", "--fallback-display-name", name, "--fallback-bundle-identifier", name,
                   "--additional-symbol-graph-dir", os.path.join(OUT, "symbols", name),
                   "--output-path", archive(name), "--enable-experimental-external-link-support"]
        for dependency in dependencies:
            command += ["--dependency", archive(dependency)]
        return name, run(command, f"docc convert of {name}")

    def archive(name):
        return os.path.join(OUT, "targets", f"{name}.doccarchive")

    with concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        list(pool.map(extract, sorted(chosen)))
        converted = set()
        while converted != chosen:
            ready = sorted(n for n in chosen - converted if set(graph[n]) & chosen <= converted)
            if not ready:
                fail(f"the targets {', '.join(sorted(chosen - converted))} depend on each other")
            for name, seconds in pool.map(convert, ready):
                converted.add(name)
                print(f"docs: {name} converted in {seconds:.1f} s")
    merged = os.path.join(OUT, "swift-haapi.doccarchive")
    run(["docc", "merge"] + [archive(n) for n in sorted(chosen)] + ["--output-path", merged,
         "--synthesized-landing-page-name", "swift-haapi", "--synthesized-landing-page-kind", "Package"], "docc merge")
    print(f"docs: {' '.join(sorted(chosen))}: no warning; {os.path.relpath(merged, ROOT)}")


main()
