public import Foundation
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
    }

    /// Runs every stage and returns the river.
    public func process(_ batches: [Batch]) -> [Item] {
        run(batches).items
    }

    /// Runs every stage and returns the river with what was dropped and why.
    public func run(_ batches: [Batch]) -> Result {
        let normalizer = Normalizer(now: now, canonicalURL: CanonicalURL(extra: dedup.trackingParameters))
        var dropped: [Drop] = []
        var problems: [String: [Problem]] = [:]
        var kept: [Item] = []
        for batch in batches {
            let (items, found) = normalizer.normalize(prepare(batch))
            if !found.isEmpty { problems[batch.source.name] = found }
            for item in items {
                if let reason = Self.reason(batch.source.rules.verdict(on: item, now: now), scope: "source rules")
                    ?? Self.reason(rules.verdict(on: item, now: now), scope: "global rules")
                {
                    dropped.append(Drop(source: item.source, id: item.id, title: item.title, reason: reason))
                } else {
                    kept.append(item)
                }
            }
        }
        let weights = Dictionary(batches.map { ($0.source.name, $0.source.weight) }, uniquingKeysWith: { first, _ in first })
        var merged = dedup.sameURL ? mergeSameURL(kept, weights: weights) : kept
        if let threshold = dedup.nearDuplicates { merged = mergeNearDuplicates(merged, threshold: threshold, weights: weights) }
        return Result(items: Ranker(ranking, now: now).rank(merged, weights: weights), dropped: dropped, problems: problems)
    }

    private static func reason(_ verdict: RuleSet.Verdict, scope: String) -> String? {
        switch verdict {
        case .pass: nil
        case .blocked(let rule): "blocked by \(rule.label)"
        case .notKept(let rules): "matched none of the \(scope) (keep: \(rules.map(\.location).joined(separator: ", ")))"
        }
    }

    /// Labels items with their source, adds the source's tags, drops repeated ids and applies `max_items`.
    func prepare(_ batch: Batch) -> [Item] {
        var seen = Set<String>()
        var items: [Item] = []
        items.reserveCapacity(batch.items.count)
        for var item in batch.items where seen.insert(item.id).inserted {
            item.source = batch.source.name
            for tag in batch.source.tags where !item.tags.contains(tag) {
                item.tags.append(tag)
            }
            items.append(item)
            if let limit = batch.source.maxItems, items.count >= limit { break }
        }
        return items
    }

    /// Merges items whose links are equal after normalization; the survivor is the item from the
    /// heaviest source, then the earliest published, then the one with the most content.
    func mergeSameURL(_ items: [Item], weights: [String: Double]) -> [Item] {
        let canonical = CanonicalURL(extra: dedup.trackingParameters)
        var groups: [String: [Int]] = [:]
        for (index, item) in items.enumerated() {
            guard let url = item.url, let key = canonical.key(for: url) else { continue }
            groups[key, default: []].append(index)
        }
        return merge(items, groups: Array(groups.values), weights: weights)
    }

    /// Merges items whose headlines tell the same story (MinHash over shingles, never all pairs).
    func mergeNearDuplicates(_ items: [Item], threshold: Double, weights: [String: Double]) -> [Item] {
        let clusters = NearDuplicateDetector(threshold: threshold).clusters(items.map(\.title))
        return merge(items, groups: clusters, weights: weights)
    }

    /// Merges each group of indices into one item: the one from the heaviest source, then the
    /// earliest published, then the one with the most content, then the first; it lists the
    /// others (and what they had merged) as its duplicates.
    func merge(_ items: [Item], groups: [[Int]], weights: [String: Double]) -> [Item] {
        var dropped = Set<Int>()
        var survivors: [Int: Item] = [:]
        for indices in groups where indices.count > 1 {
            let ordered = indices.sorted { lhs, rhs in
                let a = items[lhs]
                let b = items[rhs]
                let weightA = weights[a.source] ?? 1
                let weightB = weights[b.source] ?? 1
                if weightA != weightB { return weightA > weightB }
                let dateA = a.date ?? .distantFuture
                let dateB = b.date ?? .distantFuture
                if dateA != dateB { return dateA < dateB }
                let richA = (a.contentHTML?.count ?? 0) + (a.summary?.count ?? 0)
                let richB = (b.contentHTML?.count ?? 0) + (b.summary?.count ?? 0)
                if richA != richB { return richA > richB }
                return lhs < rhs
            }
            var survivor = items[ordered[0]]
            for index in ordered.dropFirst() {
                let other = items[index]
                survivor.duplicates.append(DuplicateReference(source: other.source, url: other.url, title: other.title))
                survivor.duplicates.append(contentsOf: other.duplicates)
                dropped.insert(index)
            }
            survivors[ordered[0]] = survivor
        }
        return items.indices.compactMap { index in
            dropped.contains(index) ? nil : survivors[index] ?? items[index]
        }
    }
}
