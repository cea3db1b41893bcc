/// An index from byte strings to the first position that had each, without a `String` a key: the keys sit back to
/// back in one buffer and a ``HashSlots`` table of their hashes points into it. For the ids of a source's items
/// (``SeenStrings``).
struct ByteKeyIndex {
    /// The keys, back to back.
    private var bytes: [UInt8] = []
    /// Where each key starts in `bytes` (and, one further, where it ends).
    private var starts: [Int] = [0]
    /// Each key's hash.
    private var hashes: [UInt64] = []
    /// Each key's value (the position that first had it).
    private var values: [Int] = []
    /// The keys' numbers by their hashes.
    private var table: HashSlots

    /// An empty index with room for `capacity` keys before it grows.
    init(capacity: Int) {
        table = HashSlots(capacity: capacity)
        bytes.reserveCapacity(capacity * 48)
        starts.reserveCapacity(capacity + 1)
        hashes.reserveCapacity(capacity)
        values.reserveCapacity(capacity)
    }

    /// The value of `key` if it is in the index; otherwise adds it with `value` and returns nil.
    mutating func first(_ key: [UInt8], orInsert value: Int) -> Int? {
        key.withUnsafeBufferPointer { first($0, orInsert: value) }
    }

    /// ``first(_:orInsert:)`` for a key in a buffer.
    mutating func first(_ key: UnsafeBufferPointer<UInt8>, orInsert value: Int) -> Int? {
        let hash = Self.hash(key)
        let found = table.find(hash) { number in
            hashes[number] == hash && bytes[starts[number]..<starts[number + 1]].elementsEqual(key)
        }
        if let number = found.number { return values[number] }
        table.file(values.count, hash: hash, at: found.slot)
        bytes.append(contentsOf: key)
        starts.append(bytes.count)
        hashes.append(hash)
        values.append(value)
        if table.isCrowded { table.grow(hashes: hashes) }
        return nil
    }

    /// A 64-bit hash of the bytes, eight at a time.
    static func hash(_ key: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var state = StableHash.offsetBasis ^ UInt64(key.count)
        var index = 0
        if let base = key.baseAddress {
            while index + 8 <= key.count {
                let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
                state = StableHash.mix(state ^ word)
                index += 8
            }
        }
        var tail: UInt64 = 0
        while index < key.count {
            tail = tail << 8 | UInt64(key[index])
            index += 1
        }
        return StableHash.mix(state ^ tail &* StableHash.prime)
    }

    /// The ASCII string a `String` equals by canonical equivalence, as bytes, or nil when it equals none. Besides
    /// ASCII itself only three scalars decompose canonically to ASCII: U+037E (`;`), U+1FEF (`` ` ``) and U+212A
    /// (`K`); a text with any other scalar outside ASCII has a normal form outside ASCII too.
    static func asciiEquivalent(of text: String) -> [UInt8]? {
        var result: [UInt8] = []
        result.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0..<0x80: result.append(UInt8(scalar.value))
            case 0x037E: result.append(UInt8(ascii: ";"))
            case 0x1FEF: result.append(UInt8(ascii: "`"))
            case 0x212A: result.append(UInt8(ascii: "K"))
            default: return nil
            }
        }
        return result
    }
}
