import Foundation
import TributaryCore
import TributaryHTTP
import TributaryState

/// `tributary run`: fetch every source, build the river, write every output.
enum RunCommand: Command {
    static let spec = CommandSpec(
        name: "run",
        abstract: "Fetch the sources and write the outputs (the main job).",
        discussion: """
            Reads the configuration, fetches every enabled source concurrently, merges and ranks the
            items and writes each output atomically. A source that fails is reported and the others
            still make the outputs (exit status 2). When every source fails nothing is written, so the
            previous files stay (exit status 3). The state file (.tributary/state.sqlite beside the
            configuration) remembers items, validators and health across runs; another run holding its
            lock gives exit status 4, a damaged state file exit status 5. With --wait the run waits for
            the lock instead (saying so, unless -q); SIGTERM or SIGINT ends the wait and the process at
            once. With --every, SIGTERM, SIGINT or SIGHUP lets a run in progress finish writing, stops a wait for
            the lock at once (that run does not start) and ends the loop with the status of the last run
            that finished (0 if none did: a stop is not a failure).
            """,
        options: CommonOptions.all + [
            OptionSpec(long: "format", short: "f", valueName: "FORMAT", help: "Print the river on standard output as text or json."),
            OptionSpec(long: "jobs", short: "j", valueName: "N", help: "Run at most N sources and transfers at once (overrides 'jobs')."),
            OptionSpec(long: "per-host", valueName: "N", help: "Open at most N connections to one host (overrides 'per_host')."),
            OptionSpec(
                long: "source", short: "s", valueName: "NAME",
                help: "Fetch only this source (repeatable); the others' stored items stay in the river.", repeatable: true),
            OptionSpec(long: "dry-run", short: "n", help: "Fetch and build the river, but write no files (nor the state)."),
            OptionSpec(
                long: "force", help: "Fetch every source now, even one whose interval has not passed or that waits while it fails."),
            OptionSpec(long: "explain", help: "Say which rule dropped each item that a rule dropped."),
            CommonOptions.state,
            OptionSpec(long: "no-state", help: "Run without the state: no history, no conditional requests."),
            OptionSpec(long: "reset-state", help: "Move the state file aside (kept as FILE.broken-TIME) and start a new one."),
            OptionSpec(
                long: "wait", valueName: "DURATION", help: "Wait for another run's lock (at most DURATION, else an hour).",
                valueIsOptional: true, valueKind: .duration),
            OptionSpec(long: "report", valueName: "FILE", help: "Write the run's report as JSON to FILE, for monitoring."),
            OptionSpec(
                long: "every", valueName: "DURATION", help: "Run again every DURATION (at least 1s) until SIGTERM, SIGINT or SIGHUP."),
        ])

    /// The choices `run` takes from its command line.
    struct Choices {
        var format: OutputConfig.Format?
        var jobs: Int?
        var perHost: Int?
        var wait: Duration = .zero
        var every: Duration?
    }

    static func execute(_ arguments: ParsedArguments, context: CommandContext) async -> Int32 {
        // A run nearly always fetches URLs: libcurl loads on a thread of its own while the configuration and the
        // state are read (a run against unchanged servers took 0.147 s with it loaded at the first request, 0.129 s).
        CurlFetcher.preload()
        // However the command ends: a process that exits normally (running exit handlers) during the load can crash.
        defer { CurlFetcher.waitForPreload() }
        var usage: [String] = []
        var choices = Choices()
        if let word = arguments.value("format") {
            choices.format = OutputConfig.Format(rawValue: word)
            if choices.format == nil { usage.append("option '--format' must be text or json, not '\(word)'") }
        }
        if let text = arguments.value("jobs") {
            choices.jobs = Int(text).flatMap { (1...256).contains($0) ? $0 : nil }
            if choices.jobs == nil { usage.append("option '--jobs' must be a number from 1 to 256, not '\(text)'") }
        }
        if let text = arguments.value("per-host") {
            choices.perHost = Int(text).flatMap { (1...64).contains($0) ? $0 : nil }
            if choices.perHost == nil { usage.append("option '--per-host' must be a number from 1 to 64, not '\(text)'") }
        }
        if let text = arguments.value("wait") {
            if text.isEmpty {
                choices.wait = .seconds(3600)
            } else {
                switch DurationParser.read(text) {
                case .success(let duration): choices.wait = duration
                case .failure(.tooLarge): usage.append(Self.tooLarge("--wait", text))
                case .failure(.invalid): usage.append("option '--wait' must be a duration such as 30s or 5m, not '\(text)'")
                }
            }
        }
        if let text = arguments.value("every") {
            switch DurationParser.read(text) {
            case .success(let duration) where duration >= .seconds(1): choices.every = duration
            case .failure(.tooLarge): usage.append(Self.tooLarge("--every", text))
            default: usage.append("option '--every' must be a duration of at least 1s such as 15m, not '\(text)'")
            }
        }
        if arguments.flag("no-state"), arguments.value("state") != nil || arguments.flag("reset-state") {
            usage.append("option '--no-state' cannot be combined with '--state' or '--reset-state'")
        }
        if arguments.flag("dry-run"), arguments.flag("reset-state") {
            usage.append("option '--reset-state' cannot be combined with '--dry-run', which writes nothing")
        }
        guard usage.isEmpty else {
            context.console.diagnostic(
                UsageError(messages: usage).rendered(programName: CommandLineTool.programName, commandName: spec.name))
            refused(usage, arguments: arguments, context: context)
            return ExitStatus.usage.rawValue
        }
        guard let every = choices.every else {
            // Nothing asks a single run to stop: SIGTERM and SIGINT end it as they end any process.
            let status = await runOnce(
                arguments, choices: choices, context: context, resetState: arguments.flag("reset-state"), last: context.endsProcess)
            return status ?? ExitStatus.locked.rawValue
        }
        return await RunLoop(every: every, console: context.console).run { first, shouldStop in
            await runOnce(
                arguments, choices: choices, context: context, resetState: first && arguments.flag("reset-state"),
                shouldStop: shouldStop)
        }
    }

    /// One run: configuration, lock, state, engine, report. With `last`, the process exits after
    /// it, and the river is left for the exit to reclaim. Returns the run's exit status, or nil
    /// when `shouldStop` ended the wait for another run's lock (no run started).
    static func runOnce(
        _ arguments: ParsedArguments, choices: Choices, context: CommandContext, resetState: Bool, last: Bool = false,
        shouldStop: () -> Bool = { false }
    ) async -> Int32? {
        // A run that stops before fetching still leaves its report, so that monitoring never reads an older run's.
        let started = Date()
        let startInstant = ContinuousClock.now
        func stopped(_ status: ExitStatus, _ errors: [String], configuration: String) -> Int32 {
            writeStoppedReport(
                status, errors: errors, configuration: configuration, started: started, duration: ContinuousClock.now - startInstant,
                arguments: arguments, context: context)
            return status.rawValue
        }
        var configurationErrors: [String] = []
        guard let configuration = context.loadConfiguration(arguments, errors: &configurationErrors) else {
            return stopped(.usage, configurationErrors, configuration: CommonOptions.configPath(arguments))
        }
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
            return stopped(.usage, messages, configuration: configuration.file)
        }

        let level = CommonOptions.level(arguments)
        // On a terminal, a live progress line; the log and the report print around it.
        let progressConsole = context.console.diagnosticsAreTerminal && level == .warning ? ProgressConsole(context.console) : nil
        let context =
            progressConsole.map { CommandContext(console: $0, environment: context.environment, endsProcess: context.endsProcess) }
            ?? context
        let logger = context.logger(level: level)
        let dryRun = arguments.flag("dry-run")

        // The lock comes first, so that a second run never even reads a state the first is writing. A dry run only
        // reads the state (a snapshot, as the log gives every reader), so it takes no lock and may overlap a run.
        var lock: RunLock?
        var state: StateStore?
        let statePath = arguments.flag("no-state") ? nil : CommonOptions.statePath(arguments, configuration: configuration)
        var isDirectory: ObjCBool = false
        if let statePath, FileManager.default.fileExists(atPath: statePath, isDirectory: &isDirectory), isDirectory.boolValue {
            let message = "state file \(statePath) is a directory; name a file in it with --state FILE, or use --no-state"
            context.console.diagnostic("\(CommandLineTool.programName): \(message)")
            return stopped(.stateUnusable, [message], configuration: configuration.file)
        }
        if let statePath, dryRun {
            do {
                state = try StateStore.openExisting(path: statePath)
            } catch {
                context.console.diagnostic("\(CommandLineTool.programName): \(error.description)")
                return stopped(.stateUnusable, [error.description], configuration: configuration.file)
            }
        } else if let statePath {
            do {
                try FileManager.default.createDirectory(
                    atPath: (statePath as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            } catch {
                let message =
                    "cannot create the state's folder for \(statePath): \(AtomicFile.systemMessage(error)); "
                    + "use a folder the user running tributary may write, with --state FILE, or --no-state"
                context.console.diagnostic("\(CommandLineTool.programName): \(message)")
                return stopped(.stateUnusable, [message], configuration: configuration.file)
            }
            let lockPath = statePath + ".lock"
            do {
                lock = try RunLock(
                    path: lockPath, wait: choices.wait,
                    waiting: { holder in
                        guard level <= .warning else { return }
                        let message = RunLockMessages.waiting(path: lockPath, holder: holder, wait: choices.wait)
                        context.console.diagnostic("\(CommandLineTool.programName): \(message)")
                    }, shouldStop: shouldStop)
            } catch .interrupted {
                return nil
            } catch {
                let message = RunLockMessages.failure(error, wait: choices.wait)
                context.console.diagnostic("\(CommandLineTool.programName): \(message)")
                return stopped(error.isHeld ? .locked : .stateUnusable, [message], configuration: configuration.file)
            }
            do {
                if resetState, let moved = try StateStore.moveAside(path: statePath) {
                    context.console.diagnostic("\(CommandLineTool.programName): moved the state file aside to \(moved); starting a new one")
                }
                state = try StateStore(path: statePath)
            } catch {
                context.console.diagnostic("\(CommandLineTool.programName): \(error.description)")
                return stopped(.stateUnusable, [error.description], configuration: configuration.file)
            }
        }
        defer {
            state?.close()
            withExtendedLifetime(lock) {}
        }

        var settings = HTTPSettings()
        settings.userAgent = configuration.defaults.userAgent ?? Tributary.userAgent
        settings.maxConnections = choices.jobs ?? configuration.defaults.jobs
        settings.maxPerHost = choices.perHost ?? configuration.defaults.perHost
        settings.defaultTimeout = configuration.defaults.timeout
        settings.defaultMaxBytes = configuration.defaults.maxResponseBytes
        let fetcher = CurlFetcher(settings: settings)
        let engine = Engine(fetcher: fetcher, logger: logger, state: state)
        var options = RunOptions(
            jobs: choices.jobs, onlySources: only.isEmpty ? nil : only, standardOutputFormat: choices.format, dryRun: dryRun)
        options.force = arguments.flag("force")
        if let progressConsole { options.progress = { @Sendable progress in progressConsole.show(progress) } }
        let report = await engine.run(configuration, options: options)
        progressConsole?.clear()

        if !report.standardOutput.isEmpty { context.console.output(report.standardOutput) }
        if arguments.flag("explain") {
            for drop in report.dropped {
                context.console.diagnostic("dropped [\(drop.source)] \(drop.title.map { "'\($0)'" } ?? drop.id): \(drop.reason)")
            }
            if report.dropped.isEmpty { context.console.diagnostic("no item was dropped by a rule") }
        }
        if level <= .warning {
            if !report.sources.isEmpty { context.console.diagnostic(RunReportTable.render(report)) }
            context.console.diagnostic(summary(of: report, dryRun: dryRun))
        }
        if let path = arguments.value("report") {
            writeReport(RunReportTable.json(report, configuration: configuration.file), to: path, context: context)
        }
        if last { KeptUntilExit.keep(report) }
        return report.status.rawValue
    }

    /// The usage error for a duration option longer than ``DurationParser/maximum``.
    private static func tooLarge(_ option: String, _ text: String) -> String {
        "option '\(option)' is too large: at most \(DurationParser.format(DurationParser.maximum)) (100 years), not '\(text)'"
    }

    /// A run refused for its command line writes its report too, when `--report` could be read from it: a cron job's
    /// mistyped option must not leave the last good run's report as the latest.
    static func refused(_ errors: [String], arguments: ParsedArguments, context: CommandContext) {
        writeStoppedReport(
            .usage, errors: errors, configuration: CommonOptions.configPath(arguments), started: Date(), duration: .zero,
            arguments: arguments, context: context)
    }

    /// Writes the report of a run that stopped before fetching, where `--report` says (if it says).
    private static func writeStoppedReport(
        _ status: ExitStatus, errors: [String], configuration: String, started: Date, duration: Duration, arguments: ParsedArguments,
        context: CommandContext
    ) {
        guard let path = arguments.value("report") else { return }
        let report = RunReportTable.json(
            stoppedWith: status, errors: errors, configuration: configuration, started: started, duration: duration)
        writeReport(report, to: path, context: context)
    }

    /// Writes the JSON report where `--report` says; a failure is told on standard error.
    private static func writeReport(_ bytes: [UInt8], to path: String, context: CommandContext) {
        do {
            try AtomicFile.write(bytes, to: CommonOptions.commandLinePath(path))
        } catch {
            context.console.diagnostic("\(CommandLineTool.programName): cannot write the report to \(path): \(error.description)")
        }
    }

    /// How many failed sources the summary line names.
    static let summaryNames = 5

    /// `tributary: 3 sources (2 ok, 1 failed: hn), 42 items → out/river.atom, out/river.json in 0.21 s`.
    static func summary(of report: RunReport, dryRun: Bool = false) -> String {
        let failed = report.sources.filter { !$0.succeeded }
        let deferred = report.sources.count(where: \.deferred)
        let notFetched = deferred == 0 ? "" : "\(deferred) not fetched now"
        var text = "\(CommandLineTool.programName): \(report.sources.count) source\(report.sources.count == 1 ? "" : "s")"
        if failed.isEmpty {
            text += " ok" + (notFetched.isEmpty ? "" : " (\(notFetched))")
        } else {
            // The table above names every failure; the summary line stays one line.
            var names = failed.prefix(summaryNames).map(\.name).joined(separator: ", ")
            if failed.count > summaryNames { names += " and \(failed.count - summaryNames) more" }
            text += " (\(report.sources.count - failed.count) ok, \(failed.count) failed: \(names)"
            text += (notFetched.isEmpty ? "" : "; " + notFetched) + ")"
        }
        text += ", \(report.riverCount) item\(report.riverCount == 1 ? "" : "s")"
        if let new = report.riverNewItemCount ?? report.newItemCount { text += " (\(new) new)" }
        let written = report.outputs.filter { $0.failure == nil }.compactMap(\.path)
        if dryRun {
            text += " (dry run: no file written)"
        } else if !written.isEmpty {
            text += (report.unchangedRiverCount == nil ? " → " : ", unchanged: ") + written.joined(separator: ", ")
        }
        text += " in " + report.duration.secondsText
        if let failure = report.stateFailure {
            text += "\n\(CommandLineTool.programName): \(failure)"
        }
        for output in report.outputs where output.failure != nil {
            text += "\n\(CommandLineTool.programName): \(output.path ?? output.kind.rawValue): \(output.failure ?? "")"
        }
        return text
    }
}
