// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "BMLTKit",
    defaultLocalization: "en",
    platforms: [.macOS(.v14), .iOS(.v17), .tvOS(.v17), .watchOS(.v10), .visionOS(.v1)],
    products: [
        .library(name: "BMLTKit", targets: ["BMLTKit"]),
        .executable(name: "bmlt-observer", targets: ["bmlt-observer"]),
        // The embedded demo root server, for SwiftUI previews, tests and offline demos.
        .library(name: "BMLTDemoServer", targets: ["BMLTDemoServer"]),
        .executable(name: "bmlt-host-app", targets: ["bmlt-host-app"]),
    ],
    targets: [
        // Resources: the string tables of the twelve languages (Resources/<lang>.lproj, found by Localization/ResourceBundle.swift, not Bundle.module), and
        // PrivacyInfo.xcprivacy: the required-reason APIs BMLTKit uses, for the apps that link it (.ci/privacy-manifest).
        .target(name: "BMLTKit", path: "Sources/BMLTKit", resources: [.process("Resources"), .copy("PrivacyInfo.xcprivacy")]),
        // The embedded demo root server: an in-process URLProtocol over demo data written for this project.
        .target(name: "BMLTDemoServer", path: "Samples/DemoServer"),
        // The sample observer CLI: argument table, printing, spinner. Thin `main` in bmlt-observer. README.md is its manual.
        .target(name: "ObserverCLI", dependencies: ["BMLTKit", "BMLTDemoServer"], path: "Samples/ObserverCLI", exclude: ["README.md"]),
        .executableTarget(name: "bmlt-observer", dependencies: ["ObserverCLI"], path: "Samples/bmlt-observer"),
        // The host-app samples: an async main and a dispatchMain() program (run by HostAppProcessTests).
        .executableTarget(name: "bmlt-host-app", dependencies: ["BMLTKit", "BMLTDemoServer"], path: "Samples/HostApp/bmlt-host-app"),
        .executableTarget(name: "bmlt-host-app-dispatch", dependencies: ["BMLTKit", "BMLTDemoServer"], path: "Samples/HostApp/bmlt-host-app-dispatch"),
        // One way a host observes a connection per run (HostPatternProcessTests runs each in its own process).
        .executableTarget(name: "bmlt-host-patterns", dependencies: ["BMLTKit", "BMLTDemoServer"], path: "Samples/HostApp/bmlt-host-patterns"),
        // A SwiftUI finder screen (two BMLTMeetingQuery, a map and a list; the article "Using BMLTKit in SwiftUI"):
        // its model compiles everywhere, its views where SwiftUI exists (macOS job, simulators).
        .target(name: "SwiftUIFinder", dependencies: ["BMLTKit", "BMLTDemoServer"], path: "Samples/SwiftUIFinder"),
        // A real HTTP server on 127.0.0.1 for tests and benchmarks (redirects, drips, dropped connections).
        .target(name: "LoopbackHTTPServer", path: "Tests/LoopbackHTTPServer"),
        // The benchmark executable: swift run -c release bmlt-bench
        .executableTarget(name: "bmlt-bench", dependencies: ["BMLTKit", "LoopbackHTTPServer", "BenchSupport"], path: "Benchmarks/bmlt-bench"),
        // bmlt-bench's C helpers (malloc's own count of the bytes in use, for the soak).
        .target(name: "BenchSupport", path: "Benchmarks/BenchSupport"),
        // Replays of the real root servers' captures (read in place from ../shared/fixtures) over 127.0.0.1.
        .target(name: "CaptureReplay", dependencies: ["LoopbackHTTPServer"], path: "Tests/CaptureReplay"),
        .testTarget(name: "BMLTKitTests", dependencies: ["BMLTKit", "LoopbackHTTPServer", "CaptureReplay"], path: "Tests/BMLTKitTests"),
        // Programs written only from design/API.md's names (no @testable), against replayed real replies.
        .testTarget(name: "APIContractTests", dependencies: ["BMLTKit", "LoopbackHTTPServer", "CaptureReplay"], path: "Tests/APIContractTests"),
        .testTarget(name: "SamplesTests", dependencies: ["ObserverCLI", "BMLTDemoServer", "BMLTKit", "CaptureReplay", "LoopbackHTTPServer", "SwiftUIFinder"], path: "Tests/SamplesTests"),
    ],
    swiftLanguageModes: [.v6]
)
