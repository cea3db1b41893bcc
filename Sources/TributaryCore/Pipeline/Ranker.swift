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
        let hot = configuration.strategy == .hot
        // Each item's source as a number, numbered in the order of the names: ties, limits and interleaving compare
        // numbers instead of strings.
        let (sourceOf, sourceNames) = Self.sourceNumbers(items)
        let sourceCount = sourceNames.count
        if hot {
            let sourceWeights = sourceNames.map { weights[$0] ?? 1 }
            let engagement = Self.engagement(items, sourceOf: sourceOf, sourceCount: sourceCount)
            let halfLife = configuration.halfLife.inSeconds
            items.withUnsafeMutableBufferPointer { items in
                for index in items.indices {
                    items[index].score = score(
                        date: items[index].date, engagement: engagement[index], weight: sourceWeights[Int(sourceOf[index])],
                        halfLife: halfLife)
                }
            }
        }
        // Each position's keys are read once, into the values the sort compares and moves: a comparison reads
        // nothing else unless everything but the ids ties (with a million items, reading the keys from arrays by
        // position was a cache miss a comparison). Then the items are moved into that order. Items are read through
        // a buffer pointer: reading a field of an array element in a closure can copy the whole item.
        precondition(items.count <= Int(Int32.max), "positions must fit 31 bits")
        var keys = items.withUnsafeBufferPointer { items in
            items.indices.map { index in
                RankKey(
                    score: hot ? items[index].score ?? 0 : 0, date: (items[index].date ?? now).timeIntervalSinceReferenceDate,
                    source: sourceOf[index], position: Int32(truncatingIfNeeded: index))
            }
        }
        items.withUnsafeBufferPointer { items in
            keys.sort { a, b in
                if a.score != b.score { return a.score > b.score }
                if a.date != b.date { return a.date > b.date }
                if a.source != b.source { return a.source < b.source }
                return items[Int(a.position)].id < items[Int(b.position)].id
            }
        }
        // The diversity limits work on positions; the items move once, into the final order, with the ones over
        // `max_per_source` after them, and those are then removed.
        var order = keys.map { Int($0.position) }
        var sources = keys.map(\.source)
        var over: [Int] = []
        if let limit = configuration.maxPerSource {
            var counts = [Int](repeating: 0, count: sourceCount)
            let keep = sources.map { source in
                counts[Int(source)] += 1
                return counts[Int(source)] <= limit
            }
            over = order.indices.compactMap { keep[$0] ? nil : order[$0] }
            InPlace.compact(&order, keep: keep)
            InPlace.compact(&sources, keep: keep)
        }
        if let run = configuration.maxConsecutive {
            order = Self.interleavedOrder(sourceOf: sources, sourceCount: sourceCount, maxRun: run).map { order[$0] }
        }
        let kept = order.count
        order.append(contentsOf: over)
        InPlace.permute(&items, by: order)
        items.removeLast(items.count - kept)
        return items
    }

    /// Each item's source as a number, and the sources' names by number: the numbers follow the order of the
    /// names (`<`).
    static func sourceNumbers(_ items: [Item]) -> (numbers: [Int32], names: [String]) {
        items.withUnsafeBufferPointer(sourceNumbers)
    }

    /// ``sourceNumbers(_:)`` of the items in a buffer.
    static func sourceNumbers(_ items: UnsafeBufferPointer<Item>) -> (numbers: [Int32], names: [String]) {
        var numberOf: [String: Int32] = [:]
        var names: [String] = []
        var numbers = [Int32](repeating: 0, count: items.count)
        for index in items.indices {
            let name = items[index].source
            // A source's items mostly follow each other, their names one string: equal without hashing.
            if index > 0 && name == items[index - 1].source {
                numbers[index] = numbers[index - 1]
            } else if let number = numberOf[name] {
                numbers[index] = number
            } else {
                numberOf[name] = Int32(names.count)
                numbers[index] = Int32(names.count)
                names.append(name)
            }
        }
        let sorted = names.indices.sorted { names[$0] < names[$1] }
        var rank = [Int32](repeating: 0, count: names.count)
        for (position, number) in sorted.enumerated() { rank[number] = Int32(position) }
        for index in numbers.indices { numbers[index] = rank[Int(numbers[index])] }
        return (numbers, sorted.map { names[$0] })
    }

    /// `weight × (0.5 + engagement) × ½^(age / half-life)`: engagement counts for up to three
    /// times as much as none, the source's weight scales everything, and age halves the score
    /// every half-life.
    func score(_ item: Item, engagement: Double, weight: Double) -> Double {
        score(date: item.date, engagement: engagement, weight: weight)
    }

    /// ``score(_:engagement:weight:)`` for an item dated `date`.
    func score(date: Date?, engagement: Double, weight: Double) -> Double {
        score(date: date, engagement: engagement, weight: weight, halfLife: configuration.halfLife.inSeconds)
    }

    /// ``score(date:engagement:weight:)`` with the half-life in seconds worked out once by the caller.
    private func score(date: Date?, engagement: Double, weight: Double, halfLife: Double) -> Double {
        let age = max(0, now.timeIntervalSince(date ?? now))
        let decay = pow(0.5, age / max(halfLife, 1))
        return weight * (0.5 + engagement) * decay
    }

    /// Each item's engagement in 0…1 within its own source: for every metric the item has, its
    /// `log(1 + value)` over the source's largest, averaged. A source with inflated counts thus
    /// ranks its items among themselves, not above everyone else's.
    static func engagement(_ items: [Item]) -> [Double] {
        let (sourceOf, names) = sourceNumbers(items)
        return engagement(items, sourceOf: sourceOf, sourceCount: names.count)
    }

    /// ``engagement(_:)`` with the items' source numbers (``sourceNumbers(_:)``): each source's largest value of a
    /// metric sits in an array by source, one array a metric name.
    static func engagement(_ items: [Item], sourceOf: [Int32], sourceCount: Int) -> [Double] {
        items.withUnsafeBufferPointer { engagement($0, sourceOf: sourceOf, sourceCount: sourceCount) }
    }

    /// ``engagement(_:sourceOf:sourceCount:)`` of the items in a buffer.
    static func engagement(_ items: UnsafeBufferPointer<Item>, sourceOf: [Int32], sourceCount: Int) -> [Double] {
        // One pass over the items' metrics (each dictionary is read once: with many items, a cache miss each): every
        // metric's number and `log(1 + value)` go into flat arrays, in the order of the item's metrics, while each
        // source's largest value of each metric is found (in one flat array, metric by metric).
        var metricNumbers = MetricNumbers()
        var largest: [Double] = []
        var entryNumbers: [Int32] = []
        var entryLogs: [Double] = []
        entryNumbers.reserveCapacity(items.count * 2)
        entryLogs.reserveCapacity(items.count * 2)
        var ends = [Int32](repeating: 0, count: items.count)
        for index in items.indices {
            if index + Prefetch.itemsAhead < items.count, let base = items.baseAddress {
                Prefetch.metrics(of: base + index + Prefetch.itemsAhead)
            }
            if !items[index].metrics.isEmpty {
                let source = Int(sourceOf[index])
                for (metric, value) in items[index].metrics {
                    let number: Int
                    if let known = metricNumbers.number(of: metric) {
                        number = known
                    } else {
                        number = metricNumbers.add(metric)
                        largest.append(contentsOf: repeatElement(0, count: sourceCount))
                    }
                    let logged = log1p(Double(max(0, value)))
                    if value > 0 && logged > largest[number * sourceCount + source] { largest[number * sourceCount + source] = logged }
                    entryNumbers.append(Int32(number))
                    entryLogs.append(logged)
                }
            }
            ends[index] = Int32(entryNumbers.count)
        }
        // Each item's metrics that its source has above zero, averaged; summed in the order of the item's metrics, as
        // the parts were always added.
        var engagement = [Double](repeating: 0, count: items.count)
        for index in items.indices {
            let start = index == 0 ? 0 : Int(ends[index - 1])
            let end = Int(ends[index])
            guard start < end else { continue }
            let source = Int(sourceOf[index])
            var sum = 0.0
            var parts = 0
            for entry in start..<end {
                let top = largest[Int(entryNumbers[entry]) * sourceCount + source]
                guard top > 0 else { continue }
                sum += entryLogs[entry] / top
                parts += 1
            }
            if parts > 0 { engagement[index] = sum / Double(parts) }
        }
        return engagement
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
        let (sourceOf, names) = sourceNumbers(items)
        return interleavedOrder(sourceOf: sourceOf, sourceCount: names.count, maxRun: maxRun)
    }

    /// ``interleavedOrder(_:maxRun:)`` for items whose sources are the numbers `sourceOf` (in `0..<sourceCount`).
    static func interleavedOrder(sourceOf: [Int32], sourceCount: Int, maxRun: Int) -> [Int] {
        guard sourceOf.count > 1 else { return Array(sourceOf.indices) }
        // For each item the next item of the same source, and each source's first item.
        var nextOfSource = [Int](repeating: -1, count: sourceOf.count)
        var firstOfSource: [Int] = []
        var lastOfSource = [Int](repeating: -1, count: sourceCount)
        for position in sourceOf.indices {
            let source = Int(sourceOf[position])
            if lastOfSource[source] >= 0 {
                nextOfSource[lastOfSource[source]] = position
            } else {
                firstOfSource.append(position)
            }
            lastOfSource[source] = position
        }
        var heads = PositionHeap(firstOfSource)
        var output: [Int] = []
        output.reserveCapacity(sourceOf.count)
        var runSource = -1
        var runLength = 0
        while let first = heads.first {
            var slot = 0
            if Int(sourceOf[first]) == runSource, runLength >= maxRun, let other = heads.secondSlot { slot = other }
            let position = heads[slot]
            let source = Int(sourceOf[position])
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

/// Metric names numbered in the order they are first met. Items have a few metrics from a handful of names, so
/// while there are few names they are searched in a list (names of up to 15 bytes compare by their bits, without
/// hashing); beyond that in a dictionary.
private struct MetricNumbers {
    /// The most names searched in the list.
    static let listLimit = 8
    /// The names by number.
    private var names: [String] = []
    /// The numbers by name, once there are more than ``listLimit`` names.
    private var numbers: [String: Int] = [:]

    /// The number of `name`, if it has one.
    func number(of name: String) -> Int? {
        guard names.count > Self.listLimit else { return names.firstIndex(of: name) }
        return numbers[name]
    }

    /// Numbers `name` (which has no number yet); returns its number.
    mutating func add(_ name: String) -> Int {
        names.append(name)
        if names.count > Self.listLimit {
            if numbers.isEmpty {
                for (number, known) in names.enumerated() { numbers[known] = number }
            } else {
                numbers[name] = names.count - 1
            }
        }
        return names.count - 1
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

/// What the ranking sorts an item by, with the item's position: its score (0 when ranking by date), its date
/// (seconds since 2001), its source's number, then its id, read from the item only when the rest ties.
private struct RankKey {
    var score: Double
    var date: Double
    var source: Int32
    var position: Int32
}
