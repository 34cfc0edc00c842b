import BMLTKit
import BMLTDemoServer
import Foundation
import Testing
@testable import SwiftUIFinder

/// The SwiftUI article's finder model on the demo server (the views compile where SwiftUI exists), and the article
/// showing the sample's code as it is.
@Suite("Using BMLTKit in SwiftUI: the finder model on the demo server")
@MainActor
struct SwiftUIFinderTests {
    @Test("the list and the map of one connection each hold their own meetings; the progress and error follow both")
    func finderModel() async throws {
        // A fixed morning in the demo's area: "the rest of today" at the wall clock's 23:00 is rightly empty (this test
        // failed when CI ran it late in the evening).
        let zone = try #require(TimeZone(identifier: "America/Chicago"))
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let tuesdayMorning = try #require(calendar.date(from: DateComponents(year: 2026, month: 11, day: 24, hour: 8)))
        // The sample's own demo model, with the hang guard's deadline instead of the default 30 s (a whole loaded run
        // took 11.6 s here without the thread sanitizer).
        let demo = BMLTConfiguration(timeout: 900, httpTransport: DemoTransport())
        let model = FinderModel(connection: BMLTConnection(rootServerURL: BMLTDemoServer.rootURL, configuration: demo),
                                here: BMLTCoordinate(latitude: 45.15, longitude: -93.3), timeZone: zone, now: tuesdayMorning)
        #expect(!model.isLoading && model.error == nil && model.list.meetings.isEmpty)
        await model.refresh()
        #expect(!model.isLoading && model.error == nil)
        #expect(model.map.meetings.count == 25 && model.map.isComplete)
        #expect(!model.list.meetings.isEmpty && model.list.isComplete)
        #expect(model.pins.count == model.map.meetings.filter { $0.coordinate != nil }.count && !model.pins.isEmpty)
        #expect(model.connection.search.meetings.isEmpty, "queries leave the classic store alone")
    }

    @Test("the error banner speaks the view's locale (SwiftUI's \\.locale, a preview's), not the process's language")
    func errorInTheViewsLocale() async throws {
        // `FinderModel.offline()` with the hang guard's deadline instead of the default 30 s: under the thread sanitizer
        // with a busy process beside it, the main actor this suite shares was slow enough that the 30 s ran out before
        // the offline transport's -1009 was read (a timeout, not the error this test is about).
        let offline = BMLTConfiguration(timeout: 900, httpTransport: OfflineTransport())
        let model = FinderModel(connection: BMLTConnection(rootServerURL: BMLTDemoServer.rootURL, configuration: offline),
                                here: BMLTCoordinate(latitude: 45.15, longitude: -93.3))
        await model.refresh()
        let error = try #require(model.error, "no network: the validation failed")
        #expect(error == .transport(code: -1009))
        let spanish = try #require(model.errorSentence(in: Locale(identifier: "es")))
        let farsi = try #require(model.errorSentence(in: Locale(identifier: "fa_IR")))
        #expect(spanish == error.localizedDescription(for: Locale(identifier: "es")))
        #expect(spanish != error.description && farsi != error.description && spanish != farsi, "\(spanish) / \(farsi)")
        #expect(model.errorSentence(in: Locale(identifier: "en_US")) == error.description, "English: the table's English")
        #expect(FinderModel.demo().errorSentence(in: Locale(identifier: "es")) == nil, "no error, no banner")
    }

    @Test("the article's two file blocks (the model, the screen) are the sample's files, verbatim")
    func articleMatchesTheSample() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let article = try String(contentsOf: root.appendingPathComponent("Sources/BMLTKit/BMLTKit.docc/UsingBMLTKitInSwiftUI.md"), encoding: .utf8)
        let sample = try ["FinderModel.swift", "FinderScreen.swift"].map {
            try String(contentsOf: root.appendingPathComponent("Samples/SwiftUIFinder/\($0)"), encoding: .utf8)
        }.joined(separator: "\n")
        var blocks: [String] = [], current: [String]?
        for line in article.components(separatedBy: "\n") {
            if current == nil, line.hasPrefix("```") { current = []; continue }
            if current != nil, line == "```" { blocks.append(current!.joined(separator: "\n")); current = nil; continue }
            current?.append(line)
        }
        let files = blocks.filter { $0.hasPrefix("import ") || $0.hasPrefix("#if ") }      // the blocks that show a whole file
        #expect(files.count == 2)
        for block in files { #expect(sample.contains(block), "not in Samples/SwiftUIFinder: \(block.prefix(80))") }
    }
}
