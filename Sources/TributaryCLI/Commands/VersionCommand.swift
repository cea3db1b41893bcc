import TributaryCore

/// `tributary version`: print the version.
enum VersionCommand: Command {
    static let spec = CommandSpec(name: "version", abstract: "Print the version and exit.", options: [OptionSpec.help])

    static func execute(_ arguments: ParsedArguments, context: CommandContext) async -> Int32 {
        context.console.output("tributary \(Tributary.version)\n")
        return ExitStatus.success.rawValue
    }
}
