import Foundation
import Testing
import CaptureReplay

/// The conformance corpus: real root-server replies in `../shared/fixtures/` beside the project, read in
/// place (never copied). A clone without it skips the suites that need it, saying so.
enum FixtureCorpus {
    /// `<project>/../shared/fixtures`, found from this file's path.
    static let root: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()   // Support
        .deletingLastPathComponent()   // BMLTKitTests
        .deletingLastPathComponent()   // Tests
        .deletingLastPathComponent()   // project root
        .deletingLastPathComponent()   // beside the project
        .appendingPathComponent("shared/fixtures")

    /// Whether the corpus is here (CI always has it).
    static var isAvailable: Bool {
        let present = FileManager.default.fileExists(atPath: root.appendingPathComponent("rootserver").path)
        if !present { print("note: the conformance corpus \(root.path) is missing: skipping the suites that read it") }
        return present
    }

    /// The 2.16.6 captures.
    static let legacy = "rootserver"
    /// The 3.1.2 captures.
    static let modern = "rootserver-3x"
    /// The 4.1.0 captures.
    static let server4x = "rootserver-4x"
    /// The 4.2.7 captures: numbered like 4.1.0's (the same number is the same request); their request table is
    /// `.requests.md` (the folder's `index.md` lists only what differs from 4.1.0).
    static let server42 = "rootserver-42"
    /// The 4.x generations the same cases replay: 4.1.0 and 4.2.7.
    static let servers4x = [server4x, server42]

    /// A folder's request table (`| file | method | URL | body | status | … |` rows): its `index.md`, or its
    /// `.requests.md` where the index lists no request (rootserver-42).
    static func requestTable(_ folder: String) -> String? {
        let base = root.appendingPathComponent(folder)
        let index = try? String(contentsOf: base.appendingPathComponent("index.md"), encoding: .utf8)
        if let index, index.contains("| GET |") { return index }
        return (try? String(contentsOf: base.appendingPathComponent(".requests.md"), encoding: .utf8)) ?? index
    }

    /// The bytes of one capture.
    static func data(_ folder: String, _ name: String) throws -> Data {
        try Data(contentsOf: root.appendingPathComponent(folder).appendingPathComponent(name))
    }

    /// One capture as its server would serve it now, for replays: a login's `expires_at` counts from now, not from the
    /// capture (`CapturedToday`); every other reply as captured.
    static func served(_ folder: String, _ name: String) throws -> Data {
        CapturedToday.served(try data(folder, name), folder: folder)
    }

    /// One capture parsed independently with JSONSerialization, for checking decoded values against the raw JSON.
    static func raw(_ folder: String, _ name: String) throws -> Any {
        try JSONSerialization.jsonObject(with: data(folder, name), options: [.fragmentsAllowed])
    }

    /// The names of the files in a folder with the given suffix.
    static func files(_ folder: String, suffix: String = ".json") -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent(folder).path)) ?? []
        return names.filter { $0.hasSuffix(suffix) }.sorted()
    }
}

extension Trait where Self == ConditionTrait {
    /// Runs only where the conformance corpus is beside the project; elsewhere the test is reported as skipped, with
    /// this reason (CI, which always has it, fails on any skipped test).
    static var needsCorpus: Self {
        .enabled(if: FixtureCorpus.isAvailable, "the conformance corpus ../shared/fixtures is not beside the project")
    }
}
