import BMLTDemoServer
import Foundation
import Testing
import LoopbackHTTPServer
@testable import ObserverCLI

/// The observer's manual (Samples/ObserverCLI/README.md, which the README links), read from the file: every
/// `swift run bmlt-observer` line runs offline against the demo server and finds something, no `|` in its shell
/// blocks means "or", and the jq and python3 lines run on the program's real output.
enum ReadmeObserver {
    static let readme = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Samples/ObserverCLI/README.md")

    /// The lines of the manual's `sh` blocks.
    static func shellLines() throws -> [String] {
        let text = try String(contentsOf: readme, encoding: .utf8)
        var lines: [String] = []
        var inShell = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("```") { inShell = line == "```sh"; continue }
            if inShell { lines.append(String(line)) }
        }
        return lines
    }

    /// Shell words: quotes ('…' as is, "…" with \ escapes), `#` comments; `|` outside quotes is its own word.
    static func words(_ line: String) -> [String] {
        var words: [String] = []
        var current = ""
        var inWord = false
        var quote: Character?
        var escaped = false
        for character in line {
            if let q = quote {
                if q == "\"" && escaped { current.append(character); escaped = false }
                else if q == "\"" && character == "\\" { escaped = true }
                else if character == q { quote = nil }
                else { current.append(character) }
            } else if character == "'" || character == "\"" {
                quote = character
                inWord = true
            } else if character == " " {
                if inWord { words.append(current); current = ""; inWord = false }
            } else if character == "#" && !inWord {
                break
            } else if character == "|" && !inWord {
                words.append("|")
            } else {
                current.append(character)
                inWord = true
            }
        }
        if inWord { words.append(current) }
        return words
    }

    static func tool(_ name: String) -> URL? {
        for folder in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") {
            let url = URL(fileURLWithPath: String(folder)).appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: url.path) { return url }
        }
        return nil
    }

    static var hasJQ: Bool { ChildProcess.isSupported && tool("jq") != nil }
    static var hasPython: Bool { ChildProcess.isSupported && tool("python3") != nil }

    /// Runs `tool arguments` with `input` on standard input; its exit status and standard output (waiting without
    /// blocking a thread: see `ChildProcess`).
    static func filter(_ arguments: [String], input: String) async throws -> (Int32, String) {
        let url = try #require(tool(arguments[0]), "\(arguments[0]) is installed")
        let outcome = try #require(await ChildProcess.run(url, Array(arguments.dropFirst()), input: Data(input.utf8), mergeErrors: false))
        return (outcome.status, outcome.text)
    }
}

extension DemoServerSuites {
    @Suite("The observer's manual (Samples/ObserverCLI/README.md)", .serialized,
           .enabled(if: FileManager.default.fileExists(atPath: ReadmeObserver.readme.path), "the manual is read from the source tree"))
    @MainActor
    struct ReadmeObserverTests {
        private func commands() throws -> [[String]] {
            try ReadmeObserver.shellLines().map(ReadmeObserver.words).filter { $0.starts(with: ["swift", "run", "bmlt-observer"]) }
        }

        @Test("no | in the shell blocks means 'or': each one pipes into jq or python3")
        func pipes() throws {
            let lines = try ReadmeObserver.shellLines()
            #expect(lines.count > 20)
            for words in lines.map(ReadmeObserver.words) {
                for (index, word) in words.enumerated() where word == "|" {
                    #expect(index + 1 < words.count && ["jq", "python3"].contains(words[index + 1]), "\(words)")
                }
            }
        }

        @Test("every example runs offline (exit 0) and finds something")
        func examples() async throws {
            let examples = try commands().filter { !$0.contains("|") }
            #expect(examples.count >= 20)
            for words in examples {
                BMLTDemoServer.reset()
                var arguments = Array(words.dropFirst(3))
                if arguments.contains("watch"), let interval = arguments.firstIndex(of: "--interval") {
                    arguments[interval + 1] = "0.01"         // the manual's 30 s, shortened
                    arguments += ["--count", "2"]
                }
                let run = await observe(arguments)
                #expect(run.status == 0, "\(arguments): \(run.errors)")
                if arguments.contains("export") {
                    // The file itself on stdout (no JSON records): it must hold meetings.
                    #expect(run.lines.contains { $0.contains("\"slug\"") || $0.hasPrefix("BEGIN:VEVENT") }, "\(arguments) exports meetings")
                    continue
                }
                guard !arguments.contains("help"), !arguments.contains("watch") else { continue }
                BMLTDemoServer.reset()
                let json = await observe(["--json"] + arguments)
                let result = try #require(json.result, "\(arguments) has a result")
                let counted = ["count", "meetings", "formats", "serviceBodies", "changes", "fieldKeys", "values", "rows"]
                    .compactMap { key -> Int? in (result[key] as? Int) ?? (result[key] as? [Any])?.count }
                if let found = counted.first { #expect(found > 0, "\(arguments) finds something") }
            }
            BMLTDemoServer.reset()
        }

        @Test("the jq lines run on the real --json output and print something", .enabled(if: ReadmeObserver.hasJQ, "jq is not installed (CI: apt-get install -y jq)"))
        func jq() async throws {
            let lines = try commands().filter { $0.contains("jq") }
            #expect(lines.count >= 5)
            for words in lines {
                let bar = try #require(words.firstIndex(of: "|"))
                let run = await observe(Array(words[3..<bar]))
                #expect(run.status == 0 && run.objects.allSatisfy { $0 != nil })
                let (status, printed) = try await ReadmeObserver.filter(Array(words[(bar + 1)...]), input: run.lines.joined(separator: "\n") + "\n")
                #expect(status == 0 && !printed.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty, "\(words): \(printed)")
            }
        }

        @Test("the python3 line counts the meetings the result holds", .enabled(if: ReadmeObserver.hasPython, "python3 is not installed"))
        func python() async throws {
            let words = try #require(try commands().first { $0.contains("python3") })
            let bar = try #require(words.firstIndex(of: "|"))
            let run = await observe(Array(words[3..<bar]))
            let (status, printed) = try await ReadmeObserver.filter(Array(words[(bar + 1)...]), input: run.lines.joined(separator: "\n") + "\n")
            #expect(status == 0)
            #expect(Int(printed.trimmingCharacters(in: .whitespacesAndNewlines)) == run.result?["count"] as? Int)
            #expect((run.result?["count"] as? Int ?? 0) > 20)
        }
    }
}
