// bmlt-host-app-dispatch: the same kind of host as bmlt-host-app, as a classic program that parks the main
// thread in `dispatchMain()` (the way a daemon or a pre-async tool runs). `queue: .main` observers, the
// fire-and-forget calls, and `exit` when the last outcome has been seen.
//
//     swift run bmlt-host-app-dispatch
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import BMLTKit
import BMLTDemoServer

var configuration = BMLTConfiguration()
configuration.urlSessionConfiguration = BMLTDemoServer.sessionConfiguration()
let rootURL = CommandLine.arguments.dropFirst().first.flatMap(URL.init(string:))
if rootURL != nil { configuration = BMLTConfiguration() }
let connection = BMLTConnection(rootServerURL: rootURL ?? BMLTDemoServer.rootURL, configuration: configuration)
var tokens: [any NSObjectProtocol] = []
var seen: [String] = []

for name in Notification.Name.bmltAllNotifications {
    tokens.append(NotificationCenter.default.addObserver(forName: name, object: connection, queue: .main) { note in
        let name = note.name, isValid = note.bmltIsServerValid, error = note.bmltError, count = note.bmltMeetings?.count
        MainActor.assumeIsolated {
            seen.append(name.rawValue)
            print("notification", name.rawValue)
            switch name {
            case .bmltServerValidated where isValid == true:
                connection.searchMeetings(BMLTSearchCriteria())
            case .bmltServerValidated, .bmltError:
                print("error:", error?.localizedDescription ?? "unknown")
                exit(1)
            case .bmltMeetingSearchResults:
                print("found \(count ?? 0) meetings")
            case .bmltProgressDidStop where seen.contains(Notification.Name.bmltMeetingSearchResults.rawValue):
                print("done: \(seen.count) notifications")
                exit(0)
            default: break
            }
        }
    })
}
connection.connect()
dispatchMain()
