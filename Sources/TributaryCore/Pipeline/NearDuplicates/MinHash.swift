/// Hashing that gives the same values in every process and on every platform (Swift's `Hasher` is seeded per
/// process, so it cannot be used where output must be deterministic): FNV-1a over 32-bit units, finished with the
/// SplitMix64 mixer so that every output bit depends on every input bit.
enum StableHash {
    /// The FNV-1a 64-bit offset basis.
    static let offsetBasis: UInt64 = 0xCBF2_9CE4_8422_2325
    /// The FNV-1a 64-bit prime.
    static let prime: UInt64 = 0x0000_0100_0000_01B3

    /// The state for hashing a value of type `tag`.
    @inline(__always)
    static func start(_ tag: UInt64) -> UInt64 { (offsetBasis ^ tag) &* prime }

    /// Feeds one 32-bit unit into `state`.
    @inline(__always)
    static func add(_ state: UInt64, _ value: UInt32) -> UInt64 { (state ^ UInt64(value)) &* prime }

    /// The final hash of `state`.
    @inline(__always)
    static func finish(_ state: UInt64) -> UInt64 { mix(state) }

    /// The SplitMix64 finalizer: a bijection on 64-bit values with good avalanche.
    @inline(__always)
    static func mix(_ value: UInt64) -> UInt64 {
        var z = value
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Combines two hashes, order-sensitively.
    @inline(__always)
    static func combine(_ first: UInt64, _ second: UInt64) -> UInt64 {
        mix(first &* 0x9E37_79B9_7F4A_7C15 ^ second &+ 0x632B_E59B_D9B4_E019)
    }

    /// Folds a 64-bit hash to 32 bits.
    @inline(__always)
    static func fold(_ value: UInt64) -> UInt32 { UInt32(truncatingIfNeeded: value ^ value >> 32) }
}

/// The MinHash functions and the LSH banding the detector uses to find candidate pairs without comparing all
/// pairs.
///
/// Each hash function permutes the 32-bit shingle ids (which are already hash values): `v = (x ⊕ c)·a mod 2³²`
/// with odd `a`, then `v ⊕ (v >> 16)` so both halves depend on all bits of `x`; the minimum of the high halves and
/// the minimum of the low halves are two MinHash rows. 32-bit arithmetic keeps the inner loop vectorizable on
/// baseline x86-64; the tests check that the collision rate of a row matches the Jaccard similarity. The constants come from a fixed SplitMix64 sequence, so signatures are the same in every process. A signature has
/// `bands × rows` values; the `rows` values of a band are hashed together into one bucket key, and two headlines
/// become a candidate pair when they share a bucket in at least one band. The probability of that is
/// `1 − (1 − J^rows)^bands` for two headlines whose shingle sets have Jaccard similarity `J`.
struct MinHashBanding: Sendable {
    /// How many bands the signature is cut into.
    let bands: Int
    /// How many MinHash values each band has.
    let rows: Int
    /// The multipliers, one per hash function (odd); function `f` gives rows `2f` and `2f + 1`, and row
    /// `band × rows + r` belongs to `band`.
    let multipliers: [UInt32]
    /// The values XORed into the input, one per hash function.
    let increments: [UInt32]
    /// `multipliers`, eight to a vector (the last padded).
    private let vectorMultipliers: [SIMD8<UInt32>]
    /// `increments`, eight to a vector (the last padded).
    private let vectorIncrements: [SIMD8<UInt32>]
    /// A random value per band, eight to a vector, mixed into its bucket keys (two-row banding).
    private let bandSeeds: [SIMD8<UInt32>]

    /// Banding with `bands` bands of `rows` rows.
    init(bands: Int, rows: Int) {
        precondition(bands > 0 && rows > 0, "MinHash banding needs at least one band and one row")
        self.bands = bands
        self.rows = rows
        var state: UInt64 = 0x5452_4942_5554_4152  // "TRIBUTAR"
        var multipliers: [UInt32] = []
        var increments: [UInt32] = []
        for _ in 0..<(bands * rows + 1) / 2 {
            state &+= 0x9E37_79B9_7F4A_7C15
            multipliers.append(UInt32(truncatingIfNeeded: StableHash.mix(state)) | 1)
            state &+= 0x9E37_79B9_7F4A_7C15
            increments.append(UInt32(truncatingIfNeeded: StableHash.mix(state)))
        }
        self.multipliers = multipliers
        self.increments = increments
        var vectorMultipliers: [SIMD8<UInt32>] = []
        var vectorIncrements: [SIMD8<UInt32>] = []
        for first in stride(from: 0, to: multipliers.count, by: 8) {
            var multiplier = SIMD8<UInt32>(repeating: 1)
            var increment = SIMD8<UInt32>(repeating: 0)
            for lane in 0..<8 where first + lane < multipliers.count {
                multiplier[lane] = multipliers[first + lane]
                increment[lane] = increments[first + lane]
            }
            vectorMultipliers.append(multiplier)
            vectorIncrements.append(increment)
        }
        self.vectorMultipliers = vectorMultipliers
        self.vectorIncrements = vectorIncrements
        bandSeeds = (0..<vectorMultipliers.count).map { vector in
            var seeds = SIMD8<UInt32>(repeating: 0)
            for lane in 0..<8 { seeds[lane] = UInt32(truncatingIfNeeded: StableHash.mix(UInt64(vector * 8 + lane) | 0xB0_0000_0000)) }
            return seeds
        }
    }

    /// With two rows per band: band `b`'s key is a bijective mix of function `b`'s two 16-bit minimums and the
    /// band's seed (so distinct minimums never share a key), written for all bands of set `set` at once.
    @inline(__always)
    private func writeKeys(
        set: Int, sets: Int, high: UnsafeMutableBufferPointer<SIMD8<Int32>>, low: UnsafeMutableBufferPointer<SIMD8<Int32>>,
        into keys: UnsafeMutableBufferPointer<UInt32>
    ) {
        for vector in 0..<high.count {
            let combined = SIMD8<UInt32>(truncatingIfNeeded: high[vector]) &<< 16 | SIMD8<UInt32>(truncatingIfNeeded: low[vector])
            var key = (combined ^ bandSeeds[vector]) &* 0x9E37_79B1
            key ^= key &>> 15
            key &*= 0x85EB_CA6B
            key ^= key &>> 13
            for lane in 0..<8 where vector * 8 + lane < bands {
                keys[(vector * 8 + lane) * sets + set] = key[lane]
            }
        }
    }

    /// How many bands two headlines must share buckets in to become a candidate pair. One would do for recall, but
    /// with two rows per band a pair that merely shares a subject (J ≈ 0.05) collides once in 3–8% of cases, and
    /// verifying those costs a cache miss each; twice happens to ~0.3% of them, while a pair at the threshold still
    /// collides twice with probability ≥ 0.99 given enough bands.
    let minimumCollisions = 2

    /// Banding with two rows per band and as many bands as it takes for a pair at `threshold` to become a candidate
    /// (collide in ``minimumCollisions`` bands) with probability at least `recall`, rounded up to a multiple of 8
    /// (hash functions run eight to a vector, and each gives two rows, so the extra bands cost no hashing).
    ///
    /// Headlines are short (10–30 shingles) and near-duplicates sit at Jaccard 0.4–0.8, so the curve must already
    /// be near 1 at the threshold: two rows keep it high there while pairs that only share a word or two rarely
    /// collide twice; more rows would need several times more hash functions for the same recall at the threshold.
    static func forThreshold(_ threshold: Double, recall: Double = 0.99) -> MinHashBanding {
        var bands = 8
        while bands < 64 && MinHashBanding(bands: bands, rows: 2).candidateProbability(threshold) < recall { bands += 1 }
        return MinHashBanding(bands: (bands + 7) / 8 * 8, rows: 2)
    }

    /// The probability that two headlines whose shingle sets have Jaccard similarity `similarity` become a
    /// candidate pair: that they share buckets in at least ``minimumCollisions`` of the bands (a band collides with
    /// probability `similarity^rows`).
    func candidateProbability(_ similarity: Double) -> Double {
        var power = 1.0
        for _ in 0..<rows { power *= similarity }
        var probability = 0.0  // of fewer than `minimumCollisions` collisions
        var term = 1.0
        for _ in 0..<bands { term *= 1 - power }  // P(0)
        for collisions in 0..<minimumCollisions {
            probability += term
            term *= Double(bands - collisions) / Double(collisions + 1) * power / max(1 - power, 1e-12)
        }
        return max(0, 1 - probability)
    }

    /// The bucket keys of every band for many shingle sets: set `i` is `shingles[ends[i − 1]..<ends[i]]`; the key
    /// of band `b` for set `i` goes to `keys[b × ends.count + i]` (band-major, so each band's keys are contiguous).
    ///
    /// Each hash function gives two rows: the minimum of the high 16 bits and the minimum of the low 16 bits of the
    /// permuted shingles (two nearly independent orderings of the set for the price of one multiplication). The
    /// functions run eight at a time in SIMD vectors, with the shingles in the outer loop.
    func bucketKeys(
        shingles: UnsafeBufferPointer<UInt32>, ends: UnsafeBufferPointer<Int32>, into keys: UnsafeMutableBufferPointer<UInt32>
    ) {
        let vectors = vectorMultipliers.count
        let sets = ends.count
        let empty = SIMD8<Int32>(repeating: 0xFFFF)
        var high = [SIMD8<Int32>](repeating: empty, count: vectors)
        var low = [SIMD8<Int32>](repeating: empty, count: vectors)
        vectorMultipliers.withUnsafeBufferPointer { multipliers in
            vectorIncrements.withUnsafeBufferPointer { increments in
                high.withUnsafeMutableBufferPointer { high in
                    low.withUnsafeMutableBufferPointer { low in
                        var start = 0
                        for set in 0..<sets {
                            let end = Int(ends[set])
                            high.update(repeating: empty)
                            low.update(repeating: empty)
                            for index in start..<end {
                                let shingle = SIMD8<UInt32>(repeating: shingles[index])
                                for vector in 0..<vectors {
                                    var value = (shingle ^ increments[vector]) &* multipliers[vector]
                                    value ^= value &>> 16
                                    high[vector] = pointwiseMin(high[vector], SIMD8<Int32>(truncatingIfNeeded: value &>> 16))
                                    low[vector] = pointwiseMin(low[vector], SIMD8<Int32>(truncatingIfNeeded: value & 0xFFFF))
                                }
                            }
                            start = end
                            if rows == 2 {  // band b is function b's two halves: all bands at once, eight to a vector
                                writeKeys(set: set, sets: sets, high: high, low: low, into: keys)
                                continue
                            }
                            for band in 0..<bands {
                                var key = UInt64(band) &* 0x9E37_79B9_7F4A_7C15
                                for row in band * rows..<(band + 1) * rows {
                                    let function = row >> 1
                                    let halves = row & 1 == 0 ? high : low
                                    let value = halves[function >> 3][function & 7]
                                    key = (key ^ UInt64(UInt32(bitPattern: value))) &* StableHash.prime
                                }
                                keys[band * sets + set] = StableHash.fold(StableHash.mix(key))
                            }
                        }
                    }
                }
            }
        }
    }
}
