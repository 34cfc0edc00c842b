// bmlt-observer: prints every BMLTKit notification as it arrives. See Samples/ObserverCLI for the code.
import Foundation
import ObserverCLI

let status = await ObserverCLI.run(Array(CommandLine.arguments.dropFirst()))
exit(status)
