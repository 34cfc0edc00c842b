#!/usr/bin/env python3
"""Portability check: Linux-only (and Darwin-only) constructs outside the `#if` guards that keep them off the other platform.

Nothing here can build for Apple, so this reads the Swift sources instead. It follows every file's `#if` / `#elseif` /
`#else` / `#endif` nesting with a real guard stack and evaluates each branch's condition (`os(…)`, `canImport(…)`,
`compiler(>=…)`, `swift(>=…)`, `!`, `&&`, `||`, parentheses) for each platform, so a construct counts as guarded only when
the branch it is in is *inactive* on the platforms where it cannot compile or behaves differently:

  Linux-only, inactive on macOS, iOS, tvOS, watchOS and visionOS (compilers 6.0 and 6.2):
      SOCK_STREAM.rawValue, MSG_NOSIGNAL, import Glibc, Glibc.…, import FoundationNetworking, mallinfo, malloc_trim,
      epoll_…, dlsym(UnsafeMutableRawPointer(bitPattern: 0), …) (RTLD_DEFAULT is 0 only on glibc), and every loopback
      address other than 127.0.0.1 — 127.0.0.2 as much as 127.1.2.3: macOS's lo0 has only 127.0.0.1, so binding any
      other 127/8 address fails there. A line that only names an address (never binds or connects to it: a URL
      classification test) says so with a `// portability: address only` comment and is let through.
  Darwin-only, inactive on Linux: import Darwin, Darwin.…, SO_NOSIGPIPE
  Process (NSTask; macOS and Linux only), inactive on iOS, tvOS, watchOS and visionOS: Process(…), Process.…, `: Process`
  Runtime queries: every `#available(…)` / `#unavailable(…)` that names iOS also names visionOS (Swift files and
      Markdown: the README, DocC articles, samples' manuals). In `@available` an iOS entry covers visionOS; in a
      runtime query it does not, so visionOS falls to the `*` (its deployment target, visionOS 1).
  OS-26 API (typed notifications, Observations): inside `#if compiler(>=6.2)` AND inside an availability scope for 26
      (`@available(… 26 …)` on an enclosing declaration, `if #available(… 26 …) {`, or after `guard #available(… 26 …)`
      in the same scope): addObserver(of:, MainActorMessage, AsyncMessage, MessageIdentifier, .messages(of:,
      .post(message, subject:) (post(_:subject:)), ObservationToken, Observations

The platforms include visionOS (os(visionOS); it inherits the iOS availability of an `@available` without a visionOS
entry) and targetEnvironment(simulator) (true on the Apple platforms other than macOS); Mac Catalyst is not modelled
(targetEnvironment(macCatalyst) is false).

C sources (.c, .h under the same folders; BenchSupport today): a real preprocessor-condition stack (#if, #ifdef, #ifndef,
#elif, #else, #endif, defined(…), the file's own #defines, numeric comparisons), evaluated for Linux/glibc (__linux__,
__GLIBC__ 2.39) and Darwin (__APPLE__, __MACH__):
  glibc/Linux-only, inactive on Darwin: mallinfo, malloc_trim, malloc_usable_size, #include <malloc.h>, epoll_…,
      #include <sys/epoll.h>, MSG_NOSIGNAL, RTLD_DEFAULT spelled as a null handle
  Darwin-only, inactive on Linux: #include <malloc/malloc.h>, malloc_zone_…, mach_…, #include <mach/…>, SO_NOSIGPIPE

Comments are ignored; string literals are ignored except for the loopback-address rule (addresses live in strings).

Usage: .ci/portability [--root DIR]   exit 0 when clean, 1 with one line per finding
       .ci/portability --self-test    plants each construct (and guarded forms of it) in a temporary copy of the tree and
                                      shows that the check fails on every unguarded one and passes on every guarded one
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

FOLDERS = ["Sources", "Samples", "Tests", "Benchmarks", "Fuzz"]
APPLE = ["macOS", "iOS", "tvOS", "watchOS", "visionOS"]
NO_PROCESS = ["iOS", "tvOS", "watchOS", "visionOS"]
LINUX_MODULES = {"Glibc", "Musl", "FoundationNetworking", "FoundationXML", "Android", "Bionic"}
APPLE_ONLY_MODULES = {"Darwin", "ObjectiveC", "UIKit", "AppKit", "WatchKit", "Combine", "SwiftUI", "os"}


class Config:
    def __init__(self, platform, compiler):
        self.platform = platform
        self.compiler = compiler

    def can_import(self, module):
        if self.platform == "Linux":
            return module not in APPLE_ONLY_MODULES
        return module not in LINUX_MODULES

    def __repr__(self):
        return f"{self.platform}/swift {self.compiler}"


def configs(platforms, compilers=((6, 0), (6, 2))):
    return [Config(p, c) for p in platforms for c in compilers]


# ---------------------------------------------------------------- #if conditions

TOKEN = re.compile(r"\s*(\|\||&&|!|\(|\)|[A-Za-z_][A-Za-z0-9_]*|\S)")


def version(text):
    parts = re.findall(r"\d+", text)
    return tuple(int(p) for p in parts[:2]) + (0,) * (2 - len(parts[:2]))


def evaluate(condition, config):
    """Evaluates a compilation condition for one platform; unknown flags and tests (DEBUG, arch, hasFeature) count as
    true, so code under them is checked as if compiled."""
    text = condition.strip()
    pos = 0

    def peek():
        match = TOKEN.match(text, pos)
        return match.group(1) if match else None

    def take():
        nonlocal pos
        match = TOKEN.match(text, pos)
        if not match:
            raise ValueError(f"cannot parse #if condition: {condition!r}")
        pos = match.end()
        return match.group(1)

    def call_arguments():
        nonlocal pos
        depth, start = 0, None
        while pos < len(text):
            char = text[pos]
            pos += 1
            if char == "(":
                depth += 1
                if depth == 1:
                    start = pos
            elif char == ")":
                depth -= 1
                if depth == 0:
                    return text[start:pos - 1].strip()
            elif depth == 0 and not char.isspace():
                raise ValueError(f"expected ( in {condition!r}")
        raise ValueError(f"unbalanced parentheses in {condition!r}")

    def primary():
        token = take()
        if token == "!":
            return not primary()
        if token == "(":
            value = disjunction()
            if take() != ")":
                raise ValueError(f"expected ) in {condition!r}")
            return value
        if token in ("true", "false"):
            return token == "true"
        if peek() == "(":
            argument = call_arguments()
            if token == "os":
                return argument == config.platform
            if token == "canImport":
                return config.can_import(argument.split(",")[0].split(".")[0].strip())
            if token in ("compiler", "swift"):
                operator = ">=" if argument.startswith(">=") else ("<" if argument.startswith("<") else ">=")
                wanted = version(argument)
                return config.compiler >= wanted if operator == ">=" else config.compiler < wanted
            if token == "targetEnvironment":
                # simulator: the Apple platforms other than macOS (each is checked as if built for its simulator);
                # macCatalyst: not modelled, so never true (code under it is not checked).
                return argument == "simulator" and config.platform in NO_PROCESS
            return True   # arch(…), hasFeature(…), hasAttribute(…), _endian(…), …
        return True       # DEBUG and other flags

    def conjunction():
        value = primary()
        while peek() == "&&":
            take()
            right = primary()
            value = value and right
        return value

    def disjunction():
        value = conjunction()
        while peek() == "||":
            take()
            right = conjunction()
            value = value or right
        return value

    result = disjunction()
    if peek() is not None:
        raise ValueError(f"unexpected {peek()!r} in #if condition {condition!r}")
    return result


class Branch:
    """One level of the guard stack: the conditions of the branches before this one, and this branch's own (None: #else)."""

    def __init__(self, condition):
        self.earlier = []
        self.condition = condition

    def active(self, config):
        return not any(evaluate(c, config) for c in self.earlier) and (self.condition is None or evaluate(self.condition, config))


# ---------------------------------------------------------------- lexing

RAW_OR_PLAIN = re.compile(r'(#*)("""|")')


def lex(source):
    """Per line: (code, bare). `code` has comments removed and strings kept; `bare` also has every string's contents
    blanked (quotes kept), for braces and identifiers."""
    code_lines, bare_lines = [], []
    code, bare = [], []
    i, n = 0, len(source)
    block_depth = 0
    string = None   # (closing delimiter, is multi-line)

    def newline():
        code_lines.append("".join(code))
        bare_lines.append("".join(bare))
        code.clear()
        bare.clear()

    while i < n:
        char = source[i]
        if char == "\n":
            if string and not string[1]:
                string = None   # an unterminated single-line string ends with its line
            newline()
            i += 1
            continue
        if block_depth:
            if source.startswith("/*", i):
                block_depth += 1
                i += 2
            elif source.startswith("*/", i):
                block_depth -= 1
                i += 2
            else:
                i += 1
            continue
        if string:
            closing = string[0]
            if char == "\\" and not closing.endswith("#"):
                code.append(source[i:i + 2].replace("\n", ""))
                bare.append("  "[:len(source[i:i + 2].replace("\n", ""))])
                i += 2
                continue
            if source.startswith(closing, i):
                code.append(closing)
                bare.append(closing)
                i += len(closing)
                string = None
                continue
            code.append(char)
            bare.append(" ")
            i += 1
            continue
        if source.startswith("//", i):
            while i < n and source[i] != "\n":
                i += 1
            continue
        if source.startswith("/*", i):
            block_depth = 1
            i += 2
            continue
        raw = RAW_OR_PLAIN.match(source, i) if char in '#"' else None
        if raw and (raw.group(1) or char == '"'):
            hashes, quotes = raw.group(1), raw.group(2)
            opening = hashes + quotes
            string = (quotes + hashes, quotes == '"""')
            code.append(opening)
            bare.append(opening)
            i += len(opening)
            continue
        code.append(char)
        bare.append(char)
        i += 1
    newline()
    return code_lines, bare_lines


# ---------------------------------------------------------------- rules

LOOPBACK = re.compile(r"\b127\.(?!0\.0\.1\b)\d{1,3}\.\d{1,3}\.\d{1,3}\b")
ADDRESS_ONLY = re.compile(r"//.*\bportability:\s*address only\b")
LINUX_ONLY = [
    (re.compile(r"\bSOCK_STREAM\s*\.\s*rawValue"), "SOCK_STREAM.rawValue (Darwin's SOCK_STREAM is an Int32)", "bare"),
    (re.compile(r"\bMSG_NOSIGNAL\b"), "MSG_NOSIGNAL (Linux only; Darwin uses SO_NOSIGPIPE)", "bare"),
    (re.compile(r"^\s*(@\w+\s+)*import\s+(struct\s+|func\s+|class\s+|enum\s+)?Glibc\b"), "import Glibc", "bare"),
    (re.compile(r"\bGlibc\."), "Glibc.", "bare"),
    (re.compile(r"^\s*(@\w+\s+)*import\s+FoundationNetworking\b"), "import FoundationNetworking (needs #if canImport(FoundationNetworking))", "bare"),
    (re.compile(r"\bmallinfo2?\b"), "mallinfo (glibc)", "bare"),
    (re.compile(r"\bmalloc_trim\b"), "malloc_trim (glibc)", "bare"),
    (re.compile(r"\bepoll_\w+"), "epoll (Linux)", "bare"),
    (LOOPBACK, "a loopback address other than 127.0.0.1 (macOS's lo0 has only 127.0.0.1)", "code"),
    (re.compile(r"\bdlsym\s*\(\s*(UnsafeMutableRawPointer\s*\(\s*bitPattern\s*:\s*0\s*\)|nil)"),
     "dlsym with a null handle as RTLD_DEFAULT (glibc's; Darwin's RTLD_DEFAULT is (void *)-2)", "bare"),
]
DARWIN_ONLY = [
    (re.compile(r"^\s*(@\w+\s+)*import\s+Darwin\b"), "import Darwin", "bare"),
    (re.compile(r"\bDarwin\."), "Darwin.", "bare"),
    (re.compile(r"\bSO_NOSIGPIPE\b"), "SO_NOSIGPIPE (Darwin only)", "bare"),
]
PROCESS = [
    (re.compile(r"\bProcess\s*\("), "Process( (macOS and Linux only)", "bare"),
    (re.compile(r"\bProcess\s*\."), "Process. (macOS and Linux only)", "bare"),
    (re.compile(r":\s*Process\b(?!\w)"), ": Process (macOS and Linux only)", "bare"),
]
OS26 = [
    (re.compile(r"\baddObserver\s*\(\s*of\s*:"), "addObserver(of:for:) (OS 26)"),
    (re.compile(r"\bMainActorMessage\b"), "MainActorMessage (OS 26)"),
    (re.compile(r"\bAsyncMessage\b"), "AsyncMessage (OS 26)"),
    (re.compile(r"\b(Base)?MessageIdentifier\b"), "MessageIdentifier (OS 26)"),
    (re.compile(r"\.messages\s*\(\s*of\s*:"), "messages(of:for:) (OS 26)"),
    (re.compile(r"\bObservations\b"), "Observations (OS 26)"),
    (re.compile(r"\bpost\s*\([^()]*(\([^()]*\)[^()]*)*,\s*subject\s*:"), "post(_:subject:) (OS 26)"),
    (re.compile(r"\bObservationToken\b"), "NotificationCenter.ObservationToken (OS 26)"),
]
AVAILABLE_26 = re.compile(r"[@#]available\s*\([^)]*\b26\b")
GUARD_AVAILABLE_26 = re.compile(r"\bguard\s+#available\s*\([^)]*\b26\b")
DIRECTIVE = re.compile(r"^\s*#(if|elseif|else|endif)\b(.*)$")
# A runtime query's iOS entry does not cover visionOS (only @available's does): visionOS then gets the `*`, its
# deployment target, and OS-26 API under the query fails to type-check for visionOS 1-25.
RUNTIME_QUERY = re.compile(r"#(?:un)?available\s*\(([^)]*)\)")


def ios_without_visionos(text, shown):
    """Each `#available(…)` / `#unavailable(…)` in `text` (comments already removed for Swift) that names iOS
    but not visionOS, as a finding."""
    findings = []
    for match in RUNTIME_QUERY.finditer(text):
        arguments = match.group(1)
        if re.search(r"\biOS(ApplicationExtension)?\b", arguments) and not re.search(r"\bvisionOS\b", arguments):
            number = text.count("\n", 0, match.start()) + 1
            findings.append(f"{shown}:{number}: {match.group(0).split('(')[0]} names iOS without visionOS (in a runtime "
                            f"query iOS does not cover visionOS, which then takes the deployment target): "
                            f"{' '.join(match.group(0).split())}")
    return findings


def check_file(path, shown):
    findings = []
    with open(path, encoding="utf-8", errors="replace") as handle:
        source = handle.read()
    code_lines, bare_lines = lex(source)
    raw_lines = source.split("\n")
    findings += ios_without_visionos("\n".join(bare_lines), shown)
    stack = []
    scopes = [False]          # availability-26 per brace scope (the file scope first)
    pending = False           # an @available/#available(26) seen, waiting for its `{`
    apple, linux, no_process = configs(APPLE), configs(["Linux"]), configs(NO_PROCESS)
    old_compiler = [Config(p, (6, 0)) for p in APPLE + ["Linux"]]

    def active(config_list):
        return [c for c in config_list if all(b.active(c) for b in stack)]

    for number, (code, bare) in enumerate(zip(code_lines, bare_lines), start=1):
        directive = DIRECTIVE.match(bare)
        if directive:
            kind, rest = directive.group(1), directive.group(2).strip()
            try:
                if kind == "if":
                    stack.append(Branch(rest))
                elif kind == "elseif":
                    if not stack:
                        raise ValueError("#elseif without #if")
                    stack[-1].earlier.append(stack[-1].condition)
                    stack[-1].condition = rest
                elif kind == "else":
                    if not stack or stack[-1].condition is None:
                        raise ValueError("#else without #if")
                    stack[-1].earlier.append(stack[-1].condition)
                    stack[-1].condition = None
                else:
                    if not stack:
                        raise ValueError("#endif without #if")
                    stack.pop()
            except ValueError as problem:
                findings.append(f"{shown}:{number}: {problem}")
                return findings
            continue

        def report(what, where):
            findings.append(f"{shown}:{number}: {what} outside a guard that keeps it off {where}: {code.strip()}")

        for pattern, what, text in LINUX_ONLY:
            if pattern is LOOPBACK and ADDRESS_ONLY.search(raw_lines[number - 1] if number <= len(raw_lines) else ""):
                continue
            if pattern.search(code if text == "code" else bare):
                hit = active(apple)
                if hit:
                    report(what, ", ".join(sorted({c.platform for c in hit})))
        for pattern, what, text in DARWIN_ONLY:
            if pattern.search(bare) and active(linux):
                report(what, "Linux")
        for pattern, what, text in PROCESS:
            if pattern.search(bare):
                hit = active(no_process)
                if hit:
                    report(what, ", ".join(sorted({c.platform for c in hit})))

        # Availability: walk the line's braces, noting the scope state where each OS-26 name starts.
        if AVAILABLE_26.search(bare):
            pending = True
        states = []
        for index, char in enumerate(bare):
            states.append(any(scopes) or pending)   # pending: the header of a declaration marked @available
            if char == "{":
                scopes.append(pending)
                pending = False
            elif char == "}" and len(scopes) > 1:
                scopes.pop()
        if GUARD_AVAILABLE_26.search(bare):
            scopes[-1] = True
            pending = False
        # An attribute on a declaration without a body (`@available(…) case x`, a stored property) covers that line
        # only: forget it at the end of a line that opens nothing, is not an attribute and does not continue.
        stripped = bare.strip()
        if pending and stripped and "{" not in bare and not stripped.startswith("@") \
                and not re.search(r"([,(:=&|]|->|\bwhere)$", stripped):
            pending = False
        for pattern, what in OS26:
            for match in pattern.finditer(bare):
                available = states[match.start()] if match.start() < len(states) else any(scopes)
                if not available:
                    report(what, "macOS 14 / iOS 17 / tvOS 17 / watchOS 10 (no @available or #available for 26)")
                elif active(old_compiler):
                    report(what, "compilers before 6.2 (no #if compiler(>=6.2))")
    if stack:
        findings.append(f"{shown}: #if without #endif")
    return findings


# ---------------------------------------------------------------- C sources

C_PLATFORMS = {
    "Linux": {"__linux__": 1, "__linux": 1, "__unix__": 1, "__GLIBC__": 2, "__GLIBC_MINOR__": 39, "__GNUC__": 4},
    "Darwin": {"__APPLE__": 1, "__MACH__": 1, "__GNUC__": 4},
}
C_LINUX_ONLY = [
    (re.compile(r"\bmallinfo2?\b"), "mallinfo (glibc)"),
    (re.compile(r"\bmalloc_trim\b"), "malloc_trim (glibc)"),
    (re.compile(r"\bmalloc_usable_size\b"), "malloc_usable_size (glibc)"),
    (re.compile(r"#\s*include\s*<malloc\.h>"), "#include <malloc.h> (glibc; Darwin has <malloc/malloc.h>)"),
    (re.compile(r"\bepoll_\w+|#\s*include\s*<sys/epoll\.h>"), "epoll (Linux)"),
    (re.compile(r"\bMSG_NOSIGNAL\b"), "MSG_NOSIGNAL (Linux only; Darwin uses SO_NOSIGPIPE)"),
    (re.compile(r"\bdlsym\s*\(\s*(NULL|0|\(\s*void\s*\*\s*\)\s*0)\s*,"), "dlsym with a null handle as RTLD_DEFAULT (glibc's)"),
]
C_DARWIN_ONLY = [
    (re.compile(r"#\s*include\s*<malloc/malloc\.h>"), "#include <malloc/malloc.h> (Darwin)"),
    (re.compile(r"\bmalloc_zone_\w+"), "malloc_zone_… (Darwin)"),
    (re.compile(r"#\s*include\s*<mach/|\bmach_\w+\s*\("), "Mach (Darwin)"),
    (re.compile(r"\bSO_NOSIGPIPE\b"), "SO_NOSIGPIPE (Darwin only)"),
]
C_DIRECTIVE = re.compile(r"^\s*#\s*(if|ifdef|ifndef|elif|else|endif|define|undef)\b\s*(.*)$")


def strip_c_comments(source):
    """The source with /* */ and // comments blanked (newlines kept, so line numbers hold); string contents kept."""
    out, i, n = [], 0, len(source)
    while i < n:
        if source.startswith("/*", i):
            end = source.find("*/", i + 2)
            end = n if end < 0 else end + 2
            out.append("".join("\n" if c == "\n" else " " for c in source[i:end]))
            i = end
        elif source.startswith("//", i):
            end = source.find("\n", i)
            end = n if end < 0 else end
            out.append(" " * (end - i))
            i = end
        elif source[i] in "\"'":
            quote, j = source[i], i + 1
            while j < n and source[j] != quote and source[j] != "\n":
                j += 2 if source[j] == "\\" else 1
            out.append(source[i:j + 1])
            i = j + 1
        else:
            out.append(source[i])
            i += 1
    return "".join(out)


def evaluate_c(condition, macros):
    """A C preprocessor condition for one platform: defined(X) / defined X, the platform's and the file's macros,
    integers, ! && || and comparisons; an unknown identifier is 0, as in C."""
    text = re.sub(r"\bdefined\s*\(\s*(\w+)\s*\)|\bdefined\s+(\w+)",
                  lambda m: "1" if (m.group(1) or m.group(2)) in macros else "0", condition)
    text = re.sub(r"\b([A-Za-z_]\w*)\b", lambda m: str(macros.get(m.group(1), 0)), text)
    text = re.sub(r"(\d+)[uUlL]+\b", r"\1", text)
    text = text.replace("&&", " and ").replace("||", " or ")
    text = re.sub(r"!(?!=)", " not ", text)
    if not re.fullmatch(r"[\d\s()<>=!andort]*", text):
        raise ValueError(f"cannot evaluate #if {condition!r}")
    return bool(eval(text, {"__builtins__": {}}, {}))


def check_c_file(path, shown):
    """The C rules for one file, each platform on its own (its macros, the file's #defines as they happen)."""
    with open(path, encoding="utf-8", errors="replace") as handle:
        lines = strip_c_comments(handle.read()).split("\n")
    findings = []
    for platform, predefined in C_PLATFORMS.items():
        macros = dict(predefined)
        stack = []   # per level: [this branch active, some branch taken, enclosing active]
        rules = C_LINUX_ONLY if platform == "Darwin" else C_DARWIN_ONLY
        where = "Darwin" if platform == "Darwin" else "Linux"
        for number, line in enumerate(lines, start=1):
            active = all(level[0] for level in stack)
            directive = C_DIRECTIVE.match(line)
            try:
                if directive:
                    kind, rest = directive.group(1), directive.group(2).strip()
                    if kind in ("if", "ifdef", "ifndef"):
                        if kind == "if":
                            value = evaluate_c(rest, macros)
                        else:
                            value = (rest.split()[0] in macros) == (kind == "ifdef")
                        stack.append([active and value, value, active])
                    elif kind == "elif":
                        if not stack:
                            raise ValueError("#elif without #if")
                        level = stack[-1]
                        value = not level[1] and evaluate_c(rest, macros)
                        level[0], level[1] = level[2] and value, level[1] or value
                    elif kind == "else":
                        if not stack:
                            raise ValueError("#else without #if")
                        level = stack[-1]
                        level[0], level[1] = level[2] and not level[1], True
                    elif kind == "endif":
                        if not stack:
                            raise ValueError("#endif without #if")
                        stack.pop()
                    elif kind == "define" and active and rest:
                        name = re.match(r"\w+", rest).group(0)
                        value = rest[len(name):].strip()
                        macros[name] = int(value) if value.isdigit() else 1
                    elif kind == "undef" and active and rest:
                        macros.pop(rest.split()[0], None)
            except ValueError as problem:
                findings.append(f"{shown}:{number}: {problem}")
                break
            if directive or not active:
                continue
            for pattern, what in rules:
                if pattern.search(line):
                    findings.append(f"{shown}:{number}: {what} outside a preprocessor guard that keeps it off {where}: {line.strip()}")
        else:
            if stack:
                findings.append(f"{shown}: #if without #endif ({platform})")
    return sorted(set(findings), key=lambda f: (f.split(":")[0], int(f.split(":")[1]) if f.split(":")[1].isdigit() else 0))


def scan(root):
    findings = []
    for folder in FOLDERS:
        base = os.path.join(root, folder)
        for directory, subfolders, files in os.walk(base):
            subfolders.sort()
            for name in sorted(files):
                path = os.path.join(directory, name)
                if name.endswith(".swift"):
                    findings += check_file(path, os.path.relpath(path, root))
                elif name.endswith((".c", ".h")):
                    findings += check_c_file(path, os.path.relpath(path, root))
                elif name.endswith(".md"):
                    findings += check_markdown(path, os.path.relpath(path, root))
    for name in sorted(os.listdir(root)):
        if name.endswith(".md"):
            findings += check_markdown(os.path.join(root, name), name)
    return findings


# The Apple targets at the package's minimums, each type-checked with the host's compiler (-parse-stdlib: no SDK is
# needed for an availability check): every distinct runtime query of the tree must make OS-26 API available on each.
TYPECHECK_TARGETS = ["arm64-apple-xros1.0", "arm64-apple-xros1.0-simulator", "arm64-apple-ios17.0",
                     "arm64-apple-macos14.0", "arm64-apple-tvos17.0", "arm64_32-apple-watchos10.0"]


# visionOS's SDK maps iOS versions to its own (SDKSettings.json `VersionMap`): without it the front end compares a visionOS
# target with raw iOS numbers, and an iOS API older than 17 (performExpiringActivity's iOS 8.2) is a false error on
# xros1.0. The map below is Apple's published pairing (visionOS 1.0 = iOS 17.1, 1.1 = 17.4, 1.2 = 17.5, 2.x = 18.x,
# 26 = 26), written into a stand-in SDK folder passed with `-sdk` for the visionOS targets.
VISIONOS_FROM_IOS = {"17.1": "1.0", "17.4": "1.1", "17.5": "1.2", "18.0": "2.0", "18.1": "2.1", "18.2": "2.2",
                     "18.3": "2.3", "18.4": "2.4", "18.5": "2.5", "18.6": "2.6", "26.0": "26.0"}
# A declaration as Foundation imports performExpiringActivity (WriteBackgroundTime), called where BMLTKit calls it: it
# must type-check for every target; on xros it does only with the version map.
OLD_IOS_API_PROBE = ("@available(iOS 8.2, watchOS 2.0, tvOS 9.0, *)\n@available(macOS, unavailable)\nfunc expiringActivity() {}\n"
                     "#if os(iOS) || os(tvOS) || os(watchOS) || os(visionOS)\nfunc use() { expiringActivity() }\n#endif\n")


def visionos_sdk(folder):
    """Writes a stand-in visionOS SDK (only its SDKSettings.json, with the version map) into `folder`; returns it."""
    ios_from_visionos = {v: k for k, v in VISIONOS_FROM_IOS.items()}
    settings = {"DisplayName": "visionOS 26.0", "Version": "26.0", "CanonicalName": "xros26.0",
                "MaximumDeploymentTarget": "26.0.99",
                "VersionMap": {"iOS_visionOS": VISIONOS_FROM_IOS, "iOS_xrOS": VISIONOS_FROM_IOS,
                               "visionOS_iOS": ios_from_visionos, "xrOS_iOS": ios_from_visionos}}
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, "SDKSettings.json"), "w", encoding="utf-8") as handle:
        json.dump(settings, handle)
    return folder


def typecheck(compiler, target, path, sdk):
    """`swiftc -frontend -typecheck` of `path` for `target` (visionOS targets with the stand-in SDK `sdk`, or none):
    the first error line, or None."""
    command = [compiler, "-typecheck", "-parse-stdlib", "-target", target, path]
    if sdk and "-xros" in target:
        command += ["-sdk", sdk]
    result = subprocess.run(command, capture_output=True, text=True)
    if result.returncode == 0 and "SDK settings were ignored" not in result.stderr:
        return None
    return next((line for line in result.stderr.splitlines() if "error:" in line or "SDK settings" in line), result.stderr.strip())


def frontend():
    found = shutil.which("swift-frontend")
    if not found and shutil.which("swift"):
        candidate = os.path.join(os.path.dirname(os.path.realpath(shutil.which("swift"))), "swift-frontend")
        found = candidate if os.path.exists(candidate) else None
    return found


def typecheck_queries(root):
    """Each distinct `#available(… 26 …)` of the Swift files and Markdown, type-checked for visionOS 1 (device and
    simulator), iOS 17, macOS 14, tvOS 17 and watchOS 10 around a call to a declaration marked as BMLTKit marks its
    OS-26 API (`@available` with macOS/iOS/tvOS/watchOS 26: the iOS entry covers visionOS there). Returns (findings,
    number of queries checked); no findings and 0 when there is no compiler."""
    compiler = frontend()
    if not compiler:
        return [], 0
    queries = set()
    for folder in FOLDERS + ["."]:
        base = os.path.join(root, folder)
        walk = os.walk(base) if folder != "." else [(root, [], os.listdir(root))]
        for directory, _, files in walk:
            for name in files:
                if name.endswith((".swift", ".md")):
                    with open(os.path.join(directory, name), encoding="utf-8", errors="replace") as handle:
                        for match in RUNTIME_QUERY.finditer(handle.read()):
                            # Code only: every item a platform and version, or `*` (prose such as `#available(… 26 …)` is not).
                            items = [item.strip() for item in match.group(1).split(",")]
                            code = all(re.fullmatch(r"\*|[A-Za-z]+ \d+(\.\d+)*", item) for item in items)
                            if code and re.search(r"\b26\b", match.group(1)) and match.group(0).startswith("#available"):
                                queries.add(" ".join(match.group(1).split()))
    findings = []
    with tempfile.TemporaryDirectory(prefix="bmltkit-availability-") as temporary:
        sdk = visionos_sdk(os.path.join(temporary, "visionOS.sdk"))
        probe = os.path.join(temporary, "old_ios_api.swift")
        with open(probe, "w", encoding="utf-8") as handle:
            handle.write(OLD_IOS_API_PROBE)
        for target in TYPECHECK_TARGETS:
            error = typecheck(compiler, target, probe, sdk)
            if error:
                findings.append(f"an iOS 8.2 API (as performExpiringActivity) does not type-check for {target}: "
                                f"{error.split('error: ', 1)[-1]}")
        for index, query in enumerate(sorted(queries)):
            path = os.path.join(temporary, f"query{index}.swift")
            with open(path, "w", encoding="utf-8") as handle:
                handle.write("@available(macOS 26, iOS 26, tvOS 26, watchOS 26, *)\nfunc typedMessages() {}\n"
                             f"func ifForm() {{ if #available({query}) {{ typedMessages() }} }}\n"
                             f"func guardForm() {{ guard #available({query}) else {{ return }}; typedMessages() }}\n")
            for target in TYPECHECK_TARGETS:
                error = typecheck(compiler, target, path, sdk)
                if error:
                    findings.append(f"#available({query}) does not type-check for {target}: {error.split('error: ', 1)[-1]}")
    return findings, len(queries)


def check_markdown(path, shown):
    """Markdown (README, DocC articles, samples' manuals): its code and its prose show the runtime-query rule too."""
    with open(path, encoding="utf-8", errors="replace") as handle:
        return ios_without_visionos(handle.read(), shown)


# ---------------------------------------------------------------- self-test

PLANTED_FAILING = {
    "sock-stream": "let kind = Int32(SOCK_STREAM.rawValue)\n",
    "msg-nosignal": "let flags = Int32(MSG_NOSIGNAL)\n",
    "glibc-import": "import Glibc\n",
    "glibc-member": "#if canImport(Darwin)\n#else\nlet n = 1\n#endif\nlet sent = Glibc.send(1, nil, 0, 0)\n",
    "networking-import": "import FoundationNetworking\n",
    "mallinfo": "#if DEBUG\nlet info = mallinfo2()\n#endif\n",
    "epoll": "let fd = epoll_create1(0)\n",
    "loopback-2": 'let server = try LoopbackHTTPServer(host: "127.0.0.2") { _ in .silence }\n',
    "loopback-127.1.2.3": 'let server = try LoopbackHTTPServer(host: "127.1.2.3") { _ in .silence }\n',
    "loopback-127.255.0.1-in-url": 'let url = URL(string: "http://127.255.0.1:8080/main_server")!\n',
    "dlsym-null-handle": 'let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "mallinfo2")\n',
    "os26-post-subject": "#if compiler(>=6.2)\nfunc f(_ c: NotificationCenter, _ m: M, _ s: S) {\n    c.post(m, subject: s)\n}\n#endif\n",
    "os26-post-subject-nested-call": "#if compiler(>=6.2)\n@MainActor func f(_ c: NotificationCenter) {\n    c.post(M.make(1), subject: connection)\n}\n#endif\n",
    "os26-observation-token": "#if compiler(>=6.2)\nfinal class Holder {\n    var token: NotificationCenter.ObservationToken?\n}\n#endif\n",
    "os26-typed-message-conformance": "#if compiler(>=6.2)\nstruct Saved: NotificationCenter.MainActorMessage {\n    typealias Subject = BMLTConnection\n}\n#endif\n",
    "visionos-falls-to-glibc": "#if os(macOS) || os(iOS) || os(tvOS) || os(watchOS)\nimport Darwin\n#else\nimport Glibc\n#endif\n",
    "visionos-process": "#if !os(iOS) && !os(tvOS) && !os(watchOS)\nlet p = Process()\n#endif\n",
    "c-mallinfo-unguarded": "#include <stdlib.h>\n#include <malloc.h>\nsize_t used(void) { struct mallinfo2 i = mallinfo2(); return i.uordblks; }\n",
    "c-guard-always-true": "#if defined(__linux__) || 1\n#include <malloc.h>\n#endif\n",
    "c-malloc-zone-on-linux": "#include <malloc/malloc.h>\nsize_t used(void) { return malloc_zone_statistics ? 0 : 0; }\n",
    "c-unbalanced": "#if defined(__GLIBC__)\nint x;\n",
    "process-unguarded": 'let p = Process()\n',
    "process-macos-only-else": "#if os(macOS)\nlet a = 1\n#else\nlet p = Process()\n#endif\n",
    "process-member": "let current = Process.current\n",
    "glibc-in-else-of-linux": "#if os(Linux)\nlet a = 1\n#else\nlet kind = Int32(SOCK_STREAM.rawValue)\n#endif\n",
    "glibc-in-negated": "#if !canImport(Glibc)\nlet kind = Int32(SOCK_STREAM.rawValue)\n#endif\n",
    "darwin-on-linux": "import Darwin\n",
    "nosigpipe-on-linux": "#if !os(Linux) || true\nlet option = SO_NOSIGPIPE\n#endif\n",
    "os26-no-availability": "#if compiler(>=6.2)\nfunc f(_ c: NotificationCenter) {\n    _ = c.addObserver(of: C.self, for: M.self) { _ in }\n}\n#endif\n",
    "os26-no-compiler-guard": "@available(macOS 26, iOS 26, tvOS 26, watchOS 26, *)\nstruct M: MainActorMessage {}\n",
    "os26-else-branch": "#if compiler(>=6.2)\nfunc f() {\n    if #available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *) {\n    } else {\n        let o = Observations { 1 }\n    }\n}\n#endif\n",
    "available-ios-without-visionos": "#if compiler(>=6.2)\nfunc f(_ c: NotificationCenter) {\n    if #available(macOS 26, iOS 26, tvOS 26, watchOS 26, *) {\n        _ = c.addObserver(of: C.self, for: M.self) { _ in }\n    }\n}\n#endif\n",
    "guard-available-ios-without-visionos": "func f() async {\n    guard #available(\n        macOS 15, iOS 18,\n        *\n    ) else { return }\n}\n",
    "unavailable-ios-without-visionos": "func f() {\n    if #unavailable(iOS 18) { return }\n}\n",
    "os26-after-bodiless-declaration": "#if compiler(>=6.2)\n@available(macOS 26, iOS 26, tvOS 26, watchOS 26, *)\nlet x = 1\nfunc f(_ c: NotificationCenter) {\n    _ = c.addObserver(of: C.self, for: M.self) { _ in }\n}\n#endif\n",
    "unbalanced": "#if os(Linux)\nlet a = 1\n",
}
PLANTED_PASSING = {
    "sock-stream-guarded": "#if canImport(Glibc)\nlet kind = Int32(SOCK_STREAM.rawValue)\n#else\nlet kind = SOCK_STREAM\n#endif\n",
    "nested": "#if canImport(Darwin)\nimport Darwin\n#elseif canImport(Glibc)\nimport Glibc\n#if DEBUG\nlet flags = Int32(MSG_NOSIGNAL)\n#endif\n#endif\n",
    "networking-guarded": "#if canImport(FoundationNetworking)\nimport FoundationNetworking\n#endif\n",
    "process-guarded": "#if os(macOS) || os(Linux)\nlet p = Process()\n#endif\n",
    "process-linux": "#if os(Linux)\nlet p = Process()\n#endif\n",
    "comments-and-strings": '// Int32(SOCK_STREAM.rawValue), Process(), 127.0.0.2\n/* import Glibc\n   /* nested */ mallinfo() */\nlet text = "Process() is not here; nor MSG_NOSIGNAL"\nlet many = """\n  Glibc.send(...)\n  """\n',
    "loopback-1": 'let url = "http://127.0.0.1:8080"\nlet server = try LoopbackHTTPServer(host: "127.0.0.1") { _ in .silence }\n',
    "loopback-address-only": 'let hosts = ["127.0.0.1", "127.1.2.3"]  // portability: address only\n',
    "post-classic": "center.post(name: .bmltError, object: connection, userInfo: [:])\ncenter.post(note)\n",
    "os26-post-subject-guarded": "#if compiler(>=6.2)\n@available(macOS 26, iOS 26, tvOS 26, watchOS 26, *)\n@MainActor func f(_ c: NotificationCenter) {\n    c.post(M.make(1), subject: connection)\n    let token: NotificationCenter.ObservationToken = c.addObserver(of: C.self, for: M.self) { _ in }\n    c.removeObserver(token)\n}\n#endif\n",
    "visionos-guarded": "#if canImport(Darwin)\nimport Darwin\n#elseif canImport(Glibc)\nimport Glibc\n#endif\n#if os(macOS) || os(Linux)\nlet p = Process()\n#endif\n#if targetEnvironment(simulator)\nlet simulated = true\n#endif\n",
    "c-glibc-guarded": "#include <stdlib.h>\n#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 33))\n#include <malloc.h>\n#define HAS_MALLINFO2 1\n#endif\nsize_t used(void) {\n#if defined(HAS_MALLINFO2)\n    return mallinfo2().uordblks;\n#elif defined(__APPLE__)\n    return 0;\n#else\n    return 0;\n#endif\n}\n",
    "c-darwin-guarded": "#ifdef __APPLE__\n#include <malloc/malloc.h>\n#endif\n#ifndef __linux__\nint zone = 0; /* malloc_zone_statistics in a comment */\n#endif\n",
    "os26-guarded": "#if compiler(>=6.2)\n@available(macOS 26, iOS 26, tvOS 26, watchOS 26, *)\nstruct M: MainActorMessage {\n    static func f(_ c: NotificationCenter) { _ = c.addObserver(of: C.self, for: M.self) { _ in } }\n}\nfunc g(_ c: NotificationCenter) {\n    if #available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *) {\n        _ = c.addObserver(of: C.self, for: M.self) { _ in }\n    }\n}\nfunc h(_ c: NotificationCenter) async {\n    guard #available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *) else { return }\n    for await _ in c.messages(of: C.self, for: M.self) {}\n}\n#endif\n",
    "not-observations": "let notificationObservations = NotificationObservations()\n",
    "available-ios-with-visionos": "func f() {\n    if #available(macOS 15, iOS 18, visionOS 2, *) {}\n    if #available(macOS 15, *) {}\n    // #available(iOS 18, *) in a comment\n    let s = \"#available(iOS 18, *)\"\n}\n@available(iOS 18, *)\nfunc g() {}\n",
}


def self_test():
    here = os.path.dirname(os.path.abspath(__file__))
    root = os.path.dirname(here)
    script = os.path.abspath(__file__)
    failures = 0
    with tempfile.TemporaryDirectory(prefix="bmltkit-portability-") as temporary:
        for folder in FOLDERS:
            if os.path.isdir(os.path.join(root, folder)):
                shutil.copytree(os.path.join(root, folder), os.path.join(temporary, folder))

        def run():
            return subprocess.run([sys.executable, script, "--root", temporary], capture_output=True, text=True)

        clean = run()
        print(f"self-test: the tree as it is: exit {clean.returncode}")
        if clean.returncode != 0:
            print(clean.stdout + clean.stderr)
            failures += 1
        # Each planted file is checked by itself (the rest of the tree was just shown clean); the first one also through
        # the whole command, to show its exit status.
        swift_plant = os.path.join(temporary, "Tests", "LoopbackHTTPServer", "Planted.swift")
        c_plant = os.path.join(temporary, "Benchmarks", "BenchSupport", "planted.c")
        for index, (name, text) in enumerate(list(PLANTED_FAILING.items()) + list(PLANTED_PASSING.items())):
            should_fail = name in PLANTED_FAILING
            planted = c_plant if name.startswith("c-") else swift_plant
            with open(planted, "w", encoding="utf-8") as handle:
                handle.write(text)
            checker = check_c_file if name.startswith("c-") else check_file
            findings = checker(planted, os.path.relpath(planted, temporary))
            failed = bool(findings)
            if index == 0:
                whole = run()
                print(f"self-test: .ci/portability on the copy with planted {name}: exit {whole.returncode}")
                if whole.returncode == 0:
                    failures += 1
            verdict = "ok" if failed == should_fail else "WRONG"
            first = findings[0] if findings else ""
            print(f"self-test: {'fails' if failed else 'passes'} ({'expected' if verdict == 'ok' else 'NOT expected'}) "
                  f"with planted {name}" + (f": {first.split(': ', 1)[1][:110]}" if first else ""))
            if verdict != "ok":
                failures += 1
            os.remove(planted)
        # A DocC article whose snippet names iOS without visionOS in a runtime query.
        article = os.path.join(temporary, "Sources", "Planted.md")
        with open(article, "w", encoding="utf-8") as handle:
            handle.write("# Planted\n\n```swift\nif #available(macOS 26, iOS 26, tvOS 26, watchOS 26, *) {\n}\n```\n")
        result = run()
        ok = result.returncode != 0 and "Planted.md:4" in result.stdout \
            and (not frontend() or "does not type-check for arm64-apple-xros1.0" in result.stdout)
        print(f"self-test: a Markdown snippet with #available naming iOS without visionOS (and its xros1.0 type-check): exit {result.returncode} "
              f"({'expected' if ok else 'NOT expected'})")
        failures += 0 if ok else 1
        os.remove(article)
        # The version map: without it, an iOS 8.2 API is a (false) error on xros1.0; with it, clean.
        if frontend():
            with tempfile.TemporaryDirectory(prefix="bmltkit-versionmap-") as scratch:
                probe = os.path.join(scratch, "probe.swift")
                with open(probe, "w", encoding="utf-8") as handle:
                    handle.write(OLD_IOS_API_PROBE)
                without = typecheck(frontend(), "arm64-apple-xros1.0", probe, None)
                with_map = typecheck(frontend(), "arm64-apple-xros1.0", probe, visionos_sdk(os.path.join(scratch, "sdk")))
                ok = without is not None and with_map is None
                print(f"self-test: an iOS 8.2 API on xros1.0: without the version map {'an error' if without else 'clean'}, "
                      f"with it {'clean' if with_map is None else with_map} ({'expected' if ok else 'NOT expected'})")
                failures += 0 if ok else 1

        def break_real_file(relative, breaking, label):
            """Breaks one real file of the copy, shows the whole check fails naming it, and puts the file back."""
            nonlocal failures
            path = os.path.join(temporary, relative)
            if not os.path.exists(path):
                return
            with open(path, encoding="utf-8") as handle:
                text = handle.read()
            broken = breaking(text)
            with open(path, "w", encoding="utf-8") as handle:
                handle.write(broken)
            result = run()
            ok = broken != text and result.returncode != 0 and os.path.basename(path) in result.stdout
            print(f"self-test: {label}: exit {result.returncode} ({'expected' if ok else 'NOT expected'})")
            failures += 0 if ok else 1
            with open(path, "w", encoding="utf-8") as handle:
                handle.write(text)

        # The real file as it was before visionOS was named: BMLTEventMonitor's postMessage query without visionOS 26.
        break_real_file(os.path.join("Sources", "BMLTKit", "Notifications", "BMLTEventMonitor.swift"),
                        lambda text: text.replace("watchOS 26, visionOS 26, *)", "watchOS 26, *)"),
                        "BMLTEventMonitor.swift without visionOS 26 in its #available")
        # The real C file with its glibc guard gone: mallinfo2 and <malloc.h> reach Darwin.
        break_real_file(os.path.join("Benchmarks", "BenchSupport", "bench_support.c"),
                        lambda text: re.sub(r"(?m)^#if defined\(__GLIBC__\).*$", "#if 1", text),
                        "bench_support.c with its glibc guard replaced by #if 1")
        # The real file, broken the way C1 was: SocketTransport's socket() call with SOCK_STREAM.rawValue again.
        break_real_file(os.path.join("Tests", "BMLTKitTests", "Reliability", "SocketTransport.swift"),
                        lambda text: text.replace("LoopbackHTTPServer.streamType", "Int32(SOCK_STREAM.rawValue)"),
                        "SocketTransport.swift with SOCK_STREAM.rawValue put back")
    if failures:
        print(f"self-test: {failures} wrong")
        return 1
    print("self-test: every planted construct fails the check, every guarded form passes")
    return 0


def main(arguments):
    if arguments[:1] == ["--self-test"]:
        return self_test()
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    if arguments[:1] == ["--root"] and len(arguments) > 1:
        root = arguments[1]
    findings = scan(root)
    typechecked, queries = typecheck_queries(root)
    findings += typechecked
    for finding in findings:
        print(finding)
    if findings:
        print(f"portability: {len(findings)} finding(s)")
        return 1
    walked = [f for folder in FOLDERS for _, _, files in os.walk(os.path.join(root, folder)) for f in files]
    count = sum(1 for f in walked if f.endswith(".swift"))
    c_count = sum(1 for f in walked if f.endswith((".c", ".h")))
    print(f"portability: {count} Swift files and {c_count} C files, no Linux-only or Darwin-only construct outside its guard")
    if queries:
        print(f"portability: {queries} distinct #available(… 26 …) queries, and an iOS 8.2 API as performExpiringActivity, "
              "type-check for " + ", ".join(TYPECHECK_TARGETS) + " (visionOS with its SDK's iOS version map)")
    else:
        print("portability: no swift-frontend here: the #available queries were not type-checked for Apple targets")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
