/// Finds groups of items whose headlines tell the same story.
///
/// A headline is normalized (full-width and case folded, traditional Chinese simplified, tags like `【独家】`,
/// `[Update]`, `BREAKING:` and site names like ` - Reuters` removed), cut into tokens (CJK characters, words,
/// whole numbers) and turned into a set of shingles: character bigrams for Chinese, word unigrams and bigrams for
/// Latin scripts. Two headlines are near-duplicates when the Jaccard similarity of their shingle sets is at least
/// ``threshold`` and their numbers agree: `Linux 6.10 released` and `Linux 6.11 released` never match, nor do the
/// same headline with different years, prices or scores.
///
/// Candidate pairs come from MinHash signatures with LSH banding, never from comparing all pairs: a headline meets a
/// bounded number of others, so the work grows linearly with the input (memory effects aside). A pair that meets in a
/// bucket is first tested against a 64-bit outline of each shingle set (``ShingleOutline``), which rules out most
/// unrelated pairs exactly (never one that reaches the threshold). Each candidate is verified with the exact Jaccard
/// similarity of the two small shingle sets, the number check and structural checks for swapped names, subjects,
/// directions and roles (``NearDuplicateVeto``). Clusters are built greedily from the most similar pair down, and a
/// cluster never holds two headlines that are different stories by those checks, so a headline without numbers cannot
/// chain `… 6.10 …` and `… 6.11 …` together. The output does not depend on the order of the input (as sets), except in
/// the rare buckets with more members than the scan limit.
///
/// Headlines may come in groups (the pipeline's: one a source): two headlines of one group are never near-duplicates,
/// not even when they are the same, and no cluster holds two of one group. A source's two entries with different
/// ids and links are two entries, however alike their headlines (`Changelog (v1.2.3)`, `Changelog (v1.2.4)`).
public struct NearDuplicateDetector: Sendable {
    /// The default ``threshold``, tuned on the labelled headline pairs in the tests
    /// (`Tests/TributaryCoreTests/Fixtures/headline-pairs.tsv`).
    public static let defaultThreshold: Double = 0.45

    /// The Jaccard similarity of shingle sets at or above which two headlines are duplicates (0…1). Higher is
    /// stricter; 1 matches only headlines that normalize to the same shingles.
    public var threshold: Double {
        didSet {
            threshold = min(max(threshold, 0), 1)
            banding = MinHashBanding.forThreshold(threshold)
        }
    }

    /// How numbers must agree for two headlines to match.
    enum NumberRule: Sendable {
        /// The number multisets must be equal, or one headline must have no numbers at all.
        case equalOrMissing
        /// One headline's numbers must be a sub-multiset of the other's: a headline may add a number (a date, a
        /// count) but two headlines that each have a number the other lacks never match.
        case subset
    }

    /// How numbers must agree; see ``NumberRule``.
    var numberRule: NumberRule = .subset

    /// The MinHash banding that finds candidate pairs; chosen from the threshold (``MinHashBanding/forThreshold(_:recall:)``).
    private(set) var banding: MinHashBanding

    /// The most earlier members of one bucket a headline is paired with. Members of a bucket of true
    /// near-duplicates are all similar, so pairing each with a few recent ones connects them; the cap bounds the
    /// work in buckets of headlines that merely share common words.
    var bucketScanLimit = 8

    /// The most members an LSH bucket may have before it is treated like a stop-word and split by the keys of
    /// further bands (see ``BandPartitions``). A bucket whose key comes from informative shingles has about
    /// ``informativeLimit`` members at most; larger ones gather headlines that only share frequent words.
    var bucketSizeLimit = 32

    /// How many further bands split a crowded bucket, one a level while its parts are still crowded.
    static let refinementLevels = 3

    /// A detector with the given threshold (clamped to 0…1). At the default, 0.45, the LSH has 32 bands of 2 rows
    /// and a pair is a candidate when it shares buckets in at least two bands: with probability 0.993 at J = 0.45,
    /// 0.9998 at J = 0.55, 0.37 at J = 0.2 and 0.003 at J = 0.05 (see ``MinHashBanding/candidateProbability(_:)``).
    public init(threshold: Double = NearDuplicateDetector.defaultThreshold) {
        let clamped = min(max(threshold, 0), 1)
        self.threshold = clamped
        self.banding = MinHashBanding.forThreshold(clamped)
    }

    /// Clusters of indices into `titles` (each cluster ≥ 2 members, sorted; clusters sorted by first index); titles
    /// that are nil/empty never match.
    public func clusters(_ titles: [String?]) -> [[Int]] {
        clusters(count: titles.count) { titles[$0] }
    }

    /// ``clusters(_:)`` of `count` titles read one by one (no array of them is made), each of the group `group`
    /// gives (nil: a group of its own); two titles of one group are never in one cluster.
    func clusters(count: Int, title: (Int) -> String?, group: (Int) -> Int32? = { _ in nil }) -> [[Int]] {
        var store = HeadlineFingerprints(capacity: count)
        for index in 0..<count { store.append(title(index), group: group(index)) }
        return clusters(of: store)
    }

    /// The similarity estimate the detector uses for two headlines (for tests and --explain): the Jaccard
    /// similarity of their shingle sets, or 0 when their numbers disagree, a structural check tells them apart, or
    /// either has no shingles. Two headlines alone are duplicates when this is at least ``threshold`` (among many
    /// headlines, cluster checks can still keep a pair apart).
    public func similarity(_ a: String, _ b: String) -> Double {
        let comparison = compare(a, b)
        return comparison.veto == nil ? comparison.jaccard : 0
    }

    /// The Jaccard similarity of two headlines' shingle sets and, if they are different stories whatever that
    /// similarity, why.
    func compare(_ a: String, _ b: String) -> (jaccard: Double, veto: NearDuplicateVeto?) {
        var store = HeadlineFingerprints(capacity: 2)
        store.append(a)
        store.append(b)
        let jaccard = store.jaccard(0, 1)
        guard numbersAgree(store, 0, 1) else { return (jaccard, .numbers) }
        return (jaccard, HeadlineComparison.veto(store, 0, 1))
    }

    /// Whether the numbers of headlines `first` and `second` in `store` allow them to be duplicates under
    /// ``numberRule``.
    func numbersAgree(_ store: HeadlineFingerprints, _ first: Int, _ second: Int) -> Bool {
        switch store.numberRelation(first, second) {
        case .equal: return true
        case .conflict: return false
        case .firstIsSubset, .secondIsSubset:
            return numberRule == .subset || !store.hasNumbers(first) || !store.hasNumbers(second)
        }
    }

    // MARK: Clustering

    /// A verified pair of representatives.
    private struct Link {
        /// The smaller representative index.
        var first: Int32
        /// The larger representative index.
        var second: Int32
        /// Their Jaccard similarity.
        var similarity: Double
        /// The content keys of the two, smaller first: a tie-breaker that does not depend on input order.
        var keys: (UInt64, UInt64)
    }

    /// The clusters of the headlines in `store`.
    func clusters(of store: HeadlineFingerprints) -> [[Int]] {
        let count = store.count
        guard count > 1 else { return [] }

        // Headlines with identical fingerprints are one representative, of at most one headline a group: the table
        // holds a key's latest representative, and a headline of a group it has already starts one of its own.
        var representativeOf = [Int32](repeating: -1, count: count)
        var representatives: [Int32] = []
        var sharedGroups = RepresentativeGroups()
        // The first slot of a key's probe is asked for sixteen headlines ahead (with a million headlines the table
        // has 16 MB, and each probe a cache miss), so the processor overlaps the misses instead of waiting for one
        // after the other.
        var exact = BucketTable(minimumCapacity: count)
        for index in 0..<count {
            if index + 16 < count { exact.prefetch(for: store.contentKeys[index + 16]) }
            guard !store.isEmpty(index) else { continue }
            let key = store.contentKeys[index]
            let slot = exact.slot(for: key)
            let existing = exact[value: slot]
            if existing >= 0 && store.contentKeys[Int(existing)] == key {
                if !store.hasGroups || !sharedGroups.holds(existing, group: store.groups[index], store) {
                    representativeOf[index] = existing
                    if store.hasGroups { sharedGroups.add(store.groups[index], to: existing) }
                    continue
                }
                exact[value: slot] = Int32(index)
            }
            if existing < 0 { exact[value: slot] = Int32(index) }  // else: the slot's low key bits collide; no merge
            representatives.append(Int32(index))
            representativeOf[index] = Int32(index)
        }

        let links = candidateLinks(store, representatives)
        let root = join(store, links, count: count, groups: sharedGroups)

        // Arrays only for the clusters of two or more: most headlines are alone.
        var sizeOfRoot = [Int32](repeating: 0, count: count)
        for index in 0..<count where representativeOf[index] >= 0 { sizeOfRoot[Int(root(Int(representativeOf[index])))] += 1 }
        var clusterOfRoot = [Int32](repeating: -1, count: count)
        var clusters: [[Int]] = []
        for index in 0..<count where representativeOf[index] >= 0 {
            let top = Int(root(Int(representativeOf[index])))
            guard sizeOfRoot[top] > 1 else { continue }
            if clusterOfRoot[top] < 0 {
                clusterOfRoot[top] = Int32(clusters.count)
                clusters.append([])
                clusters[clusters.count - 1].reserveCapacity(Int(sizeOfRoot[top]))
            }
            clusters[Int(clusterOfRoot[top])].append(index)
        }
        return clusters
    }

    /// How many distinct headlines may share a shingle for it to take part in the MinHash signatures. Shingles
    /// shared by more (`trump`, `china`, `中国`, `2024`) still count in the verification, but in a signature they
    /// would make every pair of headlines that mention the same subject a candidate: the number of candidates would
    /// grow with the square of the input. With the cap, a headline meets at most ~16 others through each shingle.
    static let informativeLimit = 16

    /// A headline with fewer informative shingles than this tops them up with frequent ones.
    static let minimumInformative = 3

    /// The shingles each representative contributes to its MinHash signature: those shared by at most
    /// ``informativeLimit`` representatives, topped up to ``minimumInformative`` with the least common of its frequent
    /// ones if it has fewer. (In a large input of similar headlines most shingles are frequent; topping up with the
    /// least common keeps the buckets those headlines fall in small: a company's name rather than a phrase every
    /// third headline has.)
    private func signatureShingles(_ store: HeadlineFingerprints, _ representatives: [Int32]) -> (shingles: [UInt32], ends: [Int32]) {
        var frequency = ShingleFrequency()
        store.shingles.withUnsafeBufferPointer { shingles in
            frequency.count(representatives.lazy.map { UnsafeBufferPointer(rebasing: shingles[store.shingleRange(Int($0))]) })
        }
        var selected: [UInt32] = []
        var ends: [Int32] = []
        selected.reserveCapacity(store.shingles.count)
        ends.reserveCapacity(representatives.count)
        var topUp: [UInt64] = []
        for representative in representatives {
            let range = store.shingleRange(Int(representative))
            let start = selected.count
            for shingle in store.shingles[range] where !frequency.isFrequent(shingle) { selected.append(shingle) }
            if selected.count - start < Self.minimumInformative {
                // Too few rare shingles: add the least common of the frequent ones (ties by id) until there are
                // enough to hash.
                // The counts' first slots are asked for all of them before the lookups, so that their cache misses
                // overlap.
                topUp.removeAll(keepingCapacity: true)
                for shingle in store.shingles[range] where frequency.isFrequent(shingle) {
                    topUp.append(UInt64(shingle))
                    frequency.prefetch(shingle)
                }
                for index in topUp.indices {
                    topUp[index] |= UInt64(frequency.occurrences(of: UInt32(truncatingIfNeeded: topUp[index]))) << 32
                }
                topUp.sort()
                for entry in topUp.prefix(Self.minimumInformative - (selected.count - start)) {
                    selected.append(UInt32(truncatingIfNeeded: entry))
                }
            }
            ends.append(Int32(selected.count))
        }
        return (selected, ends)
    }

    /// The verified pairs among `representatives`: pairs that share LSH buckets in at least
    /// ``MinHashBanding/minimumCollisions`` bands, whose numbers agree, whose Jaccard similarity is at least the
    /// threshold and that no structural check vetoes. Each pair appears once.
    private func candidateLinks(_ store: HeadlineFingerprints, _ representatives: [Int32]) -> [Link] {
        var links: [Link] = []
        guard representatives.count > 1 else { return links }
        let (signatureShingles, ends) = signatureShingles(store, representatives)
        // Every key is written by bucketKeys: the array is not zeroed first (with a million headlines, 128 MB).
        let keys = [UInt32](unsafeUninitializedCapacity: representatives.count * banding.bands) { keys, initialized in
            signatureShingles.withUnsafeBufferPointer { shingles in
                ends.withUnsafeBufferPointer { ends in
                    banding.bucketKeys(shingles: shingles, ends: ends, into: keys)
                }
            }
            initialized = keys.count
        }
        // Candidate pairs from every band: a pair that shares buckets in k bands is added k times. Pairs with at least
        // `minimumCollisions` are verified, once each and in order (the earlier headline's data is read sequentially).
        // A pair whose shingle outlines show it below the threshold is not added at all: with a million headlines most
        // pairs that meet in a bucket are unrelated headlines (only some 1% of those that meet twice verify), and
        // storing, sorting and checking them took more time, growing faster than the input, than anything else here.
        // Leaving out pairs that verification would reject changes no cluster.
        let outlines = representatives.map { ShingleOutline(store.shingles[store.shingleRange(Int($0))]) }
        let pairs = PairBlocks(positions: representatives.count, pairsPerPosition: 16)
        var partitions = BandPartitions(count: representatives.count)
        keys.withUnsafeBufferPointer { keys in
            outlines.withUnsafeBufferPointer { outlines in
                for band in 0..<banding.bands {
                    let bandKeys = UnsafeBufferPointer(rebasing: keys[band * representatives.count..<(band + 1) * representatives.count])
                    let refinements = (1...Self.refinementLevels).map { level in
                        let other = (band + level) % banding.bands
                        return UnsafeBufferPointer(rebasing: keys[other * representatives.count..<(other + 1) * representatives.count])
                    }
                    partitions.forEachBucketMember(
                        keys: bandKeys, outlines: outlines, threshold: threshold, refinements: refinements, sizeLimit: bucketSizeLimit,
                        scanLimit: bucketScanLimit
                    ) { earlier, later in
                        pairs.append(earlier: earlier, later: later)
                    }
                }
            }
        }
        // The pairs that share enough bands, as positions in `representatives`: the later one's representative is
        // looked up only for a pair its sketch does not rule out (with a million headlines, each lookup a cache miss).
        var candidates: [(first: Int32, second: Int32)] = []
        pairs.forEachPair(addedAtLeast: banding.minimumCollisions) { earlier, later in
            candidates.append((Int32(truncatingIfNeeded: earlier), Int32(truncatingIfNeeded: later)))
        }
        // Each representative's sketch, by position: most candidates are ruled out by the earlier headline's shingles
        // (read in order) against the later one's sketch (24 bytes), without reading the later headline's shingles.
        var sketches = [ShingleSketch](repeating: ShingleSketch(), count: representatives.count)
        store.shingles.withUnsafeBufferPointer { shingles in
            sketches.withUnsafeMutableBufferPointer { sketches in
                for (position, representative) in representatives.enumerated() {
                    for shingle in shingles[store.shingleRange(Int(representative))] { sketches[position].insert(shingle) }
                }
            }
        }
        // The later headline of each pair is anywhere in the store (with a million headlines, a cache miss each), so
        // its sketch is asked for 32 candidates ahead, and the processor overlaps the misses instead of waiting for one
        // after the other. The pairs the sketches leave are verified in a second pass, where the later headline's
        // fingerprint (its shingles, numbers and tokens, each a miss of its own) is asked for a few pairs ahead too.
        let distance = 32
        var survivors: [(first: Int32, second: Int32)] = []
        store.shingles.withUnsafeBufferPointer { shingles in
            sketches.withUnsafeBufferPointer { sketches in
                representatives.withUnsafeBufferPointer { representatives in
                    for candidate in candidates.indices {
                        if candidate + distance < candidates.count {
                            Prefetch.element(Int(candidates[candidate + distance].second), of: sketches)
                        }
                        let first = Int(representatives[Int(candidates[candidate].first)])
                        let later = Int(candidates[candidate].second)
                        guard
                            sketches[later].mayReach(threshold, with: UnsafeBufferPointer(rebasing: shingles[store.shingleRange(first)]))
                        else { continue }
                        survivors.append((Int32(first), representatives[later]))
                    }
                }
            }
        }
        for index in survivors.indices {
            if index + 16 < survivors.count { store.prefetchEnds(Int(survivors[index + 16].second)) }
            if index + 8 < survivors.count { store.prefetchFingerprint(Int(survivors[index + 8].second)) }
            let first = Int(survivors[index].first)
            let second = Int(survivors[index].second)
            // The groups are read only for the few pairs that reach the threshold (each a cache miss with many headlines).
            guard let similarity = similarity(store, first, second), !store.shareGroup(first, second),
                HeadlineComparison.veto(store, first, second) == nil
            else { continue }
            let keys = (store.contentKeys[first], store.contentKeys[second])
            links.append(
                Link(first: Int32(first), second: Int32(second), similarity: similarity, keys: keys.0 < keys.1 ? keys : (keys.1, keys.0)))
        }
        return links
    }

    /// The similarity of headlines `first` and `second` if it reaches the threshold and their numbers agree, else
    /// nil (the structural checks come after).
    @inline(__always)
    private func similarity(_ store: HeadlineFingerprints, _ first: Int, _ second: Int) -> Double? {
        let a = store.shingleRange(first).count
        let b = store.shingleRange(second).count
        // J ≤ min/max, so a pair whose sizes differ too much cannot reach the threshold.
        guard Double(min(a, b)) >= threshold * Double(max(a, b)) else { return nil }
        let similarity = store.jaccard(first, second)  // first: most candidates fail here, and numbers are more memory
        guard similarity >= threshold, numbersAgree(store, first, second) else { return nil }
        return similarity
    }

    /// Joins linked headlines into clusters, most similar pairs first. Two clusters are not joined when they hold
    /// headlines of one group, when their numbers disagree or when any two of their members are different stories
    /// by ``HeadlineComparison`` (so `金价再创历史新高` cannot chain `黄金价格…` and `白银价格…` together). Returns each
    /// headline's cluster root.
    private func join(_ store: HeadlineFingerprints, _ links: [Link], count: Int, groups: RepresentativeGroups) -> (Int) -> Int32 {
        let ordered = links.sorted { left, right in
            if left.similarity != right.similarity { return left.similarity > right.similarity }
            if left.keys.0 != right.keys.0 { return left.keys.0 < right.keys.0 }
            return left.keys.1 < right.keys.1
        }
        var sets = DisjointSets(count: count)
        var members: [Int32: [Int32]] = [:]
        // Each cluster's groups, sorted, when the headlines have groups (a representative's are those of its headlines).
        var groupsOfRoot: [Int32: [Int32]] = [:]
        for link in ordered {
            let a = sets.find(Int(link.first))
            let b = sets.find(Int(link.second))
            guard a != b else { continue }
            // Each cluster's numbers are those of one member (its "number owner"): every join keeps the larger
            // multiset, so the owner's numbers include every other member's.
            let ownerA = Int(sets.numberOwner[a])
            let ownerB = Int(sets.numberOwner[b])
            guard numbersAgree(store, ownerA, ownerB) else { continue }
            let membersA = members[Int32(a)] ?? [Int32(a)]
            let membersB = members[Int32(b)] ?? [Int32(b)]
            guard !anyVeto(store, membersA, membersB, except: (link.first, link.second)) else { continue }
            var joinedGroups: [Int32] = []
            if store.hasGroups {
                guard
                    let merged = Self.disjointUnion(
                        groupsOfRoot[Int32(a)] ?? groups.groups(of: Int32(a), store),
                        groupsOfRoot[Int32(b)] ?? groups.groups(of: Int32(b), store))
                else { continue }
                joinedGroups = merged
            }
            let relation = store.numberRelation(ownerA, ownerB)
            let owner = relation == .secondIsSubset || !store.hasNumbers(ownerB) ? ownerA : ownerB
            let root = sets.union(a, b, numberOwner: Int32(owner))
            members[Int32(a)] = nil
            members[Int32(b)] = nil
            members[Int32(root)] = membersA + membersB
            if store.hasGroups {
                groupsOfRoot[Int32(a)] = nil
                groupsOfRoot[Int32(b)] = nil
                groupsOfRoot[Int32(root)] = joinedGroups
            }
        }
        let roots = (0..<count).map { Int32(sets.find($0)) }
        return { roots[$0] }
    }

    /// The union of two sorted lists of groups, or nil when they share one.
    private static func disjointUnion(_ first: [Int32], _ second: [Int32]) -> [Int32]? {
        var union: [Int32] = []
        union.reserveCapacity(first.count + second.count)
        var i = 0
        var j = 0
        while i < first.count || j < second.count {
            if j == second.count || (i < first.count && first[i] < second[j]) {
                union.append(first[i])
                i += 1
            } else if i == first.count || second[j] < first[i] {
                union.append(second[j])
                j += 1
            } else {
                return nil
            }
        }
        return union
    }

    /// The most members of each cluster that are checked against the other cluster before a join.
    static let joinCheckLimit = 16

    /// Whether some member of `first` and some member of `second` are different stories (the pair that links the
    /// two clusters has been checked already).
    private func anyVeto(_ store: HeadlineFingerprints, _ first: [Int32], _ second: [Int32], except link: (Int32, Int32)) -> Bool {
        for x in first.prefix(Self.joinCheckLimit) {
            for y in second.prefix(Self.joinCheckLimit) {
                if (x == link.0 && y == link.1) || (x == link.1 && y == link.0) { continue }
                if HeadlineComparison.veto(store, Int(x), Int(y)) != nil { return true }
            }
        }
        return false
    }
}

/// The groups of the headlines each representative stands for, when it stands for more than its own: which
/// representatives a headline may join, and which groups a cluster holds.
private struct RepresentativeGroups {
    /// For a representative that stands for headlines of other groups than its own, those groups, in the order
    /// they came.
    private var more: [Int32: [Int32]] = [:]

    /// Whether representative `representative` stands for a headline of `group` (never, for a group of its own).
    func holds(_ representative: Int32, group: Int32, _ store: HeadlineFingerprints) -> Bool {
        guard group >= 0 else { return false }
        return store.groups[Int(representative)] == group || more[representative]?.contains(group) == true
    }

    /// Records that `representative` stands for a headline of `group` too.
    mutating func add(_ group: Int32, to representative: Int32) {
        guard group >= 0 else { return }
        more[representative, default: []].append(group)
    }

    /// The groups of the headlines `representative` stands for, sorted (without the groups of their own).
    func groups(of representative: Int32, _ store: HeadlineFingerprints) -> [Int32] {
        let own = store.groups[Int(representative)]
        return ((own >= 0 ? [own] : []) + (more[representative] ?? [])).sorted()
    }
}

/// Union–find over `0..<count` with path halving and union by size, plus the number owner of each set.
private struct DisjointSets {
    /// Each element's parent; a root is its own parent.
    private var parent: [Int32]
    /// The size of each root's set.
    private var size: [Int32]
    /// For each root, the member whose numbers stand for the whole set.
    private(set) var numberOwner: [Int32]

    /// `count` singleton sets.
    init(count: Int) {
        parent = (0..<Int32(count)).map { $0 }
        size = [Int32](repeating: 1, count: count)
        numberOwner = parent
    }

    /// The root of `element`'s set.
    mutating func find(_ element: Int) -> Int {
        var current = element
        while parent[current] != Int32(current) {
            let grandparent = parent[Int(parent[current])]
            parent[current] = grandparent
            current = Int(grandparent)
        }
        return current
    }

    /// Merges the sets with roots `a` and `b`; returns the new root.
    @discardableResult
    mutating func union(_ a: Int, _ b: Int, numberOwner owner: Int32) -> Int {
        let (big, small) = size[a] >= size[b] ? (a, b) : (b, a)
        parent[small] = Int32(big)
        size[big] += size[small]
        numberOwner[big] = owner
        return big
    }
}

/// A headline's shingle set in 24 bytes: how many shingles it has and a 128-bit map with bit `shingle >> 25` set for
/// each. How many of another headline's shingles the map may contain bounds from above how many the two share, so
/// the Jaccard similarity of most candidate pairs is known to be below the threshold without reading the second
/// headline's shingles.
struct ShingleSketch {
    /// Bits 0–63 of the map.
    var low: UInt64 = 0
    /// Bits 64–127 of the map.
    var high: UInt64 = 0
    /// How many shingles the set has.
    var count: Int32 = 0

    /// Adds a shingle (each shingle of the set once).
    mutating func insert(_ shingle: UInt32) {
        let bit = UInt64(shingle >> 25)
        if bit < 64 { low |= 1 << bit } else { high |= 1 << (bit - 64) }
        count += 1
    }

    /// Whether the map has the shingle's bit (always, when the set has the shingle).
    @inline(__always)
    func mayContain(_ shingle: UInt32) -> Bool {
        let bit = UInt64(shingle >> 25)
        return (bit < 64 ? low >> bit : high >> (bit - 64)) & 1 != 0
    }

    /// Whether the Jaccard similarity of this set and `other` (a sorted set of distinct shingles) can reach
    /// `threshold`: false only when it is certainly below it, by the sizes (as the detector's own check) or by the
    /// shingles of `other` the map may contain (at least as many as the sets share), the bound computed with the
    /// same floating-point division as the similarity itself (rounding is monotonic, so the bound's quotient is
    /// never below the similarity's).
    @inline(__always)
    func mayReach(_ threshold: Double, with other: UnsafeBufferPointer<UInt32>) -> Bool {
        let a = other.count
        let b = Int(count)
        guard Double(min(a, b)) >= threshold * Double(max(a, b)) else { return false }
        var bound = 0
        for shingle in other where mayContain(shingle) { bound += 1 }
        bound = min(bound, b)
        return Double(bound) / Double(a + b - bound) >= threshold
    }
}

/// A headline's shingle set in 64 bits, for a cheap exact test of candidate pairs inside the LSH buckets: a 56-bit map
/// with bit `⌊56·shingle / 2³²⌋` set for each shingle, and the number of shingles (255 standing for "255 or more", or
/// unknown, which never rules a pair out).
///
/// A bit that one map has and the other lacks stands for at least one shingle of the first set that the second does
/// not have, so each set's size less those bits bounds from above how many shingles the two share: for unrelated
/// headlines of 10–30 shingles the bound is well below the threshold, without reading either headline's shingles.
struct ShingleOutline {
    /// The map in the top 56 bits, the count in the low 8.
    private var bits: UInt64

    /// An outline that rules nothing out.
    static let unknown = ShingleOutline(bits: 0xFF)

    private init(bits: UInt64) { self.bits = bits }

    /// The outline of a set of distinct shingles.
    init<Shingles: Sequence<UInt32>>(_ shingles: Shingles) {
        var map: UInt64 = 0
        var count = 0
        for shingle in shingles {
            map |= 1 << ((UInt64(shingle) &* 56) >> 32)
            count += 1
        }
        bits = map << 8 | UInt64(min(count, 255))
    }

    /// The value ``mayReach(_:bar:)`` compares against for `threshold`: a hair below it (2⁻⁴⁰ relative), so that a
    /// multiplication can stand in for the similarity's division. The similarity, a quotient rounded to nearest, is
    /// at least the threshold only if the exact quotient is at least `threshold / (1 + 2⁻⁵³)`; the bar and the
    /// rounded product stay below that, so the test never rules out a pair the similarity would accept.
    static func bar(for threshold: Double) -> Double { threshold * (1 - 0x1p-40) }

    /// Whether the Jaccard similarity of this set and `other` can reach the threshold whose ``bar(for:)`` is `bar`:
    /// false only when it is certainly below it.
    @inline(__always)
    func mayReach(_ other: ShingleOutline, bar: Double) -> Bool {
        let a = Int(truncatingIfNeeded: bits & 0xFF)
        let b = Int(truncatingIfNeeded: other.bits & 0xFF)
        guard a != 255, b != 255, a > 0, b > 0 else { return true }
        let mine = bits >> 8
        let theirs = other.bits >> 8
        let shared = min(a - (mine & ~theirs).nonzeroBitCount, b - (theirs & ~mine).nonzeroBitCount)
        return Double(shared) >= bar * Double(a + b - shared)
    }
}
