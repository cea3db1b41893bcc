/// Which shingles a headline's tokens give (``HeadlineFingerprints/append(_:)`` follows the same plan inline).
///
/// Every word and number is a shingle on its own (a unigram), and every two adjacent tokens form a bigram shingle,
/// whatever their kinds: for Chinese that is character bigrams (`苹果发布` → 苹果, 果发, 发布), for English word
/// unigrams and bigrams (`apple unveils iphone` → apple, unveil, iphone, apple·unveil, unveil·iphone), and a number
/// is one whole token (`6.10`) so `6.10` and `6.11` share nothing. A single CJK character is not a shingle on its
/// own unless it is the whole headline: character unigrams are shared by too many unrelated Chinese headlines.
enum HeadlineShingles {
    /// Calls `body(first, second)` for each shingle of `tokens`: a unigram when `second` is nil, else a bigram.
    @inline(__always)
    static func forEach(_ tokens: [HeadlineToken], _ body: (Int, Int?) -> Void) {
        let count = tokens.count
        if count == 1 {
            body(0, nil)
            return
        }
        for index in 0..<count {
            if tokens[index].kind != .ideograph { body(index, nil) }
            if index + 1 < count { body(index, index + 1) }
        }
    }

    /// The 32-bit shingle id of the unigram of a token with hash `token` (even: the lowest bit tells unigrams from
    /// bigrams).
    @inline(__always)
    static func unigram(_ token: UInt64) -> UInt32 { StableHash.fold(StableHash.mix(token ^ 0x5555_0001)) & ~1 }

    /// The 32-bit shingle id of the bigram of tokens with hashes `first` and `second` (odd).
    @inline(__always)
    static func bigram(_ first: UInt64, _ second: UInt64) -> UInt32 { StableHash.fold(StableHash.combine(first, second)) | 1 }
}

/// The fingerprints of many headlines, in flat arrays: for each headline its shingle set (sorted, unique 32-bit
/// ids) and its number multiset (sorted 64-bit hashes of the canonical numbers). Flat storage keeps 100k headlines
/// in a few megabytes and the comparisons cache-friendly.
struct HeadlineFingerprints {
    /// All shingle sets, back to back.
    private(set) var shingles: [UInt32] = []
    /// Where headline `i`'s shingles end (they start where headline `i − 1`'s end).
    private(set) var shingleEnds: [Int32] = []
    /// All number multisets, back to back.
    private(set) var numbers: [UInt64] = []
    /// Where headline `i`'s numbers end.
    private(set) var numberEnds: [Int32] = []
    /// A hash of each headline's shingles and numbers: equal fingerprints have equal keys.
    private(set) var contentKeys: [UInt64] = []
    /// All token sequences, back to back: 32-bit token ids (for the structural checks of ``HeadlineComparison``).
    private(set) var tokenIDs: [UInt32] = []
    /// For each token in `tokenIDs`, its ``TokenFlags``.
    private(set) var tokenFlags: [UInt8] = []
    /// Where headline `i`'s tokens end.
    private(set) var tokenEnds: [Int32] = []
    /// Each headline's group (its source, for the pipeline), or −1 for a group of its own: two headlines of one group
    /// are never near-duplicates.
    private(set) var groups: [Int32] = []
    /// Whether some headline has a group (else every headline is one of its own).
    private(set) var hasGroups = false

    /// What the structural checks need to know about a token besides its id.
    enum TokenFlags {
        /// The token is a CJK character.
        static let ideograph: UInt8 = 1
        /// The token is a word.
        static let word: UInt8 = 2
        /// The token is a number.
        static let number: UInt8 = 4
        /// The token is a name (see ``HeadlineToken/isName``).
        static let name: UInt8 = 8
    }

    /// The tokenizer, with its reusable buffers.
    private var tokenizer = HeadlineTokenizer()

    /// An empty store with room for `capacity` headlines. The room for their tokens and shingles is generous (a
    /// Chinese headline has a token a character, twenty or thirty): what is reserved and not used is never touched,
    /// while outgrowing it copies everything stored so far into new memory.
    init(capacity: Int = 0) {
        shingles.reserveCapacity(capacity * 32)
        shingleEnds.reserveCapacity(capacity)
        tokenIDs.reserveCapacity(capacity * 24)
        tokenFlags.reserveCapacity(capacity * 24)
        tokenEnds.reserveCapacity(capacity)
        groups.reserveCapacity(capacity)
        numberEnds.reserveCapacity(capacity)
        contentKeys.reserveCapacity(capacity)
    }

    /// How many headlines the store holds.
    var count: Int { shingleEnds.count }

    /// Adds a headline of `group` (≥ 0; nil for a group of its own); nil and empty titles get an empty fingerprint
    /// (which never matches anything). The numbers of the bracketed tags the headline's core leaves out
    /// (``HeadlineTokenizer/tagNumbers``) count with its own.
    mutating func append(_ title: String?, group: Int32? = nil) {
        let shingleStart = shingles.count
        let numberStart = numbers.count
        if let title, !title.isEmpty {
            tokenizer.tokenize(title)
            tokenizer.tokens.withUnsafeBufferPointer { tokens in
                let count = tokens.count
                for index in 0..<count {
                    let token = tokens[index]
                    if count == 1 || token.kind != .ideograph {
                        shingles.append(HeadlineShingles.unigram(token.hash))
                    }
                    if index + 1 < count {
                        shingles.append(HeadlineShingles.bigram(token.hash, tokens[index + 1].hash))
                    }
                    if token.kind == .number { numbers.append(token.hash) }
                    tokenIDs.append(StableHash.fold(token.hash))
                    tokenFlags.append(Self.flags(token))
                }
            }
            numbers.append(contentsOf: tokenizer.tagNumbers)
        }
        if let group {
            precondition(group >= 0, "groups are not negative")
            hasGroups = true
        }
        groups.append(group ?? -1)
        var key = StableHash.start(0x4B45_59)
        let unique = shingles.withUnsafeMutableBufferPointer { all -> Int in
            let unique = Self.sortUnique(UnsafeMutableBufferPointer(rebasing: all[shingleStart...]))
            for shingle in all[shingleStart..<shingleStart + unique] { key = StableHash.add(key, shingle) }
            return unique
        }
        shingles.removeLast(shingles.count - shingleStart - unique)
        key = StableHash.add(key, 0xFFFF_FFFF)
        if numbers.count - numberStart > 1 { numbers[numberStart...].sort() }
        for number in numbers[numberStart...] {
            key = StableHash.add(StableHash.add(key, UInt32(truncatingIfNeeded: number)), UInt32(truncatingIfNeeded: number >> 32))
        }
        shingleEnds.append(Int32(shingles.count))
        numberEnds.append(Int32(numbers.count))
        tokenEnds.append(Int32(tokenIDs.count))
        contentKeys.append(StableHash.finish(key))
    }

    /// Adds the headlines of `other` after these, in their order: the store made of two stores is the one their
    /// headlines appended one by one would have made.
    mutating func append(contentsOf other: HeadlineFingerprints) {
        let shingleBase = Int32(shingles.count)
        let numberBase = Int32(numbers.count)
        let tokenBase = Int32(tokenIDs.count)
        shingles.append(contentsOf: other.shingles)
        numbers.append(contentsOf: other.numbers)
        tokenIDs.append(contentsOf: other.tokenIDs)
        tokenFlags.append(contentsOf: other.tokenFlags)
        shingleEnds.append(contentsOf: other.shingleEnds.lazy.map { $0 + shingleBase })
        numberEnds.append(contentsOf: other.numberEnds.lazy.map { $0 + numberBase })
        tokenEnds.append(contentsOf: other.tokenEnds.lazy.map { $0 + tokenBase })
        contentKeys.append(contentsOf: other.contentKeys)
        groups.append(contentsOf: other.groups)
        hasGroups = hasGroups || other.hasGroups
    }

    /// Keeps the headlines whose flag in `keep` (one a headline) is true, in their order.
    mutating func compact(keep: [Bool]) {
        precondition(keep.count == count, "one flag a headline")
        var kept = 0
        var shingleWrite = 0
        var numberWrite = 0
        var tokenWrite = 0
        var shingleStart = 0
        var numberStart = 0
        var tokenStart = 0
        for index in 0..<count {
            let shingleEnd = Int(shingleEnds[index])
            let numberEnd = Int(numberEnds[index])
            let tokenEnd = Int(tokenEnds[index])
            if keep[index] {
                Self.moveDown(&shingles, shingleStart..<shingleEnd, to: shingleWrite)
                Self.moveDown(&numbers, numberStart..<numberEnd, to: numberWrite)
                Self.moveDown(&tokenIDs, tokenStart..<tokenEnd, to: tokenWrite)
                Self.moveDown(&tokenFlags, tokenStart..<tokenEnd, to: tokenWrite)
                shingleWrite += shingleEnd - shingleStart
                numberWrite += numberEnd - numberStart
                tokenWrite += tokenEnd - tokenStart
                shingleEnds[kept] = Int32(shingleWrite)
                numberEnds[kept] = Int32(numberWrite)
                tokenEnds[kept] = Int32(tokenWrite)
                contentKeys[kept] = contentKeys[index]
                groups[kept] = groups[index]
                kept += 1
            }
            shingleStart = shingleEnd
            numberStart = numberEnd
            tokenStart = tokenEnd
        }
        shingles.removeLast(shingles.count - shingleWrite)
        numbers.removeLast(numbers.count - numberWrite)
        tokenIDs.removeLast(tokenIDs.count - tokenWrite)
        tokenFlags.removeLast(tokenFlags.count - tokenWrite)
        shingleEnds.removeLast(shingleEnds.count - kept)
        numberEnds.removeLast(numberEnds.count - kept)
        tokenEnds.removeLast(tokenEnds.count - kept)
        contentKeys.removeLast(contentKeys.count - kept)
        groups.removeLast(groups.count - kept)
    }

    /// Moves `array[range]` to start at `position` (at most `range.lowerBound`).
    private static func moveDown<Element>(_ array: inout [Element], _ range: Range<Int>, to position: Int) {
        guard position != range.lowerBound else { return }
        for from in range { array[position + from - range.lowerBound] = array[from] }
    }

    /// Sorts `values` and moves the distinct ones to the front; returns how many there are. Insertion sort: a
    /// headline has a few dozen shingles at most.
    private static func sortUnique(_ buffer: UnsafeMutableBufferPointer<UInt32>) -> Int {
        var values = buffer
        let count = values.count
        guard count > 1 else { return count }
        if count > 64 {
            values.sort()
        } else {
            for index in 1..<count {
                let value = values[index]
                var position = index
                while position > 0 && values[position - 1] > value {
                    values[position] = values[position - 1]
                    position -= 1
                }
                values[position] = value
            }
        }
        var unique = 1
        for index in 1..<count where values[index] != values[unique - 1] {
            values[unique] = values[index]
            unique += 1
        }
        return unique
    }

    /// The flags of a token.
    private static func flags(_ token: HeadlineToken) -> UInt8 {
        let kind: UInt8
        switch token.kind {
        case .ideograph: kind = TokenFlags.ideograph
        case .word: kind = TokenFlags.word
        case .number: kind = TokenFlags.number
        }
        return token.isName ? kind | TokenFlags.name : kind
    }

    /// The range of headline `index`'s tokens in `tokenIDs` and `tokenFlags`.
    @inline(__always)
    func tokenRange(_ index: Int) -> Range<Int> {
        (index == 0 ? 0 : Int(tokenEnds[index - 1]))..<Int(tokenEnds[index])
    }

    /// The range of headline `index`'s shingles in `shingles`.
    @inline(__always)
    func shingleRange(_ index: Int) -> Range<Int> {
        (index == 0 ? 0 : Int(shingleEnds[index - 1]))..<Int(shingleEnds[index])
    }

    /// The range of headline `index`'s numbers in `numbers`.
    @inline(__always)
    func numberRange(_ index: Int) -> Range<Int> {
        (index == 0 ? 0 : Int(numberEnds[index - 1]))..<Int(numberEnds[index])
    }

    /// Asks for where headline `index`'s shingles, numbers and tokens end (what ``prefetchFingerprint(_:)`` reads).
    @inline(__always)
    func prefetchEnds(_ index: Int) {
        shingleEnds.withUnsafeBufferPointer { Prefetch.element(index, of: $0) }
        numberEnds.withUnsafeBufferPointer { Prefetch.element(index, of: $0) }
        tokenEnds.withUnsafeBufferPointer { Prefetch.element(index, of: $0) }
    }

    /// Asks for the first lines of headline `index`'s shingles, numbers, tokens and token flags, and its content key:
    /// what verifying a pair reads of it.
    @inline(__always)
    func prefetchFingerprint(_ index: Int) {
        let shingleStart = shingleRange(index).lowerBound
        shingles.withUnsafeBufferPointer { shingles in
            guard shingleStart < shingles.count else { return }
            Prefetch.element(shingleStart, of: shingles)
            if shingleStart + 16 < shingles.count { Prefetch.element(shingleStart + 16, of: shingles) }
        }
        let numbers = numberRange(index)
        if !numbers.isEmpty { self.numbers.withUnsafeBufferPointer { Prefetch.element(numbers.lowerBound, of: $0) } }
        let tokenStart = tokenRange(index).lowerBound
        tokenIDs.withUnsafeBufferPointer { if tokenStart < $0.count { Prefetch.element(tokenStart, of: $0) } }
        tokenFlags.withUnsafeBufferPointer { if tokenStart < $0.count { Prefetch.element(tokenStart, of: $0) } }
        contentKeys.withUnsafeBufferPointer { Prefetch.element(index, of: $0) }
    }

    /// Whether headline `index` has no shingles (nil, empty, or nothing but punctuation).
    @inline(__always)
    func isEmpty(_ index: Int) -> Bool { shingleRange(index).isEmpty }

    /// The Jaccard similarity of the shingle sets of headlines `first` and `second`: shared shingles over all
    /// shingles. Zero when either is empty.
    func jaccard(_ first: Int, _ second: Int) -> Double {
        let a = shingleRange(first)
        let b = shingleRange(second)
        guard !a.isEmpty, !b.isEmpty else { return 0 }
        return shingles.withUnsafeBufferPointer { all in
            var i = a.lowerBound
            var j = b.lowerBound
            var shared = 0
            while i < a.upperBound && j < b.upperBound {
                let x = all[i]
                let y = all[j]
                if x == y {
                    shared += 1
                    i += 1
                    j += 1
                } else if x < y {
                    i += 1
                } else {
                    j += 1
                }
            }
            return Double(shared) / Double(a.count + b.count - shared)
        }
    }

    /// How the number multisets of two headlines relate.
    enum NumberRelation: Equatable {
        /// The same multiset (both may be empty).
        case equal
        /// The first headline's numbers are a proper sub-multiset of the second's (the first may have none).
        case firstIsSubset
        /// The second headline's numbers are a proper sub-multiset of the first's.
        case secondIsSubset
        /// Each headline has a number the other lacks (`Linux 6.10` vs `Linux 6.11`).
        case conflict
    }

    /// How the numbers of headlines `first` and `second` relate.
    func numberRelation(_ first: Int, _ second: Int) -> NumberRelation {
        let a = numberRange(first)
        let b = numberRange(second)
        var i = a.lowerBound
        var j = b.lowerBound
        var onlyFirst = false
        var onlySecond = false
        while i < a.upperBound && j < b.upperBound {
            let x = numbers[i]
            let y = numbers[j]
            if x == y {
                i += 1
                j += 1
            } else if x < y {
                onlyFirst = true
                i += 1
            } else {
                onlySecond = true
                j += 1
            }
        }
        if i < a.upperBound { onlyFirst = true }
        if j < b.upperBound { onlySecond = true }
        switch (onlyFirst, onlySecond) {
        case (false, false): return .equal
        case (false, true): return .firstIsSubset
        case (true, false): return .secondIsSubset
        case (true, true): return .conflict
        }
    }

    /// Whether headline `index` has any number.
    func hasNumbers(_ index: Int) -> Bool { !numberRange(index).isEmpty }

    /// Whether headlines `first` and `second` are of one group (never near-duplicates).
    @inline(__always)
    func shareGroup(_ first: Int, _ second: Int) -> Bool { groups[first] >= 0 && groups[first] == groups[second] }
}

extension HeadlineShingles {
    /// The shingles of `title` as strings, sorted: a unigram is its token, a bigram its two tokens joined by a space,
    /// or directly for two CJK characters (for tests and explanations).
    static func describe(_ title: String) -> [String] {
        var tokenizer = HeadlineTokenizer()
        tokenizer.tokenize(title)
        let tokens = tokenizer.tokens
        var result: [String] = []
        forEach(tokens) { first, second in
            let head = tokenizer.string(of: tokens[first])
            guard let second else {
                result.append(head)
                return
            }
            let bothCJK = tokens[first].kind == .ideograph && tokens[second].kind == .ideograph
            result.append(head + (bothCJK ? "" : " ") + tokenizer.string(of: tokens[second]))
        }
        return result.sorted()
    }
}
