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
            NAME:line:column: warning: message. Exit status 2 when some inputs could not be read at all,
            3 when none could.
            """,
        options: [
            OptionSpec(long: "format", short: "f", valueName: "FORMAT", help: "json (default) or text."),
            OptionSpec(long: "list", valueName: "FILE", help: "Read the inputs from FILE, one a line."),
            OptionSpec(long: "timezone", valueName: "ZONE", help: "The zone for dates without one (IANA name; default UTC)."),
            OptionSpec(long: "no-sanitize", help: "Keep item HTML as the feed has it (trusted feeds only)."),
            CommonOptions.quiet, OptionSpec.help,
        ],
        positionals: [PositionalSpec(name: "INPUT", help: "A feed file, or an http(s) URL.", isOptional: true, isVariadic: true)])

    static func execute(_ arguments: ParsedArguments, context: CommandContext) async -> Int32 {
        var usage: [String] = []
        let format = arguments.value("format") ?? "json"
        if !["json", "text"].contains(format) { usage.append("option '--format' must be json or text, not '\(format)'") }
        var zone = TimeZone.gmt
        if let name = arguments.value("timezone") {
            if let found = TimeZone(identifier: name) { zone = found } else { usage.append("unknown time zone '\(name)'") }
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

        let fetcher = CurlFetcher()
        let lines = inputs.count > 1
        let quiet = arguments.flag("quiet")
        let now = Date()
        var failures = 0
        for input in inputs {
            let url = URLResolver.resolve(input, against: URL(fileURLWithPath: FileManager.default.currentDirectoryPath))
            let response: FetchResponse
            do {
                response = try await fetcher.fetch(FetchRequest(url: url))
                guard (200..<300).contains(response.status) else { throw FetchError(url: input, reason: .httpStatus(response.status)) }
            } catch {
                context.console.diagnostic("\(input): error: \(error)")
                failures += 1
                continue
            }
            let options = FeedParser.Options(
                source: input, documentURL: url.isFileURL ? nil : response.url, charset: response.charset, timeZone: zone, now: now,
                sanitize: !arguments.flag("no-sanitize"))
            do {
                let parsed = try FeedParser(options).parse([UInt8](response.body))
                if !quiet {
                    for problem in parsed.problems {
                        context.console.diagnostic("\(input):" + (problem.line == nil ? " " : "") + problem.description)
                    }
                }
                let info = FeedInfo(
                    title: parsed.info.title, homePageURL: parsed.info.homePageURL,
                    feedURL: parsed.info.feedURL ?? (url.isFileURL ? nil : url.absoluteString),
                    description: parsed.info.description, authors: parsed.info.authors, icon: parsed.info.icon,
                    favicon: parsed.info.favicon,
                    language: parsed.info.language, updated: parsed.info.updated)
                if format == "text" {
                    context.console.output((lines ? "# \(input)\n" : "") + TextListing(now: now).render(parsed.items))
                } else {
                    let document = JSONFeedWriter(includeExtensions: false, pretty: !lines).document(feed: info, items: parsed.items)
                    context.console.output(document.hasSuffix("\n") ? document : document + "\n")
                }
            } catch {
                context.console.diagnostic(
                    "\(input):\(error.line.map { "\($0):" } ?? "")\(error.column.map { "\($0):" } ?? "") error: \(error.message)")
                failures += 1
            }
        }
        if failures == 0 { return ExitStatus.success.rawValue }
        return failures == inputs.count ? ExitStatus.nothingProduced.rawValue : ExitStatus.partialFailure.rawValue
    }
}
