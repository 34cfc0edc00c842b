import BMLTKit
import Foundation

/// `formats` and `service-bodies`: what validation learned about the server, printed from the `server` store.
enum ServerCommands {
    static let formats = Command(
        spec: CommandSpec("formats", "list the server's formats (key, id, name, type)"),
        run: { context in
            _ = try await context.connection.validate()
            let formats = context.connection.server.formats.sorted { $0.key < $1.key }
            context.result(["formats": formats.map(JSONRecords.format), "count": formats.count])
            context.output("")
            context.output("\(formats.count) formats")
            let rows = formats.map { format in
                [format.key, "#\(format.id)", format.name + (format.type.map { " [\($0.rawValue)]" } ?? "")]
            }
            for line in Columns.lines(rows) { context.output(line) }
        }
    )

    static let serviceBodies = Command(
        spec: CommandSpec("service-bodies", "print the service-body tree (orphans stay at the root)"),
        run: { context in
            _ = try await context.connection.validate()
            let server = context.connection.server
            context.result(["serviceBodies": server.serviceBodies.map(JSONRecords.serviceBody), "count": server.serviceBodies.count])
            context.output("")
            context.output("\(server.serviceBodies.count) service bodies")
            for root in server.serviceBodyTree { printNode(root, depth: 1, context: context) }
        }
    )

    @MainActor
    static func printNode(_ node: BMLTServiceBodyNode, depth: Int, context: CommandContext) {
        let body = node.serviceBody
        let details = [body.type?.rawValue, body.worldID, body.helpline].compactMap { $0 }.joined(separator: ", ")
        context.output(String(repeating: "  ", count: depth) + "• \(body.name) #\(body.id)" + (details.isEmpty ? "" : " (\(details))"))
        for child in node.children { printNode(child, depth: depth + 1, context: context) }
    }
}
