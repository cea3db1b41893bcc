import Foundation
import TributaryCore
import TributaryHTTP
import TributaryModel
import TributarySyndication

/// `tributary record SOURCE`: run one source against the live site and save every HTTP exchange
/// it made as fixtures for the adapter's tests.
enum RecordCommand: Command {
    static let spec = CommandSpec(
        name: "record",
        abstract: "Run one source and save every HTTP exchange it made as test fixtures.",
        discussion: """
            Fetches SOURCE once, as 'run' would, and writes into the folder (default recordings/SOURCE)
            exchanges.json (method, URL, status and headers of each response, in request order), one
            NNN.body file per response body, and items.json, the JSON Feed of the items the adapter
            made from them. Tests replay the folder through the loopback server (TestSupport's
            LoopbackServer.replay) and compare the adapter's items with the expected ones. Exit status
            3 when the source failed (what was fetched before the failure is still written, without
            items.json). The folder holds one recording: the exchanges.json, NNN.body files and
            items.json of an earlier one are replaced or removed; other files are left alone.
            """,
        options: CommonOptions.all + [
            OptionSpec(long: "output", short: "o", valueName: "DIR", help: "The folder to write (default recordings/SOURCE).")
        ],
        positionals: [PositionalSpec(name: "SOURCE", help: "The name of a source in the configuration.")])

    static func execute(_ arguments: ParsedArguments, context: CommandContext) async -> Int32 {
        guard let configuration = context.loadConfiguration(arguments) else { return ExitStatus.usage.rawValue }
        let name = arguments.positionals.first ?? ""
        guard let source = configuration.sources.first(where: { $0.name == name }) else {
            var message = "no source named '\(name)' in \(configuration.file)"
            if let suggestion = Spelling.suggestion(for: name, among: configuration.sources.map(\.name)) {
                message += "; did you mean '\(suggestion)'?"
            }
            context.console.diagnostic(
                UsageError(messages: [message]).rendered(programName: CommandLineTool.programName, commandName: spec.name))
            return ExitStatus.usage.rawValue
        }
        let folderPath = arguments.value("output") ?? "recordings/\(name)"
        let folder = URL(fileURLWithPath: folderPath, relativeTo: URL(fileURLWithPath: FileManager.default.currentDirectoryPath))
            .standardizedFileURL

        var settings = HTTPSettings()
        settings.userAgent = configuration.defaults.userAgent ?? Tributary.userAgent
        settings.defaultTimeout = configuration.defaults.timeout
        settings.defaultMaxBytes = configuration.defaults.maxResponseBytes
        let recorder = RecordingFetcher(CurlFetcher(settings: settings))
        let logger = context.logger(level: CommonOptions.level(arguments))
        let fetchContext = FetchContext(
            sourceName: source.name, configDirectory: configuration.directory, fetcher: recorder, timeout: source.timeout,
            maxItems: source.maxItems, timeZone: source.timeZone.flatMap(TimeZone.init(identifier:)) ?? .gmt, logger: logger,
            maxResponseBytes: configuration.defaults.maxResponseBytes, allowInsecureTLS: source.allowInsecureTLS)

        var result: SourceResult?
        var failure: String?
        do {
            result = try await source.adapter.fetch(in: fetchContext)
        } catch {
            failure = String(describing: error)
        }
        let recording = recorder.recording(source: source.name)
        let itemsFile = folder.appendingPathComponent("items.json")
        var removedItems = false
        do {
            try recording.write(to: folder)
            if let result {
                // Committed as a fixture: no link keeps the credentials the source is fetched with.
                var info = result.feed ?? FeedInfo(title: source.name)
                WebLink.apply(to: &info)
                var items = result.items
                for index in items.indices { WebLink.apply(to: &items[index]) }
                let feed = JSONFeedWriter().document(feed: info, items: items)
                try AtomicFile.write(Array(feed.utf8), to: itemsFile)
            } else if FileManager.default.fileExists(atPath: itemsFile.path) {
                // An earlier recording's items would pass for this source's.
                do {
                    try FileManager.default.removeItem(at: itemsFile)
                } catch {
                    throw Recording.FileError(path: itemsFile.path, reason: "cannot remove the items of an earlier recording")
                }
                removedItems = true
            }
        } catch {
            context.console.diagnostic("\(CommandLineTool.programName): \(error)")
            return ExitStatus.nothingProduced.rawValue
        }
        for problem in result?.problems ?? [] { logger.warning(problem.locatedMessage, source: source.name) }
        let count = recording.exchanges.count
        var summary =
            "\(CommandLineTool.programName): recorded \(count) exchange\(count == 1 ? "" : "s") of '\(source.name)' into \(folderPath)"
        if let result { summary += " (\(result.items.count) item\(result.items.count == 1 ? "" : "s"))" }
        if let failure {
            summary += "; no items.json: the source failed"
            if removedItems { summary += " (the earlier recording's items.json was removed)" }
            context.console.diagnostic(summary + "\n\(CommandLineTool.programName): [\(source.name)] failed: \(failure)")
            return ExitStatus.nothingProduced.rawValue
        }
        if !arguments.flag("quiet") { context.console.diagnostic(summary) }
        return ExitStatus.success.rawValue
    }
}
