import Foundation
import Testing
@testable import BMLTKit

/// BMLTKit finds its resource bundle by hand: a folder without it gives no bundle (English, never a stopped program,
/// which SwiftPM's `Bundle.module` would do), and a folder with a copy of it gives that copy's tables.
@Suite("The resource bundle: found where the build put it, missing means English")
struct ResourceBundleTests {
    @Test("a folder without BMLTKit_BMLTKit.resources gives no bundle; a copy of the built one gives its Spanish table")
    func foundOrNot() throws {
        let empty = FileManager.default.temporaryDirectory.appendingPathComponent("bmltkit-no-bundle-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: empty) }
        #expect(ResourceBundle.find(in: [empty]) == nil)

        // The bundle this build made, copied alone into a new folder: found there, and its tables read.
        let built = try #require(ResourceBundle.bundle, "the test build has its resource bundle")
        let copy = empty.appendingPathComponent(built.bundleURL.lastPathComponent)
        try FileManager.default.copyItem(at: built.bundleURL, to: copy)
        let found = try #require(ResourceBundle.find(in: [empty]))
        // Resolved paths on both sides (Apple audit A7): on a Mac the temporary folder is reached through /var → /private/var.
        #expect(found.bundleURL.resolvedPath == copy.resolvedPath)
        let spanish = try #require(found.path(forResource: "Localizable", ofType: "strings", inDirectory: nil, forLocalization: "es"))
        #expect(URL(fileURLWithPath: spanish).resolvedPath.hasPrefix(copy.resolvedPath + "/"), "\(spanish)")
    }
}
