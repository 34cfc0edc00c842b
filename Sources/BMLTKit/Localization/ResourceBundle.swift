import Foundation

/// BMLTKit's resource bundle (the string tables), found without SwiftPM's generated `Bundle.module`: that accessor
/// stops the program with `fatalError` when the bundle is not where the build left it — a Linux binary copied to
/// another machine without its `BMLTKit_BMLTKit.resources` folder would crash on its first sentence in Spanish. Here a
/// missing bundle is `nil`, and every sentence reads English (`StringTables`).
///
/// Looked for, as `BMLTKit_BMLTKit.bundle` (Apple) or `.resources` (Linux), in the places SwiftPM and Xcode put it:
/// first the folder Xcode names in `PACKAGE_RESOURCE_BUNDLE_PATH` (or `PACKAGE_RESOURCE_BUNDLE_URL`), as its own
/// generated accessor does — set for SwiftUI previews, whose host (the preview agent) is neither the app nor a bundle
/// holding this code; then the app's resources, beside the executable, and beside the bundle that holds this code (a
/// framework or a test bundle).
enum ResourceBundle {
    /// The bundle, or `nil` when it is not there (the fuzzer's and `.ci/darwin-shaped`'s builds, a copied binary).
    static let bundle: Bundle? = find(in: folders(environment: ProcessInfo.processInfo.environment))

    /// Where to look, in order: the environment's override (Xcode's previews), then the app's and this code's folders.
    static func folders(environment: [String: String]) -> [URL] {
        var overrides: [URL] = []
        if let path = environment["PACKAGE_RESOURCE_BUNDLE_PATH"], !path.isEmpty {
            overrides.append(URL(fileURLWithPath: path, isDirectory: true))
        }
        if let text = environment["PACKAGE_RESOURCE_BUNDLE_URL"], let url = URL(string: text), url.isFileURL {
            overrides.append(url)
        }
        let own = Bundle(for: Marker.self)
        return overrides + [Bundle.main.resourceURL, Bundle.main.bundleURL, Bundle.main.executableURL?.deletingLastPathComponent(),
                            own.resourceURL, own.bundleURL, own.bundleURL.deletingLastPathComponent()].compactMap { $0 }
    }

    /// The first `BMLTKit_BMLTKit.bundle` or `.resources` in `folders`.
    static func find(in folders: [URL]) -> Bundle? {
        for folder in folders {
            for suffix in ["bundle", "resources"] {
                let url = folder.appendingPathComponent("BMLTKit_BMLTKit.\(suffix)")
                if FileManager.default.fileExists(atPath: url.path), let bundle = Bundle(url: url) { return bundle }
            }
        }
        return nil
    }

    /// A class of this module, for `Bundle(for:)`.
    private final class Marker {}
}
