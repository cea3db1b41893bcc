public import Foundation
import TributaryModel

/// Runs a configuration: fetches every source concurrently through the shared fetcher, passes
/// the items through the pipeline and writes every output. One failing source never stops the
/// run; a run in which every source failed writes nothing, so the previous outputs stay.
public struct Engine: Sendable {
    private let fetcher: any Fetcher
    private let logger: Logger
    private let clock: @Sendable () -> Date

    /// Creates an engine that fetches through `fetcher`, reports to `logger` and reads the time from `clock`.
    public init(fetcher: any Fetcher, logger: Logger = .silent, clock: @escaping @Sendable () -> Date = { Date() }) {
        self.fetcher = fetcher
        self.logger = logger
        self.clock = clock
    }

    /// Runs the configuration once.
    public func run(_ configuration: Configuration, options: RunOptions = RunOptions()) async -> RunReport {
        let started = clock()
        let startInstant = ContinuousClock.now
        var sources = configuration.enabledSources
        if let only = options.onlySources {
            sources = configuration.sources.filter { only.contains($0.name) }
        }
        if sources.isEmpty { logger.warning("no source is enabled; the outputs will be empty") }

        let outcomes = await fetchAll(
            sources, configuration: configuration, jobs: options.jobs ?? configuration.defaults.jobs, now: started)
        var reports = outcomes.map(\.report)
        let succeeded = outcomes.filter { $0.report.succeeded }

        let processed = Pipeline(configuration, now: started).run(succeeded.map { Pipeline.Batch(source: $0.source, items: $0.items) })
        let river = processed.items
        for index in reports.indices {
            if let found = processed.problems[reports[index].name] {
                reports[index].problems += found
                for problem in found { logger.warning(problem.description, source: reports[index].name) }
            }
        }
        for drop in processed.dropped {
            logger.debug("dropped '\(drop.title ?? drop.id)': \(drop.reason)", source: drop.source)
        }

        var outputs = configuration.outputs
        if let format = options.standardOutputFormat {
            if outputs.contains(where: { $0.kind == .stdout }) {
                outputs = outputs.map { output in
                    var output = output
                    if output.kind == .stdout { output.format = format }
                    return output
                }
            } else {
                outputs.append(OutputConfig(kind: .stdout, path: nil, displayPath: nil, url: nil, limit: nil, title: nil, format: format))
            }
        }

        var outputReports: [OutputReport] = []
        var standardOutput = ""
        let everySourceFailed = !sources.isEmpty && succeeded.isEmpty
        let renderer = OutputRenderer(
            configuration: configuration,
            sourceInfo: Dictionary(
                succeeded.compactMap { outcome in outcome.feed.map { (outcome.source.name, $0) } }, uniquingKeysWith: { a, _ in a }),
            sourceReports: reports, now: started)
        for output in outputs {
            let count = renderer.items(for: output, from: river).count
            var report = OutputReport(kind: output.kind, path: output.displayPath, itemCount: count, failure: nil)
            if everySourceFailed {
                report.failure = "not written: every source failed, so the previous file is kept"
                report.itemCount = 0
            } else if output.kind == .stdout {
                standardOutput += renderer.render(output, items: river)
            } else if let path = output.path, !options.dryRun {
                do {
                    try AtomicFile.write(Array(renderer.render(output, items: river).utf8), to: path)
                    logger.info("wrote \(count) items to \(output.displayPath ?? path.path)")
                } catch {
                    report.failure = error.description
                    logger.error("cannot write \(output.kind.rawValue) output: \(error.description)")
                }
            }
            outputReports.append(report)
        }
        return RunReport(
            sources: reports, outputs: outputReports, items: river, dropped: processed.dropped, standardOutput: standardOutput,
            started: started,
            duration: ContinuousClock.now - startInstant)
    }

    /// What one source produced, with its report.
    private struct Outcome: Sendable {
        var source: SourceConfig
        var items: [Item]
        var feed: FeedInfo?
        var report: SourceReport
    }

    /// Fetches the sources with at most `jobs` in flight, returning outcomes in configuration order.
    private func fetchAll(_ sources: [SourceConfig], configuration: Configuration, jobs: Int, now: Date) async -> [Outcome] {
        await withTaskGroup(of: (Int, Outcome).self) { group in
            var results = [Outcome?](repeating: nil, count: sources.count)
            var next = 0
            func startNext() {
                guard next < sources.count else { return }
                let index = next
                let source = sources[index]
                next += 1
                group.addTask { (index, await fetch(source, configuration: configuration, now: now)) }
            }
            for _ in 0..<min(max(jobs, 1), sources.count) { startNext() }
            while let (index, outcome) = await group.next() {
                results[index] = outcome
                startNext()
            }
            return results.compactMap { $0 }
        }
    }

    private func fetch(_ source: SourceConfig, configuration: Configuration, now: Date) async -> Outcome {
        let started = ContinuousClock.now
        let context = FetchContext(
            sourceName: source.name, configDirectory: configuration.directory, fetcher: fetcher, timeout: source.timeout,
            maxItems: source.maxItems, timeZone: source.timeZone.flatMap(TimeZone.init(identifier:)) ?? .gmt, now: now,
            logger: logger, maxResponseBytes: configuration.defaults.maxResponseBytes,
            allowInsecureTLS: source.allowInsecureTLS)
        logger.debug("fetching with adapter '\(source.adapterKind)'", source: source.name)
        var report = SourceReport(name: source.name, adapter: source.adapterKind, itemCount: 0, problems: [], failure: nil, duration: .zero)
        do {
            let result = try await source.adapter.fetch(in: context)
            report.itemCount = result.items.count
            report.problems = result.problems
            report.duration = ContinuousClock.now - started
            for problem in result.problems {
                logger.warning(problem.description, source: source.name)
            }
            logger.info("\(result.items.count) items in \(report.duration.secondsText)", source: source.name)
            return Outcome(source: source, items: result.items, feed: result.feed, report: report)
        } catch {
            report.failure = String(describing: error)
            report.duration = ContinuousClock.now - started
            logger.error("failed: \(report.failure ?? "")", source: source.name)
            return Outcome(source: source, items: [], feed: nil, report: report)
        }
    }
}
