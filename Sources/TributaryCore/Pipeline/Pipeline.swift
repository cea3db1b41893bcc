public import Foundation
public import TributaryModel

/// The stages between the adapters and the sinks, composed in order: prepare each source's
/// items, merge duplicates, rank. Each stage is a pure function of its input; the pipeline holds
/// no shared state.
public struct Pipeline: Sendable {
    /// How duplicates are merged.
    public var dedup: DedupConfig
    /// How the river is ordered.
    public var ranking: RankingConfig
    /// The moment the run started; undated items count as seen now.
    public var now: Date

    /// Creates a pipeline from the configuration's sections.
    public init(dedup: DedupConfig, ranking: RankingConfig, now: Date) {
        self.dedup = dedup
        self.ranking = ranking
        self.now = now
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

    /// Runs every stage and returns the river.
    public func process(_ batches: [Batch]) -> [Item] {
        let prepared = batches.map(prepare)
        let weights = Dictionary(batches.map { ($0.source.name, $0.source.weight) }, uniquingKeysWith: { first, _ in first })
        let merged = dedup.sameURL ? mergeSameURL(prepared.flatMap { $0 }, weights: weights) : prepared.flatMap { $0 }
        return rank(merged)
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
        var groups: [String: [Int]] = [:]
        for (index, item) in items.enumerated() {
            guard let url = item.url, let key = URLKey.key(for: url) else { continue }
            groups[key, default: []].append(index)
        }
        var dropped = Set<Int>()
        var survivors: [Int: Item] = [:]
        for indices in groups.values where indices.count > 1 {
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

    /// Orders the river; ties break on source and id so every run gives the same order.
    func rank(_ items: [Item]) -> [Item] {
        switch ranking.strategy {
        case .date:
            return items.sorted { a, b in
                let dateA = a.date ?? now
                let dateB = b.date ?? now
                if dateA != dateB { return dateA > dateB }
                if a.source != b.source { return a.source < b.source }
                return a.id < b.id
            }
        }
    }
}

/// The comparison key of a link: scheme and host lower-cased, default port, fragment and a
/// trailing slash removed. (Tracking parameters are the normalizer's business.)
enum URLKey {
    static func key(for text: String) -> String? {
        guard var components = URLComponents(string: text.trimmingCharacters(in: .whitespaces)),
            let scheme = components.scheme?.lowercased(), let host = components.host, !host.isEmpty
        else { return nil }
        components.scheme = scheme
        components.host = host.lowercased()
        if (scheme == "http" && components.port == 80) || (scheme == "https" && components.port == 443) {
            components.port = nil
        }
        components.fragment = nil
        if scheme == "https" { components.scheme = "http" }
        var path = components.percentEncodedPath
        if path.hasSuffix("/") { path.removeLast() }
        components.percentEncodedPath = path
        return components.string
    }
}
