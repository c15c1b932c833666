#!/bin/bash
# Counts how many of the public names of Curity's UI kit (seed 000) and SDK (seed 001) this package
# defines for iOS, each with the right kind, from the swiftmodules of Scripts/check-apple.sh.
#
#   Scripts/reference-names.sh [MODULES_DIR]
#     MODULES_DIR  default .build/ios/arm64-apple-ios/debug/Modules (check-apple's); its scratch
#                  folder (three levels up) gives apple-backfill/ and the module cache. Run
#                  Scripts/check-apple.sh first (HAAPI_APPLE_SCRATCH=DIR makes DIR/arm64-apple-ios/…).
#   REFERENCE_NAMES_KEEP=DIR  keeps the probe file and the compiler's output in DIR.
#   REFERENCE_NAMES_MODULE_CACHE=DIR  a module cache other than the scratch folder's (a cold one
#                  costs a minute or two: UIKit's and SwiftUI's clang modules are built again).
#   HAAPI_APPLE_SDK_DIR  as for check-apple (default ../shared/apple-sdk).
#
# The names are in Scripts/apple/reference-names/seed000.txt and seed001.txt, one a line:
#   KIND NAME [PROBE]
# KIND is protocol, struct, class, enum, typealias or extension, NAME as the seed lists it, in its
# order; PROBE, when there, is how Curity's interface spells it (the type it is nested in, the
# generic parameters). Kinds are Curity's .swiftinterface's (UI kit 5.4.0, SDK 5.0.0), the seed's
# heading for a name only the seed has; seed 001's list has no headings: its six alphabetical runs
# are seed 000's six sections. `extension` names (Foundation's types, Curity's internal ones) name
# no new type and are not counted.
#
# One Swift file with one probe a line is type-checked once, for arm64-apple-ios15.0, with
# check-apple's flags; an error on a probe's line means that name is missing (or of another kind).
# Seed 000's names are looked up in HaapiUI (an app imports HaapiUI for the UI kit), seed 001's in
# HaapiSDK (an app on the SDK alone imports HaapiSDK); both include what the module re-exports.
#   protocol   func p(_: any NAME) {}                  a struct or class is an error ('any' on a concrete type)
#   class      isClass(NAME.self), isClass<T: AnyObject>  a struct, or a class-bound protocol, is an error
#   struct, enum  let _: NAME.Type = NAME.self         a protocol is an error ((any P).Type is not any P.Type);
#                                                      a class passes: struct and enum are not told apart from it
#   typealias  _ = NAME.self                           any type of that name
# A generic name is probed in a generic function, whose parameters take the requirements the name
# puts on them (BaseViewController<AssociatedModel, AssociatedStyle>).
#
# Missing names that are allowed: under the heading "## Names we do not provide" of
# docs/PORTING.md (up to the next "## "), the first backticked name of each list item or table
# row, each under one of two sub-headings that says how it may be missing:
#   ### Not provided        the name must be absent (the probe finds no such name);
#   ### Provided as another kind
#                           the name must exist, with another kind (a struct where Curity has
#                           a class): a name that is not found at all is not allowed by it.
# A listed name that is not missing (the package defines it as the seed says) fails too, so the
# list stays true; an item outside those sub-headings cannot be read and stops the check.
# Exit 0 when every missing name is allowed, 1 when one is not (or the list is stale), 2 when the
# check could not run.
#
#   Scripts/reference-names.sh --self-test [MODULES_DIR]
#     proves the judging real: copies of the name lists and of docs/PORTING.md with three planted
#     faults (a name that does not exist, listed as provided as another kind; a name the package
#     defines, listed as not provided; a missing name not listed) must fail with each reported.
#   REFERENCE_NAMES_DIR, REFERENCE_NAMES_PORTING  other name lists and PORTING.md (the self-test's).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
if [ "${1:-}" = --self-test ]; then
  shift
  planted=$(mktemp -d)
  trap 'rm -rf "$planted"' EXIT
  cp Scripts/apple/reference-names/seed00*.txt "$planted/"
  # Not names of Curity's or ours: two that do not exist, and a name we do define (listed below as not provided).
  printf '%s\n' "class ReferenceNamesSelfTestListedAsAnotherKind" "struct ReferenceNamesSelfTestNotListed" >>"$planted/seed000.txt"
  grep -q '^struct HaapiManager$\|^class HaapiManager$' "$planted/seed001.txt" || echo "class HaapiManager" >>"$planted/seed001.txt"
  python3 - docs/PORTING.md "$planted/PORTING.md" <<'PY'
import sys
text = open(sys.argv[1]).read()
for heading, item in (("### Not provided", "- `HaapiManager`: planted by the self-test: the package defines it."),
                      ("### Provided as another kind", "- `ReferenceNamesSelfTestListedAsAnotherKind`: planted by the self-test: no such name exists.")):
    at = text.index(heading) + len(heading)
    at = text.index("\n- ", at) + 1
    text = text[:at] + item + "\n" + text[at:]
open(sys.argv[2], "w").write(text)
PY
  out=$(REFERENCE_NAMES_DIR=$planted REFERENCE_NAMES_PORTING=$planted/PORTING.md "$0" "$@" 2>&1) && rc=0 || rc=$?
  for expected in "MISSING class     ReferenceNamesSelfTestListedAsAnotherKind" "MISSING struct    ReferenceNamesSelfTestNotListed" \
    "listed but not missing: HaapiManager"; do
    if ! grep -qF -- "$expected" <<<"$out"; then
      printf '%s\n' "$out" >&2
      echo "reference-names: self-test FAILED: \"$expected\" not reported (exit $rc)" >&2
      exit 1
    fi
    echo "  reported: $expected"
  done
  [ "$rc" -eq 1 ] || { printf '%s\n' "$out" >&2; echo "reference-names: self-test FAILED: exit $rc, not 1" >&2; exit 1; }
  echo "reference-names: self-test passed: each of 3 planted faults in the name lists and PORTING.md was reported"
  exit 0
fi
names_dir=${REFERENCE_NAMES_DIR:-$root/Scripts/apple/reference-names}
porting=${REFERENCE_NAMES_PORTING:-$root/docs/PORTING.md}
modules=${1:-$root/.build/ios/arm64-apple-ios/debug/Modules}
modules=$(cd "$modules" 2>/dev/null && pwd) || {
  echo "reference-names: no modules at ${1:-.build/ios/arm64-apple-ios/debug/Modules}: run Scripts/check-apple.sh first" >&2
  exit 2
}
scratch=$(cd "$modules/../../.." && pwd)
for module in HaapiUI HaapiSDK; do
  [ -e "$modules/$module.swiftmodule" ] || { echo "reference-names: no $module.swiftmodule in $modules" >&2; exit 2; }
done
sdk_dir=${HAAPI_APPLE_SDK_DIR:-$root/../shared/apple-sdk}
if [ ! -f "$sdk_dir/env.sh" ]; then
  echo "reference-names: no Apple SDK at $sdk_dir (see ../shared/apple-sdk/README.md)" >&2
  exit 2
fi
# shellcheck source=/dev/null
. "$sdk_dir/env.sh"
# check-apple's SwiftUI, prebuilt without availability checks (it made it).
prebuilt=$(dirname "$APPLE_SDK")/prebuilt-modules-$(swiftc --version 2>/dev/null | sha256sum | cut -c1-12)
[ -d "$prebuilt" ] || { echo "reference-names: no prebuilt SwiftUI at $prebuilt: run Scripts/check-apple.sh first" >&2; exit 2; }

work=${REFERENCE_NAMES_KEEP:-$(mktemp -d)}
mkdir -p "$work"
[ -n "${REFERENCE_NAMES_KEEP:-}" ] || trap 'rm -rf "$work"' EXIT

# The probe file, and which line probes which name.
python3 - "$names_dir" "$work" <<'PY'
import re, sys
names_dir, work = sys.argv[1:]
lines = ['// Generated by Scripts/reference-names.sh: one probe a line.',
         'import HaapiUI', 'import HaapiSDK',
         'func refnamesIsClass<T: AnyObject>(_: T.Type) {}']
index = []
for seed, module in (('000', 'HaapiUI'), ('001', 'HaapiSDK')):
    for row in open(f'{names_dir}/seed{seed}.txt'):
        parts = row.split(None, 2)
        if not parts: continue
        kind, name = parts[0], parts[1]
        probe = parts[2].strip() if len(parts) > 2 else name
        if kind == 'extension':
            continue
        n = len(lines)
        m = re.fullmatch(r'([\w.]+)(?:<(.*)>)?', probe)
        if not m or kind not in ('protocol', 'class', 'struct', 'enum', 'typealias'):
            print(f'reference-names: seed{seed}.txt: cannot read: {row.strip()}', file=sys.stderr)
            sys.exit(2)
        base, params = m.group(1), [p.strip() for p in (m.group(2) or '').split(',') if p.strip()]
        t = f'{module}.{base}' + (f'<{", ".join(params)}>' if params else '')
        g = f'<{", ".join(params)}>(_: {t}.Type)' if params else '()'
        if kind == 'protocol':
            body = f'func probe{n}(_: any {t}) {{}}'
        elif kind == 'class':
            body = f'func probe{n}{g} {{ refnamesIsClass({t}.self) }}'
        elif kind in ('struct', 'enum'):
            body = f'func probe{n}{g} {{ let _: {t}.Type = {t}.self }}'
        else:
            body = f'func probe{n}{g} {{}}' if params else f'func probe{n}() {{ _ = {t}.self }}'
        lines.append(body)
        index.append(f'{n + 1}\t{seed}\t{kind}\t{name}')
open(f'{work}/ReferenceNameProbes.swift', 'w').write('\n'.join(lines) + '\n')
open(f'{work}/index.tsv', 'w').write('\n'.join(index) + '\n')
PY

started=$(date +%s%N)
backfill=()
[ -d "$scratch/apple-backfill" ] && backfill=(-I "$scratch/apple-backfill")
status=0
swiftc -typecheck -parse-as-library -module-name ReferenceNameProbes -target arm64-apple-ios15.0 \
  -sdk "$APPLE_SDK" -resource-dir "$APPLE_RESOURCE_DIR" -swift-version 5 \
  -Xfrontend -prebuilt-module-cache-path -Xfrontend "$prebuilt" \
  -I "$modules" "${backfill[@]}" -module-cache-path "${REFERENCE_NAMES_MODULE_CACHE:-$scratch/arm64-apple-ios/debug/ModuleCache}" \
  "$work/ReferenceNameProbes.swift" >"$work/typecheck.log" 2>&1 || status=$?
seconds=$(( ($(date +%s%N) - started) / 1000000 ))

python3 - "$work" "$status" "$seconds" "$porting" <<'PY'
import os, re, sys
work, status, seconds, porting = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]) / 1000, sys.argv[4]
probe_file = f'{work}/ReferenceNameProbes.swift'
index = [l.split('\t') for l in open(f'{work}/index.tsv').read().splitlines() if l]
by_line = {int(l): (seed, kind, name) for l, seed, kind, name in index}
errors = {}  # line -> its error messages
other = []
for l in open(f'{work}/typecheck.log', errors='replace'):
    m = re.match(r'^(.*?):(\d+):\d+: error: (.*)$', l.rstrip('\n'))
    if not m: continue
    if os.path.basename(m.group(1)) == 'ReferenceNameProbes.swift' and int(m.group(2)) in by_line:
        errors.setdefault(int(m.group(2)), []).append(m.group(3))
    else:
        other.append(l.rstrip('\n'))
if other or (status != 0 and not errors):
    print(f'reference-names: the probe file did not type-check as a whole (exit {status}); log: {work}/typecheck.log'
          + ('' if os.environ.get('REFERENCE_NAMES_KEEP') else ' (set REFERENCE_NAMES_KEEP=DIR to keep it)'), file=sys.stderr)
    for l in (other or open(f'{work}/typecheck.log').read().splitlines())[:10]: print('  ' + l, file=sys.stderr)
    sys.exit(2)

# The allow-list: under "## Names we do not provide" of docs/PORTING.md, each name under the
# sub-heading that says how it may be missing.
allowed, heading = {}, 'Names we do not provide'
kinds = {'not provided': 'absent', 'provided as another kind': 'other kind'}
found, unreadable = False, []
if os.path.exists(porting):
    section, kind = None, None
    for l in open(porting):
        if re.match(r'^##\s', l):
            section, kind = l[2:].strip().lower() == heading.lower(), None
            found = found or section
            continue
        if not section: continue
        if re.match(r'^###\s', l):
            kind = kinds.get(l[3:].strip().lower())
            if kind is None: unreadable.append(f'a sub-heading other than ### Not provided / ### Provided as another kind: {l.strip()}')
            continue
        cell = None
        if l.startswith('|') and not re.match(r'^\|[\s:|-]*$', l):
            cell = l.strip().strip('|').split('|')[0]
        elif re.match(r'^\s*[-*]\s', l):
            cell = l
        if cell:
            m = re.search(r'`([^`]+)`', cell)
            if not m or kind is None:
                unreadable.append(f'an item {"without a name" if not m else "outside the two sub-headings"}: {l.strip()[:80]}')
            else:
                allowed[m.group(1).strip()] = kind
if unreadable:
    print(f'reference-names: {porting}, "## {heading}": cannot read:', file=sys.stderr)
    for u in unreadable: print('  ' + u, file=sys.stderr)
    sys.exit(2)

def reason(messages):
    text = ' | '.join(messages)
    if re.search(r"cannot find|no type named|has no member|is not a member type|no member named", text):
        return 'not found'
    for pattern, why in ((r"'any' has no effect on concrete type", 'exists, not a protocol'),
                         (r"be a class type", 'exists, not a class'),
                         (r"cannot convert value of type '\(any ", 'exists, is a protocol'),
                         (r"ambiguous", 'ambiguous')):
        if re.search(pattern, text): return why
    return 'compiler: ' + messages[0][:100]

missing_all, not_allowed = [], []
for seed in ('000', '001'):
    rows = [(l, k, n) for l, (s, k, n) in sorted(by_line.items()) if s == seed]
    missing = [(k, n, reason(errors[l])) for l, k, n in rows if l in errors]
    defined = len(rows) - len(missing)
    print(f'reference names, seed {seed}: {defined} of {len(rows)} defined ({100 * defined / len(rows):.1f}%)')
    for k, n, why in missing:
        # Listed as not provided: it must be absent; listed as another kind: it must exist.
        ok = allowed.get(n) == ('absent' if why == 'not found' else 'other kind')
        listed = {'absent': 'listed as not provided', 'other kind': 'listed as provided as another kind'}.get(allowed.get(n), 'not listed')
        print(f'  {"allowed" if ok else "MISSING":7} {k:9} {n}  ({why}; {listed})')
        missing_all.append(n)
        if not ok and n not in not_allowed: not_allowed.append(n)
stale = sorted(a for a in allowed if a not in missing_all)
where = f'{os.path.relpath(porting)} "## {heading}"'
print(f'allow-list: {len(allowed)} names ({where}{"" if found else ": no such heading"})')
print(f'type-check: {seconds:.1f} s')
if stale:
    print(f'reference-names: FAILED: listed but not missing: {", ".join(stale)} (the package defines them as the seed says: delete the entries)')
if not_allowed:
    print(f'reference-names: FAILED: {len(not_allowed)} missing names (MISSING above) are not allowed as they are missing')
if stale or not_allowed:
    sys.exit(1)
print('reference-names: every missing name is allowed, and every listed name is missing as listed')
PY
