import Testing
@testable import ObserverCLI

@Suite("bmlt-observer argument table")
struct ArgumentTableTests {
    let parser = ArgumentParser(
        globalOptions: [.value("server", "URL", "server"), .flag("json", "json")],
        commands: [
            CommandSpec("info", "info"),
            CommandSpec("search", "search", options: [.value("weekday", "DAY", "day", repeats: true), .value("page", "N", "page")]),
            CommandSpec("admin login", "login", options: [.value("user", "NAME", "user")]),
            CommandSpec("admin delete", "delete", positionals: ["meeting-id"]),
        ],
        defaultCommand: "info"
    )

    @Test("no arguments runs the default command")
    func defaultCommand() throws {
        #expect(try parser.parse([]) == ParsedCommandLine(command: "info", options: [:], positionals: []))
    }

    @Test("global options go before or after the command; --name=value works")
    func globalOptions() throws {
        let before = try parser.parse(["--server", "https://x/main_server", "search", "--json"])
        #expect(before.command == "search")
        #expect(before.value("server") == "https://x/main_server")
        #expect(before.flag("json"))
        let inline = try parser.parse(["search", "--server=https://y"])
        #expect(inline.value("server") == "https://y")
    }

    @Test("repeatable options collect values, comma lists are split")
    func repeatable() throws {
        let line = try parser.parse(["search", "--weekday", "mon", "--weekday", "wed,fri", "--page", "2"])
        #expect(line.values("weekday") == ["mon", "wed", "fri"])
        #expect(line.value("page") == "2")
    }

    @Test("two-word sub-commands and positionals")
    func subcommands() throws {
        #expect(try parser.parse(["admin", "login", "--user", "me"]).command == "admin login")
        let delete = try parser.parse(["admin", "delete", "42"])
        #expect(delete.command == "admin delete")
        #expect(delete.positionals == ["42"])
    }

    @Test("usage errors, each naming the command whose help to read when there is one", arguments: [
        (["frobnicate"], UsageError("unknown command 'frobnicate'")),
        (["search", "--color", "red"], UsageError("unknown option --color for 'search'", command: "search")),
        (["search", "--page"], UsageError("--page needs a value (N)")),
        (["search", "--page", "1", "--page", "2"], UsageError("--page given twice")),
        (["info", "--json=yes"], UsageError("--json takes no value")),
        (["admin"], UsageError("'admin' needs a sub-command: admin login, admin delete")),
        (["admin", "delete", "1", "2"], UsageError("unexpected argument '2' for 'admin delete'", command: "admin delete")),
        (["info", "--weekday", "mon"], UsageError("unknown option --weekday for 'info'", command: "info")),
    ])
    func usageErrors(arguments: [String], error: UsageError) {
        #expect(throws: error) { try parser.parse(arguments) }
    }

    @Test("--help anywhere asks for help on the command given")
    func help() throws {
        #expect(try parser.parse(["--help"]).command == "help")
        let onSearch = try parser.parse(["search", "--help"])
        #expect(onSearch.command == "help")
        #expect(onSearch.positionals == ["search"])
        let text = parser.help(for: "search", program: "bmlt-observer")
        #expect(text.contains("usage: bmlt-observer [global options] search [options]"))
        #expect(text.contains("--weekday DAY"))
        #expect(text.contains("--server URL"))
        #expect(parser.help(program: "bmlt-observer").contains("admin login"))
    }

    @Test("help [COMMAND] with one- and two-word commands; a group's help lists its sub-commands")
    func helpCommand() throws {
        #expect(try parser.parse(["help"]) == ParsedCommandLine(command: "help", options: [:], positionals: []))
        #expect(try parser.parse(["help", "search"]).positionals == ["search"])
        #expect(try parser.parse(["help", "admin", "login"]).positionals == ["admin login"])
        #expect(try parser.parse(["admin", "--help"]).positionals == ["admin"])
        #expect(parser.knows("admin") && parser.knows("admin delete") && !parser.knows("adm"))
        let group = parser.help(for: "admin", program: "p")
        #expect(group.contains("  admin login") && group.contains("  admin delete") && !group.contains("  search"))
    }

    @Test("a short flag: -v is --verbose")
    func shortFlag() throws {
        let table = ArgumentParser(globalOptions: [.flag("verbose", "log", short: "v")], commands: [CommandSpec("info", "info")],
                                   defaultCommand: "info")
        #expect(try table.parse(["-v", "info"]).flag("verbose"))
        #expect(try table.parse(["info", "-v"]).flag("verbose"))
        #expect(table.help(program: "p").contains("-v, --verbose"))
        #expect(throws: UsageError.self) { try table.parse(["-x"]) }
    }

    @Test("the real program's table parses its own commands")
    func realTable() throws {
        let line = try ObserverCLI.parser.parse(["--json"])
        #expect(line.command == "info")
        #expect(line.flag("json"))
    }
}
