import Testing
import TributaryModel

@testable import TributaryCore

@Suite("Moving elements in place")
struct InPlaceTests {
    /// Counts its instances, so that a test sees an element lost or destroyed twice.
    final class Tracked {
        nonisolated(unsafe) static var alive = 0
        let value: Int
        init(_ value: Int) {
            self.value = value
            Self.alive += 1
        }
        deinit { Self.alive -= 1 }
    }

    /// Permutations with every shape of cycle: none moved, one long cycle, swapped pairs, fixed points among
    /// cycles, and shuffles of several sizes.
    static func permutations() -> [[Int]] {
        var random = PipelineByteFastPathTests.Generator(state: 21)
        var all: [[Int]] = [[], [0], [1, 0], Array(0..<50), Array(1..<50) + [0], (0..<50).map { $0 ^ 1 }]
        all.append([0, 2, 1, 3, 5, 4, 6, 9, 7, 8])
        for count in [2, 3, 17, 100, 1_000] {
            var order = Array(0..<count)
            for index in order.indices.reversed() where index > 0 { order.swapAt(index, random.below(index + 1)) }
            all.append(order)
        }
        return all
    }

    @Test("permuting puts what was at order[i] at i, for any permutation", arguments: permutations())
    func permute(order: [Int]) {
        var items = order.indices.map { Item(id: "item-\($0)-with-an-id-too-long-to-be-small", source: "s\($0 % 3)") }
        InPlace.permute(&items, by: order)
        #expect(items.map(\.id) == order.map { "item-\($0)-with-an-id-too-long-to-be-small" })
    }

    @Test("permuting neither loses nor copies an element")
    func permuteKeepsEveryElementOnce() {
        let before = Tracked.alive
        do {
            var elements = (0..<1_000).map { Tracked($0) }
            let order = Self.permutations().last!
            InPlace.permute(&elements, by: order)
            #expect(elements.map(\.value) == order)
            #expect(Tracked.alive == before + 1_000)
            for index in elements.indices { #expect(isKnownUniquelyReferenced(&elements[index])) }
        }
        #expect(Tracked.alive == before)
    }
}
