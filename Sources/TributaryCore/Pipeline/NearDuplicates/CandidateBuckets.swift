#if canImport(Glibc)
    import Glibc
#endif

/// Radix sort of unsigned integers, 10 bits a pass (digits that are the same in every value are skipped, so values
/// below 2⁴⁰ take four passes): linear time, and with 1,024 buckets a pass the scattered writes stay in cache, where a
/// comparison sort of millions of candidate pairs would not. Many values are first split by the top ten of their
/// varying bits (one pass over memory), and each slice, small enough for the cache, is then sorted digit by digit from
/// the lowest.
enum RadixSort {
    /// Bits per pass.
    static let digitBits = 10

    /// From how many values the first pass splits by the highest digit.
    static let splitThreshold = 1 << 16

    /// Sorts `values` ascending.
    static func sort<Value: FixedWidthInteger & UnsignedInteger>(_ values: inout [Value]) {
        values.withUnsafeMutableBufferPointer { sort($0) }
    }

    /// Sorts the values in a buffer ascending.
    static func sort<Value: FixedWidthInteger & UnsignedInteger>(_ values: UnsafeMutableBufferPointer<Value>) {
        guard values.count > 1 else { return }
        if values.count < 256 {
            var values = values
            values.sort()
            return
        }
        let digitMask = Value((1 << digitBits) - 1)
        var all: Value = 0
        var any: Value = ~0
        for value in values {
            all |= value
            any &= value
        }
        let shifts = stride(from: 0, to: Value.bitWidth, by: digitBits).filter { (all ^ any) &>> $0 & digitMask != 0 }
        guard !shifts.isEmpty else { return }
        // Each pass writes every element of `scratch` before it is read: no need to zero it first.
        var scratch = [Value](unsafeUninitializedCapacity: values.count) { _, initialized in initialized = values.count }
        var counts = [Int](repeating: 0, count: 1 << digitBits + 1)
        scratch.withUnsafeMutableBufferPointer { scratch in
            counts.withUnsafeMutableBufferPointer { counts in
                // The top ten of the bits that vary, and the digits below them.
                let high = Value.bitWidth - (all ^ any).leadingZeroBitCount
                guard values.count >= splitThreshold, high > 2 * digitBits else {
                    if passes(from: values, to: scratch, shifts: shifts[...], counts: counts) {
                        _ = values.update(fromContentsOf: scratch)
                    }
                    return
                }
                let top = high - digitBits
                // Digits below `top` may reach into it: within a slice those bits are equal anyway.
                let lower = shifts.filter { $0 < top }
                // By the top digit into `scratch`; then each slice back into `values`, by the other digits.
                scatter(from: values, to: scratch, shift: top, counts: counts)
                let ends = Array(counts.prefix(1 << digitBits))  // where each slice ends
                for digit in ends.indices {
                    let range = (digit == 0 ? 0 : ends[digit - 1])..<ends[digit]
                    guard range.count > 1 else {
                        if range.count == 1 { values[range.lowerBound] = scratch[range.lowerBound] }
                        continue
                    }
                    let from = UnsafeMutableBufferPointer(rebasing: scratch[range])
                    let to = UnsafeMutableBufferPointer(rebasing: values[range])
                    if !passes(from: from, to: to, shifts: lower[...], counts: counts) { _ = to.update(fromContentsOf: from) }
                }
            }
        }
    }

    /// Sorts `from` by the digits at `shifts`, lowest first, moving the values back and forth between `from` and
    /// `to`; returns whether the result is in `to`.
    private static func passes<Value: FixedWidthInteger & UnsignedInteger>(
        from: UnsafeMutableBufferPointer<Value>, to: UnsafeMutableBufferPointer<Value>, shifts: ArraySlice<Int>,
        counts: UnsafeMutableBufferPointer<Int>
    ) -> Bool {
        var source = from
        var target = to
        for shift in shifts {
            scatter(from: source, to: target, shift: shift, counts: counts)
            swap(&source, &target)
        }
        return shifts.count % 2 == 1
    }

    /// One stable counting pass by the digit at `shift`; afterwards `counts[d]` is where digit `d`'s values end.
    @inline(__always)
    private static func scatter<Value: FixedWidthInteger & UnsignedInteger>(
        from source: UnsafeMutableBufferPointer<Value>, to target: UnsafeMutableBufferPointer<Value>, shift: Int,
        counts: UnsafeMutableBufferPointer<Int>
    ) {
        let digitMask = Value((1 << digitBits) - 1)
        let radix = 1 << digitBits
        let shift = Value(truncatingIfNeeded: shift)
        for index in 0..<radix { counts[index] = 0 }
        for value in source { counts[Int(truncatingIfNeeded: value &>> shift & digitMask)] += 1 }
        var total = 0
        for index in 0..<radix {
            let count = counts[index]
            counts[index] = total
            total += count
        }
        for value in source {
            let digit = Int(truncatingIfNeeded: value &>> shift & digitMask)
            target[counts[digit]] = value
            counts[digit] += 1
        }
    }
}

/// How many headlines share each shingle, approximately, counted so that memory is touched in order: shingles are
/// first split into partitions by hash (one sequential pass), each partition is counted exactly in a small table
/// that stays in cache, and the shingles found in more than ``NearDuplicateDetector/informativeLimit`` headlines go
/// into a Bloom filter of 4 Mbit (512 KiB). A shingle can be reported frequent by mistake (a Bloom false positive,
/// a few percent at most); it then merely stays out of the signatures. The frequent shingles' counts are kept too
/// (``occurrences(of:)``), so that a headline made of frequent shingles only can pick the least common of them.
struct ShingleFrequency {
    /// The partitions (a power of two).
    private static let partitionCount = 1024
    /// The Bloom filter of frequent shingles (one hash; bit `h & (size − 1)`).
    private var frequent = [UInt64](repeating: 0, count: (1 << 22) / 64)
    /// The frequent shingles and their counts, in an open-addressing table (a count of 0 marks an empty slot).
    private var frequentSlots: [(shingle: UInt32, count: Int32)] = []

    /// An empty filter.
    init() {}

    /// The hash that places a shingle in a partition and in the filter.
    @inline(__always)
    private static func spread(_ shingle: UInt32) -> UInt64 { StableHash.mix(UInt64(shingle) | 0xF00D_0000_0000) }

    /// Counts the shingle sets and remembers the frequent shingles.
    mutating func count<Sets: Collection<UnsafeBufferPointer<UInt32>>>(_ sets: Sets) {
        // Every array is read and written through a buffer pointer: a subscript of an array would check its bounds
        // and, for a write, that the array is not shared.
        var starts = [Int](repeating: 0, count: Self.partitionCount + 1)
        let shift = UInt64(64 - Self.partitionCount.trailingZeroBitCount)
        var total = 0
        var largest = 0
        starts.withUnsafeMutableBufferPointer { starts in
            for set in sets {
                for shingle in set { starts[Int(Self.spread(shingle) >> shift) + 1] += 1 }
                total += set.count
            }
            for partition in 0..<Self.partitionCount {
                largest = max(largest, starts[partition + 1])
                starts[partition + 1] += starts[partition]
            }
        }
        var scattered = [UInt32](repeating: 0, count: total)
        var cursor = Array(starts.dropLast())
        scattered.withUnsafeMutableBufferPointer { scattered in
            cursor.withUnsafeMutableBufferPointer { cursor in
                for set in sets {
                    for shingle in set {
                        let partition = Int(Self.spread(shingle) >> shift)
                        scattered[cursor[partition]] = shingle
                        cursor[partition] += 1
                    }
                }
            }
        }
        var capacity = 16
        while capacity < largest * 2 { capacity <<= 1 }
        let mask = capacity - 1
        var keys = [UInt32](repeating: 0, count: capacity)
        var counts = [Int32](repeating: 0, count: capacity)
        let limit = Int32(NearDuplicateDetector.informativeLimit)
        let filterMask = UInt64(frequent.count * 64 - 1)
        var found: [(UInt32, Int32)] = []
        scattered.withUnsafeBufferPointer { scattered in
            keys.withUnsafeMutableBufferPointer { keys in
                counts.withUnsafeMutableBufferPointer { counts in
                    frequent.withUnsafeMutableBufferPointer { frequent in
                        for partition in 0..<Self.partitionCount {
                            let range = starts[partition]..<starts[partition + 1]
                            for shingle in scattered[range] {
                                var slot = Int(truncatingIfNeeded: Self.spread(shingle)) & mask
                                while counts[slot] > 0 && keys[slot] != shingle { slot = (slot + 1) & mask }
                                keys[slot] = shingle
                                counts[slot] += 1
                                if counts[slot] == limit + 1 {
                                    let bit = Self.spread(shingle) & filterMask
                                    frequent[Int(bit >> 6)] |= 1 << (bit & 63)
                                }
                            }
                            for shingle in scattered[range] {  // empty the used slots, keeping the frequent shingles' counts
                                var slot = Int(truncatingIfNeeded: Self.spread(shingle)) & mask
                                while counts[slot] > 0 {
                                    if counts[slot] > limit { found.append((keys[slot], counts[slot])) }
                                    counts[slot] = 0
                                    slot = (slot + 1) & mask
                                }
                            }
                        }
                    }
                }
            }
        }
        var tableCapacity = 16
        while tableCapacity < found.count * 2 { tableCapacity <<= 1 }
        frequentSlots = [(shingle: UInt32, count: Int32)](repeating: (0, 0), count: tableCapacity)
        for (shingle, count) in found {
            var slot = Int(truncatingIfNeeded: Self.spread(shingle) >> 20) & (tableCapacity - 1)
            while frequentSlots[slot].count > 0 { slot = (slot + 1) & (tableCapacity - 1) }
            frequentSlots[slot] = (shingle, count)
        }
    }

    /// How many of the counted sets have `shingle`, if it is frequent (more than the limit); else 0.
    @inline(__always)
    func occurrences(of shingle: UInt32) -> Int {
        guard !frequentSlots.isEmpty else { return 0 }
        let mask = frequentSlots.count - 1
        var slot = Int(truncatingIfNeeded: Self.spread(shingle) >> 20) & mask
        while frequentSlots[slot].count > 0 {
            if frequentSlots[slot].shingle == shingle { return Int(frequentSlots[slot].count) }
            slot = (slot + 1) & mask
        }
        return 0
    }

    /// Asks for the slot where a lookup of `shingle`'s ``occurrences(of:)`` starts to be brought into the cache: asked
    /// for several shingles ahead of their lookups, the cache misses overlap.
    @inline(__always)
    func prefetch(_ shingle: UInt32) {
        frequentSlots.withUnsafeBufferPointer { slots in
            guard !slots.isEmpty else { return }
            Prefetch.element(Int(truncatingIfNeeded: Self.spread(shingle) >> 20) & (slots.count - 1), of: slots)
        }
    }

    /// Whether `shingle` is in more than the limit's worth of headlines (or a false positive of the filter).
    @inline(__always)
    func isFrequent(_ shingle: UInt32) -> Bool {
        let bit = Self.spread(shingle) & UInt64(frequent.count * 64 - 1)
        return frequent[Int(bit >> 6)] & (1 << (bit & 63)) != 0
    }

}

/// The LSH buckets of one band, found without a table the size of the input: the positions are first split into
/// partitions by the top bits of their bucket keys (a stable counting pass, so each partition keeps input order),
/// then each partition is bucketed in a small hash table that stays in cache. With a million headlines a single
/// table would miss the cache on every lookup. There are 256 partitions, or more for a large input, so that a
/// partition averages at most ``membersPerPartition`` positions and its table and links stay in the first-level
/// cache (with a fixed 256, a million headlines' partitions of some 3,500 each needed 150 KB apiece).
///
/// A bucket with more than `sizeLimit` members is treated like a stop-word: its members do not pair through it but
/// are split into sub-buckets by their keys in further bands (one more band a level, up to the refinements given),
/// and meet only the members of their sub-bucket. True near-duplicates share buckets in many bands, so they still
/// meet in a sub-bucket; headlines that merely share the frequent words a crowded bucket stands for mostly do not.
/// Whether a bucket is crowded depends only on its members, not on their order, and a bucket that is not crowded
/// costs nothing more: each level first files its members into buckets (counting them) and then pairs those of
/// buckets that are small enough.
struct BandPartitions {
    /// How many positions a partition has at most on average, when there are more than 256 partitions' worth.
    static let membersPerPartition = 256
    /// How many partitions (a power of two, at least 256).
    let partitionCount: Int
    /// One position filed in its partition: its key (refined in place), the position and its shingles' outline,
    /// together so that the scatter writes one stream a partition and a partition's members are read sequentially.
    struct Member {
        var key: UInt32
        var position: Int32
        var outline: ShingleOutline
    }
    /// The positions ordered by partition.
    private var members: [Member]
    /// Where each partition starts in `order` (plus the end).
    private var starts: [Int]
    /// For each slot of the local table, the key's bits and the most recent member (a local index), or −1.
    private var table: [BucketTable.Slot]
    /// For each slot of the local table, how many members its bucket has.
    private var sizes: [Int32]
    /// For each member of the current partition, the previous member of its bucket (a local index), or −1.
    private var previous: [Int32]
    /// For each member of the current partition, its slot in the local table.
    private var slots: [Int32]
    /// For each crowded member of the current partition, its key in the next refinement.
    private var nextKeys: [UInt32]
    /// The members (local indices) of the current level, and those of crowded buckets, for the next.
    private var level: [Int32] = []
    private var crowded: [Int32] = []
    /// `table.count − 1`.
    private var mask: Int

    /// Room for `count` positions.
    init(count: Int) {
        var partitions = 256
        while partitions * Self.membersPerPartition < count { partitions <<= 1 }
        partitionCount = partitions
        members = [Member](repeating: Member(key: 0, position: 0, outline: .unknown), count: count)
        starts = [Int](repeating: 0, count: partitionCount + 1)
        table = []
        sizes = []
        previous = []
        slots = []
        nextKeys = []
        mask = 0
    }

    /// The key of the sub-bucket of a crowded bucket `key` for a member whose key in the next band is `next`.
    @inline(__always)
    static func refine(_ key: UInt32, _ next: UInt32) -> UInt32 {
        StableHash.fold(StableHash.mix(UInt64(key) << 32 | UInt64(next)))
    }

    /// Calls `body(earlier, later)` for each position `later` and each earlier position in the same bucket (the most
    /// recent first, at most `scanLimit` of them); positions index `keys`. The members of a bucket with more than
    /// `sizeLimit` members are instead split by their keys in `refinements[0]` (indexed like `keys`) and paired
    /// within those sub-buckets, and so on while there are refinements left. With `outlines` (indexed like `keys`),
    /// a pair whose outlines show that its Jaccard similarity is below `threshold` is skipped (it still counts
    /// towards the scan limit, so the other pairs do not depend on it).
    mutating func forEachBucketMember(
        keys: UnsafeBufferPointer<UInt32>, outlines: UnsafeBufferPointer<ShingleOutline>? = nil, threshold: Double = 0,
        refinements: [UnsafeBufferPointer<UInt32>] = [], sizeLimit: Int = .max,
        scanLimit: Int, _ body: (_ earlier: Int, _ later: Int) -> Void
    ) {
        let partitionCount = self.partitionCount
        let shift = UInt32(32 - partitionCount.trailingZeroBitCount)
        var largest = 0
        var cursor = [Int](repeating: 0, count: partitionCount)
        // Through buffer pointers, as below.
        starts.withUnsafeMutableBufferPointer { starts in
            for index in starts.indices { starts[index] = 0 }
            for key in keys { starts[Int(key >> shift) + 1] += 1 }
            for partition in 0..<partitionCount {
                largest = max(largest, starts[partition + 1])
                starts[partition + 1] += starts[partition]
            }
            cursor.withUnsafeMutableBufferPointer { cursor in
                for partition in 0..<partitionCount { cursor[partition] = starts[partition] }
                members.withUnsafeMutableBufferPointer { members in
                    if let outlines {
                        for (position, key) in keys.enumerated() {
                            // Each member goes to one of thousands of partitions' write positions, a cache miss each
                            // with a million positions: the one sixteen positions on is asked for now.
                            if position + 16 < keys.count {
                                Prefetch.element(cursor[Int(keys[position + 16] >> shift)], of: UnsafeBufferPointer(members))
                            }
                            let partition = Int(key >> shift)
                            members[cursor[partition]] = Member(key: key, position: Int32(position), outline: outlines[position])
                            cursor[partition] += 1
                        }
                    } else {
                        for (position, key) in keys.enumerated() {
                            let partition = Int(key >> shift)
                            members[cursor[partition]] = Member(key: key, position: Int32(position), outline: .unknown)
                            cursor[partition] += 1
                        }
                    }
                }
            }
        }
        var capacity = 16
        while capacity < largest * 2 { capacity <<= 1 }
        if table.count < capacity {
            table = [BucketTable.Slot](repeating: BucketTable.Slot(key: 0, value: -1), count: capacity)
            sizes = [Int32](repeating: 0, count: capacity)
            previous = [Int32](repeating: -1, count: capacity / 2)
            slots = [Int32](repeating: 0, count: capacity / 2)
            nextKeys = [UInt32](repeating: 0, count: capacity / 2)
        }
        mask = capacity - 1
        // The buckets are filed through buffer pointers: every array access in the loops below would otherwise check
        // its bounds and, for a write to a stored property, that the array is not shared.
        let localIndices = Array(0..<Int32(largest))  // each partition's first level, copied in one go
        var level = self.level
        var crowded = self.crowded
        self.level = []
        self.crowded = []
        let starts = self.starts
        members.withUnsafeMutableBufferPointer { members in
            table.withUnsafeMutableBufferPointer { table in
                sizes.withUnsafeMutableBufferPointer { sizes in
                    previous.withUnsafeMutableBufferPointer { previous in
                        slots.withUnsafeMutableBufferPointer { slots in
                            nextKeys.withUnsafeMutableBufferPointer { nextKeys in
                                let buffers = Buffers(
                                    members: members, table: table, sizes: sizes, previous: previous, slots: slots,
                                    nextKeys: nextKeys, mask: capacity - 1)
                                for partition in 0..<partitionCount {
                                    let start = starts[partition]
                                    let end = starts[partition + 1]
                                    guard end - start > 1 else { continue }
                                    buffers.pair(
                                        start: start, end: end, localIndices: localIndices, level: &level, crowded: &crowded,
                                        refinements: refinements, threshold: threshold,
                                        sizeLimit: Int32(clamping: sizeLimit), scanLimit: scanLimit, body)
                                }
                            }
                        }
                    }
                }
            }
        }
        self.level = level
        self.crowded = crowded
    }

    /// The working arrays of ``forEachBucketMember(keys:refinements:sizeLimit:scanLimit:_:)`` as buffers.
    private struct Buffers {
        let members: UnsafeMutableBufferPointer<Member>
        let table: UnsafeMutableBufferPointer<BucketTable.Slot>
        let sizes: UnsafeMutableBufferPointer<Int32>
        let previous: UnsafeMutableBufferPointer<Int32>
        let slots: UnsafeMutableBufferPointer<Int32>
        let nextKeys: UnsafeMutableBufferPointer<UInt32>
        let mask: Int

        /// Files the members of the partition `start..<end` into buckets and pairs them, level by level.
        @inline(__always)
        func pair(
            start: Int, end: Int, localIndices: [Int32], level: inout [Int32], crowded: inout [Int32],
            refinements: [UnsafeBufferPointer<UInt32>], threshold: Double,
            sizeLimit limit: Int32, scanLimit: Int, _ body: (_ earlier: Int, _ later: Int) -> Void
        ) {
            let bar = ShingleOutline.bar(for: threshold)
            level.removeAll(keepingCapacity: true)
            level.append(contentsOf: localIndices[..<(end - start)])
            var depth = 0
            while true {
                // File the level's members into buckets, each linked to the previous member of its bucket.
                for local in level {
                    let key = members[start + Int(local)].key
                    var slot = Int(key) & mask
                    while table[slot].value >= 0 && table[slot].key != key { slot = (slot + 1) & mask }
                    previous[Int(local)] = table[slot].value
                    table[slot] = BucketTable.Slot(key: key, value: local)
                    sizes[slot] += 1
                    slots[Int(local)] = Int32(slot)
                }
                // Pair the members of small buckets (and of every bucket at the last level); set the others aside.
                let splits = depth < refinements.count
                crowded.removeAll(keepingCapacity: true)
                for local in level {
                    if splits && sizes[Int(slots[Int(local)])] > limit {
                        crowded.append(local)
                        continue
                    }
                    let member = members[start + Int(local)]
                    var other = previous[Int(local)]
                    var scanned = 0
                    while other >= 0 && scanned < scanLimit {
                        let earlier = members[start + Int(other)]
                        if earlier.outline.mayReach(member.outline, bar: bar) { body(Int(earlier.position), Int(member.position)) }
                        other = previous[Int(other)]
                        scanned += 1
                    }
                }
                for local in level {
                    let slot = Int(slots[Int(local)])
                    table[slot].value = -1
                    sizes[slot] = 0
                }
                guard !crowded.isEmpty else { break }
                // The next keys are gathered first, in a loop of independent loads only: they are anywhere in the
                // band (with a million headlines, a cache miss each), and the processor overlaps more of them there
                // than among the hashing of the sub-bucket keys.
                let refinement = refinements[depth]
                for local in crowded { nextKeys[Int(local)] = refinement[Int(members[start + Int(local)].position)] }
                for local in crowded {
                    let index = start + Int(local)
                    members[index].key = BandPartitions.refine(members[index].key, nextKeys[Int(local)])
                }
                swap(&level, &crowded)
                depth += 1
            }
        }
    }
}

/// An open-addressing hash table from 64-bit keys (already well mixed) to `Int32` values, used for the exact
/// duplicate index and for the LSH buckets of one band at a time. Each slot keeps the key's low 32 bits next to the
/// value, so a probe touches one cache line; two keys that agree in those bits share a slot, which for LSH only
/// adds a candidate that verification then rejects, and for the exact index is checked by the caller.
struct BucketTable {
    /// One slot: the low bits of the key and the value (−1 when empty).
    struct Slot {
        /// The low 32 bits of the key.
        var key: UInt32
        /// The value; −1 marks an empty slot.
        var value: Int32
    }

    /// The slots.
    private var slots: [Slot]
    /// `capacity − 1` (the capacity is a power of two).
    private let mask: Int

    /// A table with room for `minimumCapacity` keys at load factor ≤ 1/2.
    init(minimumCapacity: Int) {
        var capacity = 16
        while capacity < minimumCapacity * 2 { capacity <<= 1 }
        slots = [Slot](repeating: Slot(key: 0, value: -1), count: capacity)
        mask = capacity - 1
    }

    /// Empties the table.
    mutating func reset() {
        slots.withUnsafeMutableBufferPointer { $0.update(repeating: Slot(key: 0, value: -1)) }
    }

    /// The slot of `key`, claiming an empty one if the key is new (its value is then −1).
    @inline(__always)
    mutating func slot(for key: UInt64) -> Int {
        let low = UInt32(truncatingIfNeeded: key)
        var slot = Int(truncatingIfNeeded: key >> 32) & mask
        while slots[slot].value >= 0 {
            if slots[slot].key == low { return slot }
            slot = (slot + 1) & mask
        }
        slots[slot].key = low
        return slot
    }

    /// Asks for the slot where ``slot(for:)`` starts to probe for `key` to be brought into the cache: asked several
    /// keys ahead of their probes, the cache misses overlap.
    @inline(__always)
    func prefetch(for key: UInt64) {
        slots.withUnsafeBufferPointer { Prefetch.element(Int(truncatingIfNeeded: key >> 32) & mask, of: $0) }
    }

    /// The value in `slot`.
    @inline(__always)
    subscript(value slot: Int) -> Int32 {
        get { slots[slot].value }
        set { slots[slot].value = newValue }
    }
}

/// Candidate pairs (earlier, later), earlier < later, filed by the block of earlier positions they fall in (1,024
/// positions a block), each pair stored in 32 bits as its earlier position's offset in the block above the later
/// position. The LSH bands give some ten to thirty pairs a headline, most of them met in one band only: with a
/// million headlines some 22 million. Sorting them as one array of 64-bit values took a pass over 180 MB to split
/// them before the slices fit the cache; here each block's pairs (some 90 KB) are already a slice, sorted and read
/// while in the second-level cache, and take half the bytes.
///
/// Each block's memory comes from `malloc` and grows with `realloc`; the object frees it.
final class PairBlocks {
    /// One block's pairs: `count` values initialized at `base`, room for `capacity`.
    private struct Block {
        var base: UnsafeMutablePointer<UInt32>
        var count: Int
        var capacity: Int
    }

    /// How many bits a later position takes.
    let laterBits: Int
    /// How many bits an earlier position's offset in its block takes (10, fewer for a huge input).
    let offsetBits: Int
    /// How many blocks.
    let blockCount: Int
    /// The blocks.
    private let blocks: UnsafeMutablePointer<Block>

    /// Room for pairs of positions below `count` (at most `Int32.max`), about `pairsPerPosition` for each earlier
    /// position before a block grows.
    init(positions count: Int, pairsPerPosition: Int) {
        precondition(count >= 0 && count <= Int(Int32.max), "positions must fit 31 bits")
        laterBits = max(1, Int.bitWidth - count.leadingZeroBitCount)
        offsetBits = min(10, 32 - laterBits)
        blockCount = max(1, (count + (1 << offsetBits) - 1) >> offsetBits)
        let capacity = max(64, pairsPerPosition << offsetBits)
        blocks = .allocate(capacity: blockCount)
        for index in 0..<blockCount {
            (blocks + index).initialize(to: Block(base: Self.resized(nil, to: capacity), count: 0, capacity: capacity))
        }
    }

    deinit {
        for index in 0..<blockCount { free(blocks[index].base) }
        blocks.deallocate()
    }

    /// `memory` (from `malloc`, or nil) with room for `capacity` values, its values kept.
    private static func resized(_ memory: UnsafeMutablePointer<UInt32>?, to capacity: Int) -> UnsafeMutablePointer<UInt32> {
        guard let raw = realloc(memory, capacity * MemoryLayout<UInt32>.stride) else {
            fatalError("out of memory for \(capacity) candidate pairs")
        }
        return raw.assumingMemoryBound(to: UInt32.self)
    }

    /// Adds the pair (`earlier`, `later`): two positions below the count, `earlier` < `later`.
    @inline(__always)
    func append(earlier: Int, later: Int) {
        let block = blocks + (earlier &>> offsetBits)
        if block.pointee.count == block.pointee.capacity { grow(block) }
        let offset = earlier & ((1 << offsetBits) - 1)
        (block.pointee.base + block.pointee.count).initialize(to: UInt32(truncatingIfNeeded: offset << laterBits | later))
        block.pointee.count += 1
    }

    @inline(never)
    private func grow(_ block: UnsafeMutablePointer<Block>) {
        block.pointee.capacity *= 2
        block.pointee.base = Self.resized(block.pointee.base, to: block.pointee.capacity)  // UInt32 is trivial
    }

    /// How many pairs were added.
    var count: Int { (0..<blockCount).reduce(0) { $0 + blocks[$1].count } }

    /// Calls `body(earlier, later)` once for each distinct pair added at least `minimum` times, in ascending order of
    /// (earlier, later). Sorts each block in place.
    func forEachPair(addedAtLeast minimum: Int, _ body: (_ earlier: Int, _ later: Int) -> Void) {
        let laterMask = UInt32(truncatingIfNeeded: (1 << laterBits) - 1)
        for blockIndex in 0..<blockCount {
            let block = blocks[blockIndex]
            let values = UnsafeMutableBufferPointer(start: block.base, count: block.count)
            RadixSort.sort(values)
            let blockStart = blockIndex << offsetBits
            var index = 0
            while index < values.count {
                let pair = values[index]
                var end = index + 1
                while end < values.count && values[end] == pair { end += 1 }
                if end - index >= minimum {
                    body(blockStart + Int(pair &>> UInt32(laterBits)), Int(pair & laterMask))
                }
                index = end
            }
        }
    }
}
