/// A set of strings that only answers "seen before?", equal as `String`s are equal (canonical equivalence), without
/// keeping a `String` or hashing one with the standard library's seeded hash: strings that are ASCII, or equal to an
/// ASCII string, are kept as bytes in a ``ByteKeyIndex``; only the rare others go into a `Set<String>`. For the ids
/// of one source's items.
struct SeenStrings {
    private var ascii: ByteKeyIndex
    private var others: Set<String> = []

    /// An empty set with room for `capacity` strings before it grows.
    init(capacity: Int) {
        ascii = ByteKeyIndex(capacity: capacity)
    }

    /// Adds `text`; returns whether it was new.
    mutating func insert(_ text: String) -> Bool {
        // nil when the text is not ASCII (or not stored contiguously); else whether it is new.
        let asASCII = text.utf8.withContiguousStorageIfAvailable { bytes -> Bool? in
            guard Self.isASCII(bytes) else { return nil }
            return ascii.first(bytes, orInsert: 0) == nil  // the value is not used
        }
        if let isNew = asASCII ?? nil { return isNew }
        if let equivalent = ByteKeyIndex.asciiEquivalent(of: text) { return ascii.first(equivalent, orInsert: 0) == nil }
        return others.insert(text).inserted
    }

    private static func isASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var any: UInt8 = 0
        for byte in bytes { any |= byte }
        return any < 0x80
    }
}
