import CommandAdapter
public import Foundation
import Synchronization
import TributaryCore

/// The `tributary` command line: finds the command, parses its arguments, runs it and returns
/// the exit status. Everything it prints goes through a `Console`, so tests can run it in-process.
public enum CommandLineTool {
    /// The program name used in messages.
    static let programName = "tributary"

    /// The commands, in the order `--help` lists them.
    static let commands: [CommandEntry] = [
        CommandEntry(RunCommand.self), CommandEntry(CheckCommand.self), CommandEntry(StatusCommand.self), CommandEntry(ParseCommand.self),
        CommandEntry(RecordCommand.self), CommandEntry(AdaptersCommand.self), CommandEntry(ImportOPMLCommand.self),
        CommandEntry(ExportOPMLCommand.self),
        CommandEntry(VersionCommand.self), CommandEntry(HelpCommand.self),
    ]

    /// Runs the command line (without the program name) and returns the exit status. With
    /// `endsProcess`, the caller exits right after: a command may then leave its large results
    /// for the exit to reclaim instead of freeing them piece by piece. The process is then the
    /// tool's own, so what `command` sources leave behind is adopted and killed
    /// (``CommandAdapter/adoptLeftovers()``).
    public static func main(
        _ arguments: [String], console: any Console = StandardConsole(),
        environment: [String: String] = ProcessInfo.processInfo.environment, endsProcess: Bool = false
    ) async -> Int32 {
        if endsProcess {
            ProcessMemory.tuneForOneCommand()
            CommandAdapter.adoptLeftovers()
        }
        let context = CommandContext(console: console, environment: environment, endsProcess: endsProcess)
        guard let first = arguments.first else {
            console.diagnostic(overview())
            return ExitStatus.usage.rawValue
        }
        switch first {
        case "-h", "--help":
            console.output(overview() + "\n")
            return ExitStatus.success.rawValue
        case "-V", "--version":
            return await VersionCommand.execute(ParsedArgumentsFactory.empty, context: context)
        default:
            break
        }
        guard let command = commands.first(where: { $0.spec.name == first }) else {
            var message = first.hasPrefix("-") ? "'\(first)' must come after a command" : "unknown command '\(first)'"
            if let suggestion = Spelling.suggestion(for: first, among: commands.map(\.spec.name)) {
                message += "; did you mean '\(suggestion)'?"
            }
            console.diagnostic(UsageError(messages: [message]).rendered(programName: programName, commandName: nil))
            return ExitStatus.usage.rawValue
        }
        let rest = Array(arguments.dropFirst())
        let scanned = ArgumentParser.scan(rest, for: command.spec)
        if scanned.arguments.flag("help") {
            console.output(ArgumentParser.help(for: command.spec, programName: programName) + "\n")
            return ExitStatus.success.rawValue
        }
        guard scanned.errors.isEmpty else {
            console.diagnostic(UsageError(messages: scanned.errors).rendered(programName: programName, commandName: command.spec.name))
            command.refused(scanned.errors, scanned.arguments, context)
            return ExitStatus.usage.rawValue
        }
        return await command.execute(scanned.arguments, context)
    }

    /// The text of `tributary --help`.
    static func overview() -> String {
        let width = commands.map(\.spec.name.count).max() ?? 0
        var lines = [
            "Tributary \(Tributary.version): combine feeds and sites into one river (Atom, RSS, JSON Feed, HTML, terminal).",
            "",
            "Usage: \(programName) <command> [options]",
            "",
            "Commands:",
        ]
        for command in commands {
            lines.append("  " + command.spec.name.padding(toLength: width + 2, withPad: " ", startingAt: 0) + command.spec.abstract)
        }
        lines += [
            "",
            "Run '\(programName) <command> --help' for a command's options.",
            "",
            "Exit status:",
            "  0  success",
            "  1  configuration or usage error (nothing fetched or written)",
            "  2  partial failure (some sources failed or some outputs could not be written; the rest were)",
            "  3  nothing could be produced (every source failed, or no output could be written)",
            "  4  another run holds the state's lock (and --wait was not given, or ran out)",
            "  5  the state file cannot be used (damaged, newer, read-only); see 'run --help'",
        ]
        return lines.joined(separator: "\n")
    }
}

/// What every command gets besides its arguments.
struct CommandContext: Sendable {
    let console: any Console
    let environment: [String: String]
    /// The process exits when the command returns (see ``CommandLineTool/main(_:console:environment:endsProcess:)``).
    var endsProcess = false

    /// A logger that writes to standard error at the level the flags ask for.
    func logger(level: Logger.Level) -> Logger {
        let console = console
        return Logger(minimumLevel: level) { record in
            var line = record.level >= .warning ? "\(record.level): " : ""
            if let source = record.source { line += "[\(source)] " }
            console.diagnostic(line + record.message)
        }
    }

    /// Loads the configuration, printing every error; nil when it is invalid.
    func loadConfiguration(_ arguments: ParsedArguments) -> Configuration? {
        var errors: [String] = []
        return loadConfiguration(arguments, errors: &errors)
    }

    /// Loads the configuration, printing every error and handing them to `errors` as well (for a report); nil when
    /// it is invalid.
    func loadConfiguration(_ arguments: ParsedArguments, errors: inout [String]) -> Configuration? {
        let path = CommonOptions.configPath(arguments)
        let loader = ConfigLoader(registry: AdapterCatalog.registry, environment: environment)
        do {
            return try loader.load(file: path)
        } catch {
            for problem in error.errors { console.diagnostic(problem.description) }
            let count = error.errors.count
            console.diagnostic("\(CommandLineTool.programName): \(count) error\(count == 1 ? "" : "s") in \(path)")
            errors = error.errors.map(\.description)
            return nil
        }
    }
}

/// One subcommand.
protocol Command: Sendable {
    /// Its name, options and help.
    static var spec: CommandSpec { get }
    /// Runs it with parsed arguments and returns the exit status.
    static func execute(_ arguments: ParsedArguments, context: CommandContext) async -> Int32
    /// Told when its command line is refused (with what could be read of it), before the process exits with status 1.
    static func refused(_ errors: [String], arguments: ParsedArguments, context: CommandContext)
}

extension Command {
    static func refused(_ errors: [String], arguments: ParsedArguments, context: CommandContext) {}
}

/// A command's spec and entry point, as values (calling a static async requirement through an
/// existential metatype crashes the Swift 6.3 compiler's SILGen).
struct CommandEntry: Sendable {
    let spec: CommandSpec
    let execute: @Sendable (ParsedArguments, CommandContext) async -> Int32
    let refused: @Sendable ([String], ParsedArguments, CommandContext) -> Void

    init<C: Command>(_ command: C.Type) {
        spec = command.spec
        execute = { arguments, context in await command.execute(arguments, context: context) }
        refused = { errors, arguments, context in command.refused(errors, arguments: arguments, context: context) }
    }
}

/// Parsed arguments for commands called without any.
enum ParsedArgumentsFactory {
    static var empty: ParsedArguments {
        (try? ArgumentParser.parse([], for: CommandSpec(name: "")).get()) ?? ArgumentParser.scan([], for: CommandSpec(name: "")).arguments
    }
}

/// Values kept until the process exits. Freeing a run's river item by item (the strings of
/// thousands of items) took 30–50 ms after the summary was printed, for memory the exit hands
/// back at once.
enum KeptUntilExit {
    private static let values = Mutex<[any Sendable]>([])

    static func keep(_ value: any Sendable) {
        values.withLock { $0.append(value) }
    }
}
