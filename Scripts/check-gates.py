#!/usr/bin/env python3
"""Fails where input from outside skips its gate: markup, and files named by others.

Two kinds of input from outside each have one way in, and this check keeps it the only one, in
every Swift file of Sources/ (read as text, the Apple-only ones too):

Markup. Every page this package writes or serves (the preview's pages and index, the gallery,
the development server's pages, the loopback return page) is a `Markup`
(Sources/OAuthCore/Encoding/Markup.swift): literals are ours, and each value goes in through a
labelled interpolation that escapes it for where it lands (`\\(text:)`, `\\(cssString:)`,
`\\(cssIdentifier:)`, `\\(number:)`, `\\(link:)`, `\\(markup:)`). A `String` has none of those
labels, so a literal that uses them can only be markup. Found:
1. markup (an HTML tag, a `data-` attribute, a CSS declaration) on a line with an unlabelled
   interpolation (`\\(value)`): a value spliced in without its escape, or markup made as a String;
2. markup on a line that joins a literal and something else with `+` (`"<p>" + name`);
3. `text/html` anywhere but the two places that send a page (the development server's
   `Reply.html`, which takes Markup, and the loopback listener's answer).

Files named by others (an argument, a configuration, a name inside a folder given to us). They
are read through `OutsideFile` (Sources/OAuthCore/Storage/OutsideFile.swift): a regular file or a
pipe, bounded in size before it is read in, and inside its folder with every link resolved.
4. a read of a file by any other means (`Data(contentsOf:)`, `String(contentsOfFile:)`,
   `FileHandle(forReadingFrom:)`, `FileManager.contents(atPath:)`, `readDataToEndOfFile()`).

A finding may be allowed in Scripts/check-gates.allow, a line `path | code | why` (`code` a piece
of the line; a path ending in `/` allows the whole folder); an entry that matches nothing any
more fails too.

Usage: Scripts/check-gates.py               the check
       Scripts/check-gates.py --self-test   the check, first on a copy of Sources/ with one planted
                                            line of each kind in several modules: each must be found
"""
import os
import re
import shutil
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "Scripts", "lib"))
from swift_build import allow_list, plant, swift_files  # noqa: E402

ALLOW = os.path.join(ROOT, "Scripts", "check-gates.allow")
TAGS = ("html|head|body|main|div|span|p|a|ul|ol|li|h[1-6]|form|input|button|label|section|nav|header|footer|img|picture|source"
        "|style|title|meta|link|script|svg|path|rect|circle|select|option|details|summary|progress|br|strong|em|code|pre|table|tr|td|iframe")
MARKUP = re.compile(r"<(/?)(" + TAGS + r")\b|<!doctype|\bdata-[a-z-]+=\\?\"|\[data-[a-z-]+=|\b(font-family|font-size|color|background|border(-[a-z]+)?|padding|margin|gap|(min-|max-)?(width|height)|content|letter-spacing"
                    r"|line-height|text-align|caret-color|accent-color)\s*:\s", re.I)
LABELS = ("text", "markup", "cssString", "cssIdentifier", "number", "link")
UNLABELLED = re.compile(r"\\#*\((?!\s*(" + "|".join(LABELS) + r"):)")
JOINED = re.compile(r"\"\s*\+\s*[^\"\s]|[\w)\]?]\s*\+\s*#*\"")
HTML_TYPE = re.compile(r"text/html")
SENDERS = {"Sources/HaapiDevServer/Support/Responses.swift", "Sources/OAuthTransportNIO/LoopbackRedirectListener.swift"}
FILE_READ = re.compile(r"Data\(contentsOf:|String\(contentsOf(File)?:|FileHandle\(forReading(From|AtPath):|readDataToEndOfFile\(\)|\.contents\(atPath:")
READER = "Sources/OAuthCore/Storage/OutsideFile.swift"

KINDS = {
    "unlabelled": "markup with an unlabelled interpolation: escape the value for where it lands (\\(text:), \\(cssString:), \\(link:)...)",
    "joined": "markup joined to something else with +: interpolate it instead (\\(text: value), \\(markup: part))",
    "sent": "text/html outside Reply.html and the loopback listener: send pages through Reply.html, which takes Markup",
    "read": "a file read without OutsideFile: read what others name through OutsideFile.read (bounded, inside its folder)",
}


def findings(root):
    """[(path, line number, kind)] in `root`/Sources/."""
    found = []
    for path in swift_files(root):
        for number, line in enumerate(open(os.path.join(root, path), encoding="utf-8").read().split("\n"), 1):
            code = line.strip()
            if code.startswith("//"):
                continue
            if HTML_TYPE.search(line) and path not in SENDERS:
                found.append((path, number, "sent"))
            if FILE_READ.search(line) and path != READER:
                found.append((path, number, "read"))
            if not MARKUP.search(line):
                continue
            if UNLABELLED.search(line):
                found.append((path, number, "unlabelled"))
            elif JOINED.search(line):
                found.append((path, number, "joined"))
    return found


def check(root, planted=frozenset()):
    """The findings neither allowed nor planted, the stale entries, and which plants were seen."""
    entries = allow_list(ALLOW, ["path", "code", "why"], "check-gates")
    used = [0] * len(entries)
    failures, seen = [], set()
    for path, number, kind in findings(root):
        if (path, number) in planted:
            seen.add((path, number))
            continue
        text = open(os.path.join(root, path), encoding="utf-8").read().split("\n")[number - 1]
        for index, (entry_path, piece, _) in enumerate(entries):
            if (entry_path == path or (entry_path.endswith("/") and path.startswith(entry_path))) and piece in text:
                used[index] += 1
                break
        else:
            failures.append(f"{path}:{number}: {KINDS[kind]}: {text.strip()}")
    stale = [f"{ALLOW}: `{p} | {c}` matches nothing any more: delete the entry" for i, (p, c, _) in enumerate(entries) if used[i] == 0]
    return failures + stale, seen


# One planted line of each kind, in several modules (the Apple-only code too: it is read as text).
PLANTS = [
    ("Sources/HaapiPreview/ScreenPage.swift", 'func markupPlantA(_ name: String) -> String { "<p class=\\"name\\">\\(name)</p>" }'),
    ("Sources/HaapiDevServer/HAAPI/HTMLPages.swift", 'func markupPlantB(_ name: String) -> String { "<li>" + name + "</li>" }'),
    ("Sources/HaapiCLI/PreviewCommand.swift", 'func markupPlantC(_ font: String) -> String { "main { font-family: \\(font); }" }'),
    ("Sources/OAuthTransportNIO/AsyncHTTPClientTransport.swift", 'let markupPlantD = ["Content-Type": "text/html; charset=utf-8"]'),
    ("Sources/HaapiUI/Apple/HaapiFlow.swift", 'func markupPlantE(_ href: String) -> String { "<a href=\\"\\(href)\\">" }'),
    ("Sources/OAuthCore/Encoding/Markup.swift", 'func markupPlantF(_ section: String) -> String { "[data-style=\\"" + section + "\\"] {}" }'),
    ("Sources/HaapiCLI/KitScreens.swift", 'func filePlantG(_ path: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: path)) }'),
    ("Sources/HaapiDriver/HaapiError.swift", 'func filePlantH(_ path: String) -> Data? { FileManager.default.contents(atPath: path) }'),
    ("Sources/HaapiUI/Apple/HaapiFlow.swift", 'func filePlantI(_ path: String) throws -> String { try String(contentsOfFile: path, encoding: .utf8) }'),
]


def self_test():
    copy = tempfile.mkdtemp(prefix="check-gates-self-test-")
    try:
        shutil.copytree(os.path.join(ROOT, "Sources"), os.path.join(copy, "Sources"))
        expected = [(path, plant(copy, path, line, "check-gates")) for path, line in PLANTS]
        failures, seen = check(copy, planted=frozenset(expected))
        for where in expected:
            if where not in seen:
                sys.exit(f"check-gates: self-test FAILED: the planted line {where[0]}:{where[1]} went unseen")
            print(f"  found: {where[0]}:{where[1]}")
        print(f"check-gates: self-test passed: each of {len(expected)} planted lines was reported, in "
              f"{len({p.split(os.sep)[1] for p, _ in expected})} modules")
        return failures
    finally:
        shutil.rmtree(copy, ignore_errors=True)


def main():
    failures = self_test() if "--self-test" in sys.argv else check(ROOT)[0]
    if failures:
        print(f"check-gates: {len(failures)} problems:")
        for failure in failures:
            print("  " + failure)
        return 1
    files = sum(1 for _ in swift_files(ROOT))
    uses = sum(open(os.path.join(ROOT, p), encoding="utf-8").read().count("Markup") for p in swift_files(ROOT))
    reads = sum(open(os.path.join(ROOT, p), encoding="utf-8").read().count("OutsideFile.read") for p in swift_files(ROOT))
    print(f"check-gates: Sources/ (all {files} files) makes HTML and CSS only as Markup ({uses} uses), sends text/html only from "
          f"{' and '.join(sorted(SENDERS))}, and reads files named by others only through OutsideFile ({reads} reads)")
    return 0


sys.exit(main())
