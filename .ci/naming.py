#!/usr/bin/env python3
"""The naming rule of "One vocabulary", checked on the public API of BMLTConnection (read from Sources/BMLTKit).

An operation is a public method of BMLTConnection (the class or any extension of it) that is `async` or returns
`BMLTRequest`. Deprecated members (the old names, forwarding to the new ones) are left out. The rule:
  1. A method returning BMLTRequest is fire-and-forget: its name never ends in `AndWait`.
  2. A method whose name ends in `AndWait` is `async`, and the same name without it, with the same argument
     labels, is a fire-and-forget method (both forms).
  3. An action (its name starts with a verb that changes something: create, update, delete, save, …) that is
     `async` ends in `AndWait`; one returning BMLTRequest has its `AndWait` form.
  4. A read's fire-and-forget form is `fetch` + its async name (`fetchFormats` / `formats`; the labels may differ,
     the noun is the same), and an async read has its fire-and-forget form, unless the pair is one the article states (`searchMeetings` /
     `meetings(matching:)`, `connect` / `validate`, `startLogin` / `login`, …) or it is a one-form helper.
Exit 1 and one line per broken name. `--self-test` plants bad names on a copy of the sources and must see each fail.
"""
import os, re, shutil, subprocess, sys, tempfile

ACTION_VERBS = {"create", "update", "patch", "delete", "save", "restore", "rollback", "roll", "send", "logout", "log",
                "remove", "add", "set", "edit", "modify", "post", "put", "rename", "move", "copy", "upload", "perform",
                "message", "change", "insert", "replace", "reset", "revert", "submit", "approve", "publish"}
# Pairs the article states: fire-and-forget name(labels) -> async name(labels).
STATED_PAIRS = {
    "connect()": "validate()",
    "startLogin(username:password:)": "login(username:password:)",
    "searchMeetings(_:extent:)": "meetings(matching:extent:)",
    "searchMeetings(_:extent:updating:)": "meetings(matching:extent:updating:)",
    "searchNearby(_:atLeast:startingRadius:maximumRadius:criteria:)": "meetings(near:atLeast:startingRadius:maximumRadius:criteria:)",
    "perform(_:)": "performAndWait(_:)",
}
# Helpers that only compute or combine what other operations give: one form, stated in the article.
ONE_FORM = {"upcomingMeetings(days:matching:in:defaultTimeZone:now:)"}


def words(name):
    return re.findall(r"[a-z]+|[A-Z][a-z]*", name)


def split_top(text):
    parts, depth, current = [], 0, ""
    for char in text.replace("->", "→"):
        if char in "([{<":
            depth += 1
        elif char in ")]}>":
            depth -= 1
        if char == "," and depth == 0:
            parts.append(current); current = ""
        else:
            current += char
    if current.strip():
        parts.append(current)
    return parts


def signature(name, params):
    labels = []
    for param in split_top(params):
        head = param.split(":", 1)[0].split()
        head = [h for h in head if not h.startswith("@") and h not in ("inout",)]
        labels.append(head[0] if head else "_")
    return "%s(%s)" % (name, "".join(l + ":" for l in labels))


def declarations(root):
    """(file, line, name, signature, is_async, returns_request) of BMLTConnection's public, non-deprecated methods."""
    found = []
    sources = os.path.join(root, "Sources", "BMLTKit")
    for folder, _, files in os.walk(sources):
        for file in sorted(files):
            if not file.endswith(".swift"):
                continue
            path = os.path.join(folder, file)
            text = open(path, encoding="utf-8").read()
            lines = text.split("\n")
            depth, scope, attributes = 0, None, []
            index = 0
            while index < len(lines):
                line = lines[index]
                stripped = line.strip()
                if depth == 0:
                    match = re.match(r"(?:@\w+(?:\([^)]*\))?\s+)*(?:public\s+|internal\s+)?(?:final\s+)?(extension|class)\s+(\w+)", stripped)
                    scope = match.group(2) if match else None
                if depth == 1 and scope == "BMLTConnection":
                    if stripped.startswith("@"):
                        attributes.append(stripped)
                    elif re.match(r"(?:nonisolated\s+)?public\s+(?:nonisolated\s+)?func\s", stripped):
                        decl, end = stripped, index
                        while decl.count("(") > decl.count(")") or ("{" not in decl and end + 1 < len(lines)
                                                                  and not lines[end + 1].strip().startswith(("///", "@", "public", "}"))):
                            end += 1
                            decl += " " + lines[end].strip()
                        match = re.match(r".*?func\s+(\w+)\s*(?:<[^>]*>)?\s*\(", decl)
                        if match:
                            start, level = match.end(), 1
                            position = start
                            while position < len(decl) and level:
                                level += {"(": 1, ")": -1}.get(decl[position], 0)
                                position += 1
                            params, rest = decl[start:position - 1], decl[position:].split("{", 1)[0]
                            deprecated = any("deprecated" in a for a in attributes)
                            if not deprecated:
                                found.append((os.path.relpath(path, root), index + 1, match.group(1),
                                              signature(match.group(1), params), bool(re.search(r"\basync\b", rest)),
                                              bool(re.search(r"->\s*BMLTRequest\b", rest))))
                        attributes = []
                    elif stripped and not stripped.startswith("//"):
                        attributes = []
                depth += line.count("{") - line.count("}")
                index += 1
    return found


def check(root):
    decls = declarations(root)
    requests = {d[3] for d in decls if d[5]}
    asyncs = {d[3] for d in decls if d[4]}
    stated_async = set(STATED_PAIRS.values())
    # A read's two forms share the noun; their labels may differ (`fetchChanges(from:to:meetingID:serviceBodyID:userID:)`
    # beside `changes(of:)`, …), compared without case (`fetchNAWSExport` / `nawsExport`).
    async_names = {d[2].lower() for d in decls if d[4]}
    request_names = {d[2].lower() for d in decls if d[5]}
    problems = []
    for file, line, name, sig, is_async, is_request in decls:
        if not (is_async or is_request):
            continue
        first = words(name)[0].lower()
        where = "%s:%d: %s" % (file, line, sig)
        if is_request and name.endswith("AndWait"):
            problems.append(where + " returns BMLTRequest but ends in AndWait (the async form's suffix)")
        if name.endswith("AndWait"):
            base = sig.replace("AndWait(", "(", 1)
            if not is_async:
                problems.append(where + " ends in AndWait but is not async")
            if base not in requests and sig not in stated_async:
                problems.append(where + " has no fire-and-forget form %s returning BMLTRequest" % base)
            continue
        if sig in STATED_PAIRS or sig in stated_async or sig in ONE_FORM:
            if sig in STATED_PAIRS and STATED_PAIRS[sig] not in asyncs:
                problems.append(where + " : its stated async form %s is missing" % STATED_PAIRS[sig])
            continue
        if first in ACTION_VERBS:
            if is_async:
                problems.append(where + " is an action named by its bare verb but is async: name it %sAndWait, "
                                "and make %s the fire-and-forget form returning BMLTRequest" % (name, name))
            elif sig.replace("(", "AndWait(", 1) not in asyncs:
                problems.append(where + " is a fire-and-forget action without its async form %s"
                                % sig.replace("(", "AndWait(", 1))
            continue
        if is_request:
            if first != "fetch":
                problems.append(where + " returns BMLTRequest but is neither an action verb nor fetch + a read's name")
            elif name[len("fetch"):].lower() not in async_names:
                problems.append(where + " has no async form named %s" % name[len("fetch"):])
        elif is_async:
            if "fetch" + name.lower() not in request_names:
                problems.append(where + " is an async read without its fire-and-forget form fetch%s%s"
                                % (name[:1].upper() + name[1:], sig[len(name):]))
    return decls, problems


def self_test(root):
    planted = [
        ("BareVerbAsync", "    public func deleteWidget(id: Int) async throws {}\n", "deleteWidget(id:) is an action named by its bare verb"),
        ("AndWaitRequest", "    public func fetchWidgetsAndWait() -> BMLTRequest { fatalError() }\n", "returns BMLTRequest but ends in AndWait"),
        ("LonelyAndWait", "    public func archiveWidgetAndWait(id: Int) async throws {}\n", "has no fire-and-forget form"),
        ("ReadWithoutFetch", "    public func widgets() async throws -> [Int] { [] }\n", "without its fire-and-forget form fetchWidgets()"),
    ]
    failures = 0
    for tag, code, expected in planted:
        with tempfile.TemporaryDirectory() as copy:
            shutil.copytree(os.path.join(root, "Sources"), os.path.join(copy, "Sources"))
            with open(os.path.join(copy, "Sources", "BMLTKit", "Planted%s.swift" % tag), "w") as file:
                file.write("extension BMLTConnection {\n    /// Planted by the self-test.\n" + code + "}\n")
            _, problems = check(copy)
            caught = [p for p in problems if expected in p]
            print("self-test %s: %s" % (tag, "caught: " + caught[0] if caught else "NOT caught"))
            failures += 0 if caught else 1
    # The deprecated forwarders are exempt: a deprecated bare async verb passes.
    with tempfile.TemporaryDirectory() as copy:
        shutil.copytree(os.path.join(root, "Sources"), os.path.join(copy, "Sources"))
        with open(os.path.join(copy, "Sources", "BMLTKit", "PlantedDeprecated.swift"), "w") as file:
            file.write("extension BMLTConnection {\n    @available(*, deprecated, renamed: \"x\")\n"
                       "    public func deleteWidget(id: Int) async throws {}\n}\n")
        _, problems = check(copy)
        bad = [p for p in problems if "deleteWidget" in p]
        print("self-test deprecated old name: %s" % ("exempt" if not bad else "wrongly flagged: " + bad[0]))
        failures += 1 if bad else 0
    return failures


def main():
    args = sys.argv[1:]
    root = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
    if "--root" in args:
        root = os.path.abspath(args[args.index("--root") + 1])
    if "--self-test" in args:
        failures = self_test(root)
        print("naming self-test: %s" % ("every planted name was caught" if not failures else "%d planted names passed" % failures))
        return 1 if failures else 0
    decls, problems = check(root)
    operations = [d for d in decls if d[4] or d[5]]
    for problem in problems:
        print("naming: " + problem)
    print("naming: %d public operations of BMLTConnection checked, %d break the rule of One vocabulary"
          % (len(operations), len(problems)))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
