import Foundation
import TributaryCore
import TributaryState
import TributarySyndication

/// `tributary status`: the last runs and each source's health, from the state file.
enum StatusCommand: Command {
    static let spec = CommandSpec(
        name: "status",
        abstract: "Show the last runs and each source's health from the state file.",
        discussion: """
            Reads the state file that 'run' keeps (without fetching anything): the last runs with their
            exit status and item counts, and per source the last success, the failures since, and the
            last error. Sources that keep failing are the ones to look at.
            """,
        options: CommonOptions.all + [
            CommonOptions.state,
            OptionSpec(long: "runs", valueName: "N", help: "Show the last N runs.", defaultValue: "10"),
        ])

    static func execute(_ arguments: ParsedArguments, context: CommandContext) async -> Int32 {
        var runCount = 10
        if let text = arguments.value("runs") {
            guard let number = Int(text), number >= 0 else {
                context.console.diagnostic(
                    UsageError(messages: ["option '--runs' must be a number, not '\(text)'"])
                        .rendered(programName: CommandLineTool.programName, commandName: spec.name))
                return ExitStatus.usage.rawValue
            }
            runCount = number
        }
        // With --state the file is known without the configuration, which then only says which sources are configured:
        // a broken configuration does not hide the state (its errors are for `check` and `run`).
        let given = arguments.value("state")
        let configuration: Configuration?
        if given != nil {
            configuration = try? ConfigLoader(registry: AdapterCatalog.registry, environment: context.environment)
                .load(file: CommonOptions.configPath(arguments))
        } else {
            guard let loaded = context.loadConfiguration(arguments) else { return ExitStatus.usage.rawValue }
            configuration = loaded
        }
        let path: String
        if let given {
            path = CommonOptions.commandLinePath(given).path
        } else if let configured = configuration?.statePath?.path {
            path = configured
        } else {
            context.console.diagnostic(
                "\(CommandLineTool.programName): \(configuration?.file ?? "the configuration") says 'state: off'; there is no state to show"
            )
            return ExitStatus.success.rawValue
        }
        let runs: [RunRecord]
        let health: [SourceHealth]
        do {
            guard let store = try StateStore.openExisting(path: path) else {
                context.console.output("no state at \(path) yet: no run has written one\n")
                return ExitStatus.success.rawValue
            }
            defer { store.close() }
            runs = try store.recentRuns(limit: runCount)
            health = try store.sourceHealth()
        } catch {
            context.console.diagnostic("\(CommandLineTool.programName): \(error.description)")
            return ExitStatus.stateUnusable.rawValue
        }
        context.console.output(render(path: path, runs: runs, health: health, configured: configuration?.sources))
        return ExitStatus.success.rawValue
    }

    /// The report; `configured` (nil when the configuration could not be read) marks the stored sources it no longer
    /// has and adds those no run has fetched yet.
    static func render(path: String, runs: [RunRecord], health: [SourceHealth], configured: [SourceConfig]?) -> String {
        var text = "state: \(path)\n\nlast runs (newest first):\n"
        if runs.isEmpty { text += "  none\n" }
        for run in runs {
            text += "  \(RFC3339.string(from: run.started))  exit \(run.status)  \(run.sources) source\(run.sources == 1 ? "" : "s")"
            text += run.failed > 0 ? " (\(run.failed) failed)" : ""
            text +=
                ", \(run.items) item\(run.items == 1 ? "" : "s") (\(run.newItems) new) in \(Duration.seconds(run.duration).secondsText)\n"
        }
        var rows = [["source", "health", "last success", "failures", "http", "stored", "last error"]]
        var known = Set<String>()
        let names = configured.map { Set($0.map(\.name)) }
        for source in health {
            known.insert(source.name)
            var state = source.consecutiveFailures == 0 ? "ok" : source.lastSuccess == nil ? "never worked" : "failing"
            // Kept for `retention` after its last run, in case it comes back; then a run forgets it.
            if let names, !names.contains(source.name) { state = "not configured" }
            rows.append([
                source.name, state, source.lastSuccess.map(RFC3339.string(from:)) ?? "never", String(source.consecutiveFailures),
                source.lastHTTPStatus.map(String.init) ?? "-", String(source.storedItems),
                source.lastError.map { String($0.prefix { $0 != "\n" }) } ?? "",
            ])
        }
        for source in configured ?? [] where !known.contains(source.name) {
            rows.append([source.name, source.enabled ? "not run yet" : "disabled", "never", "0", "-", "0", ""])
        }
        text += "\nsources:\n" + TextTable.render(rows, rightAligned: [3, 4, 5], indent: "  ") + "\n"
        return text
    }
}
