import Testing
@testable import ObserverCLI

extension DemoServerSuites {
    @Suite("bmlt-observer exit codes", .serialized)
    @MainActor
    struct ObserverRunTests {
        @Test("info, formats and service-bodies against the embedded demo server exit 0")
        func demoCommandsSucceed() async {
            #expect(await ObserverCLI.run(["--no-spinner", "info"], environment: hangGuardEnvironment) == 0)
            #expect(await ObserverCLI.run(["--no-spinner", "--json", "formats"], environment: hangGuardEnvironment) == 0)
            #expect(await ObserverCLI.run(["--no-spinner", "service-bodies"], environment: hangGuardEnvironment) == 0)
        }

        @Test("usage errors exit 2", arguments: [["bogus"], ["info", "--nope"], ["--timeout", "soon"], ["--timeout"]])
        func usageErrors(arguments: [String]) async {
            #expect(await ObserverCLI.run(arguments) == 2)
        }

        @Test("--help exits 0")
        func help() async {
            #expect(await ObserverCLI.run(["--help"]) == 0)
            #expect(await ObserverCLI.run(["formats", "--help"]) == 0)
        }

        @Test("a server that cannot be used exits 1 (http to a public host is refused before any request)")
        func unusableServer() async {
            #expect(await ObserverCLI.run(["--no-spinner", "--server", "http://example.org/main_server", "info"]) == 1)
        }
    }
}
