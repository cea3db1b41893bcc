public import Foundation
public import TributaryModel

/// The last pipeline stage: orders the river newest first (`date`) or by a `hot` score, then
/// applies the diversity limits. Ties break on date, source and id, so the same input gives the
/// same order on every run.
public struct Ranker: Sendable {
    /// The `ranking:` section.
    public var configuration: RankingConfig
    /// The moment ages are counted from.
    public var now: Date

    /// Creates a ranker.
    public init(_ configuration: RankingConfig, now: Date) {
        self.configuration = configuration
        self.now = now
    }

    /// The items in river order; `weights` are the sources' weights (1 when absent).
    public func rank(_ items: [Item], weights: [String: Double] = [:]) -> [Item] {
        var ranked: [Item]
        switch configuration.strategy {
        case .date:
            ranked = items.sorted(by: newerFirst)
        case .hot:
            let engagement = Self.engagement(items)
            ranked = items.indices.map { index in
                var item = items[index]
                item.score = score(item, engagement: engagement[index], weight: weights[item.source] ?? 1)
                return item
            }
            ranked.sort { a, b in
                let scoreA = a.score ?? 0
                let scoreB = b.score ?? 0
                return scoreA != scoreB ? scoreA > scoreB : newerFirst(a, b)
            }
        }
        if let limit = configuration.maxPerSource {
            var counts: [String: Int] = [:]
            ranked = ranked.filter { item in
                counts[item.source, default: 0] += 1
                return counts[item.source, default: 0] <= limit
            }
        }
        if let run = configuration.maxConsecutive { ranked = Self.interleave(ranked, maxRun: run) }
        return ranked
    }

    /// `weight × (0.5 + engagement) × ½^(age / half-life)`: engagement counts for up to three
    /// times as much as none, the source's weight scales everything, and age halves the score
    /// every half-life.
    func score(_ item: Item, engagement: Double, weight: Double) -> Double {
        let age = max(0, now.timeIntervalSince(item.date ?? now))
        let halfLife = configuration.halfLife.inSeconds
        let decay = pow(0.5, age / max(halfLife, 1))
        return weight * (0.5 + engagement) * decay
    }

    /// Each item's engagement in 0…1 within its own source: for every metric the item has, its
    /// `log(1 + value)` over the source's largest, averaged. A source with inflated counts thus
    /// ranks its items among themselves, not above everyone else's.
    static func engagement(_ items: [Item]) -> [Double] {
        var largest: [String: [String: Double]] = [:]
        for item in items {
            for (metric, value) in item.metrics where value > 0 {
                let logged = log1p(Double(value))
                if logged > largest[item.source, default: [:]][metric, default: 0] {
                    largest[item.source, default: [:]][metric] = logged
                }
            }
        }
        return items.map { item in
            let parts = item.metrics.compactMap { metric, value -> Double? in
                guard let top = largest[item.source]?[metric], top > 0 else { return nil }
                return log1p(Double(max(0, value))) / top
            }
            return parts.isEmpty ? 0 : parts.reduce(0, +) / Double(parts.count)
        }
    }

    /// Moves items down so that no more than `maxRun` from one source follow each other, keeping
    /// the order otherwise; when only one source is left, its items follow in order.
    static func interleave(_ items: [Item], maxRun: Int) -> [Item] {
        var pending = items[...]
        var output: [Item] = []
        output.reserveCapacity(items.count)
        var runSource: String?
        var runLength = 0
        while let first = pending.first {
            var pick = pending.startIndex
            if first.source == runSource, runLength >= maxRun,
                let other = pending.firstIndex(where: { $0.source != runSource })
            {
                pick = other
            }
            let item = pending[pick]
            pending.remove(at: pick)
            if item.source == runSource {
                runLength += 1
            } else {
                runSource = item.source
                runLength = 1
            }
            output.append(item)
        }
        return output
    }

    private func newerFirst(_ a: Item, _ b: Item) -> Bool {
        let dateA = a.date ?? now
        let dateB = b.date ?? now
        if dateA != dateB { return dateA > dateB }
        if a.source != b.source { return a.source < b.source }
        return a.id < b.id
    }
}
