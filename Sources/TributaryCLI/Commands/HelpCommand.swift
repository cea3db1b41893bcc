import TributaryCore

/// `tributary help [COMMAND]`: the overview, or one command's help.
enum HelpCommand: Command {
    static let spec = CommandSpec(
        name: "help", abstract: "Show help for a command.", options: [OptionSpec.help],
        positionals: [PositionalSpec(name: "COMMAND", help: "The command to explain.", isOptional: true)])

    static func execute(_ arguments: ParsedArguments, context: CommandContext) async -> Int32 {
        guard let name = arguments.positionals.first else {
            context.console.output(CommandLineTool.overview() + "\n")
            return ExitStatus.success.rawValue
        }
        guard let command = CommandLineTool.commands.first(where: { $0.spec.name == name }) else {
            var message = "unknown command '\(name)'"
            if let suggestion = Spelling.suggestion(for: name, among: CommandLineTool.commands.map(\.spec.name)) {
                message += "; did you mean '\(suggestion)'?"
            }
            context.console.diagnostic(UsageError(messages: [message]).rendered(programName: CommandLineTool.programName, commandName: nil))
            return ExitStatus.usage.rawValue
        }
        context.console.output(ArgumentParser.help(for: command.spec, programName: CommandLineTool.programName) + "\n")
        return ExitStatus.success.rawValue
    }
}
