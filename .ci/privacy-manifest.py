#!/usr/bin/env python3
"""Privacy manifest check: the code shipped to apps uses Apple's required-reason APIs exactly as its
PrivacyInfo.xcprivacy declares.

Since 2024 an SDK that calls one of Apple's "required reason" APIs ships a privacy manifest naming the API's category
and an approved reason; otherwise every app that links it has to find out and declare it itself. This check reads the
Swift sources of each target that a library product ships (BMLTKit, and the demo server an app may link for previews)
and fails when:
  - the manifest is not a valid property list (python3's plistlib: plutil is not on Linux), or is not the shape
    BMLTKit promises (NSPrivacyTracking false, no tracking domains, no collected data types);
  - a category is used in the code but not declared (with the file and line of each use);
  - a category is declared but no longer used (the manifest would claim more than the code does);
  - a declared reason is not one of Apple's approved reasons for its category;
  - a target without a manifest uses a category.

Categories and the names that mean them (Apple's list, "Describing use of required reason API"):
  FileTimestamp   creationDate, modificationDate, fileModificationDate, contentModificationDate(Key), creationDateKey,
                  getattrlist…, stat/fstat/lstat/fstatat                       reasons DDA9.1 C617.1 3B52.1 0A2A.1
  SystemBootTime  systemUptime, mach_absolute_time, mach_continuous_time, and DispatchTime's uptimeNanoseconds /
                  DispatchTime.now() (the same boot-relative clock: not on Apple's list by name, declared because the
                  value is the time since boot)                              reasons 35F9.1 8FFB.1 3D61.1
  DiskSpace       volume…CapacityKey, systemFreeSize, systemSize, statfs/statvfs/fstatfs/fstatvfs
                                                                             reasons 85F4.1 E174.1 7D9E.1 B728.1
  ActiveKeyboards activeInputModes                                           reasons 3EC4.1 54BD.1
  UserDefaults    UserDefaults, NSUserDefaults                                reasons CA92.1 1C8F.1 C56D.1 AC6B.1
Comments and string literals are ignored (a doc comment may name an API).

Usage: .ci/privacy-manifest [--root DIR]  exit 0 when the manifest matches the code, 1 with one line per finding
       .ci/privacy-manifest --built        also: the manifest is in the built product's resources (SwiftPM's
                                           BMLTKit_BMLTKit.resources on Linux; `swift build` first), byte for byte
       .ci/privacy-manifest --self-test    plants undeclared and stale uses, bad reasons and a broken plist in a copy
"""
import glob
import os
import plistlib
import re
import shutil
import subprocess
import sys
import tempfile

# Each target a library product ships, and its manifest (None: it must use no required-reason API).
TARGETS = {
    "Sources/BMLTKit": "Sources/BMLTKit/PrivacyInfo.xcprivacy",
    "Samples/DemoServer": None,
}
PREFIX = "NSPrivacyAccessedAPICategory"
CATEGORIES = {
    "FileTimestamp": (
        re.compile(r"\.(creationDate|modificationDate|contentModificationDate|creationDateKey|contentModificationDateKey)\b"
                   r"|\bfileModificationDate\b|\bNSFile(Creation|Modification)Date\b|\bNSURL(ContentModification|Creation)DateKey\b"
                   r"|\b(f?getattrlist(bulk|at)?|stat|fstat|lstat|fstatat)\s*\("),
        {"DDA9.1", "C617.1", "3B52.1", "0A2A.1"}),
    "SystemBootTime": (
        re.compile(r"\bsystemUptime\b|\bmach_(absolute|continuous)_time\b|\buptimeNanoseconds\b|\bDispatchTime\s*\.\s*now\b"),
        {"35F9.1", "8FFB.1", "3D61.1"}),
    "DiskSpace": (
        re.compile(r"\bvolume(Available|Total)Capacity\w*Key\b|\bsystem(Free)?Size\b|\bf?statv?fs\s*\("),
        {"85F4.1", "E174.1", "7D9E.1", "B728.1"}),
    "ActiveKeyboards": (re.compile(r"\bactiveInputModes\b"), {"3EC4.1", "54BD.1"}),
    "UserDefaults": (re.compile(r"\b(NS)?UserDefaults\b"), {"CA92.1", "1C8F.1", "C56D.1", "AC6B.1"}),
}


def code_only(source):
    """The source with comments and string-literal contents blanked (newlines kept, so line numbers hold)."""
    out, i, n, depth = [], 0, len(source), 0
    string = None
    while i < n:
        c = source[i]
        if depth:
            if source.startswith("/*", i):
                depth, i = depth + 1, i + 2
            elif source.startswith("*/", i):
                depth, i = depth - 1, i + 2
            else:
                out.append("\n" if c == "\n" else " ")
                i += 1
            continue
        if string:
            if c == "\\":
                out.append("  ")
                i += 2
            elif source.startswith(string, i):
                out.append(string)
                i += len(string)
                string = None
            else:
                out.append("\n" if c == "\n" else " ")
                if c == "\n" and string == '"':
                    string = None
                i += 1
            continue
        if source.startswith("//", i):
            end = source.find("\n", i)
            i = n if end < 0 else end
        elif source.startswith("/*", i):
            depth, i = 1, i + 2
        elif source.startswith('"""', i):
            string = '"""'
            out.append(string)
            i += 3
        elif c == '"':
            string = '"'
            out.append(c)
            i += 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


def uses(root, target):
    """{category: ["file:line", …]} for the Swift files of one target."""
    found = {}
    base = os.path.join(root, target)
    for directory, subfolders, files in os.walk(base):
        subfolders.sort()
        for name in sorted(files):
            if not name.endswith(".swift"):
                continue
            path = os.path.join(directory, name)
            with open(path, encoding="utf-8", errors="replace") as handle:
                text = code_only(handle.read())
            for category, (pattern, _) in CATEGORIES.items():
                for match in pattern.finditer(text):
                    line = text.count("\n", 0, match.start()) + 1
                    found.setdefault(category, []).append(f"{os.path.relpath(path, root)}:{line} ({match.group(0).strip()})")
    return found


def read_manifest(path, shown):
    """(declared {category: reasons}, findings)."""
    try:
        with open(path, "rb") as handle:
            manifest = plistlib.load(handle)
    except FileNotFoundError:
        return {}, [f"{shown}: missing"]
    except Exception as problem:   # plistlib raises InvalidFileException, ExpatError, ValueError…
        return {}, [f"{shown}: not a valid property list ({type(problem).__name__}: {problem})"]
    findings = []
    if not isinstance(manifest, dict):
        return {}, [f"{shown}: the top level is not a dictionary"]
    if manifest.get("NSPrivacyTracking") is not False:
        findings.append(f"{shown}: NSPrivacyTracking must be false (BMLTKit does not track)")
    for key in ("NSPrivacyTrackingDomains", "NSPrivacyCollectedDataTypes"):
        if manifest.get(key) != []:
            findings.append(f"{shown}: {key} must be an empty array (BMLTKit sends what the app asks to the server the app chose)")
    declared = {}
    entries = manifest.get("NSPrivacyAccessedAPITypes")
    if not isinstance(entries, list):
        return declared, findings + [f"{shown}: NSPrivacyAccessedAPITypes must be an array"]
    for entry in entries:
        kind = entry.get("NSPrivacyAccessedAPIType", "") if isinstance(entry, dict) else ""
        reasons = entry.get("NSPrivacyAccessedAPITypeReasons") if isinstance(entry, dict) else None
        category = kind[len(PREFIX):] if kind.startswith(PREFIX) else None
        if category not in CATEGORIES:
            findings.append(f"{shown}: unknown required-reason category {kind!r}")
            continue
        if category in declared:
            findings.append(f"{shown}: {kind} declared twice")
        if not isinstance(reasons, list) or not reasons:
            findings.append(f"{shown}: {kind} has no reason")
            reasons = []
        for reason in reasons:
            if reason not in CATEGORIES[category][1]:
                findings.append(f"{shown}: {reason!r} is not an approved reason for {kind} "
                                f"(approved: {', '.join(sorted(CATEGORIES[category][1]))})")
        declared[category] = reasons
    return declared, findings


def check(root):
    findings = []
    for target, manifest in TARGETS.items():
        if not os.path.isdir(os.path.join(root, target)):
            continue
        used = uses(root, target)
        declared, problems = read_manifest(os.path.join(root, manifest), manifest) if manifest else ({}, [])
        findings += problems
        for category, sites in sorted(used.items()):
            if category not in declared:
                where = f"not declared in {manifest}" if manifest else "and the target has no privacy manifest"
                findings.append(f"{target}: uses {PREFIX}{category} {where}: " + "; ".join(sites[:4]))
        for category in sorted(declared):
            if category not in used:
                findings.append(f"{manifest}: declares {PREFIX}{category}, which {target} no longer uses")
        if not problems and manifest:
            summary = ", ".join(f"{c} {'/'.join(declared[c])} ({len(used.get(c, []))} uses)" for c in sorted(declared))
            print(f"privacy-manifest: {manifest}: {summary or 'no required-reason API'}")
        elif not manifest:
            print(f"privacy-manifest: {target}: no required-reason API (no manifest needed)")
    return findings


def check_built(root):
    """The manifest is among the built BMLTKit product's resources, byte for byte."""
    source = os.path.join(root, TARGETS["Sources/BMLTKit"])
    built = sorted(glob.glob(os.path.join(root, ".build", "*", "debug", "BMLTKit_BMLTKit.resources", "PrivacyInfo.xcprivacy"))
                   + glob.glob(os.path.join(root, ".build", "*", "debug", "BMLTKit_BMLTKit.bundle", "**", "PrivacyInfo.xcprivacy"),
                               recursive=True))
    if not built:
        return ["no PrivacyInfo.xcprivacy in .build/*/debug/BMLTKit_BMLTKit.resources (run swift build first)"]
    with open(source, "rb") as a, open(built[0], "rb") as b:
        if a.read() != b.read():
            return [f"{os.path.relpath(built[0], root)} differs from {TARGETS['Sources/BMLTKit']}"]
    print(f"privacy-manifest: in the built product: {os.path.relpath(built[0], root)}")
    return []


def self_test():
    here = os.path.dirname(os.path.abspath(__file__))
    root = os.path.dirname(here)
    script = os.path.abspath(__file__)
    failures = 0
    manifest_path = TARGETS["Sources/BMLTKit"]
    with tempfile.TemporaryDirectory(prefix="bmltkit-privacy-") as temporary:
        for target in TARGETS:
            shutil.copytree(os.path.join(root, target), os.path.join(temporary, target))
        with open(os.path.join(temporary, manifest_path), "rb") as handle:
            original = handle.read()

        def run():
            return subprocess.run([sys.executable, script, "--root", temporary], capture_output=True, text=True)

        def expect(label, should_fail, needle):
            nonlocal failures
            result = run()
            failed = result.returncode != 0
            ok = failed == should_fail and (needle is None or needle in result.stdout)
            first = next((line for line in result.stdout.splitlines() if not line.startswith("privacy-manifest:")), "")
            print(f"self-test: {label}: exit {result.returncode} ({'expected' if ok else 'NOT expected'})"
                  + (f": {first[:150]}" if first else ""))
            if not ok:
                print(result.stdout + result.stderr)
                failures += 1

        def plant(target, text):
            path = os.path.join(temporary, target, "Planted.swift")
            with open(path, "w", encoding="utf-8") as handle:
                handle.write(text)
            return path

        expect("the tree as it is", False, None)
        planted = plant("Sources/BMLTKit", "import Foundation\nlet launches = UserDefaults.standard.integer(forKey: \"launches\")\n")
        expect("planted UserDefaults.standard in BMLTKit (used, not declared)", True, "NSPrivacyAccessedAPICategoryUserDefaults")
        os.remove(planted)
        planted = plant("Sources/BMLTKit", "import Foundation\nlet free = try? URL(fileURLWithPath: \"/\")"
                                           ".resourceValues(forKeys: [.volumeAvailableCapacityForImportantUsageKey])\n")
        expect("planted volumeAvailableCapacityForImportantUsageKey in BMLTKit (disk space, not declared)", True, "DiskSpace")
        os.remove(planted)
        planted = plant("Sources/BMLTKit", "import Foundation\nlet up = ProcessInfo.processInfo.systemUptime\n")
        expect("planted systemUptime in BMLTKit (boot time, declared)", False, None)
        os.remove(planted)
        planted = plant("Sources/BMLTKit", "// UserDefaults.standard in a comment\n/* statfs( */\nlet s = \"UserDefaults\"\n")
        expect("UserDefaults named only in a comment and a string", False, None)
        os.remove(planted)
        planted = plant("Samples/DemoServer", "import Dispatch\nlet now = DispatchTime.now()\n")
        expect("planted DispatchTime.now() in the demo server (a shipped target without a manifest)", True, "Samples/DemoServer")
        os.remove(planted)
        cache = os.path.join(temporary, "Sources/BMLTKit/Cache/BMLTResponseCache.swift")
        with open(cache, encoding="utf-8") as handle:
            cache_text = handle.read()
        with open(cache, "w", encoding="utf-8") as handle:
            handle.write(re.sub(r"\.contentModificationDate(Key)?|\.modificationDate", ".fileSizeKey", cache_text))
        expect("the response cache without its file timestamps (declared, no longer used)", True, "no longer uses")
        with open(cache, "w", encoding="utf-8") as handle:
            handle.write(cache_text)
        broken = [
            ("a truncated manifest (not a property list)", original[: len(original) // 2], "not a valid property list"),
            ("a manifest that is plain text", b"NSPrivacyTracking = false", "not a valid property list"),
            ("C617.1 replaced by a disk-space reason", original.replace(b"C617.1", b"85F4.1"), "not an approved reason"),
            ("NSPrivacyTracking true", original.replace(b"<key>NSPrivacyTracking</key>\n\t<false/>",
                                                        b"<key>NSPrivacyTracking</key>\n\t<true/>"), "NSPrivacyTracking"),
        ]
        for label, data, needle in broken:
            if data == original:
                print(f"self-test: {label}: the plant did not change the manifest (NOT expected)")
                failures += 1
                continue
            with open(os.path.join(temporary, manifest_path), "wb") as handle:
                handle.write(data)
            expect(label, True, needle)
        with open(os.path.join(temporary, manifest_path), "wb") as handle:
            handle.write(original)
    print(f"self-test: {failures} wrong" if failures else
          "self-test: every planted undeclared or stale use and every broken manifest fails the check; the tree passes")
    return 1 if failures else 0


def main(arguments):
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    if "--self-test" in arguments:
        return self_test()
    root = arguments[arguments.index("--root") + 1] if "--root" in arguments else here
    findings = check(root)
    if "--built" in arguments:
        findings += check_built(root)
    for finding in findings:
        print(finding)
    if findings:
        print(f"privacy-manifest: {len(findings)} finding(s)")
        return 1
    print("privacy-manifest: every required-reason API used is declared with an approved reason, and nothing more")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
