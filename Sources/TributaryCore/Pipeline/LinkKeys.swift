/// The same-link keys (``CanonicalURL/key(for:)``) of a run's items, one after another in one buffer with their
/// hashes, taken while each item's link is still in the cache from normalizing: the same-link stage then reads them in
/// order instead of every link again (with a million items, a cache miss each), and knows the hashes of the keys it
/// looks up next.
struct LinkKeys: Sendable {
    /// How an item's key is kept.
    enum Form: UInt8, Sendable {
        /// The item has no key: no link, or not an absolute http(s) URL.
        case none
        /// Its key is ASCII (or equal to an ASCII string), in the buffer as bytes.
        case bytes
        /// Its key is a string with characters outside ASCII (kept apart: such a key equals another only by
        /// canonical equivalence, as strings are compared).
        case unicode
    }

    private var bytes: [UInt8] = []
    private var ends: [Int] = []
    private var hashes: [UInt64] = []
    private var forms: [Form] = []
    /// The keys of the ``Form/unicode`` items, by position.
    private var unicodeKeys: [Int: String] = [:]

    /// Empty, with room for `capacity` items.
    init(capacity: Int) {
        bytes.reserveCapacity(capacity * 48)
        ends.reserveCapacity(capacity)
        hashes.reserveCapacity(capacity)
        forms.reserveCapacity(capacity)
    }

    /// How many items the store holds.
    var count: Int { forms.count }

    /// Adds the key of an item's link.
    mutating func append(_ url: String?, canonical: CanonicalURL) {
        let start = bytes.count
        var form = Form.none
        if let url {
            // The byte parser reads plain ASCII links; the others (non-ASCII, `%` in a query name …) go the general
            // way, and a key that comes out ASCII is kept as bytes all the same, to meet the same key from another link.
            if canonical.appendKey(for: url, to: &bytes) {
                form = .bytes
            } else if let key = canonical.key(for: url) {
                if let ascii = ByteKeyIndex.asciiEquivalent(of: key) {
                    bytes.append(contentsOf: ascii)
                    form = .bytes
                } else {
                    unicodeKeys[forms.count] = key
                    form = .unicode
                }
            }
        }
        hashes.append(form == .bytes ? bytes.withUnsafeBufferPointer { ByteKeyIndex.hash(UnsafeBufferPointer(rebasing: $0[start...])) } : 0)
        forms.append(form)
        ends.append(bytes.count)
    }

    /// Adds the keys of `other` after these.
    mutating func append(contentsOf other: LinkKeys) {
        let base = bytes.count
        let offset = count
        bytes.append(contentsOf: other.bytes)
        ends.append(contentsOf: other.ends.lazy.map { $0 + base })
        hashes.append(contentsOf: other.hashes)
        forms.append(contentsOf: other.forms)
        for (position, key) in other.unicodeKeys { unicodeKeys[position + offset] = key }
    }

    /// The key of a ``Form/unicode`` item.
    func unicodeKey(_ index: Int) -> String? { unicodeKeys[index] }

    /// The store's arrays, for a loop over every item.
    func withStorage<Result>(_ body: (Storage) -> Result) -> Result {
        bytes.withUnsafeBufferPointer { bytes in
            ends.withUnsafeBufferPointer { ends in
                hashes.withUnsafeBufferPointer { hashes in
                    forms.withUnsafeBufferPointer { forms in body(Storage(bytes: bytes, ends: ends, hashes: hashes, forms: forms)) }
                }
            }
        }
    }

    /// A view of the store's arrays.
    struct Storage {
        let bytes: UnsafeBufferPointer<UInt8>
        let ends: UnsafeBufferPointer<Int>
        /// Each ``Form/bytes`` key's ``ByteKeyIndex/hash(_:)`` (zero for the other forms).
        let hashes: UnsafeBufferPointer<UInt64>
        let forms: UnsafeBufferPointer<Form>

        /// Item `index`'s key bytes (empty unless its form is ``Form/bytes``).
        @inline(__always)
        func key(_ index: Int) -> UnsafeBufferPointer<UInt8> {
            UnsafeBufferPointer(rebasing: bytes[(index == 0 ? 0 : ends[index - 1])..<ends[index]])
        }
    }
}
