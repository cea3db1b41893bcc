import Foundation
import TributaryCore
import TributaryModel

#if canImport(Glibc)
    import Glibc
#endif

/// `tributary-bench pipeline --items N [--runs R] [--seed S]`: generates N items (``ItemGenerator``), runs the real
/// pipeline over them R times with `hot` ranking and once with `date` ranking, and prints one JSON line with the
/// median CPU time of each stage (the pipeline runs on one thread), the median wall time of the whole run, the peak
/// resident memory and what the pipeline made of the items.
enum PipelineBenchmark {
    /// The moment the generated run starts (fixed, so that ages and scores are the same on every run).
    static let now = Date(timeIntervalSince1970: 1_795_000_000)

    static func run(items count: Int, runs: Int, seed: UInt64) throws {
        let generator = ItemGenerator(count: count, now: now, seed: seed)
        let generationStarted = ContinuousClock.now
        let rules = try benchmarkRules()
        let sourceRules = RuleSet(block: [
            Rule(name: "ads-source", location: "bench.yaml:40:9", condition: .text(.title, .contains(["广告"])))
        ])
        let keepRules = RuleSet(
            keep: [Rule(location: "bench.yaml:44:9", condition: .text(.any, .contains(["ai", "chip", "model", "芯片", "模型"])))])
        let batches = generator.batches { index in
            switch index % 10 {
            case 1: sourceRules
            case 7 where index > 20: keepRules
            default: RuleSet()
            }
        }
        let generation = ContinuousClock.now - generationStarted
        let memoryBefore = peakResidentKB()

        var hot = RankingConfig()
        hot.strategy = .hot
        hot.maxPerSource = max(100, count / 50)
        hot.maxConsecutive = 2
        var date = hot
        date.strategy = .date
        var dedup = DedupConfig()
        dedup.trackingParameters = ["share_id"]

        // Only the figures of each run are kept, so that one run's river is gone before the next starts.
        var timings: [Pipeline.StageTimings] = []
        var walls: [Double] = []
        var summary = (dropped: 0, merged: 0, river: 0)
        var riverHash: UInt64 = 0
        for _ in 0..<max(1, runs) {
            let input = Self.handOver(batches)
            let wallStarted = ContinuousClock.now
            let result = Pipeline(rules: rules, dedup: dedup, ranking: hot, now: now).run(consume input, clock: ThreadCPUClock())
            walls.append((ContinuousClock.now - wallStarted).inSeconds)
            timings.append(result.timings)
            summary = (result.dropped.count, result.items.reduce(0) { $0 + $1.duplicates.count }, result.items.count)
            riverHash = Self.fingerprint(result.items)
        }
        let (dateTimings, dateRiver) = {
            let result = Pipeline(rules: rules, dedup: dedup, ranking: date, now: now).run(handOver(batches), clock: ThreadCPUClock())
            return (result.timings, result.items.count)
        }()

        let median = { (stage: (Pipeline.StageTimings) -> Duration) -> Double in
            let sorted = timings.map { stage($0).inSeconds }.sorted()
            return sorted[sorted.count / 2]
        }
        var stages: [String] = []
        for (index, entry) in Pipeline.StageTimings().stages.enumerated() {
            stages.append(#""\#(entry.name)": \#(median { $0.stages[index].duration })"#)
        }
        let kept = batches.reduce(0) { $0 + $1.items.count } - summary.dropped
        print(
            "{"
                + [
                    #""items": \#(count)"#, #""sources": \#(batches.count)"#, #""runs": \#(timings.count)"#,
                    #""generate_seconds": \#(generation.inSeconds)"#, #""stages": {\#(stages.joined(separator: ", "))}"#,
                    #""total": \#(median { $0.total })"#, #""wall": \#(walls.sorted()[walls.count / 2])"#,
                    #""rank_date": \#(dateTimings.rank.inSeconds)"#,
                    #""total_date": \#(dateTimings.total.inSeconds)"#, #""dropped_by_rules": \#(summary.dropped)"#,
                    #""after_rules": \#(kept)"#, #""merged": \#(summary.merged)"#, #""river": \#(summary.river)"#,
                    #""river_date": \#(dateRiver)"#, #""river_hash": "\#(String(riverHash, radix: 16))""#,
                    #""peak_rss_kb_input": \#(memoryBefore)"#,
                    #""peak_rss_kb": \#(peakResidentKB())"#,
                ].joined(separator: ", ") + "}")
    }

    /// Batches of their own for one run, made before its clock starts: the pipeline takes its batches over, as the
    /// engine hands it the adapters' items, and moves their items instead of copying them (the benchmark keeps the
    /// generated batches for the next run, which a move would otherwise have to copy).
    static func handOver(_ batches: [Pipeline.Batch]) -> [Pipeline.Batch] {
        batches.map { Pipeline.Batch(source: $0.source, items: $0.items.map { $0 }) }
    }

    /// The global rules of the issue's example: Chinese ads, sponsored titles, ad links and tags, a source's
    /// low-engagement items, and old items.
    static func benchmarkRules() throws -> RuleSet {
        RuleSet(block: [
            Rule(name: "ads-zh", location: "bench.yaml:3:7", condition: .text(.title, .contains(["推广"]))),
            Rule(location: "bench.yaml:5:7", condition: .text(.title, .matches(try RegularExpression("(?i)^sponsored")))),
            Rule(
                location: "bench.yaml:6:7",
                condition: .any([.text(.url, .contains(["/ads/"])), .text(.tags, .oneOf(["广告", "promoted"]))])),
            Rule(location: "bench.yaml:7:7", condition: .all([.text(.source, .equals("toutiao")), .metric("comments", .lt, 3)])),
            Rule(location: "bench.yaml:8:7", condition: .olderThan(.seconds(14 * 86_400))),
        ])
    }

    /// A hash of the river in order (ids, sources, links, titles, scores and duplicates), to check that a faster
    /// build gives the same river.
    static func fingerprint(_ items: [Item]) -> UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        func add(_ text: String?) {
            for byte in (text ?? "\u{0}").utf8 { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
            hash = (hash ^ 0xFF) &* 0x0000_0100_0000_01B3
        }
        for item in items {
            add(item.id)
            add(item.source)
            add(item.url)
            add(item.title)
            add(item.summary)
            add(item.tags.joined(separator: ","))
            add(item.score.map { String($0.bitPattern) })
            add(item.published.map { String($0.timeIntervalSinceReferenceDate.bitPattern) })
            for duplicate in item.duplicates {
                add(duplicate.source)
                add(duplicate.url)
                add(duplicate.title)
            }
        }
        return hash
    }

    /// The peak resident memory of this process so far, in kilobytes (`getrusage`).
    static func peakResidentKB() -> Int {
        var usage = rusage()
        guard getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage) == 0 else { return 0 }
        return Int(usage.ru_maxrss)
    }
}

/// A clock that counts the CPU time of the calling thread (`CLOCK_THREAD_CPUTIME_ID`): on a shared machine, what
/// the pipeline costs on one core, whatever else runs.
struct ThreadCPUClock: Clock {
    struct Instant: InstantProtocol {
        var offset: Duration

        func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        func duration(to other: Instant) -> Duration { other.offset - offset }
        static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
    }

    var now: Instant {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return Instant(offset: .seconds(time.tv_sec) + .nanoseconds(time.tv_nsec))
    }

    var minimumResolution: Duration { .nanoseconds(1) }

    /// CPU time passes only while the thread works, so sleeping on it is not supported; nobody calls this.
    func sleep(until deadline: Instant, tolerance: Duration?) async throws {
        try await Task.sleep(for: now.duration(to: deadline))
    }
}
