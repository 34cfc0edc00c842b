import BMLTKit
import Foundation

/// Every command of `bmlt-observer`, in the order `--help` lists them.
enum CommandCatalog {
    static let all: [Command] = [
        InfoCommand.command,
        ServerCommands.formats,
        ServerCommands.serviceBodies,
        SearchCommand.command,
        FinderCommands.next,
        MeetingCommand.command,
        FinderCommands.export,
        RootServersCommand.command,
        ReadCommands.changes,
        ReadCommands.deleted,
        ReadCommands.fieldKeys,
        ReadCommands.fieldValues,
        ReadCommands.coverage,
        ReadCommands.naws,
        WatchAndMessageCommands.watch,
        WatchAndMessageCommands.sendMessage,
        CheckCommand.command,
    ] + AdminCommands.all

    static var specs: [CommandSpec] { all.map(\.spec) }

    static func command(named name: String) -> Command? { all.first { $0.spec.name == name } }
}
