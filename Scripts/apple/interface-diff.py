#!/usr/bin/env python3
"""Part of Scripts/check-apple.sh: is every public declaration of Curity's UI kit and SDK usable,
as Curity declares it, from an app that builds against ours?

Reads Curity's `.swiftinterface` files (IdsvrHaapiUIKit 5.4.0, IdsvrHaapiSdk 5.0.0, unpacked by
../shared/apple-sdk/curity-typecheck.sh) and writes one probe per declaration: a small function
of app code that uses it exactly as declared, with Curity's module names (item 0 of issue 54:
our modules `IdsvrHaapiUIKit` and `IdsvrHaapiSdk` re-export ours):

  a type          its kind (a class is a class), generic parameters, superclass and conformances
  an initializer  called with an argument of each parameter's type, and again with the defaulted
                  ones left out; the result has the declared type (optional when failable)
  a method        the same, `static`, `mutating`, `async`, `throws` as declared, and operators
                  used as operators
  a property      read into a value of its type; written back when it has a setter
  a subscript     read, and written when it has a setter
  an enum case    made with its payload's labels and types, and matched in a pattern
  a typealias     names the same type; an associated type is reachable from a conforming type
  a protocol      each requirement used through a generic conforming type
  `open`          a subclass outside the module overrides the member
  isolation       the probe runs where an app's code would meet the declaration: on the main
                  actor only when Curity's is `@MainActor` without `@preconcurrency`

Each probe is type-checked for iOS twice: against Curity's own modules (it must pass there, or
the probe is wrong: the script fails) and against ours. A probe that fails against ours is printed
with the compiler's reason, unless Scripts/apple/interface-diff.allow lists it (`module | key |
why`, the key as printed); an entry that matches nothing fails. Last, one line per module:
`IdsvrHaapiUIKit: N of M declarations usable as declared`.

Usage: Scripts/apple/interface-diff.py MODULES_DIR   our iOS modules (check-apple's build)
       Scripts/apple/interface-diff.py --list        the declarations and their probes, no type-check
Environment: CURITY_WORK (curity-typecheck.sh's folder: ~/.cache/curity-typecheck), APPLE_SDK,
APPLE_RESOURCE_DIR, HAAPI_PREBUILT (SwiftUI prebuilt without availability checks), PROBE_INCLUDE
(more module folders, `:`-separated), as check-apple sets them.
"""
import concurrent.futures
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
ALLOW = os.path.join(ROOT, "Scripts", "apple", "interface-diff.allow")
MODULES = ["IdsvrHaapiUIKit", "IdsvrHaapiSdk"]
# The share of each module's declarations that must be usable as declared (percent), raised as
# the diff closes. Each declaration that is not is printed with the compiler's reason and fails
# the check, unless the allow-list gives the reason we do not provide it.
MINIMUM = {"IdsvrHaapiUIKit": 98.2, "IdsvrHaapiSdk": 98.2}
MODIFIERS = {"public", "open", "final", "static", "class", "mutating", "nonmutating", "convenience", "required",
             "override", "indirect", "dynamic", "nonisolated", "optional", "lazy", "weak", "unowned", "prefix",
             "postfix", "infix", "__consuming", "consuming", "borrowing"}
KINDS = {"struct", "class", "enum", "protocol", "extension", "actor", "func", "init", "var", "let", "case",
         "subscript", "typealias", "associatedtype", "deinit"}
# Generic types of other modules that an interface extends under a condition.
EXTERNAL_GENERICS = {"Swift.Dictionary": "<Key: Swift.Hashable, Value>", "Swift.Array": "<Element>",
                     "Swift.Optional": "<Wrapped>", "Swift.Set": "<Element: Swift.Hashable>"}
# Protocols of other modules that an interface extends.
EXTERNAL_PROTOCOLS = {"Combine.Publisher", "Swift.StringProtocol"}
RAW_TYPES = {"Swift.Int", "Swift.String", "Swift.UInt", "Swift.Int32", "Swift.Int64", "Swift.UInt8", "Swift.Double"}


# ---------------------------------------------------------------------------------------------
# Reading an interface

def split_top(text, separator=","):
    """`text` split at `separator` outside (), [], <>, {} and string literals."""
    parts, depth, current, quoted, index = [], 0, "", False, 0
    while index < len(text):
        c = text[index]
        if quoted:
            current += c
            if c == "\\":
                current += text[index + 1]
                index += 1
            elif c == '"':
                quoted = False
        elif c == '"':
            quoted, current = True, current + c
        elif c in "([{<":
            depth, current = depth + 1, current + c
        elif c in ")]}>" and not (c == ">" and current.endswith("-")):
            depth, current = depth - 1, current + c
        elif depth == 0 and text.startswith(separator, index):
            parts.append(current.strip())
            current = ""
            index += len(separator)
            continue
        else:
            current += c
        index += 1
    if current.strip():
        parts.append(current.strip())
    return parts


def closing(text, start):
    """The index just past the bracket that closes the one at `start`."""
    depth, index = 0, start
    while index < len(text):
        c = text[index]
        if c in "([{<":
            depth += 1
        elif c in ")]}>" and not (c == ">" and text[index - 1] == "-"):
            depth -= 1
            if depth == 0:
                return index + 1
        index += 1
    raise ValueError(f"unbalanced: {text}")


class Decl:
    def __init__(self, line, attributes, modifiers, kind, rest, parent):
        self.line, self.attributes, self.modifiers, self.kind, self.rest, self.parent = line, attributes, modifiers, kind, rest, parent
        self.children, self.accessors = [], []

    def chain(self):
        node, out = self, []
        while node is not None:
            out.append(node)
            node = node.parent
        return out


def parse_head(text):
    """(attributes, modifiers, kind, rest) of a declaration's line, or None."""
    attributes, modifiers, text = [], [], text.strip()
    while text.startswith("@"):
        match = re.match(r"@[\w.]+", text)
        end = match.end()
        if end < len(text) and text[end] == "(":
            end = closing(text, end)
        attributes.append(text[:end])
        text = text[end:].strip()
    while True:
        match = re.match(r"([\w]+)(\([\w]+\))?\s+", text)
        if not match:
            break
        word = match.group(1)
        if word == "class" and not re.match(r"class\s+(func|var|let|subscript)\b", text):
            break
        if word not in MODIFIERS:
            break
        modifiers.append(word)
        text = text[match.end():]
    match = re.match(r"(init[?!]?|\w+)", text)
    if not match:
        return None
    kind = match.group(1)
    kind = "init" if kind.startswith("init") else kind
    if kind not in KINDS:
        return None
    return attributes, modifiers, kind, text


def parse(path):
    """The tree of declarations of an interface, and its imports."""
    lines = open(path, encoding="utf-8").read().split("\n")
    imports, root, stack, pending, skipping = [], Decl(0, [], [], "module", "", None), [], [], []
    stack.append(root)
    accessor_of = None
    for number, raw in enumerate(lines, 1):
        line = raw.strip()
        if not line or line.startswith("//"):
            continue
        if line.startswith("#if"):
            skipping.append(False)
            continue
        if line.startswith("#else") or line.startswith("#elseif"):
            skipping[-1] = True
            continue
        if line.startswith("#endif"):
            skipping.pop()
            continue
        if any(skipping):
            continue
        if accessor_of is not None:
            if line == "}":
                accessor_of = None
            else:
                accessor_of.accessors.append(line)
            continue
        if line.startswith("import ") or line.startswith("@_exported import "):
            imports.append(line.split()[-1])
            continue
        if line == "}":
            stack.pop()
            continue
        if re.fullmatch(r"(@[\w.]+(\(.*\))?\s*)+", line):
            pending.append(line)
            continue
        head = parse_head(" ".join(pending) + " " + line)
        pending = []
        if head is None:
            raise ValueError(f"{path}:{number}: cannot read: {line}")
        decl = Decl(number, *head, stack[-1])
        stack[-1].children.append(decl)
        if decl.kind in ("var", "subscript", "let") and line.endswith("{"):
            decl.rest = decl.rest[:-1].strip()
            accessor_of = decl
        elif line.endswith("{") and not line.endswith("{}"):
            decl.rest = decl.rest[:-1].strip()
            stack.append(decl)
        elif line.endswith("{}"):
            decl.rest = decl.rest[:-2].strip()
        inline = re.search(r"\{\s*(get|set|[^{}]*)\s*\}$", decl.rest)
        if decl.kind in ("var", "subscript") and inline and "get" in inline.group(0):
            decl.accessors = inline.group(0)[1:-1].split()
            decl.rest = decl.rest[:inline.start()].strip()
    return root, imports


# ---------------------------------------------------------------------------------------------
# The parts of a declaration

def take_generics(rest):
    """(the generic parameter clause `<...>` at the start of `rest`, or "", what follows it)."""
    if not rest.startswith("<"):
        return "", rest
    end = closing(rest, 0)
    return rest[:end], rest[end:]


def type_head(decl):
    """(name, generic parameters text, inherited types, where clause) of a type or extension."""
    rest = decl.rest[len(decl.kind):].strip()
    match = re.match(r"[\w.]+", rest)
    name, rest = match.group(0), rest[match.end():]
    generics, rest = take_generics(rest)
    where = ""
    if " where " in " " + rest:
        rest, where = re.split(r"\bwhere\b", rest, maxsplit=1)
        where = where.strip()
    inherited = split_top(rest.strip()[1:]) if rest.strip().startswith(":") else []
    return name, generics, inherited, where


def generic_names(generics):
    return [p.split(":")[0].strip() for p in split_top(generics[1:-1])] if generics else []


def parameters(text):
    """[(label or None, type, has default)] of a parameter list's inside."""
    out = []
    for part in split_top(text):
        names, _, type_and_default = part.partition(":")
        pieces = split_top(type_and_default, "=")
        type_text, default = pieces[0].strip(), len(pieces) > 1
        words = names.split()
        label = words[0] if words[0] != "_" else None
        out.append((label, type_text, default))
    return out


def function_parts(decl):
    """(name, generics, parameters text, effects, return type, where) of a func, init or subscript."""
    rest = decl.rest
    if decl.kind == "init":
        match = re.match(r"init([?!]?)", rest)
        name, rest = "init" + match.group(1), rest[match.end():]
    elif decl.kind == "subscript":
        name, rest = "subscript", rest[len("subscript"):]
    else:
        match = re.match(r"func\s+(`?[\w]+`?|[^\s(<]+)\s*", rest)
        name, rest = match.group(1), rest[match.end():]
    generics, rest = take_generics(rest)
    end = closing(rest, rest.index("("))
    inside, rest = rest[rest.index("(") + 1:end - 1], rest[end:].strip()
    where = ""
    match = re.search(r"\bwhere\b", rest)
    if match:
        rest, where = rest[:match.start()].strip(), rest[match.end():].strip()
    returned = ""
    if "->" in rest:
        rest, returned = rest.split("->", 1)
        returned = returned.strip()
    return name, generics, inside, rest.strip(), returned, where


# ---------------------------------------------------------------------------------------------
# Probes

class Context:
    """What a member's probe needs of the declarations around it."""

    def __init__(self, module, types, generics):
        """`types`: {full name: kind} of the interface's types; `generics`: {full name: (generic
        parameters, where clause)} of its generic ones."""
        self.module, self.types, self.generics = module, types, generics

    def extended(self, full, generics, where):
        """(generic parameters, where) of an extension of `full` that adds `where`: the extended
        type's own, this interface's or another module's (EXTERNAL_GENERICS)."""
        if full in self.generics:
            base_generics, base_where = self.generics[full]
            return base_generics, " , ".join(w for w in [base_where, where] if w)
        return EXTERNAL_GENERICS.get(full, generics), where

    def container(self, decl):
        """(receiver type, generic parameters, where, is a protocol) of the type `decl` is in."""
        parent = decl.parent
        if parent.kind == "module":
            return None
        name, generics, _, where = type_head(parent)
        full = self.full_name(parent)
        if parent.kind == "protocol" or (parent.kind == "extension" and (self.types.get(full) == "protocol" or full in EXTERNAL_PROTOCOLS)):
            return "S", f"<S: {full}>", where.replace("Self", "S"), True
        if parent.kind == "extension":
            generics, where = self.extended(full, generics, where)
        params = generic_names(generics)
        receiver = f"{full}<{', '.join(params)}>" if params else full
        return receiver, generics, where, False

    def full_name(self, decl):
        names = []
        for node in decl.chain():
            if node.kind == "module":
                break
            name = type_head(node)[0]
            names.append(name)
            if node.kind == "extension" or name.startswith(self.module + ".") or "." in name:
                break
        names.reverse()
        full = ".".join(names)
        first = names[0]
        if decl.chain()[-2].kind != "extension" and not first.startswith(self.module + "."):
            full = f"{self.module}.{full}"
        return full


def availability(decl):
    """The `@available` attributes of the declaration and its containers, without deprecations;
    None when the declaration is unavailable to an app."""
    out = []
    for node in decl.chain():
        for attribute in node.attributes:
            if attribute.startswith("@available"):
                if re.search(r"\bunavailable\b|\bobsoleted\b", attribute):
                    return None
                if re.search(r"\bdeprecated\b", attribute) and not re.search(r"\bintroduced\b", attribute):
                    continue
                out.append(re.sub(r",\s*deprecated(:\s*[\d.]+)?|,\s*message:\s*\".*?\"|,\s*renamed:\s*\".*?\"", "", attribute))
            if attribute.startswith("@_spi"):
                return None
    return out


def isolation(decl):
    """'main' when an app's code must be on the main actor to use the declaration, else ''."""
    for node in decl.chain():
        attrs = node.attributes
        if "nonisolated" in node.modifiers:
            return ""
        if any(a.endswith("MainActor") for a in attrs):
            return "" if "@preconcurrency" in attrs else "main"
    return ""


def call_arguments(params, keep_defaults=True):
    """(probe parameters, call arguments) for a parameter list."""
    probe, call = [], []
    for index, (label, type_text, default) in enumerate(params):
        if default and not keep_defaults:
            continue
        name = f"a{index}"
        if type_text.startswith("inout "):
            probe.append(f"_ {name}: {type_text}")
            value = f"&{name}"
        elif type_text.endswith("..."):
            probe.append(f"_ {name}: {type_text[:-3]}")
            value = name
        elif type_text.startswith("@autoclosure"):
            probe.append(f"_ {name}: {type_text.replace('@autoclosure', '').strip()}")
            value = f"{name}()"
        else:
            probe.append(f"_ {name}: {type_text}")
            value = name
        call.append(f"{label}: {value}" if label else value)
    return probe, call


class Probe:
    """One use of a declaration. `declaration`: the declaration it belongs to (a declaration is
    usable as declared when all its probes pass: with and without defaults, overridden if open)."""

    def __init__(self, key, text):
        self.key, self.text = key, text
        self.declaration = re.sub(r"^open |  \(defaults left out\)$", "", key)


def probes_of(decl, context, out):
    """Appends the probes of `decl` and its members to `out`."""
    if decl.kind == "deinit":
        return
    attrs = availability(decl)
    if attrs is None:
        return
    header = "".join(a + " " for a in attrs) + ("@MainActor " if isolation(decl) == "main" else "")
    header += "@available(*, deprecated) "  # Calling a deprecated declaration of Curity's is no error.
    # A result type the compiler names by the function that returns it (SwiftUI's representables):
    # an app names it by the typealias the protocol requires.
    opaque = re.compile(r'@_opaqueReturnTypeOf\("[^"]*", \d+\) __')
    if opaque.search(decl.rest):
        owner_name = context.full_name(decl.parent)
        if decl.kind == "typealias":
            decl.rest = opaque.sub("Swift.Never", decl.rest)  # only its existence is probed, below
            decl.opaque = True
        else:
            decl.rest = opaque.sub(f"{owner_name}.UIViewControllerType", decl.rest)

    def add(key, body_of):
        text = body_of(f"probe{len(out)}")
        out.append(Probe(key, header + text))

    kind = decl.kind
    if kind in ("struct", "class", "enum", "protocol", "actor", "extension"):
        name, generics, inherited, where = type_head(decl)
        full = context.full_name(decl)
        if kind == "extension":
            generics, where = context.extended(full, generics, where)
        params = generic_names(generics)
        receiver = f"{full}<{', '.join(params)}>" if params else full
        clause = f" where {where}" if where else ""
        if kind != "extension":
            key = f"{kind} {full}"
            if kind == "protocol":
                add(key, lambda p: f"func {p}<S: {full}>(_ s: S.Type) {{}}")
            elif kind == "class":
                add(key, lambda p: f"func {p}{generics}(_ x: {receiver}) -> AnyObject{clause} {{ x }}")
            else:
                add(key, lambda p: f"func {p}{generics}(_ x: {receiver}.Type){clause} {{}}")
            if kind == "class" and "open" in decl.modifiers:
                add(f"open class {full}", lambda p: f"func {p}() {{ class Sub{p}{generics}: {receiver}{clause} {{}} }}")
        for base in inherited:
            base = base.replace("@unchecked ", "").replace("@preconcurrency ", "")
            if base in ("Swift.BitwiseCopyable", "Swift.Copyable", "Swift.Escapable", "AnyObject"):
                continue
            key = f"{full} : {base}"
            if kind == "enum" and base in RAW_TYPES:
                add(key, lambda p: f"func {p}(_ e: {receiver}, _ r: {base}) -> {receiver}? {{ let _: {base} = e.rawValue; return {receiver}(rawValue: r) }}")
            elif kind == "protocol" or (kind == "extension" and context.types.get(full) == "protocol"):
                add(key, lambda p: f"func {p}<S: {full}>(_ s: S.Type) {{ func need<T: {base}>(_: T.Type) {{}}; need(S.self) }}")
            else:
                add(key, lambda p: f"func {p}{generics}(_ x: {receiver}.Type){clause} {{ func need<T: {base}>(_: T.Type) {{}}; need(x) }}")
        for child in decl.children:
            probes_of(child, context, out)
        return

    container = context.container(decl) if decl.parent.kind != "module" else None
    if container:
        receiver, generics_c, where_c, in_protocol = container
    else:
        receiver, generics_c, where_c, in_protocol = None, "", "", False
    static = "static" in decl.modifiers or "class" in decl.modifiers
    subclass_where = f" where {where_c}" if where_c else ""
    owner = f"{context.full_name(decl.parent)}" if container else ""
    what = f"{owner}." if owner else ""

    def signature(extra_generics, probe_params, effects, where_extra=""):
        merged = [g for g in [generics_c[1:-1] if generics_c else "", extra_generics[1:-1] if extra_generics else ""] if g]
        gen = f"<{', '.join(merged)}>" if merged else ""
        wheres = [w for w in [where_c, where_extra] if w]
        clause = f" where {', '.join(wheres)}" if wheres else ""
        return gen, f"({', '.join(probe_params)}) {effects}".strip() + clause

    def receiver_params(mutable):
        if receiver is None or static:
            return []
        return [f"_ s: {'inout ' if mutable else ''}{receiver}"]

    def on(member):
        if receiver is None:
            return member
        base = receiver if static and not in_protocol else ("S" if static else "s")
        if in_protocol and static:
            base = "S"
        return f"{base}.{member}"

    def effects_of(text):
        throws = bool(re.search(r"\b(throws|rethrows)\b", text))
        is_async = bool(re.search(r"\basync\b", text))
        return (" ".join(w for w, on_ in (("async", is_async), ("throws", throws)) if on_),
                ("try " if throws else "") + ("await " if is_async else ""))

    def self_type(text):
        if not text:
            return text
        return re.sub(r"\bSelf\b", "S" if in_protocol else (receiver or "Self"), text)

    if kind in ("var", "let"):
        body = decl.rest[len(kind):].strip()
        match = re.match(r"(`?\w+`?)\s*:\s*(.+)$", body)
        if not match:
            raise ValueError(f"line {decl.line}: cannot read property {decl.rest}")
        name, type_text = match.group(1), self_type(match.group(2).strip())
        settable = kind == "var" and ("set" in decl.accessors or (not decl.accessors and decl.parent.kind != "protocol"))
        if kind == "var" and decl.accessors and "set" not in decl.accessors and not any(a.startswith("set") for a in decl.accessors):
            settable = False
        if receiver is not None and not static and not in_protocol and context.types.get(owner) == "class":
            mutable = False
        else:
            mutable = settable
        effects, marks = effects_of(" ".join(decl.accessors))
        gen, sig = signature("", receiver_params(mutable), effects)
        annotation = "" if "some " in type_text else f": {type_text}"
        write = f"; {on(name)} = v" if settable else ""
        key = f"{'static ' if static else ''}var {what}{name}: {type_text}{' { get set }' if settable else ''}"
        add(key, lambda p: f"func {p}{gen}{sig} {{ let v{annotation} = {marks}{on(name)}{write} }}")
        if "open" in decl.modifiers and receiver and not static:
            override = f"override var {name}: {type_text} {{ get {{ fatalError() }}{' set {}' if settable else ''} }}"
            add(f"open {key}", lambda p: f"func {p}() {{ class Sub{p}{generics_c}: {receiver}{subclass_where} {{ {override} }} }}")
        return

    if kind == "case":
        cases = split_top(decl.rest[len("case"):].strip())
        for case in cases:
            match = re.match(r"(`?\w+`?)(\((.*)\))?$", case.strip())
            name, payload = match.group(1), match.group(3)
            gen, _ = signature("", [], "")
            if payload is None:
                add(f"case {what}{name}", lambda p: f"func {p}{gen}(_ e: {receiver}) {{ let _: {receiver} = {receiver}.{name}; if case {receiver}.{name} = e {{}} }}")
            else:
                items = []
                for index, part in enumerate(split_top(payload)):
                    label, sep, type_text = part.partition(":")
                    if sep and not re.search(r"[\s(<\[]", label.strip()):
                        items.append((label.strip(), type_text.strip(), False))
                    else:
                        items.append((None, part.strip(), False))
                probe_params, call = call_arguments(items)
                add(f"case {what}{name}({payload})",
                    lambda p: f"func {p}{gen}(_ e: {receiver}, {', '.join(probe_params)}) {{ let _: {receiver} = {receiver}.{name}({', '.join(call)}); if case {receiver}.{name} = e {{}} }}")
        return

    if kind == "typealias":
        match = re.match(r"typealias\s+(\w+)(<[^=]*>)?\s*=\s*(.+)$", decl.rest)
        name, alias_generics, target = match.group(1), match.group(2) or "", self_type(match.group(3).strip())
        alias_where = ""
        found = re.search(r"\swhere\s", target)
        if found:
            target, alias_where = target[:found.start()].strip(), target[found.end():].strip()
        full = f"{owner}.{name}" if owner else f"{context.module}.{name}"
        if getattr(decl, "opaque", False):
            add(f"typealias {full}", lambda p: f"func {p}(_ a: {full}.Type) {{}}")
        elif in_protocol:
            add(f"typealias {full}", lambda p: f"func {p}<S: {owner}>(_ a: S.{name}) -> {target} {{ a }}")
        else:
            escaping = "@escaping " if re.match(r"(@[\w.]+\s+)*\(", target) else ""
            arguments = f"<{', '.join(generic_names(alias_generics))}>" if alias_generics else ""
            gen, sig = signature(alias_generics, [f"_ a: {escaping}{full}{arguments}"], "", alias_where)
            sig_params, _, sig_where = sig.partition(" where ")
            returns = f" -> {target}" + (f" where {sig_where}" if sig_where else "")
            add(f"typealias {full} = {target}", lambda p: f"func {p}{gen}{sig_params}{returns} {{ a }}")
        return

    if kind == "associatedtype":
        match = re.match(r"associatedtype\s+(\w+)", decl.rest)
        name = match.group(1)
        add(f"associatedtype {owner}.{name}", lambda p: f"func {p}<S: {owner}>(_ s: S.Type) {{ let _: S.{name}.Type = S.{name}.self }}")
        return

    if kind in ("func", "init", "subscript"):
        name, generics, inside, effect_text, returned, where = function_parts(decl)
        params = [(label, self_type(t), d) for label, t, d in parameters(inside)]
        if not re.match(r"`?\w", name) and kind == "func":
            params = [(None, t, d) for _, t, d in params]  # an operator's parameters have no labels
        if kind == "subscript":
            # A subscript's single name is not a label.
            params = [(None if not re.match(r"\w+\s+\w+", part.partition(":")[0].strip()) else label, t, d)
                      for (label, t, d), part in zip(params, split_top(inside))]
        effects, marks = effects_of(effect_text + (" " + " ".join(decl.accessors) if kind == "subscript" else ""))
        returned = self_type(returned)
        mutating = "mutating" in decl.modifiers
        key = f"{'static ' if static else ''}{kind} {what}{decl.rest[len(kind):].strip() if kind == 'func' else decl.rest}"
        for keep in (True, False):
            if not keep and not any(d for _, _, d in params):
                break
            probe_params, call = call_arguments(params, keep)
            # A generic parameter the arguments may not fix (only the result names it).
            probe_params += [f"_ t{i}: {g}.Type" for i, g in enumerate(generic_names(generics))]
            if kind == "init":
                made = "S" if in_protocol else receiver
                optional = "?" if name in ("init?", "init!") else ""
                gen, sig = signature(generics, probe_params, effects, where)
                expression = f"{marks}{made}({', '.join(call)})"
                add(key + ("" if keep else "  (defaults left out)"),
                    lambda p: f"func {p}{gen}{sig} {{ let _: {made}{optional} = {expression} }}")
            elif kind == "subscript":
                settable = "set" in decl.accessors
                gen, sig = signature(generics, receiver_params(settable) + probe_params, effects, where)
                target = f"{'S' if in_protocol and static else ('s' if not static else receiver)}[{', '.join(call)}]"
                write = f"; {target} = v" if settable else ""
                add(key, lambda p: f"func {p}{gen}{sig} {{ let v: {returned} = {marks}{target}{write} }}")
            else:
                operator = not re.match(r"`?\w", name)
                gen, sig = signature(generics, receiver_params(mutating) + probe_params, effects, where)
                if operator:
                    if "prefix" in decl.modifiers:
                        expression = f"{name}{call[0]}"
                    elif "postfix" in decl.modifiers:
                        expression = f"{call[0]}{name}"
                    else:
                        expression = f"{call[0]} {name} {call[1]}"
                else:
                    expression = on(f"{name}({', '.join(call)})")
                expression = marks + expression
                if returned in ("", "Swift.Void", "()", "Swift.Never") :
                    use = expression
                elif "some " in returned:
                    use = f"_ = {expression}"
                else:
                    use = f"let _: {returned} = {expression}"
                add(key + ("" if keep else "  (defaults left out)"), lambda p: f"func {p}{gen}{sig} {{ {use} }}")
        if "open" in decl.modifiers and kind == "func" and receiver and not static:
            text = re.sub(r"\bwhere\b.*$", "", decl.rest)
            body = " { fatalError() }"
            add(f"open {key}", lambda p: f"func {p}() {{ class Sub{p}{generics_c}: {receiver}{subclass_where} {{ override {text}{body} }} }}")
        return
    raise ValueError(f"line {decl.line}: no probe for a {kind}: {decl.rest}")


def probes_for(path, module):
    root, imports = parse(path)
    types, generics = {}, {}
    context = Context(module, types, generics)

    def index(decl):
        for child in decl.children:
            if child.kind in ("struct", "class", "enum", "protocol", "actor"):
                full = context.full_name(child)
                types[full] = child.kind
                _, g, _, w = type_head(child)
                if g:
                    generics[full] = (g, w)
            index(child)

    index(root)
    out = []
    for decl in root.children:
        probes_of(decl, context, out)
    return out, [i for i in imports if not i.startswith("_") and i != module]


# ---------------------------------------------------------------------------------------------
# Type-checking the probes

CURITY_WORK = os.environ.get("CURITY_WORK", os.path.join(os.environ.get("XDG_CACHE_HOME", os.path.expanduser("~/.cache")), "curity-typecheck"))


def interface_of(module):
    frameworks = os.path.join(CURITY_WORK, "frameworks")
    return os.path.join(frameworks, f"{module}.framework", "Modules", f"{module}.swiftmodule", "arm64-apple-ios.swiftinterface")


def probe_file(module, probes, imports, directory):
    """Writes the probes into one file; {line: probe index}."""
    lines = ["// Written by Scripts/apple/interface-diff.py: each function uses one declaration of Curity's."]
    lines += [f"import {i}" for i in imports] + [f"import {module}"]
    where = {}
    for index, probe in enumerate(probes):
        where[len(lines) + 1] = index
        lines.append(probe.text)
    path = os.path.join(directory, f"{module}Probes.swift")
    open(path, "w", encoding="utf-8").write("\n".join(lines) + "\n")
    return path, where


def typecheck(path, search, target, cache):
    command = ["swiftc", "-typecheck", "-parse-as-library", "-target", target,
               "-sdk", os.environ["APPLE_SDK"], "-resource-dir", os.environ["APPLE_RESOURCE_DIR"], "-swift-version", "5",
               "-module-cache-path", cache, path] + search
    prebuilt = os.environ.get("HAAPI_PREBUILT")
    if prebuilt:
        command += ["-Xfrontend", "-prebuilt-module-cache-path", "-Xfrontend", prebuilt]
    done = subprocess.run(command, capture_output=True, text=True)
    return done.stdout + done.stderr


def failures(output, path, where):
    """({probe index: first error}, [errors at no probe's line])"""
    found, stray = {}, []
    for match in re.finditer(r"^" + re.escape(path) + r":(\d+):\d+: error: (.*)$", output, re.M):
        line = int(match.group(1))
        if line in where:
            found.setdefault(where[line], match.group(2))
        else:
            stray.append(match.group(0))
    stray += [l for l in output.splitlines() if re.match(r"^(<unknown>|error):", l)]
    return found, stray


def allow_entries():
    entries = []
    if os.path.exists(ALLOW):
        for number, line in enumerate(open(ALLOW, encoding="utf-8"), 1):
            if line.strip() and not line.startswith("#"):
                parts = [p.strip() for p in line.rstrip("\n").split(" | ")]
                if len(parts) != 3 or not all(parts):
                    sys.exit(f"interface-diff: {ALLOW}:{number}: not `module | declaration | why`")
                entries.append(parts)
    return entries


def main():
    if "--list" in sys.argv:
        for module in MODULES:
            probes, _ = probes_for(interface_of(module), module)
            for probe in probes:
                print(f"{module} | {probe.declaration}\n    {probe.text}")
        return 0
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    ours = sys.argv[1]
    missing = [m for m in MODULES if not os.path.exists(interface_of(m))]
    if missing:
        print(f"interface-diff: skipped: no {interface_of(missing[0])} (../shared/apple-sdk/curity-typecheck.sh unpacks Curity's modules once their dist repositories are fetched)")
        return 0
    directory = tempfile.mkdtemp(prefix="interface-diff-")
    curity_frameworks = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(interface_of(MODULES[0])))))
    jobs, sets = [], {}
    for module in MODULES:
        probes, imports = probes_for(interface_of(module), module)
        for side, search, target, cache in (
                ("Curity", ["-F", curity_frameworks], "arm64-apple-ios17.0", os.path.join(CURITY_WORK, "module-cache")),
                ("ours", ["-I", ours] + sum((["-I", d] for d in os.environ.get("PROBE_INCLUDE", "").split(":") if d), []),
                 "arm64-apple-ios15.0", os.path.join(os.path.dirname(ours), "ModuleCache"))):
            folder = os.path.join(directory, side)
            os.makedirs(folder, exist_ok=True)
            path, where = probe_file(module, probes, imports, folder)
            jobs.append((module, side, path, where, search, target, cache))
        sets[module] = probes

    def run(job):
        module, side, path, where, search, target, cache = job
        return module, side, failures(typecheck(path, search, target, cache), path, where)

    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
        results = {(module, side): found for module, side, found in pool.map(run, jobs)}
    allowed, used, status, summary = allow_entries(), set(), 0, []
    for module in MODULES:
        probes = sets[module]
        wrong, stray = results[(module, "Curity")]
        if wrong or stray:
            status = 1
            print(f"interface-diff: {len(wrong) + len(stray)} probes of {module} fail against Curity's own module: the probe is wrong")
            for index, error in sorted(wrong.items()):
                print(f"  {probes[index].declaration}\n    {probes[index].text}\n    {error}")
            for line in stray[:10]:
                print(f"  {line}")
        failing, stray = results[(module, "ours")]
        if stray:
            status = 1
            print(f"interface-diff: errors at no probe's line in {module}'s probes against ours:\n  " + "\n  ".join(stray[:10]))
        declarations = list(dict.fromkeys(p.declaration for p in probes))
        broken = {}
        for index, error in sorted(failing.items()):
            broken.setdefault(probes[index].declaration, (probes[index], error))
        shown = 0
        for declaration, (probe, error) in broken.items():
            entry = next((i for i, (m, d, _) in enumerate(allowed) if m == module and d == declaration), None)
            if entry is not None:
                used.add(entry)
                continue
            shown += 1
            print(f"{module} | {declaration}\n    {error}")
        usable = len(declarations) - len(broken)
        share = 100.0 * usable / len(declarations)
        summary.append(f"{module}: {usable} of {len(declarations)} declarations usable as declared ({share:.1f}%;"
                       f" at least {MINIMUM[module]}% must be); of the {len(broken)} not, {len(broken) - shown} are"
                       f" allowed with a reason (Scripts/apple/interface-diff.allow) and {shown} printed above")
        # Every declaration is usable or allowed with a reason: one that is neither fails the check.
        if share < MINIMUM[module] or shown:
            status = 1
    for index, (module, declaration, _) in enumerate(allowed):
        if index not in used:
            status = 1
            print(f"interface-diff: {ALLOW}: `{module} | {declaration}` is usable now, or is no declaration of Curity's: delete the entry")
    print("\n".join(summary))
    return status


if __name__ == "__main__":
    sys.exit(main())
