import Foundation
public import TributaryCore
import TributaryModel
import TributarySyndication

/// `adapter: command` — runs a program (any language) and reads what it prints as JSON Feed,
/// RSS or Atom. No shell: `command` is an argument list, run in the configuration's folder with
/// a fixed environment, the source's `timeout` and a cap on its output. What the program writes
/// to standard error becomes warnings in the run report; a non-zero exit fails the source with
/// its status and the end of its standard error. Its output is what it printed before it exited:
/// processes it left behind holding the output open are killed after a short grace and reported.
public struct CommandAdapter: SourceAdapter {
    public static let kind = "command"
    public static let aliases = ["exec", "script"]
    public static let summary = "A program's standard output (JSON Feed, RSS or Atom); scripts in any language become sources"
    /// The feed parser's titles, summaries, author names and tags are plain text already.
    public static let itemText = ItemTextForm.plain

    /// The variables every command gets (besides those the source lists).
    public static let baseVariables = ["PATH", "HOME", "LANG"]
    /// The most standard-error lines reported as warnings after a successful run.
    static let maxReportedLines = 20
    /// The most characters of one standard-error line reported; the rest is cut (a program may write a whole page, or
    /// binary, without a line break).
    static let maxLineLength = 300

    /// Lets this process become the child subreaper (Linux) right before its first command starts,
    /// so that what the programs leave behind, daemons in sessions of their own included, comes to
    /// it, and kills and reaps all of it whenever no command runs. Only the executable calls this:
    /// it changes the whole process, and every other child the process has would be killed too.
    public static func adoptLeftovers() {
        CommandLeftovers.shared.allowAdoption()
    }

    public static let options = [
        AdapterOption(
            "command", .strings, required: true,
            help:
                "the program and its arguments as a list, e.g. [python3, scripts/feed.py, --lang, zh]; no shell, run in the configuration's folder"
        ),
        AdapterOption(
            "env", .strings,
            help: "more environment variables: NAME passes the variable through, NAME=value sets it (PATH, HOME and LANG always pass)"),
        AdapterOption(
            "max_output", .string, default: .string("10MB"), help: "the most standard output accepted, e.g. 512KB; more kills the program"),
        AdapterOption("sanitize", .boolean, default: .boolean(true), help: "rebuild item HTML from the allow-list"),
    ]

    /// The program and its arguments.
    public let command: [String]
    /// The variables the source adds: a name with nil passes tributary's own value through.
    public let variables: [(name: String, value: String?)]
    /// The most standard-output bytes accepted.
    public let maxOutput: Int
    /// Whether item HTML is sanitized.
    public let sanitize: Bool

    public init(options: AdapterOptions) throws(ConfigError) {
        guard let command = options.strings("command"), let program = command.first, !program.isEmpty else {
            throw options.error("command", "'command' must list the program and its arguments, e.g. [python3, feed.py]")
        }
        self.command = command
        var variables: [(name: String, value: String?)] = []
        for entry in options.strings("env") ?? [] {
            let parts = entry.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = String(parts[0])
            guard let first = name.first, first.isLetter || first == "_",
                name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") })
            else {
                throw options.error("env", "'env': '\(entry)' is not NAME or NAME=value")
            }
            variables.append((name, parts.count == 2 ? String(parts[1]) : nil))
        }
        self.variables = variables
        let sizeText = options.string("max_output") ?? "10MB"
        guard let size = ByteCountParser.parse(sizeText), size > 0 else {
            throw options.error("max_output", "'max_output' must be a size such as 512KB or 10MB, found '\(sizeText)'")
        }
        maxOutput = size
        sanitize = options.boolean("sanitize") ?? true
    }

    /// The child's whole environment, from tributary's own `environment`.
    public func childEnvironment(from environment: [String: String]) -> [String: String] {
        var result: [String: String] = [
            "PATH": environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin",
            "HOME": environment["HOME"] ?? "/",
            "LANG": environment["LANG"] ?? "C.UTF-8",
        ]
        for (name, value) in variables {
            if let value { result[name] = value } else if let inherited = environment[name] { result[name] = inherited }
        }
        return result
    }

    public func fetch(in context: FetchContext) async throws -> SourceResult {
        let shown = command.joined(separator: " ")
        let runner = CommandRunner(
            arguments: command, directory: context.configDirectory.path,
            environment: childEnvironment(from: ProcessInfo.processInfo.environment), timeLimit: context.timeout, maxOutput: maxOutput)
        context.logger.debug("running \(shown)", source: context.sourceName)
        let outcome: CommandRunner.Outcome
        do {
            outcome = try await runner.run()
        } catch {
            throw AdapterError("command '\(shown)': \(error.description)")
        }
        let errorLines = outcome.errorText.split(whereSeparator: \.isNewline).map { line in
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            return trimmed.count > Self.maxLineLength ? trimmed.prefix(Self.maxLineLength) + "…" : trimmed
        }.filter { !$0.isEmpty }
        let tail = errorLines.suffix(3).joined(separator: " | ")
        let stderrNote = tail.isEmpty ? "" : "; stderr: \(tail)"

        if outcome.timedOut {
            throw AdapterError("command '\(shown)' timed out after \(DurationParser.format(context.timeout)) and was killed\(stderrNote)")
        }
        if outcome.overflowed {
            throw AdapterError(
                "command '\(shown)' printed more than the limit of \(ByteCountText.format(maxOutput)) (max_output) and was killed")
        }
        if let signal = outcome.signal {
            throw AdapterError("command '\(shown)' was ended by signal \(signal)\(stderrNote)")
        }
        let status = outcome.status ?? 0
        if status == 127, errorLines.contains(where: { $0.hasPrefix("/usr/bin/env:") || $0.hasPrefix("env:") }) {
            throw AdapterError("command '\(shown)': program '\(command[0])' not found (PATH is \(runner.environment["PATH"] ?? ""))")
        }
        if status != 0 {
            throw AdapterError("command '\(shown)' exited with status \(status)\(stderrNote)")
        }

        var problems = errorLines.prefix(Self.maxReportedLines).map { Problem(.warning, "stderr: \($0)") }
        if errorLines.count > Self.maxReportedLines {
            problems.append(Problem(.warning, "stderr: \(errorLines.count - Self.maxReportedLines) more line(s) not shown"))
        }
        if let leftBehind = outcome.leftBehind {
            let held = "processes it left behind held its output open after it exited"
            let grace = DurationParser.format(CommandRunner.exitGrace)
            switch leftBehind {
            case .killed:
                problems.append(Problem(.warning, "\(held); they were killed after \(grace)"))
            case .outsideGroup(let adopted):
                let outside = "one outside it (a daemon in a session of its own)"
                problems.append(
                    Problem(
                        .warning,
                        adopted
                            ? "\(held); those in its process group were killed after \(grace), \(outside) as soon as no other command was running"
                            : "\(held); those in its process group were killed after \(grace), but \(outside) was not"))
            }
        }
        if outcome.output.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) {
            throw AdapterError("command '\(shown)' printed nothing; it should print a JSON Feed, RSS or Atom document\(stderrNote)")
        }
        let parserOptions = FeedParser.Options(
            source: context.sourceName, documentURL: nil, timeZone: context.timeZone, now: context.now, sanitize: sanitize,
            maxBytes: maxOutput, maxBytesSetting: "max_output", maxItems: context.itemLimit)
        let parsed: ParsedFeed
        do {
            parsed = try FeedParser(parserOptions).parse(outcome.output)
        } catch {
            throw AdapterError("command '\(shown)': its output is not a feed: \(error.description)")
        }
        return SourceResult(items: parsed.items, feed: parsed.info, problems: problems + parsed.problems, itemsLeftOut: parsed.itemsLeftOut)
    }
}
