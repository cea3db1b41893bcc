import Foundation
import Testing
import TributaryModel

@testable import TributaryCore

@Suite("Interleaving sources")
struct InterleaveTests {
    static let now = Date(timeIntervalSince1970: 1_750_000_000)

    /// The specification of `max_consecutive`, written the direct way (quadratic): take the first remaining item
    /// unless it would make the current run too long; then take the first remaining item of another source.
    static func reference(_ items: [Item], maxRun: Int) -> [Item] {
        var pending = items
        var output: [Item] = []
        var runSource: String?
        var runLength = 0
        while let first = pending.first {
            var pick = 0
            if first.source == runSource, runLength >= maxRun, let other = pending.firstIndex(where: { $0.source != runSource }) {
                pick = other
            }
            let item = pending.remove(at: pick)
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

    /// `count` items from `sources` sources, drawn by a seeded generator: with `skew`, one source has most items
    /// and the others come in bursts, the case where items move furthest.
    static func items(count: Int, sources: Int, skew: Bool, seed: UInt64) -> [Item] {
        var state = seed
        func next() -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int(truncatingIfNeeded: state >> 33)
        }
        var items: [Item] = []
        var burstSource = 0
        var burstLeft = 0
        for index in 0..<count {
            let source: Int
            if skew {
                if burstLeft == 0, next() % 4 == 0 {
                    burstSource = 1 + next() % max(1, sources - 1)
                    burstLeft = 1 + next() % 12
                }
                if burstLeft > 0 {
                    burstLeft -= 1
                    source = burstSource
                } else {
                    source = 0
                }
            } else {
                source = next() % sources
            }
            items.append(Item(id: "\(index)", source: "s\(source)"))
        }
        return items
    }

    @Test(
        "the same order as the direct algorithm, on many sources",
        arguments: [1, 2, 3, 5], [(2, false), (7, false), (60, false), (300, false), (2, true), (9, true), (80, true)])
    func sameAsReference(maxRun: Int, shape: (sources: Int, skew: Bool)) {
        for seed in UInt64(1)...6 {
            let items = Self.items(count: 1_500, sources: shape.sources, skew: shape.skew, seed: seed)
            #expect(Ranker.interleave(items, maxRun: maxRun).map(\.id) == Self.reference(items, maxRun: maxRun).map(\.id))
        }
    }

    @Test("one dominant source: its items move down one run at a time, the rest keep their order")
    func dominantSource() {
        let items = (0..<6).map { Item(id: "a\($0)", source: "a") } + [Item(id: "b0", source: "b"), Item(id: "c0", source: "c")]
        let expected = ["a0", "a1", "b0", "a2", "a3", "c0", "a4", "a5"]
        #expect(Ranker.interleave(items, maxRun: 2).map(\.id) == expected)
        #expect(Self.reference(items, maxRun: 2).map(\.id) == expected)
    }

    @Test("small inputs and a run limit of zero behave as the direct algorithm")
    func edges() {
        let items = [Item(id: "1", source: "a"), Item(id: "2", source: "a"), Item(id: "3", source: "b"), Item(id: "4", source: "a")]
        #expect(Ranker.interleave([], maxRun: 1).isEmpty)
        #expect(Ranker.interleave([items[0]], maxRun: 1).map(\.id) == ["1"])
        for maxRun in [0, 1, 2, 4] {
            #expect(Ranker.interleave(items, maxRun: maxRun).map(\.id) == Self.reference(items, maxRun: maxRun).map(\.id))
        }
    }

    @Test("ties break on date, then source, then id, whatever the input order")
    func deterministicTies() {
        var configuration = RankingConfig()
        configuration.maxConsecutive = 1
        let date = Self.now.addingTimeInterval(-3600)
        let items = [
            Item(id: "2", source: "b", published: date), Item(id: "1", source: "b", published: date),
            Item(id: "9", source: "a", published: date), Item(id: "3", source: "a", published: date),
            Item(id: "5", source: "c", published: date.addingTimeInterval(-60)), Item(id: "4", source: "a", published: date),
        ]
        let expected = ["3", "1", "4", "2", "9", "5"]
        let ranker = Ranker(configuration, now: Self.now)
        #expect(ranker.rank(items).map(\.id) == expected)
        #expect(ranker.rank(items.reversed()).map(\.id) == expected)
        #expect(ranker.rank([items[3], items[0], items[5], items[2], items[4], items[1]]).map(\.id) == expected)
    }
}
