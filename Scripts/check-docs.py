#!/usr/bin/env python3
"""Fails on a public declaration without a documentation comment: needs no build.

Scans Sources/**/*.swift (except the fuzz harnesses and the benchmarks, which have no public API
for anyone) and lists each public declaration that no `///` (or `/** */`) comment directly
precedes. Attributes (`@available`, `@MainActor`, ...) and `#if`/`#else`/`#endif` lines may sit
between the comment and the declaration, and so may blank lines and plain `//` comments, as the
compiler attaches the documentation across them too.

A declaration counts as public when its modifiers say `public` or `open`, and also without them
when its place makes it so: a member of a `public extension`, a requirement of a public protocol,
a case of a public enum. A `public extension` itself needs no comment (DocC shows none).

Output: `file:line: undocumented public <kind> <name>` for each, then per module documented /
total (a module without public declarations, such as the `haapi` executable's, is left out).
Exits 1 when any is undocumented.

swift-format (Scripts/format.sh) has a rule for this, AllPublicDeclarationsHaveDocumentation, but it
lets four kinds pass that this check finds: a public protocol's requirements, a public enum's
cases, the members of a `public extension`, and `open` members; so this check is the one in CI.

Usage: Scripts/check-docs.py [Module ...]   (default: every module under Sources/)
"""
import bisect
import os
import re
import sys

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sources = os.path.join(root, "Sources")
SKIPPED = {"FuzzHarnesses", "haapi-fuzz", "Benchmarks"}

# Tokens. Strings and comments are found by hand (they nest); the rest by one expression.
TOKEN = re.compile(
    r"""(?P<space>[ \t\r\f\n]+)
      | (?P<doc>///(?!/)[^\n]*)
      | (?P<comment>//[^\n]*)
      | (?P<block>/\*)
      | (?P<string>\#*"(?:"")?)
      | (?P<directive>\#(?:if|elseif|else|endif|warning|error|sourceLocation)\b[^\n]*)
      | (?P<attribute>@[A-Za-z_]\w*)
      | (?P<ident>`[^`\n]+`|[A-Za-z_$]\w*|\$\w+)
      | (?P<number>[0-9][\w.]*)
      | (?P<op>[-+*/%<>=!&|^~?.]+)
      | (?P<punct>.)""",
    re.X | re.S,
)

NEWLINE = re.compile("\n")
# A one-line string without interpolation: the common case, skipped at once.
PLAIN_STRING = re.compile(r'"(?:[^"\\\n]|\\[^(\n])*"')

MODIFIERS = {
    "public", "open", "private", "fileprivate", "internal", "package", "static", "class", "final",
    "override", "required", "convenience", "mutating", "nonmutating", "lazy", "weak", "unowned",
    "dynamic", "nonisolated", "indirect", "optional", "prefix", "postfix", "infix", "distributed",
    "consuming", "borrowing", "__consuming", "isolated",
}
ACCESS = {"public", "open", "private", "fileprivate", "internal", "package"}
TYPES = {"struct", "class", "enum", "protocol", "actor", "extension"}
MEMBERS = {"func", "init", "subscript", "var", "let", "typealias", "associatedtype", "case", "macro"}


class Source:
    def __init__(self, text):
        self.text = text
        self.tokens = []  # (kind, text, position)
        self.newlines = [m.start() for m in NEWLINE.finditer(text)]
        self.scan(0, None)

    def line(self, position):
        return bisect.bisect_right(self.newlines, position - 1) + 1

    def scan(self, p, close_paren):
        """Tokenizes from p; with close_paren, stops after the `)` that ends a string's interpolation."""
        text, depth = self.text, 0
        while p < len(text):
            m = TOKEN.match(text, p)
            kind, value = m.lastgroup, m.group()
            if kind == "block":
                end = self.skip_block(p)
                if text.startswith("/**", p) and not text.startswith("/**/", p):
                    self.tokens.append(("doc", text[p:end], p))
                p = end
                continue
            if kind == "string":
                p = self.skip_string(p, value)
                self.tokens.append(("string", "", m.start()))
                continue
            if kind == "space" or kind == "comment":
                p = m.end()
                continue
            if close_paren:
                if value == "(":
                    depth += 1
                elif value == ")":
                    if depth == 0:
                        return m.end()
                    depth -= 1
            self.tokens.append((kind, value, p))
            p = m.end()
        return p

    def skip_block(self, p):
        depth, p = 0, p
        while p < len(self.text):
            if self.text.startswith("/*", p):
                depth, p = depth + 1, p + 2
            elif self.text.startswith("*/", p):
                depth, p = depth - 1, p + 2
                if depth == 0:
                    return p
            else:
                p += 1
        return p

    def skip_string(self, p, opening):
        if opening == '"':
            plain = PLAIN_STRING.match(self.text, p)
            if plain:
                return plain.end()
        hashes = opening.count("#")
        multiline = opening.endswith('"""')
        close = ('"""' if multiline else '"') + "#" * hashes
        escape = "\\" + "#" * hashes
        text, p = self.text, p + len(opening)
        while p < len(text):
            if text.startswith(escape, p):
                p += len(escape)
                if p < len(text) and text[p] == "(":
                    # Interpolation: its code is scanned (and kept: it cannot hold a declaration).
                    saved = len(self.tokens)
                    p = self.scan(p + 1, True)
                    del self.tokens[saved:]
                else:
                    p += 1
            elif text.startswith(close, p):
                return p + len(close)
            elif text[p] == "\n" and not multiline:
                return p
            else:
                p += 1
        return p


class Context:
    """A `{ }` body: a type's or an extension's (declarations), or code (skipped)."""

    def __init__(self, kind, public):
        self.kind = kind  # "file", a type keyword, or "code"
        self.public = public  # the body's members are public without saying so (extension, protocol)
        self.enum_public = False  # a public enum: its cases are public


def label_list(tokens, i):
    """The argument labels of the parameter list starting at tokens[i] == "(": `_:from:`."""
    labels, depth, start = [], 0, True
    for kind, value, _ in tokens[i:]:
        if value in "([" and kind == "punct":
            depth += 1
            if depth == 1:
                continue
        elif value in ")]" and kind == "punct":
            depth -= 1
            if depth == 0:
                break
        if depth == 1 and value == "," and kind == "punct":
            start = True
        elif depth == 1 and start and kind == "ident":
            labels.append(value.strip("`") + ":")
            start = False
        elif depth == 1 and start:
            start = False
    return "".join(labels)


def declarations(source):
    """Yields (line, kind, name, public, documented) for each declaration in a type body or the file."""
    tokens = source.tokens
    stack = [Context("file", False)]
    pending = None  # the type whose `{` comes next
    nesting = 0  # ( and [ inside the current declaration context
    for i, (kind, value, position) in enumerate(tokens):
        context = stack[-1]
        if kind == "punct" and value == "{":
            if context.kind != "code" and nesting == 0 and pending is not None:
                stack.append(pending)
                pending = None
            else:
                stack.append(Context("code", False))
            continue
        if kind == "punct" and value == "}":
            if len(stack) > 1:
                stack.pop()
            pending = None
            nesting = 0
            continue
        if context.kind == "code":
            continue
        if kind == "punct" and value in "([":
            nesting += 1
            continue
        if kind == "punct" and value in ")]":
            nesting = max(0, nesting - 1)
            continue
        if kind != "ident" or nesting != 0:
            continue
        previous = tokens[i - 1][1] if i > 0 else ""
        following = tokens[i + 1] if i + 1 < len(tokens) else ("", "", 0)
        if i > 0 and tokens[i - 1][0] == "op" and previous.endswith("."):
            continue  # `.init`, `Self.init`: an expression
        if value == "class" and (following[1] in MODIFIERS or following[1] in MEMBERS):
            continue  # `class func`, `class var`: a modifier
        if value in ("actor", "macro") and not (
            following[0] == "ident"
            and i + 2 < len(tokens)
            and tokens[i + 2][1] in ("{", ":", "<", "(", "where")
            and (previous in MODIFIERS or tokens[i - 1][0] in ("attribute", "directive", "doc") or previous in ("{", "}", ";", ")"))
        ):
            continue
        if value == "case" and context.kind != "enum":
            continue
        if value not in TYPES and value not in MEMBERS:
            continue

        # Back over the modifiers and attributes to where the declaration starts.
        j, modifiers = i - 1, []
        while j >= 0:
            k, v, _ = tokens[j]
            if k == "ident" and v in MODIFIERS:
                modifiers.append(v)
            elif k in ("attribute", "directive"):
                pass
            elif k == "punct" and v == ")":
                depth, m = 0, j
                while m >= 0:
                    if tokens[m][1] == ")" and tokens[m][0] == "punct":
                        depth += 1
                    elif tokens[m][1] == "(" and tokens[m][0] == "punct":
                        depth -= 1
                        if depth == 0:
                            break
                    m -= 1
                if m > 0 and tokens[m - 1][0] == "attribute":
                    j = m - 1
                elif m > 0 and tokens[m - 1][1] in MODIFIERS:
                    # `private(set)`, `nonisolated(unsafe)`: not the declaration's own access.
                    j = m - 1
                    if tokens[m - 1][1] not in ACCESS:
                        modifiers.append(tokens[m - 1][1])
                else:
                    break
            else:
                break
            j -= 1
        documented = j >= 0 and tokens[j][0] == "doc"
        explicit = [m for m in modifiers if m in ACCESS]
        if explicit:
            public = any(m in ("public", "open") for m in explicit)
        elif value == "case":
            public = context.enum_public
        else:
            public = context.public

        name = following[1].strip("`") if following[0] in ("ident", "op") else ""
        if value in ("func", "init", "subscript"):
            k = i + (1 if value != "func" else 2)
            while k < len(tokens) and tokens[k][1] != "(" and tokens[k][1] not in ("{", "}"):
                k += 1  # a generic parameter list, `init?`
            labels = label_list(tokens, k) if k < len(tokens) and tokens[k][1] == "(" else ""
            name = f"{value if value != 'func' else name}({labels})"
        elif value == "case":
            names, k = [], i + 1
            while k < len(tokens) and tokens[k][0] == "ident":
                names.append(tokens[k][1].strip("`"))
                k += 1
                depth = 0
                while k < len(tokens):  # `(payload)`, `= raw value`, up to `,` or the line's end
                    t = tokens[k]
                    if t[1] in "([" and t[0] == "punct":
                        depth += 1
                    elif t[1] in ")]" and t[0] == "punct":
                        depth -= 1
                    elif depth == 0 and (t[1] == "," or source.line(t[2]) != source.line(tokens[k - 1][2])):
                        break
                    k += 1
                if k < len(tokens) and tokens[k][1] == ",":
                    k += 1
                else:
                    break
            name = ", ".join(names)

        if value in TYPES:
            body = Context(value, False)
            if value == "extension":
                body.public = public and bool(explicit)
            elif value == "protocol":
                body.public = public
            elif value == "enum":
                body.enum_public = public
            pending = body
            if value == "extension":
                continue  # an extension needs no comment of its own
        start = tokens[j + 1][2]
        yield source.line(start), value, name, public, documented


def modules(selected):
    for module in sorted(os.listdir(sources)):
        if module in SKIPPED or (selected and module not in selected):
            continue
        if os.path.isdir(os.path.join(sources, module)):
            yield module


def main():
    selected = set(sys.argv[1:])
    missing, summary = [], []
    for module in modules(selected):
        total = documented = 0
        for directory, folders, files in os.walk(os.path.join(sources, module)):
            folders.sort()
            for file in sorted(files):
                if not file.endswith(".swift"):
                    continue
                path = os.path.join(directory, file)
                with open(path, encoding="utf-8") as f:
                    source = Source(f.read())
                for line, kind, name, public, has_doc in declarations(source):
                    if not public:
                        continue
                    total += 1
                    if has_doc:
                        documented += 1
                    else:
                        what = name if name.startswith(kind + "(") else f"{kind} {name}"  # `init(x:)`, `subscript(_:)`
                        missing.append(f"{os.path.relpath(path, root)}:{line}: undocumented public {what}")
        if total:
            summary.append((module, documented, total))
    for entry in missing:
        print(entry)
    if missing:
        print()
    for module, documented, total in summary:
        print(f"{module:28} {documented:5} / {total:5}  {100 * documented / total:5.1f}%")
    documented, total = sum(s[1] for s in summary), sum(s[2] for s in summary)
    if total:
        print(f"{'all':28} {documented:5} / {total:5}  {100 * documented / total:5.1f}%")
    print(f"{len(missing)} undocumented" if missing else "Every public declaration is documented.")
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
