import BMLTKit
import Foundation

/// `root-servers`: the root servers an aggregator imports (validation reads them once), with version, last
/// import and meeting count; on a plain root server, says it is not an aggregator.
enum RootServersCommand {
    static let command = Command(
        spec: CommandSpec("root-servers", "list an aggregator's root servers (id, name, version, last import, meetings)"),
        run: { context in
            _ = try await context.connection.validate()
            let connection = context.connection
            guard connection.capabilities.contains(.aggregator) else {
                context.output("")
                context.output("this server is a root server, not an aggregator: it has no root servers")
                return
            }
            let roots = connection.server.rootServers.isEmpty ? try await connection.rootServers() : connection.server.rootServers
            context.output("")
            context.output("\(roots.count) root server\(roots.count == 1 ? "" : "s") (search one with: search --root-server ID)")
            for root in roots {
                let version = root.serverInfo?.version ?? "?"
                let imported = root.lastSuccessfulImport.map { "imported \($0) UTC" } ?? "never imported (unreachable?)"
                let meetings = root.meetingCount.map { ", \($0) meetings" } ?? ""
                context.output("  #\(root.id)  \(root.name) — \(root.url) (\(version), \(imported)\(meetings))")
            }
        }
    )

    /// What to add when an aggregator would answer the search with nothing, in the CLI's own flags.
    static let filterAdvice = "an aggregator answers a search without a narrowing filter with no meetings at all: "
        + "add --service-body, --format, --root-server, --near or --page-size (--weekday, --text, --starts-after and --venue alone do not count)"

    /// " [root server name]" for a meeting of an aggregator, "" otherwise.
    @MainActor
    static func suffix(for meeting: BMLTMeeting, on connection: BMLTConnection) -> String {
        guard let id = meeting.rootServerID else { return "" }
        return " [" + (connection.rootServer(of: meeting)?.name ?? "root server \(id)") + "]"
    }
}
