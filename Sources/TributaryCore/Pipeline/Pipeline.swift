import Dispatch
public import Foundation
import Synchronization
public import TributaryModel

/// The stages between the adapters and the sinks, composed in order: prepare each source's
/// items, normalize them, apply the source's and the global rules, merge duplicates, rank.
/// Each stage is a pure function of its input; the pipeline holds no shared state.
public struct Pipeline: Sendable {
    /// The global block and keep rules.
    public var rules: RuleSet
    /// How duplicates are merged.
    public var dedup: DedupConfig
    /// How the river is ordered.
    public var ranking: RankingConfig
    /// The moment the run started; undated items count as seen now.
    public var now: Date

    /// Creates a pipeline from the configuration's sections.
    public init(rules: RuleSet = RuleSet(), dedup: DedupConfig, ranking: RankingConfig, now: Date) {
        self.rules = rules
        self.dedup = dedup
        self.ranking = ranking
        self.now = now
    }

    /// Creates the pipeline a configuration describes.
    public init(_ configuration: Configuration, now: Date) {
        self.init(rules: configuration.rules, dedup: configuration.dedup, ranking: configuration.ranking, now: now)
    }

    /// One source's items, ready for the pipeline.
    public struct Batch: Sendable {
        /// The source's configuration.
        public var source: SourceConfig
        /// Its items, in the source's order.
        public var items: [Item]

        /// Pairs a source with its items.
        public init(source: SourceConfig, items: [Item]) {
            self.source = source
            self.items = items
        }
    }

    /// An item a rule dropped, for `--explain`.
    public struct Drop: Sendable {
        /// The item's source.
        public var source: String
        /// The item's id.
        public var id: String
        /// The item's title, if it had one.
        public var title: String?
        /// The rule that dropped it, as `'name' (file:line:col)` or `the rule at file:line:col`.
        public var reason: String
    }

    /// What the pipeline made of the batches.
    public struct Result: Sendable {
        /// The river, ranked.
        public var items: [Item]
        /// Items the rules dropped, in source order.
        public var dropped: [Drop]
        /// What normalizing changed that deserves a word (future dates), by source.
        public var problems: [String: [Problem]]
        /// How long each stage took.
        public var timings: StageTimings
    }

    /// How long each stage of one run took, by the clock given to ``run(_:clock:)`` (the stages run one after
    /// another on the calling thread; with several ``workers``, the times of the stages that work on one source at
    /// a time are summed over the threads). For benchmarks and debug logs.
    public struct StageTimings: Sendable, Equatable {
        /// Labelling with the source, repeated ids, `max_items`, links that are not web links (`WebLink`), and
        /// normalizing text, links and dates.
        public var normalize: Duration = .zero
        /// The source's and the global block and keep rules.
        public var rules: Duration = .zero
        /// Merging items with the same canonical link.
        public var sameURL: Duration = .zero
        /// Merging near-duplicate headlines.
        public var nearDuplicates: Duration = .zero
        /// Ranking and the diversity limits.
        public var rank: Duration = .zero
        /// On how many threads the stages that work on one source at a time ran (see ``Pipeline/workers``).
        public var threads = 1

        /// No time yet.
        public init() {}

        /// The stages' names as in the configuration and their times, in pipeline order.
        public var stages: [(name: String, duration: Duration)] {
            [("normalize", normalize), ("rules", rules), ("same_url", sameURL), ("near_duplicates", nearDuplicates), ("rank", rank)]
        }

        /// The sum of the stages.
        public var total: Duration { normalize + rules + sameURL + nearDuplicates + rank }
    }

    /// Runs every stage and returns the river.
    public func process(_ batches: consuming [Batch]) -> [Item] {
        run(consume batches).items
    }

    /// Runs every stage and returns the river with what was dropped and why; `clock` times the
    /// stages (a benchmark may pass one that counts CPU time).
    ///
    /// The batches are consumed: when the caller hands over its only reference to them (`run(consume batches)`,
    /// or batches it does not use afterwards), their items move into the river without a copy; otherwise they are
    /// copied once, as the first stage begins.
    public func run(_ batches: consuming [Batch], clock: some Clock<Duration> = ContinuousClock()) -> Result {
        let normalizer = Normalizer(now: now, canonicalURL: CanonicalURL(extra: dedup.trackingParameters))
        let weights = Dictionary(batches.map { ($0.source.name, $0.source.weight) }, uniquingKeysWith: { first, _ in first })
        let total = batches.reduce(0) { $0 + $1.items.count }
        var stages: SourceStages
        let threads = workers > 1 && total >= Self.sideBySideMinimum ? min(workers, batches.count) : 1
        if threads > 1 {
            stages = sourceStagesSideBySide(&batches, threads: threads, total: total, normalizer: normalizer, clock: clock)
        } else {
            stages = SourceStages(capacity: total, fingerprints: dedup.nearDuplicates != nil, linkKeys: dedup.sameURL)
            for index in batches.indices {
                sourceStages(&batches[index], group: Int32(index), into: &stages, normalizer: normalizer, clock: clock)
            }
        }
        // Every later stage works in place on one array: the items move into it.
        var items: [Item] = []
        swap(&items, &stages.items)
        var fingerprints = stages.fingerprints
        stages.fingerprints = nil
        let linkKeys = stages.linkKeys
        stages.linkKeys = nil
        var timings = stages.timings
        timings.threads = threads
        var started = clock.now
        InPlace.compact(&items, keep: stages.keep)
        timings.rules += started.duration(to: clock.now)
        started = clock.now
        if let linkKeys, let merged = mergeSameURL(&items, keys: linkKeys, weights: weights) {
            fingerprints?.compact(keep: merged)
        }
        timings.sameURL += started.duration(to: clock.now)
        started = clock.now
        if let threshold = dedup.nearDuplicates, let fingerprints {
            let clusters = NearDuplicateDetector(threshold: threshold).clusters(of: fingerprints)
            merge(&items, groups: clusters, weights: weights)
        }
        timings.nearDuplicates += started.duration(to: clock.now)
        started = clock.now
        let ranked = Ranker(ranking, now: now).rank(consume items, weights: weights)
        timings.rank = started.duration(to: clock.now)
        return Result(items: ranked, dropped: stages.dropped, problems: stages.problems, timings: timings)
    }

    /// How many threads the stages that work on one source at a time use: preparing, normalizing, the rules, and taking
    /// the link keys and the headlines' fingerprints for the merging stages. Several sources then go through them side by side; the
    /// stages that need every item (merging and ranking) run on the calling thread after them. One, the default,
    /// keeps everything on the calling thread. The result does not depend on it, except that with several threads
    /// the times of those stages in ``StageTimings`` are summed over the threads.
    public var workers = 1

    /// How many items a run needs before its sources go through their stages side by side.
    static let sideBySideMinimum = 2048

    /// What the stages that work on one source at a time made of some sources, in their order.
    struct SourceStages: Sendable {
        /// The sources' items, prepared and normalized.
        var items: [Item] = []
        /// For each item, whether the rules keep it.
        var keep: [Bool] = []
        /// The items the rules dropped.
        var dropped: [Drop] = []
        /// What normalizing reported, by source.
        var problems: [String: [Problem]] = [:]
        /// The headlines of the items the rules keep, when near-duplicates are merged.
        var fingerprints: HeadlineFingerprints?
        /// The same-link keys of the items the rules keep, when items with the same link are merged.
        var linkKeys: LinkKeys?
        /// How long the stages took.
        var timings = StageTimings()

        /// Empty, with room for `capacity` items.
        init(capacity: Int, fingerprints: Bool, linkKeys: Bool) {
            items.reserveCapacity(capacity)
            keep.reserveCapacity(capacity)
            self.fingerprints = fingerprints ? HeadlineFingerprints(capacity: capacity) : nil
            self.linkKeys = linkKeys ? LinkKeys(capacity: capacity) : nil
        }

        /// Adds what `other` made of the sources after these.
        mutating func append(contentsOf other: SourceStages) {
            items.append(contentsOf: other.items)
            keep.append(contentsOf: other.keep)
            dropped.append(contentsOf: other.dropped)
            problems.merge(other.problems) { first, _ in first }
            if let more = other.fingerprints { fingerprints?.append(contentsOf: more) }
            if let more = other.linkKeys { linkKeys?.append(contentsOf: more) }
            timings.normalize += other.timings.normalize
            timings.rules += other.timings.rules
            timings.sameURL += other.timings.sameURL
            timings.nearDuplicates += other.timings.nearDuplicates
        }
    }

    /// Prepares, normalizes and filters one source's items (taken from `batch`), and takes the link keys and the
    /// headlines' fingerprints of the items the rules keep, adding them to `stages`; the headlines are of `group`
    /// (the batch's position), so that two items of one source are never near-duplicates.
    private func sourceStages(
        _ batch: inout Batch, group: Int32, into stages: inout SourceStages, normalizer: Normalizer, clock: some Clock<Duration>
    ) {
        let source = batch.source
        let sourceRules = source.rules
        let limit = normalizer.futureLimit
        let text = type(of: source.adapter).itemText
        var preparation = Preparation(source, taking: &batch.items)
        var found: [Problem] = []
        // A chunk at a time through preparing, normalizing and the rules, so that the rules read what normalizing
        // has just written while it is still in the cache (a source may have a hundred thousand items). The links'
        // keys and the headlines' fingerprints are taken in the chunks too, of the items the rules keep, while their
        // links and titles are still in the cache; the same-link and near-duplicate stages' clocks count the time.
        var more = true
        while more {
            var started = clock.now
            let start = stages.items.count
            more = preparation.move(into: &stages.items, upTo: Self.chunkSize)
            stages.items.withUnsafeMutableBufferPointer { items in
                for index in start..<items.count {
                    // The fields of an item a few places on are asked into the cache now: each text is a heap block
                    // of its own, and reading its first bytes was a cache miss in a row of them.
                    if index + Prefetch.itemsAhead < items.count {
                        Prefetch.fields(of: items.baseAddress! + index + Prefetch.itemsAhead)
                    }
                    normalizer.normalize(&items[index], text: text, problems: &found, limit: limit)
                }
            }
            stages.timings.normalize += started.duration(to: clock.now)
            started = clock.now
            stages.items.withUnsafeBufferPointer { items in
                guard let base = items.baseAddress else { return }
                for index in start..<items.count {
                    // The rules read the item where it lies: passing it by value would copy it (a dozen references).
                    let item = base + index
                    if let reason = Self.reason(sourceRules.verdict(on: item, now: now), scope: "source rules")
                        ?? Self.reason(rules.verdict(on: item, now: now), scope: "global rules")
                    {
                        stages.dropped.append(
                            Drop(source: item.pointee.source, id: item.pointee.id, title: item.pointee.title, reason: reason))
                        stages.keep.append(false)
                    } else {
                        stages.keep.append(true)
                    }
                }
            }
            stages.timings.rules += started.duration(to: clock.now)
            if stages.linkKeys != nil {
                started = clock.now
                stages.items.withUnsafeBufferPointer { items in
                    for index in start..<items.count where stages.keep[index] {
                        stages.linkKeys?.append(items[index].url, canonical: normalizer.canonicalURL)
                    }
                }
                stages.timings.sameURL += started.duration(to: clock.now)
            }
            if stages.fingerprints != nil {
                started = clock.now
                stages.items.withUnsafeBufferPointer { items in
                    for index in start..<items.count where stages.keep[index] {
                        stages.fingerprints?.append(items[index].title, group: group)
                    }
                }
                stages.timings.nearDuplicates += started.duration(to: clock.now)
            }
        }
        if preparation.removedLinks > 0 {
            let count = preparation.removedLinks
            found.append(
                Problem(
                    .warning,
                    "\(count) link\(count == 1 ? " was" : "s were") left out: not web links (scripts, data, local files, or "
                        + "relative links with nothing to resolve them against)"))
        }
        if !found.isEmpty { stages.problems[source.name] = found }
    }

    /// ``sourceStages(_:group:into:normalizer:clock:)`` for every batch, on `threads` threads, each taking the next source
    /// when it is done with one; the results are put together in the batches' order.
    private func sourceStagesSideBySide(
        _ batches: inout [Batch], threads: Int, total: Int, normalizer: Normalizer, clock: some Clock<Duration>
    ) -> SourceStages {
        let count = batches.count
        let fingerprinting = dedup.nearDuplicates != nil
        let linkKeys = dedup.sameURL
        // The batches move into the lock (none of their items is copied), and each thread moves one out at a time.
        let pending = Mutex<[Batch]>([])
        pending.withLock { swap(&$0, &batches) }
        let finished = Mutex([SourceStages?](repeating: nil, count: count))
        let next = Atomic<Int>(0)
        DispatchQueue.concurrentPerform(iterations: threads) { _ in
            ThreadArena.reserveForThisThread()
            while true {
                let index = next.wrappingAdd(1, ordering: .relaxed).oldValue
                guard index < count else { return }
                var batch = pending.withLock { batches in
                    var taken = Batch(source: batches[index].source, items: [])
                    swap(&taken.items, &batches[index].items)
                    return taken
                }
                var stages = SourceStages(capacity: batch.items.count, fingerprints: fingerprinting, linkKeys: linkKeys)
                sourceStages(&batch, group: Int32(index), into: &stages, normalizer: normalizer, clock: clock)
                finished.withLock { $0[index] = stages }
            }
        }
        var all = SourceStages(capacity: total, fingerprints: fingerprinting, linkKeys: linkKeys)
        finished.withLock { finished in
            for index in finished.indices {
                if let stages = finished[index].take() { all.append(contentsOf: stages) }
            }
        }
        return all
    }

    private static func reason(_ verdict: RuleSet.Verdict, scope: String) -> String? {
        switch verdict {
        case .pass: nil
        case .blocked(let rule): "blocked by \(rule.label)"
        case .notKept(let rules): "matched none of the \(scope) (keep: \(rules.map(\.location).joined(separator: ", ")))"
        }
    }

    /// How many items go through preparing, normalizing and the rules at a time.
    static let chunkSize = 512

    /// Labels items with their source, adds the source's tags, drops repeated ids and applies `max_items`.
    func prepare(_ batch: Batch) -> [Item] {
        var items: [Item] = []
        var batchItems = batch.items
        var preparation = Preparation(batch.source, taking: &batchItems)
        while preparation.move(into: &items, upTo: .max) {}
        return items
    }

    /// One source's items on their way into the river, in the source's order: labelled with the source, given its
    /// tags, repeated ids dropped, `max_items` applied, and links that are not web links removed (`WebLink`: every
    /// adapter's items pass here, so no output republishes a `javascript:` link). The items move: when the array they come in is the only
    /// reference to its storage, none is copied.
    struct Preparation {
        /// The items not yet taken, last first.
        private var remaining: [Item] = []
        private var seen: SeenStrings
        private var count = 0
        private let source: SourceConfig
        /// How many links that are not web links were removed from the items so far.
        private(set) var removedLinks = 0

        /// Takes `items` (left empty) from `source`.
        init(_ source: SourceConfig, taking items: inout [Item]) {
            swap(&remaining, &items)
            self.source = source
            seen = SeenStrings(capacity: remaining.count)
            // Taken from the end: the items are reversed first, swapped through a buffer pointer (`Array.reverse()`
            // copies each item it swaps).
            remaining.withUnsafeMutableBufferPointer { buffer in
                var low = 0
                var high = buffer.count - 1
                while low < high {
                    buffer.swapAt(low, high)
                    low += 1
                    high -= 1
                }
            }
        }

        /// Appends up to `chunk` of the source's next items to `items`; returns false once the source has no more.
        mutating func move(into items: inout [Item], upTo chunk: Int) -> Bool {
            let limit = source.itemLimit
            var moved = 0
            while moved < chunk {
                guard count < limit, let item = remaining.popLast() else {
                    remaining = []
                    return false
                }
                // An item's id and tags are heap blocks of their own, reading each a cache miss: those of the item a
                // few on are asked for.
                remaining.withUnsafeBufferPointer { remaining in
                    let ahead = remaining.count - 1 - Prefetch.preparedAhead
                    if ahead >= 0 { Prefetch.preparedFields(of: remaining.baseAddress! + ahead, tags: !source.tags.isEmpty) }
                }
                guard seen.insert(item.id) else { continue }
                items.append(item)
                let last = items.count - 1
                items[last].source = source.name
                removedLinks += WebLink.apply(to: &items[last])
                for tag in source.tags where !items[last].tags.contains(tag) { items[last].tags.append(tag) }
                count += 1
                moved += 1
            }
            return true
        }
    }

    /// Merges items whose links are equal after normalization; the survivor is the item from the
    /// heaviest source, then the earliest published, then the one with the most content.
    func mergeSameURL(_ items: [Item], weights: [String: Double]) -> [Item] {
        var items = items
        mergeSameURL(&items, weights: weights)
        return items
    }

    /// ``mergeSameURL(_:weights:)`` in place; returns which items were kept when some were merged away.
    @discardableResult
    func mergeSameURL(_ items: inout [Item], weights: [String: Double]) -> [Bool]? {
        let canonical = CanonicalURL(extra: dedup.trackingParameters)
        var keys = LinkKeys(capacity: items.count)
        for position in items.indices { keys.append(items[position].url, canonical: canonical) }
        return mergeSameURL(&items, keys: keys, weights: weights)
    }

    /// ``mergeSameURL(_:weights:)`` with the items' link keys taken already (one an item) by `canonical`.
    private func mergeSameURL(_ items: inout [Item], keys: LinkKeys, weights: [String: Double]) -> [Bool]? {
        precondition(keys.count == items.count, "one key an item")
        return merge(&items, groups: SameURLIndex(keys).groups, weights: weights)
    }

    /// The items with the same canonical link.
    struct SameURLIndex {
        // Each key's first item, and for each item the next one with the same key: one table entry a link, and
        // arrays only for the few links that repeat. The table files items by position and compares their keys
        // where the link keys have them; the rare key outside ASCII is a string in a dictionary.
        private var table: HashSlots
        private var firstOfUnicodeKey: [String: Int] = [:]
        private var next: [Int32]
        private var last: [Int32]
        private var heads: [Int32] = []

        /// Indexes every item of `keys`.
        init(_ keys: LinkKeys) {
            let count = keys.count
            precondition(count < Int32.max, "positions fit in 32 bits")
            table = HashSlots(capacity: count)
            next = [Int32](repeating: -1, count: count)
            last = [Int32](repeating: -1, count: count)
            keys.withStorage { stored in
                for index in 0..<count {
                    // The table is far larger than the cache with many items: each lookup's first slot is a miss,
                    // asked for a few keys ahead.
                    if index + 16 < count && stored.forms[index + 16] == .bytes { table.prefetch(stored.hashes[index + 16]) }
                    switch stored.forms[index] {
                    case .none:
                        continue
                    case .bytes:
                        let hash = stored.hashes[index]
                        let key = stored.key(index)
                        let found = table.find(hash) { other in stored.hashes[other] == hash && stored.key(other).elementsEqual(key) }
                        if let head = found.number { link(index, to: head) } else { table.file(index, hash: hash, at: found.slot) }
                    case .unicode:
                        guard let key = keys.unicodeKey(index) else { continue }
                        if let head = firstOfUnicodeKey[key] { link(index, to: head) } else { firstOfUnicodeKey[key] = index }
                    }
                }
            }
        }

        /// Files item `index` after the earlier items with its key, the first of them `head`.
        private mutating func link(_ index: Int, to head: Int) {
            if last[head] < 0 {
                heads.append(Int32(head))
                next[head] = Int32(index)
            } else {
                next[Int(last[head])] = Int32(index)
            }
            last[head] = Int32(index)
        }

        /// The groups of two or more items with the same link, in the order of their first items.
        var groups: [[Int]] {
            heads.map { head in
                var group = [Int(head)]
                var index = Int(next[Int(head)])
                while index >= 0 {
                    group.append(index)
                    index = Int(next[index])
                }
                return group
            }
        }
    }

    /// Merges items of different sources whose headlines tell the same story (MinHash over shingles, never all pairs).
    func mergeNearDuplicates(_ items: [Item], threshold: Double, weights: [String: Double]) -> [Item] {
        var items = items
        mergeNearDuplicates(&items, threshold: threshold, weights: weights)
        return items
    }

    /// ``mergeNearDuplicates(_:threshold:weights:)`` in place.
    func mergeNearDuplicates(_ items: inout [Item], threshold: Double, weights: [String: Double]) {
        let detector = NearDuplicateDetector(threshold: threshold)
        var sources: [String: Int32] = [:]
        let groups = items.map { item -> Int32 in
            if let group = sources[item.source] { return group }
            let group = Int32(sources.count)
            sources[item.source] = group
            return group
        }
        let clusters = items.withUnsafeBufferPointer { items in
            detector.clusters(count: items.count, title: { items[$0].title }, group: { groups[$0] })
        }
        merge(&items, groups: clusters, weights: weights)
    }

    /// Merges each group of indices into one item: the one from the heaviest source, then the
    /// earliest published, then the one with the most content, then the first; it lists the
    /// others (and what they had merged) as its duplicates.
    func merge(_ items: [Item], groups: [[Int]], weights: [String: Double]) -> [Item] {
        var items = items
        merge(&items, groups: groups, weights: weights)
        return items
    }

    /// ``merge(_:groups:weights:)`` in place; the groups must be disjoint. Returns which items were kept when some
    /// were merged away.
    @discardableResult
    func merge(_ items: inout [Item], groups: [[Int]], weights: [String: Double]) -> [Bool]? {
        var keep = [Bool](repeating: true, count: items.count)
        var anyDropped = false
        for indices in groups where indices.count > 1 {
            let ordered = indices.sorted { lhs, rhs in
                let weightA = weights[items[lhs].source] ?? 1
                let weightB = weights[items[rhs].source] ?? 1
                if weightA != weightB { return weightA > weightB }
                let dateA = items[lhs].date ?? .distantFuture
                let dateB = items[rhs].date ?? .distantFuture
                if dateA != dateB { return dateA < dateB }
                let richA = (items[lhs].contentHTML?.count ?? 0) + (items[lhs].summary?.count ?? 0)
                let richB = (items[rhs].contentHTML?.count ?? 0) + (items[rhs].summary?.count ?? 0)
                if richA != richB { return richA > richB }
                return lhs < rhs
            }
            var duplicates = items[ordered[0]].duplicates
            for index in ordered.dropFirst() {
                duplicates.append(DuplicateReference(source: items[index].source, url: items[index].url, title: items[index].title))
                duplicates.append(contentsOf: items[index].duplicates)
                keep[index] = false
                anyDropped = true
            }
            items[ordered[0]].duplicates = duplicates
        }
        guard anyDropped else { return nil }
        InPlace.compact(&items, keep: keep)
        return keep
    }
}
