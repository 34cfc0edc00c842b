/// The CLI's grammar as data: commands, their options, and the global options. Parsing reads this table;
/// `--help` prints it. Hand-written because the package has no dependencies.
public struct CommandSpec: Sendable {
    /// The command word, e.g. "search"; sub-commands are written "admin login".
    public let name: String
    /// One line shown in the command list.
    public let summary: String
    /// The options the command takes.
    public let options: [OptionSpec]
    /// Positional arguments, by name (shown in usage).
    public let positionals: [String]

    /// A command.
    public init(_ name: String, _ summary: String, options: [OptionSpec] = [], positionals: [String] = []) {
        self.name = name
        self.summary = summary
        self.options = options
        self.positionals = positionals
    }
}

/// One option: `--name VALUE` (or a flag, when `valueName` is nil).
public struct OptionSpec: Sendable, Equatable {
    /// The long name without dashes.
    public let name: String
    /// What the value is called in help, e.g. "ID"; `nil` for a flag.
    public let valueName: String?
    /// One line of help.
    public let help: String
    /// Whether the option may be given more than once.
    public let repeats: Bool
    /// A one-letter form, if any: `.flag("verbose", "log requests", short: "v")` also accepts `-v`.
    public var short: Character? = nil

    /// An option taking a value.
    public static func value(_ name: String, _ valueName: String, _ help: String, repeats: Bool = false) -> OptionSpec {
        OptionSpec(name: name, valueName: valueName, help: help, repeats: repeats)
    }

    /// A flag (`short`: its one-letter form).
    public static func flag(_ name: String, _ help: String, short: Character? = nil) -> OptionSpec {
        OptionSpec(name: name, valueName: nil, help: help, repeats: false, short: short)
    }
}

/// What the command line said.
public struct ParsedCommandLine: Sendable, Equatable {
    /// The command, e.g. "search" or "admin login".
    public var command: String
    /// Option values by name (a flag has one empty value).
    public var options: [String: [String]]
    /// Positional arguments after the command.
    public var positionals: [String]

    /// The last value of an option.
    public func value(_ name: String) -> String? { options[name]?.last }
    /// Every value of a repeatable option (comma lists are split too: `--weekday mon,wed`).
    public func values(_ name: String) -> [String] {
        (options[name] ?? []).flatMap { $0.split(separator: ",").map(String.init) }
    }
    /// Whether a flag was given.
    public func flag(_ name: String) -> Bool { options[name] != nil }
}

/// A usage error: exit code 2 with this message and a hint.
public struct UsageError: Error, Equatable, CustomStringConvertible {
    /// What was wrong.
    public let message: String
    /// The command it concerns (`search`, `admin edit`), for the "see help" hint; `nil` for the program as a whole.
    public let command: String?
    /// The error text.
    public var description: String { message }
    /// A usage error, about `command` when one is known.
    public init(_ message: String, command: String? = nil) {
        self.message = message
        self.command = command
    }
}

/// Parses arguments against a table of commands and global options.
public struct ArgumentParser: Sendable {
    /// Options accepted before or after any command.
    public let globalOptions: [OptionSpec]
    /// The commands.
    public let commands: [CommandSpec]
    /// The command used when none is given.
    public let defaultCommand: String

    /// A parser for this table.
    public init(globalOptions: [OptionSpec], commands: [CommandSpec], defaultCommand: String) {
        self.globalOptions = globalOptions
        self.commands = commands
        self.defaultCommand = defaultCommand
    }

    /// Parses `arguments` (without the program name). `--help` anywhere, or `help [COMMAND]` first, yields the
    /// command "help" with the command asked about as its positional.
    public func parse(_ arguments: [String]) throws(UsageError) -> ParsedCommandLine {
        var words = arguments[...]
        var options: [String: [String]] = [:]
        var positionals: [String] = []
        var commandWords: [String] = []
        var wantsHelp = false
        var helpTopic: [String] = []

        while var word = words.popFirst() {
            if word.count == 2, word.hasPrefix("-"), word != "-h",
               let spec = globalOptions.first(where: { $0.short == word.last }) {
                word = "--" + spec.name
            }
            if word == "--help" || word == "-h" {
                wantsHelp = true
            } else if !word.hasPrefix("-"), commandWords.isEmpty, positionals.isEmpty, helpTopic.isEmpty, word == "help", !wantsHelp {
                wantsHelp = true
                helpTopic = [""]
            } else if !word.hasPrefix("-"), !helpTopic.isEmpty {
                helpTopic.append(word)
            } else if word.hasPrefix("--") {
                var name = String(word.dropFirst(2))
                var inlineValue: String?
                if let equals = name.firstIndex(of: "=") {
                    inlineValue = String(name[name.index(after: equals)...])
                    name = String(name[..<equals])
                }
                let command = match(commandWords)
                guard let spec = (command?.options ?? []).first(where: { $0.name == name })
                        ?? globalOptions.first(where: { $0.name == name }) else {
                    throw UsageError("unknown option --\(name)" + (command.map { " for '\($0.name)'" } ?? ""), command: command?.name)
                }
                if spec.valueName == nil {
                    guard inlineValue == nil else { throw UsageError("--\(name) takes no value") }
                    options[name] = [""]
                    continue
                }
                guard let value = inlineValue ?? words.popFirst(), inlineValue != nil || !value.hasPrefix("--") else {
                    throw UsageError("--\(name) needs a value (\(spec.valueName!))")
                }
                if !spec.repeats, options[name] != nil { throw UsageError("--\(name) given twice") }
                options[name, default: []].append(value)
            } else if positionals.isEmpty, let extended = extend(commandWords, with: word) {
                commandWords = extended
            } else if match(commandWords) != nil || !commandWords.isEmpty {
                positionals.append(word)
            } else {
                throw UsageError("unknown command '\(word)'")
            }
        }
        if wantsHelp {
            let topic = helpTopic.count > 1 ? Array(helpTopic.dropFirst()) : commandWords
            return ParsedCommandLine(command: "help", options: options, positionals: topic.isEmpty ? [] : [topic.joined(separator: " ")])
        }
        let name = commandWords.isEmpty ? defaultCommand : commandWords.joined(separator: " ")
        guard let command = commands.first(where: { $0.name == name }) else {
            let subcommands = commands.filter { $0.name.hasPrefix(name + " ") }.map { $0.name }
            throw UsageError("'\(name)' needs a sub-command: " + subcommands.joined(separator: ", "))
        }
        if positionals.count > command.positionals.count {
            throw UsageError("unexpected argument '\(positionals[command.positionals.count])' for '\(name)'", command: name)
        }
        return ParsedCommandLine(command: name, options: options, positionals: positionals)
    }

    private func match(_ words: [String]) -> CommandSpec? {
        let name = words.joined(separator: " ")
        return commands.first { $0.name == name }
    }

    /// The command words extended by `word`, if some command starts that way.
    private func extend(_ words: [String], with word: String) -> [String]? {
        let candidate = (words + [word]).joined(separator: " ")
        return commands.contains { $0.name == candidate || $0.name.hasPrefix(candidate + " ") } ? words + [word] : nil
    }

    /// Whether `name` is a command or the first word of some: `knows("admin")` and `knows("admin login")` are true.
    public func knows(_ name: String) -> Bool {
        commands.contains { $0.name == name || $0.name.hasPrefix(name + " ") }
    }

    /// The help text: the usage line, the commands, and (for one command) its options; for a group such as
    /// `admin`, its sub-commands.
    public func help(for commandName: String? = nil, program: String) -> String {
        var lines: [String] = []
        func describe(_ options: [OptionSpec]) {
            for option in options {
                let left = (option.short.map { "  -\($0), " } ?? "  ") + "--\(option.name)" + (option.valueName.map { " \($0)" } ?? "")
                lines.append(left.padding(toLength: max(left.count + 2, 30), withPad: " ", startingAt: 0) + option.help)
            }
        }
        if let commandName, let command = commands.first(where: { $0.name == commandName }) {
            lines.append("usage: \(program) [global options] \(command.name)"
                         + (command.options.isEmpty ? "" : " [options]")
                         + command.positionals.map { " <\($0)>" }.joined())
            lines.append("")
            lines.append(command.summary)
            if !command.options.isEmpty {
                lines.append("")
                lines.append("options:")
                describe(command.options)
            }
        } else if let commandName, knows(commandName) {
            lines.append("usage: \(program) [global options] \(commandName) <sub-command> [options]")
            lines.append("")
            lines.append("sub-commands (\(program) help \(commandName) <sub-command> for each):")
            for command in commands where command.name.hasPrefix(commandName + " ") {
                lines.append("  " + command.name.padding(toLength: 18, withPad: " ", startingAt: 0) + command.summary)
            }
        } else {
            lines.append("usage: \(program) [global options] <command> [options]")
            lines.append("       \(program) help [COMMAND]")
            lines.append("")
            lines.append("commands (default: \(defaultCommand)):")
            for command in commands {
                lines.append("  " + command.name.padding(toLength: 18, withPad: " ", startingAt: 0) + command.summary)
            }
        }
        lines.append("")
        lines.append("global options:")
        describe(globalOptions)
        return lines.joined(separator: "\n")
    }
}
