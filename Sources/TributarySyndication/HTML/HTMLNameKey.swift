/// An element or attribute name of up to 16 ASCII bytes packed into two words, lower-cased, so
/// the allow-lists are searched straight from libxml2's C strings without building a `String`,
/// and a name is written back without reference counting.
struct HTMLNameKey: Comparable, Sendable {
    /// The longest name a key holds; longer names are on no list.
    static let maximumLength = 16

    /// Bytes 0–7 and 8–15 of the name, first byte lowest; unused bytes are zero.
    private var low: UInt64 = 0
    private var high: UInt64 = 0

    /// The key of a NUL-terminated name; nil when it is empty or longer than `maximumLength`.
    init?(_ name: UnsafePointer<UInt8>) {
        var length = 0
        while name[length] != 0 {
            if length == Self.maximumLength { return nil }
            add(name[length], at: length)
            length += 1
        }
        if length == 0 { return nil }
    }

    /// The key of a name given as bytes (any case); nil when it is empty or longer than
    /// `maximumLength`.
    init?(_ name: UnsafeBufferPointer<UInt8>) {
        guard !name.isEmpty, name.count <= Self.maximumLength else { return nil }
        for offset in 0..<name.count {
            add(name[offset], at: offset)
        }
    }

    /// The key of a name from the allow-lists.
    init(_ name: String) {
        precondition(!name.isEmpty && name.utf8.count <= Self.maximumLength, "allow-list name out of range: \(name)")
        for (offset, byte) in name.utf8.enumerated() {
            add(byte, at: offset)
        }
    }

    private mutating func add(_ byte: UInt8, at offset: Int) {
        let lowered = ByteScan.lowercasedASCII(byte)
        if offset < 8 {
            low |= UInt64(lowered) << (8 * offset)
        } else {
            high |= UInt64(lowered) << (8 * (offset - 8))
        }
    }

    /// Appends the name's bytes.
    func write(to bytes: inout [UInt8]) {
        var word = low
        while word != 0 {
            bytes.append(UInt8(truncatingIfNeeded: word))
            word >>= 8
        }
        word = high
        while word != 0 {
            bytes.append(UInt8(truncatingIfNeeded: word))
            word >>= 8
        }
    }

    static func < (left: HTMLNameKey, right: HTMLNameKey) -> Bool {
        (left.low, left.high) < (right.low, right.high)
    }
}

/// A fixed table from names to values, searched by bisection (cheaper than hashing for the few
/// dozen short names on the allow-lists).
struct HTMLNameTable<Value: Sendable>: Sendable {
    private let keys: [HTMLNameKey]
    private let values: [Value]

    init(_ entries: [(String, Value)]) {
        let sorted = entries.map { (HTMLNameKey($0.0), $0.1) }.sorted { $0.0 < $1.0 }
        keys = sorted.map(\.0)
        values = sorted.map(\.1)
        precondition(zip(keys, keys.dropFirst()).allSatisfy { $0 < $1 }, "duplicate name in an allow-list")
    }

    /// The value for a NUL-terminated name, nil when it is not in the table.
    func value(for name: UnsafePointer<UInt8>) -> Value? {
        HTMLNameKey(name).flatMap { value(for: $0) }
    }

    /// The value for a name's key, nil when it is not in the table.
    func value(for key: HTMLNameKey) -> Value? {
        var lower = 0
        var upper = keys.count
        while lower < upper {
            let middle = (lower + upper) / 2
            if keys[middle] < key {
                lower = middle + 1
            } else {
                upper = middle
            }
        }
        return lower < keys.count && keys[lower] == key ? values[lower] : nil
    }
}
