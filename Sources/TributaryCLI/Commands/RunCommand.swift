import Foundation
import TributaryCore
import TributaryHTTP

/// `tributary run`: fetch every source, build the river, write every output.
enum RunCommand: Command {
    static let spec = CommandSpec(
        name: "run",
        abstract: "Fetch the sources and write the outputs (the main job).",
        discussion: """
            Reads the configuration, fetches every enabled source concurrently, merges and ranks the
            items and writes each output atomically. A source that fails is reported and the others
            still make the outputs (exit status 2). When every source fails nothing is written, so the
            previous files stay (exit status 3).
            """,
        options: CommonOptions.all + [
            OptionSpec(long: "format", short: "f", valueName: "FORMAT", help: "Print the river on standard output as text or json."),
            OptionSpec(long: "jobs", short: "j", valueName: "N", help: "Run at most N sources and transfers at once (overrides 'jobs')."),
            OptionSpec(long: "per-host", valueName: "N", help: "Open at most N connections to one host (overrides 'per_host')."),
            OptionSpec(long: "source", short: "s", valueName: "NAME", help: "Run only this source (repeatable).", repeatable: true),
            OptionSpec(long: "dry-run", short: "n", help: "Fetch and build the river, but write no files."),
            OptionSpec(long: "explain", help: "Say which rule dropped each item that a rule dropped."),
        ])

    static func execute(_ arguments: ParsedArguments, context: CommandContext) async -> Int32 {
        var usage: [String] = []
        var format: OutputConfig.Format?
        if let word = arguments.value("format") {
            format = OutputConfig.Format(rawValue: word)
            if format == nil { usage.append("option '--format' must be text or json, not '\(word)'") }
        }
        var jobs: Int?
        if let text = arguments.value("jobs") {
            jobs = Int(text).flatMap { (1...256).contains($0) ? $0 : nil }
            if jobs == nil { usage.append("option '--jobs' must be a number from 1 to 256, not '\(text)'") }
        }
        var perHost: Int?
        if let text = arguments.value("per-host") {
            perHost = Int(text).flatMap { (1...64).contains($0) ? $0 : nil }
            if perHost == nil { usage.append("option '--per-host' must be a number from 1 to 64, not '\(text)'") }
        }
        guard usage.isEmpty else {
            context.console.diagnostic(
                UsageError(messages: usage).rendered(programName: CommandLineTool.programName, commandName: spec.name))
            return ExitStatus.usage.rawValue
        }
        guard let configuration = context.loadConfiguration(arguments) else { return ExitStatus.usage.rawValue }
        let only = arguments.values("source")
        let unknown = only.filter { name in !configuration.sources.contains { $0.name == name } }
        guard unknown.isEmpty else {
            let messages = unknown.map { name in
                var message = "no source named '\(name)' in \(configuration.file)"
                if let suggestion = Spelling.suggestion(for: name, among: configuration.sources.map(\.name)) {
                    message += "; did you mean '\(suggestion)'?"
                }
                return message
            }
            context.console.diagnostic(
                UsageError(messages: messages).rendered(programName: CommandLineTool.programName, commandName: spec.name))
            return ExitStatus.usage.rawValue
        }

        let level = CommonOptions.level(arguments)
        let logger = context.logger(level: level)
        var settings = HTTPSettings()
        settings.userAgent = configuration.defaults.userAgent ?? Tributary.userAgent
        settings.maxConnections = jobs ?? configuration.defaults.jobs
        settings.maxPerHost = perHost ?? configuration.defaults.perHost
        settings.defaultTimeout = configuration.defaults.timeout
        settings.defaultMaxBytes = configuration.defaults.maxResponseBytes
        let fetcher = CurlFetcher(settings: settings)
        let engine = Engine(fetcher: fetcher, logger: logger)
        let report = await engine.run(
            configuration,
            options: RunOptions(
                jobs: jobs, onlySources: only.isEmpty ? nil : only, standardOutputFormat: format, dryRun: arguments.flag("dry-run")))
        if !report.standardOutput.isEmpty { context.console.output(report.standardOutput) }
        if arguments.flag("explain") {
            for drop in report.dropped {
                context.console.diagnostic("dropped [\(drop.source)] \(drop.title.map { "'\($0)'" } ?? drop.id): \(drop.reason)")
            }
            if report.dropped.isEmpty { context.console.diagnostic("no item was dropped by a rule") }
        }
        if level <= .warning { context.console.diagnostic(summary(of: report, dryRun: arguments.flag("dry-run"))) }
        return report.status.rawValue
    }

    /// `tributary: 3 sources (2 ok, 1 failed: hn), 42 items → out/river.atom, out/river.json in 0.21 s`.
    static func summary(of report: RunReport, dryRun: Bool = false) -> String {
        let failed = report.sources.filter { !$0.succeeded }
        var text = "\(CommandLineTool.programName): \(report.sources.count) source\(report.sources.count == 1 ? "" : "s")"
        if failed.isEmpty {
            text += " ok"
        } else {
            text += " (\(report.sources.count - failed.count) ok, \(failed.count) failed: \(failed.map(\.name).joined(separator: ", ")))"
        }
        text += ", \(report.items.count) item\(report.items.count == 1 ? "" : "s")"
        let written = report.outputs.filter { $0.failure == nil }.compactMap(\.path)
        if dryRun {
            text += " (dry run: no file written)"
        } else if !written.isEmpty {
            text += " → " + written.joined(separator: ", ")
        }
        text += " in " + report.duration.secondsText
        for output in report.outputs where output.failure != nil {
            text += "\n\(CommandLineTool.programName): \(output.path ?? output.kind.rawValue): \(output.failure ?? "")"
        }
        return text
    }
}
