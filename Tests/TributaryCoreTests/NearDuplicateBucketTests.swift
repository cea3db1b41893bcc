import TestSupport
import Testing

@testable import TributaryCore

@Suite("Near-duplicate LSH buckets: crowded buckets split, least common frequent shingles")
struct NearDuplicateBucketTests {
    /// The pairs `BandPartitions.forEachBucketMember` reports, as (earlier, later), sorted.
    static func pairs(
        _ keys: [UInt32], outlines: [ShingleOutline]? = nil, threshold: Double = 0, refinements: [[UInt32]] = [],
        sizeLimit: Int = .max, scanLimit: Int
    ) -> [[Int]] {
        var partitions = BandPartitions(count: keys.count)
        var pairs: [[Int]] = []
        let flat = refinements.flatMap { $0 }
        keys.withUnsafeBufferPointer { keys in
            flat.withUnsafeBufferPointer { flat in
                (outlines ?? []).withUnsafeBufferPointer { outlineBuffer in
                    let buffers = refinements.indices.map { UnsafeBufferPointer(rebasing: flat[$0 * keys.count..<($0 + 1) * keys.count]) }
                    partitions.forEachBucketMember(
                        keys: keys, outlines: outlines == nil ? nil : outlineBuffer, threshold: threshold, refinements: buffers,
                        sizeLimit: sizeLimit, scanLimit: scanLimit
                    ) {
                        pairs.append([$0, $1])
                    }
                }
            }
        }
        return pairs.sorted { $0.lexicographicallyPrecedes($1) }
    }

    /// What `forEachBucketMember` promises, written plainly: the members of a bucket (within the partition of their
    /// first key) with more than `sizeLimit` members take the sub-bucket key of the next refinement and one level
    /// more, level after level while refinements are left; then each position pairs with the `scanLimit` most
    /// recent earlier positions of its final bucket (same partition, level and key).
    static func referencePairs(_ keys: [UInt32], refinements: [[UInt32]], sizeLimit: Int, scanLimit: Int) -> [[Int]] {
        var current = keys
        var depth = [UInt64](repeating: 0, count: keys.count)
        // The partition is the first key's top bits: 8 of them, more for a large input (see `BandPartitions.init`).
        let partitionShift = UInt32(32 - BandPartitions(count: keys.count).partitionCount.trailingZeroBitCount)
        let bucket = { (index: Int) -> UInt64 in
            UInt64(keys[index] >> partitionShift) << 40 | depth[index] << 32 | UInt64(current[index])
        }
        var crowded = Array(keys.indices)
        for refinement in refinements {
            var sizes: [UInt64: Int] = [:]
            for index in crowded { sizes[bucket(index), default: 0] += 1 }
            crowded = crowded.filter { sizes[bucket($0)]! > sizeLimit }
            for index in crowded {
                current[index] = BandPartitions.refine(current[index], refinement[index])
                depth[index] += 1
            }
            if crowded.isEmpty { break }
        }
        var pairs: [[Int]] = []
        var members: [UInt64: [Int]] = [:]
        for index in keys.indices {
            let earlier = members[bucket(index), default: []]
            for other in earlier.suffix(scanLimit) { pairs.append([other, index]) }
            members[bucket(index), default: []].append(index)
        }
        return pairs.sorted { $0.lexicographicallyPrecedes($1) }
    }

    @Test("a crowded bucket is split by the next band's keys: its members meet only those that agree there too")
    func crowdedBucketSplit() {
        // 60 positions in one bucket (every third a different sub-bucket) and 5 in a small one.
        let crowded: UInt32 = 0x1234_5678
        let small: UInt32 = 0x8765_4321
        let keys = (0..<60).map { _ in crowded } + (0..<5).map { _ in small }
        let next = (0..<65).map { UInt32(100 + $0 % 3) }
        let split = Self.pairs(keys, refinements: [next], sizeLimit: 10, scanLimit: 100)
        #expect(split.count == 3 * (20 * 19 / 2) + 5 * 4 / 2)
        #expect(split.allSatisfy { $0[0] >= 60 ? $0[1] >= 60 : $0[0] % 3 == $0[1] % 3 && $0[1] < 60 })
        // Without the limit the crowded bucket pairs everyone with everyone (scan limit permitting).
        let whole = Self.pairs(keys, refinements: [next], scanLimit: 100)
        #expect(whole.count == 60 * 59 / 2 + 5 * 4 / 2)
        #expect(whole == Self.pairs(keys, scanLimit: 100))
    }

    /// `count` band keys with few distinct values, so buckets of every size (spread over the partitions by the top bits),
    /// and three levels of refinement keys for them.
    static func generatedKeys(count: Int, using random: inout SeededGenerator) -> (keys: [UInt32], refinements: [[UInt32]]) {
        let keys = (0..<count).map { _ in UInt32(Int.random(in: 0..<150, using: &random)) &* 0x9E37_79B1 }
        let refinements = (0..<3).map { level in
            (0..<count).map { _ in UInt32(Int.random(in: 0..<(2 + level * 3), using: &random)) }
        }
        return (keys, refinements)
    }

    @Test("the buckets, split or not, are the plain definition's on generated keys", arguments: [1, 2, 3, 4])
    func matchesReference(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        let (keys, refinements) = Self.generatedKeys(count: 3_000, using: &random)
        for (sizeLimit, scanLimit) in [(8, 3), (16, 8), (40, 8), (1, 2), (Int.max, 8)] {
            let actual = Self.pairs(keys, refinements: refinements, sizeLimit: sizeLimit, scanLimit: scanLimit)
            let expected = Self.referencePairs(keys, refinements: refinements, sizeLimit: sizeLimit, scanLimit: scanLimit)
            #expect(actual == expected, "size limit \(sizeLimit), scan limit \(scanLimit)")
        }
        #expect(Self.pairs(keys, refinements: refinements, scanLimit: 8) == Self.pairs(keys, scanLimit: 8))
    }

    @Test("with outlines, the buckets drop exactly the pairs the outlines rule out, the others as without", arguments: [1, 2])
    func outlinesFilterPairs(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        let count = 3_000
        let (keys, refinements) = Self.generatedKeys(count: count, using: &random)
        // Shingle sets drawn from a small vocabulary, so that some pairs are similar and most are not; some unknown.
        let outlines = (0..<count).map { index -> ShingleOutline in
            if index % 97 == 0 { return .unknown }
            let size = Int.random(in: 4..<24, using: &random)
            return ShingleOutline(Set((0..<size).map { _ in UInt32(Int.random(in: 0..<60, using: &random)) &* 0x9E37_79B1 }))
        }
        let all = Self.referencePairs(keys, refinements: refinements, sizeLimit: 16, scanLimit: 8)
        for threshold in [0.0, 0.45, 0.8] {
            let filtered = Self.pairs(
                keys, outlines: outlines, threshold: threshold, refinements: refinements, sizeLimit: 16, scanLimit: 8)
            let bar = ShingleOutline.bar(for: threshold)
            #expect(filtered == all.filter { outlines[$0[0]].mayReach(outlines[$0[1]], bar: bar) }, "threshold \(threshold)")
            if threshold == 0 { #expect(filtered == all) } else { #expect(filtered.count < all.count) }
        }
    }

    @Test("an outline never rules out a pair whose Jaccard similarity reaches the threshold, and rules out most others")
    func outlineBound() {
        var generator = SplitMix(state: 23)
        var ruledOut = 0
        var dissimilar = 0
        for trial in 0..<8_000 {
            // Two sets sharing some shingles, each with some of its own; sizes from 1 to 40 and 0 to 69.
            let vocabulary = UInt64(trial % 3 == 0 ? 40 : 400)
            let a = Set(
                (0..<(1 + generator.next() % 40)).map { _ in UInt32(truncatingIfNeeded: StableHash.mix(generator.next() % vocabulary)) })
            // Each trial keeps a different share of the first set (none to all), then adds up to 29 of its own.
            let kept = UInt64(trial % 5)
            var b = Set(a.filter { _ in generator.next() % 4 < kept })
            for _ in 0..<(generator.next() % 30) { b.insert(UInt32(truncatingIfNeeded: StableHash.mix(generator.next() % vocabulary))) }
            guard !b.isEmpty else { continue }
            let shared = a.intersection(b).count
            let jaccard = Double(shared) / Double(a.count + b.count - shared)
            for threshold in [0.1, 0.3, 0.45, 0.6, 0.9, jaccard] {
                let may = ShingleOutline(a.sorted()).mayReach(ShingleOutline(b.sorted()), bar: ShingleOutline.bar(for: threshold))
                if jaccard >= threshold { #expect(may, "J \(jaccard) ≥ \(threshold), sizes \(a.count), \(b.count)") }
                if threshold == 0.45 && jaccard < 0.2 && a.count >= 10 && b.count >= 10 {
                    dissimilar += 1
                    if !may { ruledOut += 1 }
                }
            }
        }
        #expect(dissimilar > 1_000)
        #expect(ruledOut * 10 > dissimilar * 9, "\(ruledOut) of \(dissimilar) dissimilar pairs ruled out")
        // The unknown outline, and an empty set, rule nothing out.
        let some = ShingleOutline([1, 2, 3])
        #expect(ShingleOutline.unknown.mayReach(some, bar: 1) && some.mayReach(.unknown, bar: 1))
        #expect(ShingleOutline([UInt32]()).mayReach(some, bar: 1))
        #expect(ShingleOutline(Array(0..<UInt32(300))).mayReach(some, bar: 1))
        #expect(!ShingleOutline([0x1000_0000, 0x5000_0000]).mayReach(ShingleOutline([0x9000_0000, 0xD000_0000]), bar: 0.01))
    }

    @Test("a large input has more partitions, each averaging at most 256 positions, and the same buckets")
    func partitionsOfLargeInputs() {
        #expect(BandPartitions(count: 3_000).partitionCount == 256)
        #expect(BandPartitions(count: 256 * 256).partitionCount == 256)
        #expect(BandPartitions(count: 256 * 256 + 1).partitionCount == 512)
        #expect(BandPartitions(count: 1_000_000).partitionCount == 4_096)
        var random = SeededGenerator(seed: 5)
        let count = 70_000
        let keys = (0..<count).map { _ in UInt32(Int.random(in: 0..<9_000, using: &random)) &* 0x9E37_79B1 }
        let refinements = (0..<3).map { level in
            (0..<count).map { _ in UInt32(Int.random(in: 0..<(2 + level * 3), using: &random)) }
        }
        let actual = Self.pairs(keys, refinements: refinements, sizeLimit: 8, scanLimit: 3)
        #expect(actual == Self.referencePairs(keys, refinements: refinements, sizeLimit: 8, scanLimit: 3))
    }

    @Test("a story among headlines that fill crowded buckets still finds its retelling, and only it")
    func duplicateAmongCrowdedBuckets() {
        // 60 headlines that differ only in a place: the words they share are in more than 16 headlines each, so every
        // signature is topped up with the same frequent shingles and those buckets hold all 60 (over the limit of
        // 32). Different places are different stories; the retelling of one is its duplicate.
        let syllables = ["ka", "ro", "vel", "tan", "mi", "zor", "bel", "den", "lu"]
        var places: [String] = []
        for first in syllables {
            for second in syllables where first != second && places.count < 60 {
                places.append(first.prefix(1).uppercased() + first.dropFirst() + second)
            }
        }
        var titles: [String?] = places.map { "Acme unveils new phone in \($0)" }
        titles.append("Exclusive: Acme unveils new phone in \(places[17]) today")
        #expect(NearDuplicateDetector().clusters(titles) == [[17, 60]])
        // The premise: the story has too few rare shingles of its own, so its signature takes frequent ones.
        var store = HeadlineFingerprints()
        for title in titles { store.append(title) }
        var frequency = ShingleFrequency()
        store.shingles.withUnsafeBufferPointer { shingles in
            frequency.count((0..<store.count).map { UnsafeBufferPointer(rebasing: shingles[store.shingleRange($0)]) })
        }
        let rare = store.shingles[store.shingleRange(17)].filter { !frequency.isFrequent($0) }
        #expect(rare.count < NearDuplicateDetector.minimumInformative)
        #expect(store.shingles[store.shingleRange(17)].contains { frequency.occurrences(of: $0) == 61 })
    }

    @Test("with every bucket of two or more split, the variants of a story still meet")
    func everyBucketSplit() {
        var strict = NearDuplicateDetector()
        strict.bucketSizeLimit = 1
        let titles: [String?] =
            NearDuplicateDetectorTests.others[0..<3] + NearDuplicateDetectorTests.variants.map { $0 }
            + NearDuplicateDetectorTests.others[3...]
        #expect(strict.clusters(titles) == [[3, 4, 5, 6, 7]])
    }

    @Test("the frequent shingles' counts are kept; rare ones count as zero")
    func frequentCounts() {
        var sets: [[UInt32]] = []
        for index in 0..<30 {
            var set: [UInt32] = [7]  // in 30 sets
            if index < 17 { set.append(11) }  // in 17: just over the limit
            if index < 16 { set.append(13) }  // in 16: at the limit, so rare
            if index < 5 { set.append(9) }
            sets.append(set)
        }
        var frequency = ShingleFrequency()
        let flat = sets.flatMap { $0 }
        var starts = [0]
        for set in sets { starts.append(starts.last! + set.count) }
        flat.withUnsafeBufferPointer { flat in
            frequency.count(sets.indices.map { UnsafeBufferPointer(rebasing: flat[starts[$0]..<starts[$0 + 1]]) })
        }
        #expect(NearDuplicateDetector.informativeLimit == 16)
        #expect(frequency.occurrences(of: 7) == 30)
        #expect(frequency.occurrences(of: 11) == 17)
        #expect(frequency.occurrences(of: 13) == 0)
        #expect(frequency.occurrences(of: 9) == 0)
        #expect(frequency.isFrequent(7) && frequency.isFrequent(11))
    }

    @Test("the pair blocks give each pair added often enough once, in order, as a plain count does", arguments: [0, 1, 2, 3])
    func pairBlocksMatchCounts(minimum: Int) {
        var generator = SplitMix(state: 11)
        // 5,000 positions span five blocks; pairs crowd a few earlier positions so that blocks grow past their room.
        for count in [2, 1_000, 5_000] {
            let blocks = PairBlocks(positions: count, pairsPerPosition: 1)
            var added: [[Int]: Int] = [:]
            for _ in 0..<60_000 {
                let earlier = Int(generator.next() % UInt64(generator.next() % 4 == 0 ? min(count - 1, 7) : count - 1))
                let later = earlier + 1 + Int(generator.next() % UInt64(min(count - 1 - earlier, 3 + count / 100)))
                blocks.append(earlier: earlier, later: later)
                added[[earlier, later], default: 0] += 1
            }
            #expect(blocks.count == 60_000)
            var reported: [[Int]] = []
            blocks.forEachPair(addedAtLeast: minimum) { reported.append([$0, $1]) }
            let expected = added.filter { $0.value >= minimum }.keys.sorted { $0.lexicographicallyPrecedes($1) }
            #expect(reported == expected, "\(count) positions")
        }
    }

    @Test("pair blocks cover the largest positions of a large input, with fewer offset bits when later positions need more")
    func pairBlocksOfLargeInputs() {
        for count in [1_000_000, 1 << 22, 1 << 23] {
            let blocks = PairBlocks(positions: count, pairsPerPosition: 0)
            #expect(blocks.laterBits + blocks.offsetBits <= 32)
            #expect(blocks.blockCount << blocks.offsetBits >= count)
            let pairs = [[0, 1], [count - 2, count - 1], [0, count - 1], [count / 2, count / 2 + 1], [0, 1]]
            for pair in pairs { blocks.append(earlier: pair[0], later: pair[1]) }
            var reported: [[Int]] = []
            blocks.forEachPair(addedAtLeast: 1) { reported.append([$0, $1]) }
            #expect(reported == Set(pairs).sorted { $0.lexicographicallyPrecedes($1) })
        }
        #expect(PairBlocks(positions: 1_000_000, pairsPerPosition: 0).offsetBits == 10)
        #expect(PairBlocks(positions: 1 << 23, pairsPerPosition: 0).offsetBits == 8)
    }
}
