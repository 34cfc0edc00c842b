import BMLTKit
import Foundation
import Testing
@testable import ObserverCLI

/// What a release promises, read from the repository's own files: one version everywhere, and every accepted API
/// break announced in the changelog.
enum ReleaseMetadata {
    /// The repository's root (this file is Tests/SamplesTests/ReleaseMetadataTests.swift).
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static func read(_ name: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(name), encoding: .utf8)
    }

    /// Each `.package(url: "…", from: "…")` in the text: the URL and the version.
    static func packageLines(in readme: String) throws -> [(url: String, version: String)] {
        let pattern = try Regex(#"\.package\(url: "([^"]+)", from: "([^"]+)"\)"#)
        return readme.matches(of: pattern).compactMap { match in
            guard let url = match.output[1].substring, let version = match.output[2].substring else { return nil }
            return (String(url), String(version))
        }
    }

    /// The version of the newest release heading, `## [X.Y.Z] - YYYY-MM-DD` (Unreleased is not a release).
    static func newestRelease(in changelog: String) throws -> String? {
        let pattern = try Regex(#"^## \[(\d+\.\d+\.\d+)\] - \d{4}-\d{2}-\d{2}$"#)
        for line in changelog.split(separator: "\n", omittingEmptySubsequences: false) {
            if let match = line.wholeMatch(of: pattern), let version = match.output[1].substring { return String(version) }
        }
        return nil
    }

    /// The `- ` entries under `### Breaking` inside `## [Unreleased]`.
    static func unreleasedBreakingEntries(in changelog: String) -> [String] {
        var inUnreleased = false, inBreaking = false, entries: [String] = []
        for line in changelog.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("## ") { inUnreleased = line.hasPrefix("## [Unreleased]"); inBreaking = false; continue }
            if line.hasPrefix("### ") { inBreaking = inUnreleased && line.hasPrefix("### Breaking"); continue }
            if inBreaking && line.hasPrefix("- ") { entries.append(String(line)) }
        }
        return entries
    }

    /// `.api-baseline`: the commit (the first line that is not a comment nor an accepted break) and the breaks it accepts.
    static func apiBaseline(_ text: String) -> (commit: String?, accepted: [String]) {
        let lines = text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        let accepted = lines.filter { $0.hasPrefix("API breakage:") }
        let commit = lines.first { !$0.isEmpty && !$0.hasPrefix("#") && !$0.hasPrefix("API breakage:") }
        return (commit, accepted)
    }

    /// Where the version differs from `version`, in words; empty when every place agrees.
    static func disagreements(version: String, readme: String, changelog: String, observerVersion: String,
                              userAgent: String) throws -> [String] {
        var found: [String] = []
        let packages = try packageLines(in: readme)
        if packages.count != 1 { found.append("README: \(packages.count) `.package(url:from:)` lines, expected one") }
        for package in packages where package.version != version {
            found.append("README Install: from: \"\(package.version)\", BMLTKitVersion.current is \(version)")
        }
        if readme.contains(#"branch: "main""#) { found.append("README Install still follows branch: \"main\"") }
        let newest = try newestRelease(in: changelog)
        if newest != version { found.append("CHANGELOG.md newest release: \(newest ?? "none"), expected \(version)") }
        if !changelog.contains("## [Unreleased]") { found.append("CHANGELOG.md has no ## [Unreleased] section") }
        if observerVersion != "bmlt-observer \(version) (BMLTKit \(version))" {
            found.append("bmlt-observer --version: \(observerVersion)")
        }
        if userAgent != "BMLTKit/\(version)" { found.append("User-Agent: \(userAgent)") }
        return found
    }

    /// Why `.api-baseline` and CHANGELOG.md disagree; empty when they do not.
    static func baselineProblems(baseline: String, changelog: String) -> [String] {
        let (commit, accepted) = apiBaseline(baseline)
        var found: [String] = []
        if commit?.range(of: "^[0-9a-f]{7,40}$", options: .regularExpression) == nil {
            found.append(".api-baseline names no commit: \(commit ?? "nothing")")
        }
        if !accepted.isEmpty && unreleasedBreakingEntries(in: changelog).isEmpty {
            found.append(".api-baseline accepts \(accepted.count) break(s) but CHANGELOG.md's Unreleased has no Breaking entry")
        }
        return found
    }
}

@Suite("Release metadata: one version everywhere, licence, changelog, API baseline")
@MainActor
struct ReleaseMetadataTests {
    @Test("BMLTKitVersion.current, the README's Install line, CHANGELOG.md's newest release, --version and User-Agent agree")
    func oneVersion() async throws {
        let version = BMLTKitVersion.current
        #expect(version.wholeMatch(of: try Regex(#"\d+\.\d+\.\d+"#)) != nil, "MAJOR.MINOR.PATCH: \(version)")
        let run = await observe(["--version"])
        #expect(run.status == 0 && run.lines.count == 1)
        let found = try ReleaseMetadata.disagreements(version: version, readme: ReleaseMetadata.read("README.md"),
                                                      changelog: ReleaseMetadata.read("CHANGELOG.md"),
                                                      observerVersion: run.lines.first ?? "",
                                                      userAgent: BMLTConfiguration().userAgent)
        #expect(found == [])
    }

    @Test("the same check names each place that disagrees")
    func catchesDisagreement() throws {
        let readme = try ReleaseMetadata.read("README.md"), changelog = try ReleaseMetadata.read("CHANGELOG.md")
        let version = BMLTKitVersion.current, other = "9.8.7"
        let good = "bmlt-observer \(version) (BMLTKit \(version))"
        let oldReadme = readme.replacingOccurrences(of: #"from: "\#(version)""#, with: #"from: "\#(other)""#)
        #expect(try ReleaseMetadata.disagreements(version: version, readme: oldReadme, changelog: changelog,
                                                  observerVersion: good, userAgent: "BMLTKit/\(version)")
                == ["README Install: from: \"\(other)\", BMLTKitVersion.current is \(version)"])
        let newerLog = changelog.replacingOccurrences(of: "## [Unreleased]", with: "## [Unreleased]\n\n## [\(other)] - 2027-01-01")
        #expect(try ReleaseMetadata.disagreements(version: version, readme: readme, changelog: newerLog,
                                                  observerVersion: good, userAgent: "BMLTKit/\(version)")
                == ["CHANGELOG.md newest release: \(other), expected \(version)"])
        let branch = readme.replacingOccurrences(of: #"from: "\#(version)""#, with: #"branch: "main""#)
        #expect(try ReleaseMetadata.disagreements(version: version, readme: branch, changelog: changelog,
                                                  observerVersion: "bmlt-observer \(other) (BMLTKit \(version))",
                                                  userAgent: "BMLTKit/\(other)").count == 4)
    }

    @Test(".api-baseline names a commit; a break it accepts needs an entry under Unreleased → Breaking")
    func apiBaseline() throws {
        let baseline = try ReleaseMetadata.read(".api-baseline"), changelog = try ReleaseMetadata.read("CHANGELOG.md")
        #expect(ReleaseMetadata.baselineProblems(baseline: baseline, changelog: changelog) == [])
        let accepting = "# a comment\n559afa2\nAPI breakage: var BMLTFormat.worldID has been renamed to var worldIdentifier\n"
        #expect(ReleaseMetadata.apiBaseline(accepting).commit == "559afa2" && ReleaseMetadata.apiBaseline(accepting).accepted.count == 1)
        let unannounced = "# Changelog\n\n## [Unreleased]\n\n### Added\n- more\n\n### Breaking\n\n## [0.1.0] - 2026-11-25\n\n### Breaking\n- old\n"
        #expect(ReleaseMetadata.unreleasedBreakingEntries(in: unannounced) == [])
        #expect(ReleaseMetadata.baselineProblems(baseline: accepting, changelog: unannounced).count == 1)
        let announced = unannounced.replacingOccurrences(of: "### Breaking\n\n## [0.1.0]", with: "### Breaking\n- `BMLTFormat.worldID` is now `worldIdentifier`.\n\n## [0.1.0]")
        #expect(ReleaseMetadata.unreleasedBreakingEntries(in: announced) == ["- `BMLTFormat.worldID` is now `worldIdentifier`."])
        #expect(ReleaseMetadata.baselineProblems(baseline: accepting, changelog: announced) == [])
        #expect(ReleaseMetadata.baselineProblems(baseline: "# only a comment\n", changelog: changelog).count == 1)
    }

    @Test("MIT licence, named in the README; the hosted documentation and .spi.yml cover both library products")
    func licenceAndDocumentation() throws {
        let licence = try ReleaseMetadata.read("LICENSE"), readme = try ReleaseMetadata.read("README.md")
        #expect(licence.hasPrefix("MIT License\n\nCopyright (c) 2026 the BMLTKit authors\n"))
        #expect(readme.contains("## License\n\nMIT: see [LICENSE](LICENSE)."))
        for file in ["CHANGELOG.md", "CONTRIBUTING.md", "SECURITY.md"] {
            #expect(FileManager.default.fileExists(atPath: ReleaseMetadata.root.appendingPathComponent(file).path), "\(file)")
        }
        // The documentation links name the same repository as the Install line's URL.
        let url = try #require(try ReleaseMetadata.packageLines(in: readme).first?.url)
        let repository = url.replacingOccurrences(of: "https://github.com/", with: "").replacingOccurrences(of: ".git", with: "")
        let manifest = try ReleaseMetadata.read("Package.swift"), spi = try ReleaseMetadata.read(".spi.yml")
        let libraries = manifest.matches(of: try Regex(#"\.library\(name: "([^"]+)""#)).compactMap { $0.output[1].substring.map(String.init) }
        #expect(libraries == ["BMLTKit", "BMLTDemoServer"])
        for library in libraries {
            #expect(readme.contains("https://swiftpackageindex.com/\(repository)/documentation/\(library.lowercased())"), "\(library)")
        }
        #expect(spi.contains("documentation_targets: [\(libraries.joined(separator: ", "))]"))
    }
}
