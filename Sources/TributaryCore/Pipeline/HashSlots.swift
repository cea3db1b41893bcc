/// An open-addressing table of numbered keys that are kept elsewhere: each slot holds the high 32 bits of a key's
/// hash and the key's number plus one (zero: an empty slot), so that a probe rejects other keys without reading them.
/// ``ByteKeyIndex`` keeps its keys in a buffer of its own; the same-link stage reads them where ``LinkKeys`` has them.
struct HashSlots {
    private var slots: [UInt64]
    /// `slots.count − 1` (a power of two).
    private var mask: Int
    /// How many keys are filed.
    private(set) var count = 0

    /// An empty table that holds `capacity` keys before it is more than half full.
    init(capacity: Int) {
        var size = 16
        while size < capacity * 2 { size <<= 1 }
        slots = [UInt64](repeating: 0, count: size)
        mask = size - 1
    }

    /// Whether the table is more than half full (probes get long): time to ``grow(hashes:)``.
    var isCrowded: Bool { count * 2 > slots.count }

    /// Looks `hash` up: the number of the first key filed under it that `isEqual` accepts (asked only of keys whose
    /// hashes share their high 32 bits), else nil and the empty slot where the key is to be filed.
    @inline(__always)
    func find(_ hash: UInt64, isEqual: (Int) -> Bool) -> (number: Int?, slot: Int) {
        let tag = hash & 0xFFFF_FFFF_0000_0000
        var slot = Int(truncatingIfNeeded: hash) & mask
        while slots[slot] != 0 {
            if slots[slot] & 0xFFFF_FFFF_0000_0000 == tag {
                let number = Int(slots[slot] & 0xFFFF_FFFF) - 1
                if isEqual(number) { return (number, slot) }
            }
            slot = (slot + 1) & mask
        }
        return (nil, slot)
    }

    /// Files key `number` (below 2³² − 1) with `hash` in `slot`, the empty slot ``find(_:isEqual:)`` gave for it.
    @inline(__always)
    mutating func file(_ number: Int, hash: UInt64, at slot: Int) {
        slots[slot] = hash & 0xFFFF_FFFF_0000_0000 | UInt64(number + 1)
        count += 1
    }

    /// Asks for the slot where a probe for `hash` starts: a loop that knows the hashes of the keys it looks up next
    /// overlaps their cache misses (in a table of a million keys, each is one).
    @inline(__always)
    func prefetch(_ hash: UInt64) {
        slots.withUnsafeBufferPointer { Prefetch.element(Int(truncatingIfNeeded: hash) & mask, of: $0) }
    }

    /// Doubles the table; `hashes[number]` is the hash of each filed key.
    mutating func grow(hashes: [UInt64]) {
        let old = slots
        slots = [UInt64](repeating: 0, count: old.count * 2)
        mask = slots.count - 1
        for entry in old where entry != 0 {
            let number = Int(entry & 0xFFFF_FFFF) - 1
            var slot = Int(truncatingIfNeeded: hashes[number]) & mask
            while slots[slot] != 0 { slot = (slot + 1) & mask }
            slots[slot] = entry
        }
    }
}
