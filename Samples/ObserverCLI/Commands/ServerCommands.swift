import BMLTKit
import Foundation

/// `formats` and `service-bodies`: what validation learned about the server, printed from the `server` store.
enum ServerCommands {
    static let formats = Command(
        spec: CommandSpec("formats", "list the server's formats (key, id, name, type)"),
        run: { context in
            _ = try await context.connection.validate()
            let formats = context.connection.server.formats
            context.output("")
            context.output("\(formats.count) formats")
            for format in formats.sorted(by: { $0.key < $1.key }) {
                let type = format.type.map { " [\($0.rawValue)]" } ?? ""
                context.output("  " + format.key.padding(toLength: 6, withPad: " ", startingAt: 0)
                               + String(format.id).padding(toLength: 6, withPad: " ", startingAt: 0) + format.name + type)
            }
        }
    )

    static let serviceBodies = Command(
        spec: CommandSpec("service-bodies", "print the service-body tree (orphans stay at the root)"),
        run: { context in
            _ = try await context.connection.validate()
            let server = context.connection.server
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
