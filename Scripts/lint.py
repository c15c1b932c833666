#!/usr/bin/env python3
"""Fails where input from outside skips its gate: one table of rules over the text of Sources/.

Each rule of RULES (below) is a pattern that input from outside must pass through one gate for,
found on a line of every Swift file of Sources/ (the Apple-only ones too: read as text, never
compiled). A row says what the rule finds, its gate files (where the pattern is the gate itself,
always allowed), what in the line's code makes a finding pass, what to do instead, and the lines
its self-test plants. Rules read a line one of two ways:

  LINE  the line as written; a line that starts with `//` is skipped (a string's text counts:
        `"text/html"` is found)
  CODE  the line with comments removed and string literals emptied (`code_lines`,
        Scripts/lib/swift_build.py): only code is found

Any other finding must be allowed by a line of Scripts/lint.allow, `rule | path | code | why`:
`code` is a piece of the line's text (so that the entry survives edits elsewhere in the file), a
path ending in `/` allows the whole folder, `#` starts a comment line. An entry that matches
nothing any more fails too, so the list stays true. Entries of `integer-conversion` are
Scripts/check-numbers.py's (conversions only the compiler finds) and are not judged here.

Usage: Scripts/lint.py               the lint of Sources/
       Scripts/lint.py --self-test   first the lint of a copy of Sources/ with every rule's planted
                                     lines: each must be reported at its line by its rule, and
                                     nothing else new; then the lint of Sources/
"""
import os
import re
import shutil
import sys
import tempfile
from dataclasses import dataclass

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "Scripts", "lib"))
from swift_build import allow_list, allows, code_lines, plant, swift_files  # noqa: E402

LINE, CODE = "line", "code"
# Where a self-test plant goes: at the end of its file; inside an `#if` never compiled (parsed only,
# as Scripts/check-numbers.py plants them); or right after the first `#if ...canImport(UIKit)` of
# the first file in a folder that has one (Apple-only code).
END, INACTIVE, UIKIT = "end", "inactive", "uikit"
NEVER = re.compile(r"(?!)")

# Patterns more than one rule uses.
TAGS = ("html|head|body|main|div|span|p|a|ul|ol|li|h[1-6]|form|input|button|label|section|nav|header|footer|img|picture|source"
        "|style|title|meta|link|script|svg|path|rect|circle|select|option|details|summary|progress|br|strong|em|code|pre|table|tr|td|iframe")
# An HTML tag, a `data-` attribute or a CSS declaration: this line makes markup.
MARKUP = re.compile(r"<(/?)(" + TAGS + r")\b|<!doctype|\bdata-[a-z-]+=\\?\"|\[data-[a-z-]+=|\b(font-family|font-size|color|background|border(-[a-z]+)?|padding|margin|gap|(min-|max-)?(width|height)|content|letter-spacing"
                    r"|line-height|text-align|caret-color|accent-color)\s*:\s", re.I)
# An interpolation without one of Markup's labels (each escapes the value for where it lands).
UNLABELLED = re.compile(r"\\#*\((?!\s*(text|markup|cssString|cssIdentifier|number|link):)")
# The clamps of OutsideNumber: a number read on a line that calls one is bounded.
CLAMPED = re.compile(r"\bOutsideNumber\.(seconds|count|date|wholeSeconds)\b")


@dataclass
class Rule:
    name: str       # its name in findings and in Scripts/lint.allow
    family: str     # the summary line it is counted in
    reads: str      # LINE or CODE
    finds: list     # patterns that must all be on the line
    gates: set      # the files where the pattern is the gate itself: never reported
    message: str    # what is wrong, and what to do instead
    plants: list    # the self-test's lines: (file, line) at the file's end, or (file, line, where)
    unless: re.Pattern = NEVER  # a line with this is left to another rule
    passes: re.Pattern = NEVER  # a finding whose code has this passes


RULES = [
    # Text from outside reaches a terminal or a log line only as PrintableText (OAuthCore), which
    # neutralises its control characters once.
    Rule(
        name="output", family="output", reads=LINE,
        finds=[re.compile(r"\b(print|debugPrint|dump|puts|fputs|fwrite|fprintf|printf|vprintf|dprintf|putchar|perror|NSLog|NSLogv|os_log)\s*\("
                          r"|FileHandle\.standard(Output|Error)\b|FileHandle\(\s*fileDescriptor:"
                          r"|\b(write|writev|fdopen)\(\s*(1|2|STDOUT_FILENO|STDERR_FILENO)\b|\b(stdout|stderr)\b")],
        gates={"Sources/OAuthCore/Logging/StandardStreams.swift"},
        message="a write to the standard streams past PrintableText: write through Stdout or Stderr, which take only PrintableText",
        plants=[
            ("Sources/OAuthCore/Logging/LogSink.swift", "func plantA(_ s: String) { debugPrint(s) }"),
            ("Sources/OAuthCore/Session/TokenSession.swift", "func plantB(_ s: String) { FileHandle(fileDescriptor: STDERR_FILENO).write(Data(s.utf8)) }"),
            ("Sources/HaapiSDK/Models/JSONReader.swift", "func plantC(_ s: String) { _ = s.withCString { fwrite($0, 1, strlen($0), stderr) } }"),
            ("Sources/HaapiDriver/HaapiError.swift", "func plantD(_ s: String) { _ = s.withCString { write(2, $0, strlen($0)) } }"),
            ("Sources/HaapiUI/", 'func plantE(_ s: String) { NSLog("%@", s) }', UIKIT),
            ("Sources/OIDCClient/Login/OIDCClient.swift", "func plantF(_ s: String) { print(s) }"),
            ("Sources/HaapiCLICore/Support/ExitCodes.swift", "func plantG(_ s: String) { FileHandle.standardError.write(Data(s.utf8)) }"),
            ("Sources/HaapiPreview/ScreenPage.swift", "func plantH(_ s: String) { _ = write(STDOUT_FILENO, s, s.utf8.count) }"),
            ("Sources/HaapiUI/Screens/ScreenBuilder.swift", 'func plantI(_ s: String) { os_log("%{public}@", s) }'),
            ("Sources/Benchmarks/main.swift", "func plantK(_ s: String) { dump(s) }"),
        ],
    ),
    Rule(
        name="logger", family="output", reads=LINE,
        finds=[re.compile(r"Logger\(label:|StreamLogHandler|Logger\(subsystem:|\bOSLog\b")],
        # ServerLog wraps the one Logger; DevServer.swift gives Hummingbird its own (the HTTP server's warnings).
        gates={"Sources/HaapiDevServer/Support/ServerLog.swift", "Sources/HaapiDevServer/DevServer.swift"},
        message="a logger of its own: log through ServerLog (or HaapiLogger), which take only PrintableText",
        plants=[("Sources/HaapiDevServer/ServerState.swift", "func plantJ(_ s: String) { var l = Logger(label: s); l.logLevel = .info }")],
    ),
    Rule(
        name="request-log", family="output", reads=LINE,
        finds=[re.compile(r"\.requestLog\?\(|requestLog\?\(")],
        gates={"Sources/HaapiDevServer/ServerState.swift"},
        message="a write to the request log past PrintableText: write through DevServerConfiguration.log(_: PrintableText)",
        plants=[("Sources/HaapiCLI/Commands/ServerCommand.swift", "func plantM(_ c: DevServerConfiguration, _ s: String) { c.requestLog?(s) }")],
    ),
    Rule(
        name="own-text", family="output", reads=LINE,
        finds=[re.compile(r"PrintableText\(own:")],
        gates=set(),
        message="PrintableText(own:) keeps text as it is, control characters too: use PrintableText(_:) for anything not the program's own",
        plants=[("Sources/HaapiCLICore/Commands/TokenCommand.swift", "func plantL(_ s: String) -> PrintableText { PrintableText(own: s) }")],
    ),
    # Every page is Markup (OAuthCore), each value interpolated with the label that escapes it for
    # where it lands, and sent from the two places that send pages.
    Rule(
        name="markup-unlabelled", family="gates", reads=LINE,
        finds=[MARKUP, UNLABELLED],
        gates=set(),
        message="markup with an unlabelled interpolation: escape the value for where it lands (\\(text:), \\(cssString:), \\(link:)...)",
        plants=[
            ("Sources/HaapiPreview/ScreenPage.swift", 'func markupPlantA(_ name: String) -> String { "<p class=\\"name\\">\\(name)</p>" }'),
            ("Sources/HaapiCLI/Commands/PreviewCommand.swift", 'func markupPlantC(_ font: String) -> String { "main { font-family: \\(font); }" }'),
            ("Sources/HaapiUI/Apple/HaapiFlow.swift", 'func markupPlantE(_ href: String) -> String { "<a href=\\"\\(href)\\">" }'),
        ],
    ),
    Rule(
        name="markup-joined", family="gates", reads=LINE,
        finds=[MARKUP, re.compile(r"\"\s*\+\s*[^\"\s]|[\w)\]?]\s*\+\s*#*\"")],
        unless=UNLABELLED,
        gates=set(),
        message="markup joined to something else with +: interpolate it instead (\\(text: value), \\(markup: part))",
        plants=[
            ("Sources/HaapiDevServer/HAAPI/HTMLPages.swift", 'func markupPlantB(_ name: String) -> String { "<li>" + name + "</li>" }'),
            ("Sources/OAuthCore/Encoding/Markup.swift", 'func markupPlantF(_ section: String) -> String { "[data-style=\\"" + section + "\\"] {}" }'),
        ],
    ),
    Rule(
        name="html-sent", family="gates", reads=LINE,
        finds=[re.compile(r"text/html")],
        # Reply.html (it takes Markup) and the loopback listener's answer.
        gates={"Sources/HaapiDevServer/Support/Responses.swift", "Sources/OAuthTransportNIO/LoopbackRedirectListener.swift"},
        message="text/html outside Reply.html and the loopback listener: send pages through Reply.html, which takes Markup",
        plants=[("Sources/OAuthTransportNIO/AsyncHTTPClientTransport.swift", 'let markupPlantD = ["Content-Type": "text/html; charset=utf-8"]')],
    ),
    # A file named by others (an argument, a configuration, a name in a folder given to us) is read
    # through OutsideFile: a regular file or a pipe, bounded in size, inside its folder.
    Rule(
        name="file-read", family="gates", reads=LINE,
        finds=[re.compile(r"Data\(contentsOf:|String\(contentsOf(File)?:|FileHandle\(forReading(From|AtPath):|readDataToEndOfFile\(\)|\.contents\(atPath:")],
        gates={"Sources/OAuthCore/Storage/OutsideFile.swift"},
        message="a file read without OutsideFile: read what others name through OutsideFile.read (bounded, inside its folder)",
        plants=[
            ("Sources/HaapiCLI/KitScreens.swift", "func filePlantG(_ path: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: path)) }"),
            ("Sources/HaapiDriver/HaapiError.swift", "func filePlantH(_ path: String) -> Data? { FileManager.default.contents(atPath: path) }"),
            ("Sources/HaapiUI/Apple/HaapiFlow.swift", "func filePlantI(_ path: String) throws -> String { try String(contentsOfFile: path, encoding: .utf8) }"),
        ],
    ),
    # A number from outside becomes a duration, a date or a count through OutsideNumber (OAuthCore),
    # which clamps it. The conversions only the compiler finds are Scripts/check-numbers.py's.
    Rule(
        name="decoded-integer", family="numbers", reads=CODE,
        finds=[re.compile(
            r"\.integer\(\s*(let|var)\b"                                   # .integer(let n), .integer(var n)
            r"|\bcase\s+(let|var)\s+[^:=]*\.integer\("                     # case let .integer(n)
            r"|\.intValue\b|\boptionalInt\("
            r"|\bdecode(IfPresent)?\(\s*U?Int(8|16|32|64)?\.self"          # decode(Int.self, decodeIfPresent(UInt64.self
            r"|\bas[?!]\s*\[?\s*U?Int(8|16|32|64)?\b(?!\.)")],             # as? Int, as! [Int]
        passes=CLAMPED,
        # The readers that clamp what they read.
        gates={"Sources/OAuthCore/Encoding/JSONValue.swift", "Sources/OAuthCore/Encoding/OutsideNumber.swift"},
        message="a decoded integer read without OutsideNumber: arithmetic on it may overflow (clamp it: OutsideNumber.seconds or .count)",
        plants=[
            ("Sources/HaapiDriver/HaapiError.swift", "if case let .integer(n) = value { total += n }", INACTIVE),
            ("Sources/OIDCClient/Login/OIDCClient.swift", "if case .integer(var n) = value { n += 1 }", INACTIVE),
            ("Sources/HaapiDevServer/ServerState.swift", "let n = try container.decodeIfPresent(Int.self, forKey: .count)", INACTIVE),
            ("Sources/HaapiPreview/ScreenPage.swift", "let n = try container.decode(UInt64.self)", INACTIVE),
            ("Sources/OAuthCore/Encoding/Base64URL.swift", 'let n = json["expires_in"] as? Int ?? 0', INACTIVE),
            # A clamp named in a comment or a string does not pass.
            ("Sources/HaapiUI/Screens/ScreenBuilder.swift", "let n = value.intValue! // clamped by OutsideNumber.count elsewhere", INACTIVE),
            ("Sources/OAuthTransportNIO/AsyncHTTPClientTransport.swift", 'let seconds = value.intValue ?? 0; let hint = "OutsideNumber.seconds"', INACTIVE),
        ],
    ),
    Rule(
        name="counted-range", family="numbers", reads=CODE,
        finds=[re.compile(
            r"\.\.\.\s*\(?\s*[\w.]+\.count\b"                             # 1...options.count
            r"|\.\.[.<]\s*\(?\s*[\w.]+\s*-\s*[\w.]+")],                     # 0...n - 1, a..<b - k
        passes=CLAMPED,
        gates=set(),
        message="a range counted from a list, which traps when the list is empty (use indices, or check it is not empty)",
        plants=[
            ("Sources/HaapiCLI/Login/TerminalRenderer.swift", "if (1...options.count).contains(n) { return n - 1 }", INACTIVE),
            ("Sources/HaapiUI/Screens/ScreenBuilder.swift", "for i in 0...items.count - 1 { _ = i }", INACTIVE),
        ],
    ),
]

ALLOW = os.path.join(ROOT, "Scripts", "lint.allow")
# Rules of Scripts/lint.allow that another check judges.
OTHER_RULES = {"integer-conversion": "Scripts/check-numbers.py"}
UIKIT_REGION = r"^#if .*canImport\(UIKit\)"


def read(root, path):
    """The file's lines as written, and its lines of code (the same number of lines)."""
    full = os.path.join(root, path)
    return open(full, encoding="utf-8").read().split("\n"), code_lines(full)


def findings(root):
    """Each (rule, path, line number, line) found in `root`/Sources/ outside the rule's gates,
    whether it passes or is allowed or not."""
    for path in swift_files(root):
        text, code = read(root, path)
        for rule in RULES:
            if path in rule.gates:
                continue
            for number, line in enumerate(text if rule.reads == LINE else code, 1):
                if rule.reads == LINE and line.strip().startswith("//"):
                    continue
                if all(p.search(line) for p in rule.finds) and not rule.unless.search(line):
                    yield rule, path, number, text[number - 1], code[number - 1]


def lint(root, planted=frozenset()):
    """The findings that neither pass nor are allowed, as (rule, path, number, line); the stale or
    unknown entries of the allow-list; {rule: (findings, entries)}; and which of the `planted`
    lines (path, number) each rule found, as (rule, path, number): those are neither judged nor counted."""
    names = {rule.name for rule in RULES}
    entries = allow_list(ALLOW, ["rule", "path", "code", "why"], "lint")
    problems = [f"{os.path.relpath(ALLOW, ROOT)}: `{r} | {p} | {c}`: no such rule (the lint's: {', '.join(sorted(names))}; "
                f"{', '.join(f'{o}: {s}' for o, s in OTHER_RULES.items())})"
                for r, p, c, _ in entries if r not in names and r not in OTHER_RULES]
    entries = [e for e in entries if e[0] in names]
    used = [0] * len(entries)
    failures, seen, counted = [], set(), {name: 0 for name in names}
    for rule, path, number, text, code in findings(root):
        if (path, number) in planted:
            seen.add((rule.name, path, number))
            continue
        counted[rule.name] += 1
        if rule.passes.search(code):
            continue
        index = next((i for i, (r, p, c, _) in enumerate(entries) if r == rule.name and allows(p, c, path, text)), None)
        if index is None:
            failures.append((rule, path, number, text))
        else:
            used[index] += 1
    problems += [f"{os.path.relpath(ALLOW, ROOT)}: `{r} | {p} | {c}` matches nothing any more: delete the entry"
                 for i, (r, p, c, _) in enumerate(entries) if used[i] == 0]
    counts = {name: (counted[name], sum(1 for e in entries if e[0] == name)) for name in names}
    return failures, problems, counts, seen


def plant_all(copy):
    """Plants every rule's lines in `copy`/Sources/; returns [(rule, path, number)] of each."""
    plants = [(rule.name, *p) if len(p) == 3 else (rule.name, *p, END) for rule in RULES for p in rule.plants]
    expected = [None] * len(plants)
    # Those that move lines down first, so that no line planted at a file's end moves after.
    for index in sorted(range(len(plants)), key=lambda i: plants[i][3] != UIKIT):
        name, path, line, where = plants[index]
        if where == UIKIT:
            file = next((p for p in swift_files(copy) if p.startswith(path)
                         and any(re.match(UIKIT_REGION, l) for l in open(os.path.join(copy, p), encoding="utf-8"))), None)
            if file is None:
                sys.exit(f"lint: self-test FAILED: no file under {path} has a UIKit region; choose another folder to plant in")
            expected[index] = (name, file, plant(copy, file, line, "lint", after=UIKIT_REGION))
        elif where == INACTIVE:
            # In a function of an `#if` never compiled, as Scripts/check-numbers.py plants them: the line is the third.
            wrapped = "\n".join(["#if NUMBER_CHECK_NEVER_COMPILED", f"func numberCheckPlant{index}() {{", line, "}", "#endif"])
            expected[index] = (name, path, plant(copy, path, wrapped, "lint") + 2)
        else:
            expected[index] = (name, path, plant(copy, path, line, "lint"))
    return expected


def self_test():
    """The lint of a copy of Sources/ with the plants in: each must be found at its line by its
    rule, and nothing found there that the lint of Sources/ does not find too. Returns the lint of
    Sources/."""
    copy = tempfile.mkdtemp(prefix="lint-self-test-")
    try:
        shutil.copytree(os.path.join(ROOT, "Sources"), os.path.join(copy, "Sources"))
        expected = plant_all(copy)
        failures, problems, _, seen = lint(copy, planted=frozenset((path, number) for _, path, number in expected))
        for name, path, number in expected:
            if (name, path, number) not in seen:
                sys.exit(f"lint: self-test FAILED: the planted line {path}:{number} went unseen by {name}")
            print(f"  found: {path}:{number}: {name}")
        # The apple plant moves lines down: what is new is judged by rule, file and text.
        real = lint(ROOT)
        known = {(rule.name, path, text) for rule, path, _, text in real[0]}
        new = [f for f in failures if (f[0].name, f[1], f[3]) not in known] + [p for p in problems if p not in real[1]]
        if new:
            sys.exit("lint: self-test FAILED: the plants brought findings of their own:\n  "
                     + "\n  ".join(f if isinstance(f, str) else report(f) for f in new))
        print(f"lint: self-test passed: each of {len(expected)} planted lines was reported by its rule "
              f"({len({n for n, _, _ in expected})} rules, {len({p.split(os.sep)[1] for _, p, _ in expected})} modules)")
        return real
    finally:
        shutil.rmtree(copy, ignore_errors=True)


def report(failure):
    rule, path, number, text = failure
    return f"{path}:{number}: {rule.name}: {rule.message}: {text.strip()}"


def summary(counts):
    """One line per family of rules: how much of Sources/ goes through its gates."""
    contents = [open(os.path.join(ROOT, p), encoding="utf-8").read() for p in swift_files(ROOT)]
    found = {name: n for name, (n, _) in counts.items()}

    def entries(family):
        return f"{sum(counts[r.name][1] for r in RULES if r.family == family)} entries in Scripts/lint.allow"

    senders = " and ".join(sorted(next(r for r in RULES if r.name == "html-sent").gates))
    printable = sum(1 for c in contents for line in c.split("\n") if "PrintableText" in line)
    return [
        f"output: Sources/ (all {len(contents)} files) writes to the terminal and the logs only PrintableText ({printable} uses; {entries('output')})",
        f"gates: Sources/ makes HTML and CSS only as Markup ({sum(c.count('Markup') for c in contents)} uses), sends text/html only from {senders}, "
        f"and reads files named by others only through OutsideFile ({sum(c.count('OutsideFile.read') for c in contents)} reads; {entries('gates')})",
        f"numbers: {found['decoded-integer']} decoded-integer reads and {found['counted-range']} ranges counted from lists in Sources/, "
        f"each clamped or allowed with a reason ({entries('numbers')})",
    ]


def main():
    failures, problems, counts, _ = self_test() if "--self-test" in sys.argv else lint(ROOT)
    for failure in sorted(failures, key=lambda f: (f[1], f[2])):
        print(report(failure))
    for problem in problems:
        print(problem)
    if failures or problems:
        print(f"lint: {len(failures)} findings and {len(problems)} allow-list problems", file=sys.stderr)
        return 1
    for line in summary(counts):
        print("lint: " + line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
