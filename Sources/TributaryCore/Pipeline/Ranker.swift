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
    public func rank(_ items: consuming [Item], weights: [String: Double] = [:]) -> [Item] {
        var ranked = items
        let hot = configuration.strategy == .hot
        if hot {
            let engagement = Self.engagement(ranked)
            for index in ranked.indices {
                ranked[index].score = score(ranked[index], engagement: engagement[index], weight: weights[ranked[index].source] ?? 1)
            }
        }
        // Positions are sorted by keys read once, then the items are moved into that order.
        let scores = hot ? ranked.indices.map { ranked[$0].score ?? 0 } : []
        let dates = ranked.indices.map { (ranked[$0].date ?? now).timeIntervalSinceReferenceDate }
        var order = Array(ranked.indices)
        order.sort { a, b in
            if hot && scores[a] != scores[b] { return scores[a] > scores[b] }
            if dates[a] != dates[b] { return dates[a] > dates[b] }
            if ranked[a].source != ranked[b].source { return ranked[a].source < ranked[b].source }
            return ranked[a].id < ranked[b].id
        }
        InPlace.permute(&ranked, by: order)
        if let limit = configuration.maxPerSource {
            var counts: [String: Int] = [:]
            let keep = ranked.indices.map { index in
                let count = counts[ranked[index].source, default: 0] + 1
                counts[ranked[index].source] = count
                return count <= limit
            }
            InPlace.compact(&ranked, keep: keep)
        }
        if let run = configuration.maxConsecutive { InPlace.permute(&ranked, by: Self.interleavedOrder(ranked, maxRun: run)) }
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
        for index in items.indices where !items[index].metrics.isEmpty {
            let source = items[index].source
            for (metric, value) in items[index].metrics where value > 0 {
                let logged = log1p(Double(value))
                if logged > largest[source, default: [:]][metric, default: 0] {
                    largest[source, default: [:]][metric] = logged
                }
            }
        }
        return items.indices.map { index in
            guard !items[index].metrics.isEmpty, let tops = largest[items[index].source] else { return 0 }
            let parts = items[index].metrics.compactMap { metric, value -> Double? in
                guard let top = tops[metric], top > 0 else { return nil }
                return log1p(Double(max(0, value))) / top
            }
            return parts.isEmpty ? 0 : parts.reduce(0, +) / Double(parts.count)
        }
    }

    /// Moves items down so that no more than `maxRun` from one source follow each other, keeping
    /// the order otherwise; when only one source is left, its items follow in order.
    ///
    /// Each step takes the first remaining item, or, when that would make the current run too
    /// long, the first remaining item of another source. The sources' first remaining items sit
    /// in a min-heap by position, so "first of another source" is a child of the root: O(n log s)
    /// for n items from s sources.
    static func interleave(_ items: [Item], maxRun: Int) -> [Item] {
        interleavedOrder(items, maxRun: maxRun).map { items[$0] }
    }

    /// The order ``interleave(_:maxRun:)`` puts the items in, as positions in `items`.
    static func interleavedOrder(_ items: [Item], maxRun: Int) -> [Int] {
        guard items.count > 1 else { return Array(items.indices) }
        // Each item's source as a small number, and the next item of the same source.
        var sourceIDs: [String: Int] = [:]
        var sourceOf = [Int](repeating: 0, count: items.count)
        var nextOfSource = [Int](repeating: -1, count: items.count)
        var firstOfSource: [Int] = []
        var lastOfSource: [Int] = []
        for position in items.indices {
            let name = items[position].source
            if let source = sourceIDs[name] {
                nextOfSource[lastOfSource[source]] = position
                lastOfSource[source] = position
                sourceOf[position] = source
            } else {
                sourceIDs[name] = firstOfSource.count
                sourceOf[position] = firstOfSource.count
                firstOfSource.append(position)
                lastOfSource.append(position)
            }
        }
        var heads = PositionHeap(firstOfSource)
        var output: [Int] = []
        output.reserveCapacity(items.count)
        var runSource = -1
        var runLength = 0
        while let first = heads.first {
            var slot = 0
            if sourceOf[first] == runSource, runLength >= maxRun, let other = heads.secondSlot { slot = other }
            let position = heads[slot]
            let source = sourceOf[position]
            heads.replace(at: slot, with: nextOfSource[position])
            if source == runSource {
                runLength += 1
            } else {
                runSource = source
                runLength = 1
            }
            output.append(position)
        }
        return output
    }
}

/// A binary min-heap of distinct item positions (the first remaining item of each source).
private struct PositionHeap {
    private var positions: [Int]

    /// A heap of `positions` (distinct).
    init(_ positions: [Int]) {
        self.positions = positions.sorted()  // a sorted array is a valid heap
    }

    /// The smallest position, or nil when empty.
    var first: Int? { positions.first }

    /// The slot of the second-smallest position (a child of the root), or nil with fewer than two.
    var secondSlot: Int? {
        switch positions.count {
        case 0, 1: nil
        case 2: 1
        default: positions[1] < positions[2] ? 1 : 2
        }
    }

    /// The position in `slot`.
    subscript(slot: Int) -> Int { positions[slot] }

    /// Replaces the position in `slot` by a larger one, or removes it when `next` is negative.
    mutating func replace(at slot: Int, with next: Int) {
        if next >= 0 {
            positions[slot] = next
            siftDown(slot)
        } else {
            let last = positions.removeLast()
            guard slot < positions.count else { return }
            positions[slot] = last
            // The last element was below `slot` or in another branch: it may need to go either way.
            siftUp(slot)
            siftDown(slot)
        }
    }

    private mutating func siftDown(_ start: Int) {
        var slot = start
        while true {
            let left = 2 * slot + 1
            guard left < positions.count else { return }
            let right = left + 1
            let child = right < positions.count && positions[right] < positions[left] ? right : left
            guard positions[child] < positions[slot] else { return }
            positions.swapAt(slot, child)
            slot = child
        }
    }

    private mutating func siftUp(_ start: Int) {
        var slot = start
        while slot > 0 {
            let parent = (slot - 1) / 2
            guard positions[slot] < positions[parent] else { return }
            positions.swapAt(slot, parent)
            slot = parent
        }
    }
}
