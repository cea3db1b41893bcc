import TributaryCore

/// `tributary check`: validate the configuration without fetching anything.
enum CheckCommand: Command {
    static let spec = CommandSpec(
        name: "check",
        abstract: "Validate the configuration without fetching anything.",
        discussion: "Prints every problem as file:line:column: error: message and exits 1 when there is any.",
        options: CommonOptions.all)

    static func execute(_ arguments: ParsedArguments, context: CommandContext) async -> Int32 {
        guard let configuration = context.loadConfiguration(arguments) else { return ExitStatus.usage.rawValue }
        if !arguments.flag("quiet") {
            let enabled = configuration.enabledSources.count
            let total = configuration.sources.count
            let outputs = configuration.outputs.map { $0.displayPath ?? $0.kind.rawValue }
            context.console.output(
                "\(configuration.file): ok: \(total) source\(total == 1 ? "" : "s")"
                    + (enabled == total ? "" : " (\(enabled) enabled)")
                    + ", outputs: \(outputs.joined(separator: ", "))\n")
        }
        return ExitStatus.success.rawValue
    }
}
