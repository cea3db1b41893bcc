/// The same-link keys (``CanonicalURL/key(for:)``) of a run's items, one after another in one buffer, taken while
/// each item's link is still in the cache from normalizing: the same-link stage then reads them in order instead of
/// every link again (with a million items, a cache miss each).
struct LinkKeys: Sendable {
    /// How an item's key is found.
    enum Form: UInt8, Sendable {
        /// The item has no link.
        case none
        /// Its key's bytes are in the buffer.
        case bytes
        /// The byte parser does not read the link (non-ASCII, `%` in a query name, no http(s) URL at all …): the key,
        /// if there is one, is found from the link the general way when it is needed.
        case general
    }

    private var bytes: [UInt8] = []
    private var ends: [Int] = []
    private var forms: [Form] = []

    /// Empty, with room for `capacity` items.
    init(capacity: Int) {
        bytes.reserveCapacity(capacity * 48)
        ends.reserveCapacity(capacity)
        forms.reserveCapacity(capacity)
    }

    /// How many items the store holds.
    var count: Int { forms.count }

    /// Adds the key of an item's link.
    mutating func append(_ url: String?, canonical: CanonicalURL) {
        let form: Form
        if let url { form = canonical.appendKey(for: url, to: &bytes) ? .bytes : .general } else { form = .none }
        forms.append(form)
        ends.append(bytes.count)
    }

    /// Adds the keys of `other` after these.
    mutating func append(contentsOf other: LinkKeys) {
        let base = bytes.count
        bytes.append(contentsOf: other.bytes)
        ends.append(contentsOf: other.ends.lazy.map { $0 + base })
        forms.append(contentsOf: other.forms)
    }

    /// Item `index`'s form and, for ``Form/bytes``, its key.
    func withKey<Result>(_ index: Int, _ body: (Form, UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        let start = index == 0 ? 0 : ends[index - 1]
        return bytes.withUnsafeBufferPointer { body(forms[index], UnsafeBufferPointer(rebasing: $0[start..<ends[index]])) }
    }
}
