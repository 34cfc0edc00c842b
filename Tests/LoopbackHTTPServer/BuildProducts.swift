import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where the package's built executables are (the samples a test runs as child processes): the folder that holds
/// the test bundle, found in a way that works on Linux and on macOS alike.
///
/// `argv[0]` alone is not enough: on Linux `swift test` runs `.build/<triple>/debug/<Package>PackageTests.xctest`, which
/// sits beside the products, but on macOS it runs the tests inside a toolchain helper (`swiftpm-testing-helper` for
/// Swift Testing, `xctest` for XCTest), so `argv[0]` points into the toolchain. What is the same everywhere is the
/// image this code is linked into: the test executable on Linux, `<…>.xctest/Contents/MacOS/<…>` on macOS (and in
/// Xcode's `Build/Products/Debug`). The places tried, in order:
///
/// 1. `BMLTKIT_PRODUCTS_DIR`, when set (a test plan or CI can always point at the right folder);
/// 2. the folders above the image holding this code (the file that `#dsohandle` is mapped from);
/// 3. the folders above any loaded `.xctest` bundle;
/// 4. the folders above `argv[0]`.
///
/// ```swift
/// let observer = try #require(BuildProducts.executable("bmlt-observer"), "built by swift build --build-tests")
/// ```
public enum BuildProducts {
    /// The environment variable that names the products folder outright.
    public static let environmentVariable = "BMLTKIT_PRODUCTS_DIR"

    /// The built executable `name` (e.g. "bmlt-observer"), or `nil` when none of the places above has it.
    public static func executable(_ name: String) -> URL? {
        for folder in searchFolders {
            let candidate = folder.appendingPathComponent(name)
            var isFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: candidate.path, isDirectory: &isFolder), !isFolder.boolValue,
               FileManager.default.isExecutableFile(atPath: candidate.path) {
                return candidate
            }
        }
        return nil
    }

    /// Every folder looked in, in order (the named folder itself; each other start point and up to five folders above
    /// it), without repeats.
    public static var searchFolders: [URL] {
        var folders: [URL] = [], seen = Set<String>()
        func add(_ start: URL, levels: Int) {
            var folder = start.standardizedFileURL
            for _ in 0...levels {
                if seen.insert(folder.path).inserted { folders.append(folder) }
                guard folder.path != "/" else { return }
                folder.deleteLastPathComponent()
            }
        }
        if let named = ProcessInfo.processInfo.environment[environmentVariable], !named.isEmpty {
            add(URL(fileURLWithPath: named, isDirectory: true), levels: 0)
        }
        if let image = imagePath { add(URL(fileURLWithPath: image).deletingLastPathComponent(), levels: 5) }
        for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
            add(bundle.bundleURL.deletingLastPathComponent(), levels: 5)
        }
        if let first = CommandLine.arguments.first { add(URL(fileURLWithPath: first).deletingLastPathComponent(), levels: 5) }
        return folders
    }

    /// The file of the executable or library image this code was linked into: `dladdr` on Darwin; on Linux (whose
    /// Glibc module does not offer `dladdr`) the mapping that holds `#dsohandle` in `/proc/self/maps`, else the main
    /// executable.
    private static var imagePath: String? {
        #if canImport(Darwin)
        var info = Dl_info()
        guard dladdr(#dsohandle, &info) != 0, let name = info.dli_fname else { return nil }
        return String(cString: name)
        #else
        let address = UInt(bitPattern: #dsohandle)
        if let maps = try? String(contentsOfFile: "/proc/self/maps", encoding: .utf8) {
            for line in maps.split(separator: "\n") {
                // start-end perms offset dev inode path
                let fields = line.split(separator: " ", maxSplits: 5, omittingEmptySubsequences: true)
                let range = fields.first?.split(separator: "-").compactMap { UInt($0, radix: 16) } ?? []
                if fields.count == 6, range.count == 2, range[0] <= address, address < range[1], fields[5].hasPrefix("/") {
                    return fields[5].trimmingCharacters(in: .whitespaces)
                }
            }
        }
        return Bundle.main.executablePath
        #endif
    }
}
