import Foundation
import TributaryCore
import TributaryJSON
import TributaryModel
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
            OptionSpec(long: "format", short: "f", valueName: "FORMAT", help: "Print text (the default) or json, for monitoring."),
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
        let json: Bool
        switch arguments.value("format") {
        case nil, "text": json = false
        case "json": json = true
        case let word?:
            context.console.diagnostic(
                UsageError(messages: ["option '--format' must be text or json, not '\(word)'"])
                    .rendered(programName: CommandLineTool.programName, commandName: spec.name))
            return ExitStatus.usage.rawValue
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
        let sources = rows(health: health, configured: configuration?.sources)
        context.console.output(
            json ? renderJSON(path: path, runs: runs, sources: sources) : render(path: path, runs: runs, sources: sources))
        return ExitStatus.success.rawValue
    }

    /// One source as `status` shows it.
    struct Row {
        var name: String
        /// `ok`, `failing`, `never worked`, `not configured`, `not run yet` or `disabled`.
        var health: String
        var lastSuccess: Date?
        var consecutiveFailures: Int
        var lastHTTPStatus: Int?
        var storedItems: Int
        var lastError: String?
        /// When a run next fetches it, when not at the next run (its interval, or a wait while it fails).
        var wait: FetchSchedule.Wait?
    }

    /// The stored sources with their health, then the configured ones no run has fetched yet. `configured` (nil when
    /// the configuration could not be read) marks the stored sources it no longer has.
    static func rows(health: [SourceHealth], configured: [SourceConfig]?, now: Date = Date()) -> [Row] {
        let names = configured.map { Set($0.map(\.name)) }
        var rows = health.map { source in
            let config = configured?.first { $0.name == source.name }
            var state = source.consecutiveFailures == 0 ? "ok" : source.lastSuccess == nil ? "never worked" : "failing"
            // Kept for `retention` after its last run, in case it comes back; then a run forgets it.
            if let names, !names.contains(source.name) { state = "not configured" }
            return Row(
                name: source.name, health: state, lastSuccess: source.lastSuccess, consecutiveFailures: source.consecutiveFailures,
                lastHTTPStatus: source.lastHTTPStatus, storedItems: source.storedItems,
                lastError: source.lastError.map(URLSecrets.redacted(in:)),
                wait: config.flatMap { FetchSchedule.wait(source.history, for: $0, now: now) })
        }
        let known = Set(health.map(\.name))
        for source in configured ?? [] where !known.contains(source.name) {
            rows.append(
                Row(
                    name: source.name, health: source.enabled ? "not run yet" : "disabled", lastSuccess: nil, consecutiveFailures: 0,
                    lastHTTPStatus: nil, storedItems: 0, lastError: nil))
        }
        return rows
    }

    /// The same as JSON: `{"state", "runs": [...], "sources": [...]}`, for a monitor to read.
    static func renderJSON(path: String, runs: [RunRecord], sources: [Row]) -> String {
        var root = JSONObject()
        root["state"] = .string(path)
        root["runs"] = .array(
            runs.map { run in
                var entry = JSONObject()
                entry["started"] = .string(RFC3339.string(from: run.started))
                entry["duration_seconds"] = RunReportTable.seconds(run.duration)
                entry["exit_status"] = .number(JSONNumber(run.status))
                entry["sources"] = .number(JSONNumber(run.sources))
                entry["failed"] = .number(JSONNumber(run.failed))
                entry["items"] = .number(JSONNumber(run.items))
                entry["new_items"] = .number(JSONNumber(run.newItems))
                return .object(entry)
            })
        root["sources"] = .array(
            sources.map { source in
                var entry = JSONObject()
                entry["name"] = .string(source.name)
                entry["health"] = .string(source.health)
                entry["last_success"] = source.lastSuccess.map { .string(RFC3339.string(from: $0)) } ?? .null
                entry["consecutive_failures"] = .number(JSONNumber(source.consecutiveFailures))
                entry["http_status"] = source.lastHTTPStatus.map { .number(JSONNumber($0)) } ?? .null
                entry["stored_items"] = .number(JSONNumber(source.storedItems))
                entry["last_error"] = source.lastError.map(JSONValue.string) ?? .null
                entry["next_attempt"] = source.wait.map { .string(RFC3339.string(from: $0.until)) } ?? .null
                entry["waiting_for"] = source.wait.map { .string($0.reason) } ?? .null
                return .object(entry)
            })
        return String(decoding: JSONWriter.bytes(from: .object(root), style: .pretty), as: UTF8.self) + "\n"
    }

    /// The report for people.
    static func render(path: String, runs: [RunRecord], sources: [Row]) -> String {
        var text = "state: \(path)\n\nlast runs (newest first):\n"
        if runs.isEmpty { text += "  none\n" }
        for run in runs {
            text += "  \(RFC3339.string(from: run.started))  exit \(run.status)  \(run.sources) source\(run.sources == 1 ? "" : "s")"
            text += run.failed > 0 ? " (\(run.failed) failed)" : ""
            text +=
                ", \(run.items) item\(run.items == 1 ? "" : "s") (\(run.newItems) new) in \(Duration.seconds(run.duration).secondsText)\n"
        }
        var rows = [["source", "health", "last success", "failures", "http", "stored", "next fetch", "last error"]]
        for source in sources {
            rows.append([
                source.name, source.health, source.lastSuccess.map(RFC3339.string(from:)) ?? "never", String(source.consecutiveFailures),
                source.lastHTTPStatus.map(String.init) ?? "-", String(source.storedItems),
                source.wait.map { "\(RFC3339.string(from: $0.until)) (\($0.reason))" }
                    ?? (["not configured", "disabled"].contains(source.health) ? "-" : "next run"),
                source.lastError.map { String($0.prefix { $0 != "\n" }) } ?? "",
            ])
        }
        text += "\nsources:\n" + TextTable.render(rows, rightAligned: [3, 4, 5], indent: "  ") + "\n"
        return text
    }
}
