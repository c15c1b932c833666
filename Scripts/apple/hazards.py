#!/usr/bin/env python3
"""Part of Scripts/check-apple.sh: what a type-check cannot see in UIKit code, found by pattern.

The kit's UIKit layer never runs here. These are the ways such code compiles and then breaks on
a device, each a rule over the code of Sources/ (comments and string literals removed):

  main-actor-assumption   `MainActor.assumeIsolated` traps when the system calls off the main
                          thread, which it does not always promise: use `MainActor.onMainThread`.
  presentation            `present(_:animated:)`, `dismiss(animated:)`, `popToViewController`,
                          `popViewController`, `setViewControllers` outside the flow's presenter
                          (FlowPresenting): presented too early, UIKit refuses and says so only in
                          the console; popped to a controller no longer in the stack, it traps.
  isolated-completion     a completion handler written as a closure in place (`completionHandler:
                          {`, `…CompletionHandler = {`): in main-actor code it is isolated to the
                          main actor and Swift checks the thread when the system calls it; make it
                          in a nonisolated function instead.
  attributes-at           `attributes(at:` without the text's `length` checked on the same line:
                          it traps on an empty text.
  old-style-multiline     `titleLabel?.numberOfLines = 0`: an old-style button clips its title at
                          the largest text sizes anyway; use a `UIButton.Configuration`.
  anchor-without-scene    `ASPresentationAnchor()`: a window made without a scene shows nothing.
  screen-over-banner      `view.addSubview(child.view)`: a child's view added over the container's
                          own covers what is up there (a banner); insert it under them.

And rules over a whole file: a file that does the first thing must also do the second.

  picker-typing           a field with an `inputView` (a picker) must refuse typed text
                          (`insertText`): a hardware keyboard types into it otherwise.
  text-size               a font given by `setTitleTextAttributes` must be given again in
                          `traitCollectionDidChange`: a segmented control keeps its first size.
  screen-change           a container that embeds screens (`addChild`) must post `.screenChanged`,
                          or VoiceOver goes on reading the screen that left.
  border-in-window        a screen that resolves its borders' colours again (`.refreshBorders()`)
                          must do so in `viewWillAppear` too: drawn before the view has a window,
                          a layer's colour took the light appearance.
  sheet-swipe             a SwiftUI wrapper (`UIViewControllerRepresentable`) must answer
                          `presentationControllerShouldDismiss`: a swipe down of its sheet would
                          end a login half way without asking.
  swiftui-bar-items       a SwiftUI wrapper's `updateUIViewController` must put the flow's way out
                          back (`keepLeaveButton()`): SwiftUI rewrites the bar items of the
                          controllers it hosts when its state changes, and the close button goes.

A finding is allowed only by a line of Scripts/apple/hazards.allow, `rule | path | piece of the
line | why`; an entry that matches nothing fails, so the list stays true.

Usage: Scripts/apple/hazards.py              the check
       Scripts/apple/hazards.py --self-test  a copy of Sources/ with one planted line of each rule
                                             must be reported at each of those lines; then the check
"""
import os
import re
import shutil
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "lib"))
from swift_build import ROOT, allow_list, code_lines, plant, swift_files  # noqa: E402

ALLOW = os.path.join(ROOT, "Scripts", "apple", "hazards.allow")
# (rule, what it finds, what on the same line makes it safe)
NEVER = re.compile(r"(?!)")
RULES = [
    ("main-actor-assumption", re.compile(r"\bassumeIsolated\w*"), NEVER),
    ("presentation", re.compile(r"\bpresent\(.*\banimated:|\bdismiss\(\s*animated:|\bpopToViewController\b|\bpopViewController\(|\bsetViewControllers\("), NEVER),
    ("isolated-completion", re.compile(r"\bcompletionHandler:\s*\{|CompletionHandler\s*=\s*\{"), NEVER),
    ("attributes-at", re.compile(r"\battributes\(\s*at:"), re.compile(r"\blength\b")),
    ("old-style-multiline", re.compile(r"\btitleLabel\?*\.numberOfLines\s*=\s*0"), NEVER),
    ("anchor-without-scene", re.compile(r"\bASPresentationAnchor\(\s*\)"), NEVER),
    ("screen-over-banner", re.compile(r"\bview\.addSubview\(\s*\w+\.view\s*\)"), NEVER),
]
# (rule, what a file does, what it must then do somewhere too): reported at the first line of the first.
REQUIREMENTS = [
    ("picker-typing", re.compile(r"\binputView\s*="), re.compile(r"\boverride\s+func\s+insertText\b")),
    ("text-size", re.compile(r"\bsetTitleTextAttributes\("), re.compile(r"\bfunc\s+traitCollectionDidChange\b")),
    ("screen-change", re.compile(r"\baddChild\("), re.compile(r"\.screenChanged\b")),
    ("sheet-swipe", re.compile(r"\bUIViewControllerRepresentable\b"), re.compile(r"\bfunc\s+presentationControllerShouldDismiss\b")),
    ("border-in-window", re.compile(r"\.refreshBorders\(\)"), re.compile(r"\bfunc\s+viewWillAppear\b")),
    ("swiftui-bar-items", re.compile(r"\bfunc\s+updateUIViewController\b"), re.compile(r"\bkeepLeaveButton\(")),
]
# One planted line per rule (the self-test), each in a file of its own module's Apple code.
PLANTS = [
    ("Sources/HaapiUI/Apple/Views/ButtonView.swift", "let hazardPlantA = { MainActor.assumeIsolated { 1 } }"),
    ("Sources/HaapiUI/Apple/Views/PickerView.swift", "func hazardPlantB(_ c: UIViewController) { c.present(UIViewController(), animated: true) }"),
    ("Sources/OIDCClient/UserAgents/WebAuthenticationSessionUserAgent.swift",
     "let hazardPlantC: ASWebAuthenticationSession.CompletionHandler = { _, _ in }"),
    ("Sources/HaapiUI/Apple/Views/MessageView.swift", "func hazardPlantD(_ t: NSAttributedString) -> Any { t.attributes(at: 0, effectiveRange: nil) }"),
    ("Sources/HaapiUI/Apple/Views/TextFieldView.swift", "func hazardPlantE(_ b: UIButton) { b.titleLabel?.numberOfLines = 0 }"),
    ("Sources/HaapiUI/Apple/Views/HeaderView.swift", "func hazardPlantF() -> ASPresentationAnchor { ASPresentationAnchor() }"),
    ("Sources/HaapiUI/Apple/Views/CheckboxView.swift", "func hazardPlantG(_ c: UIViewController, _ s: UIViewController) { c.view.addSubview(s.view) }"),
    ("Sources/HaapiUI/Apple/Views/NotificationBannerView.swift", "func hazardPlantH(_ f: UITextField) { f.inputView = UIPickerView() }"),
    ("Sources/HaapiUI/Apple/Views/ElementDrawing.swift", "func hazardPlantI(_ s: UISegmentedControl) { s.setTitleTextAttributes([:], for: .normal) }"),
    ("Sources/HaapiUI/Apple/Screens/GenericClientOperationHandler.swift", "func hazardPlantJ(_ c: UIViewController) { c.addChild(UIViewController()) }"),
    ("Sources/HaapiUI/Apple/Views/ButtonView.swift", "func hazardPlantL(_ d: ElementDrawing) { d.refreshBorders() }"),
    ("Sources/HaapiUI/Apple/ThemeAssets.swift", "struct HazardPlantK: UIViewControllerRepresentable { func makeUIViewController(context: Context) -> UIViewController { UIViewController() } }"),
    ("Sources/HaapiUI/Apple/Views/HeaderView.swift", "struct HazardPlantM { func updateUIViewController(_ u: UIViewController, context: Int) {} }"),
]


def check(root):
    """(failures, stale entries, number of findings allowed)"""
    allowed = allow_list(ALLOW, ["rule", "path", "piece", "why"], "hazards")
    used = [0] * len(allowed)
    failures = []
    for path in swift_files(root):
        text = open(os.path.join(root, path), encoding="utf-8").read().split("\n")
        code = code_lines(os.path.join(root, path))

        def judge(rule, number):
            match = next((i for i, (r, p, piece, _) in enumerate(allowed) if r == rule and p == path and piece in text[number - 1]), None)
            if match is None:
                failures.append(f"{path}:{number}: {rule}: {text[number - 1].strip()}")
            else:
                used[match] += 1

        for number, line in enumerate(code, 1):
            for rule, pattern, safe in RULES:
                if pattern.search(line) and not safe.search(line):
                    judge(rule, number)
        for rule, does, must in REQUIREMENTS:
            first = next((number for number, line in enumerate(code, 1) if does.search(line)), None)
            if first is not None and not any(must.search(line) for line in code):
                judge(rule, first)
    stale = [f"{ALLOW}: `{r} | {p} | {piece}` matches nothing any more: delete the entry"
             for i, (r, p, piece, _) in enumerate(allowed) if used[i] == 0]
    return failures, stale, sum(used)


def self_test():
    copy = tempfile.mkdtemp(prefix="hazards-self-test-")
    try:
        shutil.copytree(os.path.join(ROOT, "Sources"), os.path.join(copy, "Sources"))
        # Inside each file's Apple-only region.
        expected = [f"{path}:{plant(copy, path, line, 'hazards', apple=True)}:" for path, line in PLANTS]
        failures, _, _ = check(copy)
        for where in expected:
            if not any(f.startswith(where) for f in failures):
                sys.exit(f"hazards: self-test FAILED: the planted line at {where} went unseen; reported:\n  " + "\n  ".join(failures))
            print(f"  found: {next(f for f in failures if f.startswith(where))}")
        if len(failures) != len(expected):
            sys.exit(f"hazards: self-test FAILED: {len(failures)} findings for {len(expected)} planted lines:\n  " + "\n  ".join(failures))
        print(f"hazards: self-test passed: each of {len(expected)} planted lines was reported, one per rule")
        if len(expected) != len(RULES) + len(REQUIREMENTS):
            sys.exit(f"hazards: self-test FAILED: {len(RULES) + len(REQUIREMENTS)} rules, {len(expected)} plants: plant one line per rule")
    finally:
        shutil.rmtree(copy, ignore_errors=True)


def main():
    if "--self-test" in sys.argv:
        self_test()
    failures, stale, allowed = check(ROOT)
    if failures or stale:
        print(f"hazards: {len(failures) + len(stale)} problems:")
        for failure in failures + stale:
            print("  " + failure)
        return 1
    print(f"hazards: no UIKit hazard in Sources/ ({len(RULES) + len(REQUIREMENTS)} rules; {allowed} places allowed with a reason in Scripts/apple/hazards.allow)")
    return 0


sys.exit(main())
