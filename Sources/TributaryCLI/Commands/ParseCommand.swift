import Foundation
import TributaryCore
import TributaryHTTP
import TributaryModel
import TributarySyndication

/// `tributary parse FILE|URL…`: parse feeds and print them as JSON Feed or a listing.
enum ParseCommand: Command {
    static let spec = CommandSpec(
        name: "parse",
        abstract: "Parse feed files or URLs and print them as JSON Feed (one per line for several).",
        discussion: """
            Reads RSS 0.9x/1.0/2.0, Atom 0.3/1.0 and JSON Feed, recognized by content. One input prints
            one JSON Feed 1.1 document; several (or --list) print one compact document per line (JSON
            Lines) in input order, in one process. Problems go to standard error as
            NAME:line:column: warning: message. Several inputs are parsed on several cores at once
            (--jobs), and printed in input order all the same. Exit status 2 when some inputs could not be
            read at all, 3 when none could.
            """,
        options: [
            OptionSpec(long: "format", short: "f", valueName: "FORMAT", help: "json (default) or text."),
            OptionSpec(long: "list", valueName: "FILE", help: "Read the inputs from FILE, one a line."),
            OptionSpec(long: "timezone", valueName: "ZONE", help: "The zone for dates without one (IANA name; default UTC)."),
            OptionSpec(long: "no-sanitize", help: "Keep item HTML as the feed has it (trusted feeds only)."),
            OptionSpec(long: "jobs", short: "j", valueName: "N", help: "Parse at most N inputs at once (default: one per core)."),
            OptionSpec(long: "max-size", valueName: "SIZE", help: "The largest input read, as max_size in a configuration (default 20MB)."),
            CommonOptions.quiet, OptionSpec.help,
        ],
        positionals: [PositionalSpec(name: "INPUT", help: "A feed file, or an http(s) URL.", isOptional: true, isVariadic: true)])

    static func execute(_ arguments: ParsedArguments, context: CommandContext) async -> Int32 {
        var usage: [String] = []
        let format = arguments.value("format") ?? "json"
        if !["json", "text"].contains(format) { usage.append("option '--format' must be json or text, not '\(format)'") }
        var zone = TimeZone.gmt
        if let name = arguments.value("timezone") {
            if let problem = TimeZoneName.problem(name) {
                usage.append("option '--timezone': \(problem)")
            } else if let found = TimeZone(identifier: name) {
                zone = found
            }
        }
        var jobs = ProcessInfo.processInfo.activeProcessorCount
        if let text = arguments.value("jobs") {
            if let number = Int(text), (1...256).contains(number) {
                jobs = number
            } else {
                usage.append("option '--jobs' must be a number from 1 to 256, not '\(text)'")
            }
        }
        var maxBytes = Defaults().maxResponseBytes
        if let text = arguments.value("max-size") {
            if let bytes = ByteCountParser.parse(text), bytes > 0 {
                maxBytes = bytes
            } else {
                usage.append("option '--max-size' must be a size such as 512KB or 20MB, not '\(text)'")
            }
        }
        var inputs = arguments.positionals
        if let list = arguments.value("list") {
            do {
                inputs += try String(contentsOfFile: list, encoding: .utf8).split(whereSeparator: \.isNewline)
                    .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty && !$0.hasPrefix("#") }
            } catch {
                usage.append("cannot read the list '\(list)'")
            }
        }
        if inputs.isEmpty, usage.isEmpty { usage.append("missing argument INPUT (a file or URL, or --list FILE)") }
        guard usage.isEmpty else {
            context.console.diagnostic(
                UsageError(messages: usage).rendered(programName: CommandLineTool.programName, commandName: spec.name))
            return ExitStatus.usage.rawValue
        }

        let task = ParseTask(
            fetcher: CurlFetcher(), directory: URL(fileURLWithPath: FileManager.default.currentDirectoryPath),
            lines: inputs.count > 1 || arguments.value("list") != nil,
            quiet: arguments.flag("quiet"), now: Date(), zone: zone,
            text: format == "text", sanitize: !arguments.flag("no-sanitize"), maxBytes: maxBytes)
        // Up to `jobs` inputs are parsed at once; results are printed in input order, so at most
        // `jobs` finished documents wait for an earlier one.
        var failures = 0
        await withTaskGroup(of: (Int, ParseTask.Outcome).self) { group in
            var next = 0
            var waiting: [Int: ParseTask.Outcome] = [:]
            var printed = 0
            func start() {
                let index = next
                let input = inputs[index]
                next += 1
                group.addTask { (index, await task.run(input)) }
            }
            while next < min(jobs, inputs.count) { start() }
            for await (index, outcome) in group {
                waiting[index] = outcome
                while let ready = waiting.removeValue(forKey: printed) {
                    printed += 1
                    for line in ready.diagnostics { context.console.diagnostic(line) }
                    if let output = ready.output { context.console.output(utf8: output) }
                    if ready.failed { failures += 1 }
                }
                if next < inputs.count { start() }
            }
        }
        if failures == 0 { return ExitStatus.success.rawValue }
        return failures == inputs.count ? ExitStatus.nothingProduced.rawValue : ExitStatus.partialFailure.rawValue
    }
}

/// Parsing one input of `tributary parse`: what every input shares, and what one gives.
private struct ParseTask: Sendable {
    /// What parsing one input produced: the text to print and the diagnostics, in order.
    struct Outcome: Sendable {
        var output: [UInt8]?
        var diagnostics: [String] = []
        var failed = false
    }

    let fetcher: CurlFetcher
    /// The working directory, which relative paths are read from.
    let directory: URL
    /// Several inputs: one compact document per line, and `# INPUT` before each listing.
    let lines: Bool
    let quiet: Bool
    let now: Date
    let zone: TimeZone
    /// `--format text` rather than JSON Feed.
    let text: Bool
    let sanitize: Bool
    /// The largest input read and parsed, in bytes (`--max-size`).
    let maxBytes: Int

    func run(_ input: String) async -> Outcome {
        var outcome = Outcome()
        let url = URLResolver.resolve(input, against: directory)
        let body: [UInt8]
        var documentURL: URL?
        var charset: String?
        do throws(FetchError) {
            let request = FetchRequest(url: url, maxBytes: maxBytes)
            if url.isFileURL {
                // Read straight into the array the parser takes, without a `Data` to copy.
                body = try fetcher.fileBytes(request)
            } else {
                let response = try await fetcher.fetch(request)
                guard (200..<300).contains(response.status) else { throw FetchError(url: input, reason: .httpStatus(response.status)) }
                body = response.body
                documentURL = response.url
                charset = response.charset
            }
        } catch {
            var error = error
            // An input over the limit: the message names the option that raises it.
            if case .tooLarge(let limit, nil) = error.reason { error.reason = .tooLarge(limit: limit, setting: "--max-size") }
            // The input names the URL, unless the error is another one's (a redirect's).
            let said = error.url == input || error.url == url.absoluteString ? error.summary : error.description
            outcome.diagnostics.append("\(input): error: \(said)")
            outcome.failed = true
            return outcome
        }
        let options = FeedParser.Options(
            source: input, documentURL: documentURL, charset: charset, timeZone: zone, now: now, sanitize: sanitize, maxBytes: maxBytes,
            maxBytesSetting: "--max-size")
        do {
            let parsed = try FeedParser(options).parse(body)
            if !quiet {
                for problem in parsed.problems {
                    outcome.diagnostics.append("\(input):" + (problem.line == nil ? " " : "") + problem.description)
                }
            }
            let info = FeedInfo(
                title: parsed.info.title, homePageURL: parsed.info.homePageURL,
                feedURL: parsed.info.feedURL ?? (url.isFileURL ? nil : url.absoluteString),
                description: parsed.info.description, authors: parsed.info.authors, icon: parsed.info.icon,
                favicon: parsed.info.favicon,
                language: parsed.info.language, updated: parsed.info.updated)
            if text {
                outcome.output = Array(((lines ? "# \(input)\n" : "") + TextListing(now: now).render(parsed.items)).utf8)
            } else {
                var document = JSONFeedWriter(includeExtensions: false, pretty: !lines).documentBytes(feed: info, items: parsed.items)
                if document.last != 0x0A { document.append(0x0A) }
                outcome.output = document
            }
        } catch {
            outcome.diagnostics.append(
                "\(input):\(error.line.map { "\($0):" } ?? "")\(error.column.map { "\($0):" } ?? "") error: \(error.message)")
            outcome.failed = true
        }
        return outcome
    }
}
