public import Foundation
import Synchronization
import TributaryModel
public import TributaryState

/// Runs a configuration: fetches every source concurrently through the shared fetcher, passes
/// the items through the pipeline and writes every output. One failing source never stops the
/// run; a run in which every source failed writes nothing, so the previous outputs stay.
public struct Engine: Sendable {
    private let fetcher: any Fetcher
    private let logger: Logger
    private let clock: @Sendable () -> Date
    private let state: StateStore?

    /// Creates an engine that fetches through `fetcher`, reports to `logger`, reads the time from
    /// `clock` and, when given a state store, remembers items, validators and health across runs.
    public init(
        fetcher: any Fetcher, logger: Logger = .silent, clock: @escaping @Sendable () -> Date = { Date() }, state: StateStore? = nil
    ) {
        self.fetcher = fetcher
        self.logger = logger
        self.clock = clock
        self.state = state
    }

    /// Runs the configuration once.
    public func run(_ configuration: Configuration, options: RunOptions = RunOptions()) async -> RunReport {
        let started = clock()
        let startInstant = ContinuousClock.now
        let startCPU = ProcessCPUTime.now
        var sources = configuration.enabledSources
        if let only = options.onlySources {
            sources = configuration.sources.filter { only.contains($0.name) }
        }
        if sources.isEmpty { logger.warning("no source is enabled; the outputs will be empty") }
        // With --source, the other enabled sources are not fetched. With a state their stored items keep their place
        // in the river (as after a 304, or as a failing source's while they are not stale), and their health stays
        // as it was; without one, the outputs hold only the sources named.
        let resting = options.onlySources.map { only in configuration.enabledSources.filter { !only.contains($0.name) } } ?? []
        if state == nil, !resting.isEmpty, !options.dryRun, configuration.outputs.contains(where: { $0.path != nil }) {
            logger.warning("without a state, the outputs hold only the sources named with --source")
        }

        var histories: [String: SourceHistory] = [:]
        if let state {
            do {
                histories = try state.histories(for: (sources + resting).map(\.name), includeItems: false)
            } catch {
                return stateFailed(error, sources: [], started: started, startInstant: startInstant)
            }
        }

        // The stored items are read on a thread of their own as soon as one source answers with something new, while the
        // others are still being fetched; a run in which none does never reads them. Something new: anything but a 304
        // or, when the river may be kept (see `unchangedRun`), the items the source served before, which each source that
        // answers 200 is checked for against its own stored items until one fails the check.
        let storedItems = state.map { StoredItemsReader(state: $0, histories: histories) }
        let check = state.flatMap { state in
            RiverToken.allowed(configuration, options: options)
                ? RiverCheck(state: state, now: started, retention: configuration.retention.inSeconds) : nil
        }
        let progress = ProgressCounter(total: sources.count, handler: options.progress)
        // Sources named with --source are asked now, as with --force.
        let schedule = !options.force && options.onlySources == nil
        var outcomes = await fetchAll(
            sources, configuration: configuration, jobs: options.jobs ?? configuration.defaults.jobs, now: started,
            histories: histories, schedule: schedule, progress: progress, check: check, changed: storedItems?.start)
        logger.info(
            "fetched \(sources.count) sources in \((ContinuousClock.now - startInstant).secondsText) (\((ProcessCPUTime.now - startCPU).secondsText) CPU)"
        )

        if let state, let storedItems {
            if let report = unchangedRun(
                configuration, options: options, outcomes: outcomes, histories: histories, state: state, started: started,
                startInstant: startInstant)
            {
                return report
            }
            let waiting = ContinuousClock.now
            let read = await storedItems.histories()
            switch read.histories {
            case .success(let stored):
                histories = stored
                for (name, count) in state.takeDamagedItemCounts().sorted(by: { $0.key < $1.key }) {
                    logger.warning(
                        "\(count) stored item\(count == 1 ? " is" : "s are") damaged in \(state.path) and left out of the river",
                        source: name)
                }
                logger.info(
                    "read \(histories.values.reduce(0) { $0 + $1.items.count }) stored items in \(read.duration.secondsText) (waited \((ContinuousClock.now - waiting).secondsText))"
                )
            case .failure(let error):
                return stateFailed(error, sources: outcomes.map(\.report), started: started, startInstant: startInstant)
            }
        }

        // With a state, each source's answer is merged with what earlier runs saw: first-seen
        // times, unchanged sources, failing sources' last good items, the history of the river.
        var reports = outcomes.map(\.report)
        var merges: [SourceMerge] = []
        var batches: [Pipeline.Batch] = []
        var sourceInfo: [String: FeedInfo] = [:]
        for index in outcomes.indices {
            // Without a state the items move on (left in the outcome too, the pipeline's first change to them
            // would copy them all); with one, the merge reads them there and gives the items to use.
            var items = state == nil ? outcomes[index].takeItems() : []
            let outcome = outcomes[index]
            var feed = outcome.feed
            if state != nil {
                let history = histories[outcome.source.name] ?? SourceHistory(name: outcome.source.name)
                var merge = SourceMerge.merge(
                    history, outcome: outcome.answer, now: started, retention: configuration.retention.inSeconds,
                    staleAfter: outcome.source.staleWindow)
                if let digest = outcome.scheduleDigest { merge.recordAttempt(settings: digest) }
                if case .failed = outcome.answer {
                    // The server's wait counts from its answer, which came after the run's start: from now.
                    let answered = max(clock(), started)
                    merge.deferNextAttempt(
                        FetchSchedule.afterFailure(
                            history.consecutiveFailures + 1,
                            retryAfter: outcome.retryAfter.map { answered.addingTimeInterval($0.inSeconds) },
                            source: outcome.source, now: started))
                    reports[index].wait = merge.deferral.map { FetchSchedule.Wait($0, failures: history.consecutiveFailures + 1) }
                }
                merges.append(merge)
                reports[index].status = merge.status
                reports[index].newItemCount = merge.newCount
                if merge.status == .notModified || merge.status == .stale || merge.status == .deferred {
                    reports[index].itemCount = merge.items.filter(\.served).count
                }
                if merge.status == .stale {
                    logger.warning("using its last good items (\(merge.items.count)) while it fails", source: outcome.source.name)
                }
                items = merge.riverItems
                feed = merge.feed
            }
            if let feed { sourceInfo[outcome.source.name] = feed }
            if outcome.report.succeeded || !items.isEmpty {
                batches.append(Pipeline.Batch(source: outcome.source, items: items))
            }
        }
        var restingReports: [SourceReport] = []
        if state != nil {
            for source in resting {
                let (batch, feed, report) = Self.storedContribution(
                    of: source, history: histories[source.name] ?? SourceHistory(name: source.name), now: started,
                    retention: configuration.retention.inSeconds)
                if let batch { batches.append(batch) }
                if let feed { sourceInfo[source.name] = feed }
                restingReports.append(report)
            }
        }

        var pipeline = Pipeline(configuration, now: started)
        pipeline.workers = ProcessInfo.processInfo.activeProcessorCount
        let processing = ContinuousClock.now
        let processed = pipeline.run(consume batches)
        let river = processed.items
        var stages = processed.timings.stages.map { "\($0.name) \($0.duration.secondsText)" }.joined(separator: ", ")
        if processed.timings.threads > 1 { stages += "; the per-source parts on \(processed.timings.threads) threads, their times summed" }
        logger.info("made the river of \(river.count) items in \((ContinuousClock.now - processing).secondsText) (\(stages))")
        for index in reports.indices {
            if let found = processed.problems[reports[index].name] {
                reports[index].problems += found
                for problem in found { logger.warning(problem.locatedMessage, source: reports[index].name) }
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
        let everySourceFailed = !sources.isEmpty && !reports.contains(where: \.succeeded)
        let renderer = OutputRenderer(
            configuration: configuration, sourceInfo: sourceInfo, sourceReports: reports + restingReports, now: started)
        var files: [(index: Int, output: OutputConfig, path: URL, items: [Item])] = []
        for output in outputs {
            let selected = renderer.items(for: output, from: river)
            var report = OutputReport(kind: output.kind, path: output.displayPath, itemCount: selected.count, failure: nil)
            if everySourceFailed {
                report.failure =
                    output.kind == .stdout
                    ? "not printed: every source failed" : "not written: every source failed, so the previous file is kept"
                report.itemCount = 0
            } else if output.kind == .stdout {
                standardOutput += renderer.render(output, selected: selected)
            } else if let path = output.path, !options.dryRun {
                files.append((outputReports.count, output, path, selected))
            }
            outputReports.append(report)
        }
        // The files are independent: each is rendered and written on its own thread.
        let (writeStarted, writeStartCPU) = (ContinuousClock.now, ProcessCPUTime.now)
        let failures = await withTaskGroup(of: (Int, String?).self) { group in
            for file in files {
                group.addTask { [logger] in
                    do throws(AtomicFile.WriteError) {
                        let started = ContinuousClock.now
                        try renderer.write(file.output, selected: file.items, to: file.path)
                        logger.info(
                            "wrote \(file.items.count) items to \(file.output.displayPath ?? file.path.path) in \((ContinuousClock.now - started).secondsText)"
                        )
                        return (file.index, nil)
                    } catch {
                        logger.error("cannot write \(file.output.kind.rawValue) output: \(error.description)")
                        // The report names the output's path beside its failure: the reason alone, not the path again.
                        return (file.index, error.reason)
                    }
                }
            }
            var failures: [Int: String] = [:]
            for await (index, failure) in group { failures[index] = failure }
            return failures
        }
        if files.count > 1 {
            logger.info(
                "wrote \(files.count) files in \((ContinuousClock.now - writeStarted).secondsText) (\((ProcessCPUTime.now - writeStartCPU).secondsText) CPU)"
            )
        }
        for (index, failure) in failures { outputReports[index].failure = failure }
        var report = RunReport(
            sources: reports, outputs: outputReports, items: river, dropped: processed.dropped, standardOutput: standardOutput,
            started: started, duration: ContinuousClock.now - startInstant)
        if state != nil {
            // The items no earlier run had seen (not those first seen at this run's start: after the clock was put
            // back, items found by earlier runs are stored as first seen now).
            var fresh = Set<ItemKey>()
            for merge in merges where !merge.newIDs.isEmpty {
                for entry in merge.items where merge.newIDs.contains(entry.item.id) { fresh.insert(ItemKey(entry.item)) }
            }
            report.riverNewItemCount = river.count(where: { fresh.contains(ItemKey($0)) })
        }
        if let state, !options.dryRun {
            let record = RunRecord(
                started: started, duration: report.duration.inSeconds, status: Int(report.status.rawValue), sources: reports.count,
                failed: reports.filter { !$0.succeeded }.count, items: river.count,
                newItems: report.riverNewItemCount ?? report.newItemCount ?? 0)
            // When nothing in this river depends on the time of the run, the next run may find it
            // unchanged and skip rebuilding it; the token says what the outputs were made from.
            var meta: [String: String?] = [RiverToken.key: nil, RiverToken.countsKey: nil, RiverToken.riverCountKey: nil]
            if RiverToken.allowed(configuration, options: options), report.status == .success, processed.problems.isEmpty,
                let token = RiverToken.make(configuration)
            {
                meta = [
                    RiverToken.key: token, RiverToken.countsKey: outputReports.map { String($0.itemCount) }.joined(separator: ","),
                    RiverToken.riverCountKey: String(river.count),
                ]
            }
            do {
                let storing = ContinuousClock.now
                try state.commit(
                    merges, run: record, retention: configuration.retention.inSeconds, meta: meta,
                    configured: Set(configuration.sources.map(\.name)))
                logger.info("stored the run in the state in \((ContinuousClock.now - storing).secondsText)")
            } catch {
                logger.error(error.description)
                report.stateFailure = error.description
            }
        }
        return report
    }

    /// What a source that was not run (`--source` named others) puts in the river from the state: its stored items, as
    /// after a 304 or, while it fails, as a failing source's until `stale_after`; its description; and, for the HTML
    /// page, its health as the state last saw it. Nothing of it is stored: a source that was not asked has nothing
    /// new to say.
    private static func storedContribution(
        of source: SourceConfig, history: SourceHistory, now: Date, retention: TimeInterval
    ) -> (batch: Pipeline.Batch?, feed: FeedInfo?, report: SourceReport) {
        let failing = history.consecutiveFailures > 0
        let answer: SourceOutcome =
            failing ? .failed(error: history.lastError ?? "", httpStatus: history.lastHTTPStatus) : .notModified(httpStatus: nil)
        let merge = SourceMerge.merge(history, outcome: answer, now: now, retention: retention, staleAfter: source.staleWindow)
        let items = merge.riverItems
        var report = SourceReport(
            name: source.name, adapter: source.adapterKind, itemCount: merge.items.count(where: \.served),
            failure: failing ? history.lastError ?? "failed" : nil)
        report.status = merge.status
        report.httpStatus = history.lastHTTPStatus
        return (items.isEmpty ? nil : Pipeline.Batch(source: source, items: items), merge.feed, report)
    }

    /// The report of a run the state stopped: nothing is written.
    private func stateFailed(
        _ error: StateError, sources: [SourceReport], started: Date, startInstant: ContinuousClock.Instant
    ) -> RunReport {
        logger.error(error.description)
        return RunReport(
            sources: sources, outputs: [], items: [], dropped: [], standardOutput: "", started: started,
            duration: ContinuousClock.now - startInstant, stateFailure: error.description)
    }

    /// The run that keeps the river: every source leaves it as it was (``SourceMerge/leavesRiverUnchanged``): it
    /// answered 304 (merged here with its history as read before the fetching, without its items) or served what it
    /// served before (merged as it answered). When the configuration and the output files are also the ones the last
    /// river was written from and no item ages out, the river is the same, so the files stay and only the state is
    /// updated. Nil when any of that is not certain; the full run follows.
    private func unchangedRun(
        _ configuration: Configuration, options: RunOptions, outcomes: [Outcome], histories: [String: SourceHistory],
        state: StateStore, started: Date, startInstant: ContinuousClock.Instant
    ) -> RunReport? {
        guard RiverToken.allowed(configuration, options: options), !outcomes.isEmpty,
            outcomes.allSatisfy({ [.notModified, .deferred].contains($0.report.status) || $0.unchangedMerge != nil })
        else { return nil }
        let merges = outcomes.map { outcome in
            var merge =
                outcome.unchangedMerge
                ?? SourceMerge.merge(
                    histories[outcome.source.name] ?? SourceHistory(name: outcome.source.name), outcome: outcome.answer, now: started,
                    retention: configuration.retention.inSeconds, staleAfter: outcome.source.staleWindow)
            if let digest = outcome.scheduleDigest { merge.recordAttempt(settings: digest) }
            return merge
        }
        guard merges.allSatisfy(\.leavesRiverUnchanged) else { return nil }
        do {
            guard let token = try state.meta(RiverToken.key), token == RiverToken.make(configuration),
                let counts = try state.meta(RiverToken.countsKey)?.split(separator: ",").compactMap({ Int($0) }),
                counts.count == configuration.outputs.count
            else { return nil }
            let facts = try state.riverFacts()
            // An item aging out of the river changes it.
            if let oldest = facts.oldestUnservedFirstSeen, oldest < started.addingTimeInterval(-configuration.retention.inSeconds) {
                return nil
            }
            var reports = outcomes.map(\.report)
            for index in reports.indices {
                if [.notModified, .deferred].contains(reports[index].status) {
                    reports[index].itemCount = facts.servedCounts[reports[index].name] ?? 0
                }
                reports[index].newItemCount = 0
            }
            let outputs = zip(configuration.outputs, counts).map { output, count in
                OutputReport(kind: output.kind, path: output.displayPath, itemCount: count, failure: nil, unchanged: true)
            }
            var report = RunReport(
                sources: reports, outputs: outputs, items: [], dropped: [], standardOutput: "", started: started,
                duration: ContinuousClock.now - startInstant)
            report.unchangedRiverCount = try state.meta(RiverToken.riverCountKey).flatMap { Int($0) } ?? counts.max() ?? 0
            report.riverNewItemCount = 0
            try state.commit(
                merges,
                run: RunRecord(
                    started: started, duration: report.duration.inSeconds, status: Int(report.status.rawValue), sources: reports.count,
                    failed: 0, items: report.unchangedRiverCount ?? 0, newItems: 0),
                retention: configuration.retention.inSeconds, configured: Set(configuration.sources.map(\.name)), keepsItems: true)
            logger.info("no source changed the river: the outputs stay as they are")
            return report
        } catch {
            logger.warning("cannot tell whether the river changed (\(error.description)); rebuilding it")
            return nil
        }
    }

    /// What one source produced, with its report.
    private struct Outcome: Sendable {
        var source: SourceConfig
        var feed: FeedInfo?
        var report: SourceReport
        /// The answer as the state sees it; the items the source served are in it.
        var answer: SourceOutcome
        /// For a source that answered 200 with what it served before, checked as it answered: its merge with its
        /// history.
        var unchangedMerge: SourceMerge?
        /// The longest wait a 429 or 503 answer asked for (`Retry-After`).
        var retryAfter: Duration?
        /// What the source was asked with (``SourceConfig/scheduleDigest``); nil when it was not asked.
        var scheduleDigest: String?

        /// The items the source served (none unless it was fetched), taken out of the answer.
        mutating func takeItems() -> [Item] {
            guard case .fetched(let items, let feed, let validators, let httpStatus) = answer else { return [] }
            answer = .fetched(items: [], feed: feed, validators: validators, httpStatus: httpStatus)
            return items
        }
    }

    /// Fetches the sources with at most `jobs` in flight, returning outcomes in configuration order; calls `changed`
    /// when a source's outcome is other than "not modified" and, with `check`, other than the items it served before.
    ///
    /// Each of the `jobs` tasks takes the next source as soon as it is done with one, so a source's answer leads to
    /// the next request without a round through a coordinating task (which every answer would have to wake: with
    /// answers that take a tenth of a millisecond, as 304s on a near server do, that task set the pace).
    private func fetchAll(
        _ sources: [SourceConfig], configuration: Configuration, jobs: Int, now: Date, histories: [String: SourceHistory],
        schedule: Bool, progress: ProgressCounter, check: RiverCheck?, changed: (@Sendable () -> Void)?
    ) async -> [Outcome] {
        let queue = SourceQueue(count: sources.count)
        return await withTaskGroup(of: [(Int, Outcome)].self) { group in
            for _ in 0..<min(max(jobs, 1), sources.count) {
                group.addTask {
                    var done: [(Int, Outcome)] = []
                    while let index = queue.next() {
                        let source = sources[index]
                        let digests = source.digests
                        if schedule, let history = histories[source.name],
                            let wait = FetchSchedule.wait(history, for: source, now: now, digest: digests.schedule)
                        {
                            let outcome = Self.waiting(source, history: history, wait: wait)
                            progress.finished(failed: !outcome.report.succeeded)
                            if !outcome.report.succeeded { changed?() }
                            done.append((index, outcome))
                            continue
                        }
                        let offer =
                            source.adapter.firstAnswerCoversTheSource
                            ? Self.offer(histories[source.name], for: source, settingsDigest: digests.settings) : nil
                        var outcome = await fetch(
                            source, configuration: configuration, now: now, settingsDigest: digests.settings,
                            log: FetchLog(offer: offer, onBytes: progress.received))
                        outcome.scheduleDigest = digests.schedule
                        progress.finished(failed: !outcome.report.succeeded)
                        if outcome.report.status != .notModified {
                            outcome.unchangedMerge = check?.unchanged(
                                outcome.answer, history: histories[source.name] ?? SourceHistory(name: source.name),
                                staleAfter: source.staleWindow)
                            if outcome.unchangedMerge == nil { changed?() }
                        }
                        done.append((index, outcome))
                    }
                    return done
                }
            }
            var results = [Outcome?](repeating: nil, count: sources.count)
            for await finished in group {
                for (index, outcome) in finished { results[index] = outcome }
            }
            return results.compactMap { $0 }
        }
    }

    /// The validators to send for `source`: the stored ones, while the items stored with them were made as this run
    /// would make them (the same settings, and ids of the current scheme: a 304 skips the migration of stored ids).
    static func offer(_ history: SourceHistory?, for source: SourceConfig, settingsDigest: String? = nil) -> FetchLog.Offer? {
        guard let history, let stored = history.validators, stored.settings == settingsDigest ?? source.settingsDigest,
            history.identityScheme == StableID.schemeVersion
        else { return nil }
        return FetchLog.Offer(url: stored.url, validators: CacheValidators(etag: stored.etag, lastModified: stored.lastModified))
    }

    /// The outcome of a source that is not fetched this run: as it stands, a failing one still failing.
    private static func waiting(_ source: SourceConfig, history: SourceHistory, wait: FetchSchedule.Wait) -> Outcome {
        var report = SourceReport(name: source.name, adapter: source.adapterKind)
        report.deferred = true
        report.wait = wait
        if history.consecutiveFailures > 0 {
            report.status = .failed
            report.failure = URLSecrets.redacted(in: history.lastError ?? "failed")
            report.httpStatus = history.lastHTTPStatus
        } else {
            report.status = .deferred
        }
        return Outcome(source: source, feed: nil, report: report, answer: .deferred)
    }

    private func fetch(
        _ source: SourceConfig, configuration: Configuration, now: Date, settingsDigest: String, log: FetchLog
    ) async -> Outcome {
        let started = ContinuousClock.now
        let context = FetchContext(
            sourceName: source.name, configDirectory: configuration.directory, fetcher: fetcher, timeout: source.timeout,
            maxItems: source.maxItems, timeZone: source.timeZone.flatMap(TimeZone.init(identifier:)) ?? .gmt, now: now,
            logger: logger, maxResponseBytes: configuration.defaults.maxResponseBytes,
            allowInsecureTLS: source.allowInsecureTLS, log: log)
        logger.debug("fetching with adapter '\(source.adapterKind)'", source: source.name)
        var report = SourceReport(name: source.name, adapter: source.adapterKind)
        let result: Result<SourceResult, any Error>
        do {
            result = .success(try await source.adapter.fetch(in: context))
        } catch {
            result = .failure(error)
        }
        let wire = log.record
        report.duration = ContinuousClock.now - started
        report.httpStatus = wire.firstStatus
        report.bytes = wire.bytes
        if wire.notModified {
            report.status = .notModified
            logger.info("not modified since the last run (\(report.duration.secondsText))", source: source.name)
            return Outcome(source: source, feed: nil, report: report, answer: .notModified(httpStatus: wire.firstStatus))
        }
        switch result {
        case .success(var result):
            // `max_items` (or the default limit) bounds what a source contributes, and so what the state keeps of it:
            // only the items the river can take are stored.
            let given = result.items.count + result.itemsLeftOut
            if result.items.count > source.itemLimit { result.items.removeSubrange(source.itemLimit...) }
            if source.maxItems == nil, given > source.itemLimit {
                result.problems.append(
                    Problem(
                        .warning,
                        "the source gave \(given) items; only the first \(source.itemLimit) are kept (the default limit; max_items raises it, up to 1,000,000)"
                    ))
            }
            report.itemCount = result.items.count
            // What the report, the state and the HTML page keep says no secret of a URL.
            report.problems = result.problems.map { problem in
                var problem = problem
                problem.message = URLSecrets.redacted(in: problem.message)
                return problem
            }
            for problem in result.problems {
                logger.warning(problem.locatedMessage, source: source.name)
            }
            logger.info("\(result.items.count) items in \(report.duration.secondsText)", source: source.name)
            let validators = wire.firstURL.flatMap { url in
                wire.firstValidators.map {
                    StoredValidators(url: url, etag: $0.etag, lastModified: $0.lastModified, settings: settingsDigest)
                }
            }
            return Outcome(
                source: source, feed: result.feed, report: report,
                answer: .fetched(items: result.items, feed: result.feed, validators: validators, httpStatus: wire.firstStatus))
        case .failure(let error):
            report.failure = URLSecrets.redacted(in: String(describing: error))
            report.status = .failed
            if case let fetchError as FetchError = error, case .httpStatus(let status) = fetchError.reason { report.httpStatus = status }
            logger.error("failed: \(report.failure ?? "")", source: source.name)
            return Outcome(
                source: source, feed: nil, report: report,
                answer: .failed(error: report.failure ?? "", httpStatus: report.httpStatus), retryAfter: wire.retryAfter)
        }
    }
}

/// Reads every stored item of the run's sources once: on a thread of its own from ``start()`` on (so that the read
/// overlaps the fetching, which waits on the network and parses on the cooperative threads), or, if nothing started
/// it, when ``histories()`` is first awaited.
private final class StoredItemsReader: Sendable {
    /// What the read gave and how long it took.
    typealias Read = (histories: Result<[String: SourceHistory], StateError>, duration: Duration)

    private enum Phase {
        case idle
        case reading(waiting: [CheckedContinuation<Read, Never>])
        case done(Read)
    }

    private let phase = Mutex(Phase.idle)
    private let state: StateStore
    /// The sources' histories as read before the fetching, without their items.
    private let histories: [String: SourceHistory]

    init(state: StateStore, histories: [String: SourceHistory]) {
        self.state = state
        self.histories = histories
    }

    /// Starts the read on a thread of its own unless it has started already.
    @Sendable func start() {
        guard begin() else { return }
        Thread.detachNewThread { [self] in
            ThreadArena.reserveForThisThread()
            finish(read())
        }
    }

    /// The stored histories of the sources, with their items.
    func histories() async -> Read {
        if begin() { finish(read()) }
        return await withCheckedContinuation { continuation in
            let ready = phase.withLock { phase -> Read? in
                switch phase {
                case .done(let read): return read
                case .reading(let waiting):
                    phase = .reading(waiting: waiting + [continuation])
                    return nil
                case .idle: preconditionFailure("the read began above")
                }
            }
            if let ready { continuation.resume(returning: ready) }
        }
    }

    /// Whether the caller is the one to read (the phase was idle).
    private func begin() -> Bool {
        phase.withLock { phase in
            guard case .idle = phase else { return false }
            phase = .reading(waiting: [])
            return true
        }
    }

    private func read() -> Read {
        let started = ContinuousClock.now
        let histories = Result { () throws(StateError) in try state.addingItems(to: self.histories) }
        return (histories, ContinuousClock.now - started)
    }

    private func finish(_ read: Read) {
        let waiting = phase.withLock { phase -> [CheckedContinuation<Read, Never>] in
            guard case .reading(let waiting) = phase else { return [] }
            phase = .done(read)
            return waiting
        }
        for continuation in waiting { continuation.resume(returning: read) }
    }
}

/// Tells, source by source as they answer 200, whether a source serves what it served before, until one does not:
/// from then on the run rebuilds the river and reads every stored item anyway.
private final class RiverCheck: Sendable {
    private let state: StateStore
    private let now: Date
    private let retention: TimeInterval
    private let changed = Atomic<Bool>(false)

    init(state: StateStore, now: Date, retention: TimeInterval) {
        self.state = state
        self.now = now
        self.retention = retention
    }

    /// The merge of a fetched answer with `history` (read without its items: the source's items are read here) when
    /// it leaves the river as it was; nil when it does not, or when an answer before did not.
    func unchanged(_ answer: SourceOutcome, history: SourceHistory, staleAfter: TimeInterval) -> SourceMerge? {
        guard case .fetched = answer, !changed.load(ordering: .relaxed),
            let stored = try? state.addingItems(toOne: history)
        else {
            changed.store(true, ordering: .relaxed)
            return nil
        }
        let merge = SourceMerge.merge(stored, outcome: answer, now: now, retention: retention, staleAfter: staleAfter)
        guard merge.leavesRiverUnchanged else {
            changed.store(true, ordering: .relaxed)
            return nil
        }
        return merge
    }
}

/// Hands out the indices of the sources to fetch, in order, to the tasks that fetch them.
private final class SourceQueue: Sendable {
    private let count: Int
    private let taken = Atomic<Int>(0)

    init(count: Int) {
        self.count = count
    }

    /// The next source's index, or nil when every source was taken.
    func next() -> Int? {
        let index = taken.add(1, ordering: .relaxed).oldValue
        return index < count ? index : nil
    }
}

/// Counts finished sources and received bytes, and tells the run's progress handler.
private final class ProgressCounter: Sendable {
    private let handler: (@Sendable (RunProgress) -> Void)?
    private let state: Mutex<RunProgress>

    init(total: Int, handler: (@Sendable (RunProgress) -> Void)?) {
        self.handler = handler
        state = Mutex(RunProgress(total: total))
    }

    @Sendable func received(_ bytes: Int) {
        guard let handler else { return }
        handler(
            state.withLock { progress in
                progress.bytes += bytes
                return progress
            })
    }

    func finished(failed: Bool) {
        guard let handler else { return }
        handler(
            state.withLock { progress in
                progress.done += 1
                if failed { progress.failed += 1 }
                return progress
            })
    }
}

/// What the outputs on disk were made from: the configuration's digest and each file output's
/// size and modification time. Equal tokens mean the files are the ones the last run wrote from
/// the same configuration.
enum RiverToken {
    static let key = "river"
    static let countsKey = "river_output_counts"
    static let riverCountKey = "river_items"

    /// Whether a run may skip or record: a full, writing run of a time-independent configuration.
    static func allowed(_ configuration: Configuration, options: RunOptions) -> Bool {
        !options.dryRun && options.onlySources == nil && options.standardOutputFormat == nil
            && configuration.riverIsTimeIndependent && configuration.digest != nil
    }

    /// The token for the files as they are now; nil when one is missing.
    static func make(_ configuration: Configuration) -> String? {
        guard let digest = configuration.digest else { return nil }
        var parts = [digest]
        for output in configuration.outputs {
            guard let path = output.path else { return nil }
            var info = stat()
            guard stat(path.path, &info) == 0 else { return nil }
            parts.append("\(path.path) \(info.st_size) \(info.st_mtim.tv_sec).\(info.st_mtim.tv_nsec)")
        }
        return parts.joined(separator: "\n")
    }
}

/// An item's identity across the run: its source and its id.
private struct ItemKey: Hashable {
    var source: String
    var id: String

    init(_ item: Item) {
        source = item.source
        id = item.id
    }
}
