import Testing

@testable import TributaryCore

@Suite("Near-duplicate shingles and MinHash")
struct NearDuplicateShingleTests {
    @Test("mixed Chinese and English: character bigrams, word unigrams and bigrams, whole numbers")
    func mixedScripts() {
        #expect(
            HeadlineShingles.describe("苹果发布iPhone 16，售价5999元")
                == ["16", "16 售", "5999", "5999 元", "iphon", "iphon 16", "价 5999", "发布", "售价", "布 iphon", "果发", "苹果"])
        #expect(
            HeadlineShingles.describe("Apple unveils the iPhone 16")
                == ["16", "appl", "appl unveil", "iphon", "iphon 16", "unveil", "unveil iphon"])
        #expect(HeadlineShingles.describe("涨") == ["涨"])
        #expect(HeadlineShingles.describe("").isEmpty)
    }

    @Test("Jaccard similarity of shingle sets")
    func jaccard() {
        var store = HeadlineFingerprints()
        store.append("Apple unveils iPhone 16")
        store.append("Apple unveils iPhone 16")
        store.append("Apple unveils new iPhone 16")
        store.append(nil)
        #expect(store.jaccard(0, 1) == 1)
        // {appl, unveil, iphon, 16, 3 bigrams} vs {+ new, unveil·new, new·iphon − unveil·iphon}: 6 shared of 10.
        #expect(store.jaccard(0, 2) == 0.6)
        #expect(store.jaccard(0, 3) == 0)
    }

    @Test("the banding for the default threshold: the candidate curve is steep between unrelated and similar")
    func banding() {
        let banding = MinHashBanding.forThreshold(NearDuplicateDetector.defaultThreshold)
        #expect(banding.rows == 2)
        #expect(banding.bands == 32)
        #expect(banding.candidateProbability(0.45) >= 0.99)
        #expect(banding.candidateProbability(0.6) >= 0.9999)
        #expect(banding.candidateProbability(0.05) < 0.005)
        #expect(banding.candidateProbability(0) == 0)
        #expect(MinHashBanding.forThreshold(0.8).bands == 8)
    }

    @Test("a band collides at the rate MinHash promises: J² for two rows")
    func collisionRate() {
        let banding = MinHashBanding(bands: 32, rows: 2)
        var generator = SplitMix(state: 42)
        var shingles: [UInt32] = []
        var ends: [Int32] = []
        let pairs = 500
        for _ in 0..<pairs {  // sets of 20 shared + 10 own shingles each: J = 20 / 40 = 0.5
            let shared = (0..<20).map { _ in UInt32(truncatingIfNeeded: generator.next()) }
            for _ in 0..<2 {
                shingles.append(contentsOf: shared)
                shingles.append(contentsOf: (0..<10).map { _ in UInt32(truncatingIfNeeded: generator.next()) })
                ends.append(Int32(shingles.count))
            }
        }
        var keys = [UInt32](repeating: 0, count: ends.count * banding.bands)
        shingles.withUnsafeBufferPointer { shingles in
            ends.withUnsafeBufferPointer { ends in
                keys.withUnsafeMutableBufferPointer { banding.bucketKeys(shingles: shingles, ends: ends, into: $0) }
            }
        }
        var collisions = 0
        var unrelated = 0
        for band in 0..<banding.bands {
            let row = band * ends.count
            for pair in 0..<pairs {
                if keys[row + 2 * pair] == keys[row + 2 * pair + 1] { collisions += 1 }
                if pair > 0 && keys[row + 2 * pair] == keys[row + 2 * pair - 1] { unrelated += 1 }
            }
        }
        let rate = Double(collisions) / Double(pairs * banding.bands)
        #expect(abs(rate - 0.25) < 0.03, "band collision rate \(rate)")
        #expect(unrelated < 5)
    }

    @Test("fingerprints compacted to some headlines are the fingerprints of those headlines alone")
    func compactedFingerprints() {
        let titles: [String?] = [
            "苹果发布iPhone 16，售价5999元", nil, "Apple unveils the iPhone 16", "", "Linux 6.10 released", "涨", "Linux 6.11 released",
            "【独家】小米汽车 SU7 交付 10000 台", "Fed holds rates at 5.25%", "!!!",
        ]
        for pattern in [0b11_1111_1111, 0, 0b10_1010_1010, 0b01_0101_0101, 0b00_0001_1110, 0b10_0000_0001, 0b11_1110_0000] {
            let keep = titles.indices.map { pattern >> $0 & 1 == 1 }
            var compacted = HeadlineFingerprints()
            for title in titles { compacted.append(title) }
            compacted.compact(keep: keep)
            var direct = HeadlineFingerprints()
            for (title, kept) in zip(titles, keep) where kept { direct.append(title) }
            #expect(compacted.count == direct.count)
            #expect(compacted.shingles == direct.shingles && compacted.shingleEnds == direct.shingleEnds)
            #expect(compacted.numbers == direct.numbers && compacted.numberEnds == direct.numberEnds)
            #expect(compacted.tokenIDs == direct.tokenIDs && compacted.tokenFlags == direct.tokenFlags)
            #expect(compacted.tokenEnds == direct.tokenEnds && compacted.contentKeys == direct.contentKeys)
        }
    }

    @Test("fingerprints of two stores appended are the fingerprints of all the headlines in one store")
    func appendedFingerprints() {
        let titles: [String?] = [
            "苹果发布iPhone 16，售价5999元", nil, "Apple unveils the iPhone 16", "", "Linux 6.10 released", "涨", "Linux 6.11 released",
            "【独家】小米汽车 SU7 交付 10000 台", "Fed holds rates at 5.25%", "!!!",
        ]
        for split in 0...titles.count {
            var first = HeadlineFingerprints()
            for title in titles[..<split] { first.append(title) }
            var second = HeadlineFingerprints()
            for title in titles[split...] { second.append(title) }
            first.append(contentsOf: second)
            var direct = HeadlineFingerprints()
            for title in titles { direct.append(title) }
            #expect(first.count == direct.count)
            #expect(first.shingles == direct.shingles && first.shingleEnds == direct.shingleEnds)
            #expect(first.numbers == direct.numbers && first.numberEnds == direct.numberEnds)
            #expect(first.tokenIDs == direct.tokenIDs && first.tokenFlags == direct.tokenFlags)
            #expect(first.tokenEnds == direct.tokenEnds && first.contentKeys == direct.contentKeys)
        }
    }

    @Test("radix sort sorts")
    func radixSort() {
        var generator = SplitMix(state: 7)
        var values = (0..<5000).map { _ in generator.next() >> UInt64(generator.next() % 40) }
        let expected = values.sorted()
        RadixSort.sort(&values)
        #expect(values == expected)
    }

    @Test("radix sort sorts 32-bit values too, few and many")
    func radixSortOf32BitValues() {
        var generator = SplitMix(state: 12)
        for (count, bits) in [(300, 30), (20_000, 30), (RadixSort.splitThreshold + 17, 32), (90_000, 12)] {
            var values = (0..<count).map { _ in UInt32(truncatingIfNeeded: generator.next() >> UInt64(64 - bits)) }
            values[0] = values[1]
            let expected = values.sorted()
            RadixSort.sort(&values)
            #expect(values == expected, "\(count) values of \(bits) bits")
        }
    }

    @Test("a shingle sketch never rules out a pair whose similarity reaches the threshold")
    func shingleSketches() {
        var generator = SplitMix(state: 9)
        for _ in 0..<20_000 {
            let pool = (0..<40).map { _ in UInt32(truncatingIfNeeded: generator.next()) }
            let a = Set((0..<(1 + Int(generator.next() % 30))).map { _ in pool[Int(generator.next() % 40)] }).sorted()
            let b = Set((0..<(1 + Int(generator.next() % 30))).map { _ in pool[Int(generator.next() % 40)] }).sorted()
            var sketch = ShingleSketch()
            for shingle in b { sketch.insert(shingle) }
            let shared = Set(a).intersection(b).count
            #expect(a.filter(sketch.mayContain).count >= shared)
            let jaccard = Double(shared) / Double(a.count + b.count - shared)
            for threshold in [0.2, 0.45, 0.6, 0.8, 1.0] where jaccard >= threshold {
                #expect(a.withUnsafeBufferPointer { sketch.mayReach(threshold, with: $0) }, "J \(jaccard) ≥ \(threshold)")
            }
        }
    }

    @Test("radix sort splits many values by their highest digit first and sorts the slices in cache")
    func radixSortOfManyValues() {
        var generator = SplitMix(state: 8)
        for (count, bits) in [(RadixSort.splitThreshold, 40), (RadixSort.splitThreshold + 3_001, 34), (200_000, 64), (70_000, 20)] {
            var values = (0..<count).map { _ in generator.next() >> UInt64(64 - bits) }
            values[0] = values[1]  // a repeated value
            let expected = values.sorted()
            RadixSort.sort(&values)
            #expect(values == expected, "\(count) values of \(bits) bits")
        }
    }
}

/// A small deterministic generator for tests.
struct SplitMix {
    /// The state.
    var state: UInt64

    /// The next 64 random bits.
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        return StableHash.mix(state)
    }
}
