import BMLTKit
import Foundation

/// `info`: validate the server and print its summary.
enum InfoCommand {
    static let command = Command(
        spec: CommandSpec("info", "validate the server, print what it is, and search today's meetings (the default command)"),
        run: { context in
            let info = try await context.connection.validate()
            printSummary(info, of: context.connection, context: context)
            var record = JSONRecords.server(info, of: context.connection)
            var criteria = BMLTSearchCriteria()
            let today = BMLTWeekday(rawValue: Calendar(identifier: .gregorian).component(.weekday, from: Date())) ?? .sunday
            criteria.weekdays = [today]
            criteria.page = .init(size: 5, number: 1)
            let results = try await context.connection.meetings(matching: criteria)
            record["today"] = results.meetings.map { JSONRecords.meeting($0) }
            context.result(["server": record])
            context.output("")
            context.output("The first meetings on \(today.name) (try: bmlt-observer help search):")
            for line in MeetingLine.lines(results.meetings) { context.output(line) }
        }
    )

    @MainActor
    static func printSummary(_ info: BMLTServerInfo, of connection: BMLTConnection, context: CommandContext) {
        let server = connection.server
        context.output("")
        context.output("Root server \(connection.rootServerURL.absoluteString)")
        context.output("  version        \(info.version) (\(info.versionInt))")
        context.output("  languages      " + server.languages.map { $0.code + ($0.isDefault ? "*" : "") }.joined(separator: ", "))
        context.output("  distance unit  \(info.distanceUnits.rawValue)")
        context.output("  capabilities   " + describe(connection.capabilities))
        context.output("  formats        \(server.formats.count): " + server.formats.prefix(20).map(\.key).joined(separator: " ")
                       + (server.formats.count > 20 ? " …" + shownNote(server.formats.count, limit: 20) : ""))
        context.output("  service bodies \(server.serviceBodies.count)")
        for root in server.serviceBodyTree { ServerCommands.printNode(root, depth: 2, context: context) }
    }

    static func describe(_ capabilities: BMLTCapabilities) -> String {
        let present = capabilityNames(capabilities)
        return present.isEmpty ? "none" : present.joined(separator: ", ")
    }

    static func capabilityNames(_ capabilities: BMLTCapabilities) -> [String] {
        let names: [(BMLTCapabilities, String)] = [
            (.restAdmin, "REST admin"), (.legacyAdmin, "legacy admin"), (.contactMessages, "contact messages"),
            (.aggregator, "aggregator"), (.languageList, "GetLangs"), (.nawsExport, "NAWS export"),
            (.commaSeparatedParameters, "comma lists"),
        ]
        return names.filter { capabilities.contains($0.0) }.map(\.1)
    }
}
