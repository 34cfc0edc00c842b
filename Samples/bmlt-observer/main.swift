// bmlt-observer: prints every BMLTKit notification as it arrives. See Samples/ObserverCLI for the code.
import Foundation
import ObserverCLI

let interrupt = ObserverCLI.clearLineOnInterrupt()
let status = await ObserverCLI.run(Array(CommandLine.arguments.dropFirst()))
withExtendedLifetime(interrupt) { exit(status) }
