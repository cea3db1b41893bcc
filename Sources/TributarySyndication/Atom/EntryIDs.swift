import TributaryModel

/// The ids of one output document's entries (Atom `id`, RSS `guid`, JSON Feed `id`): each item's
/// `AtomWriter.entryID`, made unique within the document. An id another entry took is qualified
/// with the item's source (`urn:tributary:<source>:<id>`), then numbered.
struct EntryIDs {
    private var used: Set<String>

    init(capacity: Int) {
        used = Set(minimumCapacity: capacity)
    }

    /// The id of `item`, none an earlier entry of the document has.
    mutating func id(for item: Item) -> String {
        var id = AtomWriter.entryID(for: item)
        if used.contains(id) {
            id = AtomWriter.qualifiedID(for: item)
        }
        // The URN can still be taken: by the same item twice, or by an IRI id that is another
        // Tributary's URN. A numeric suffix cannot clash with a URN, whose parts encode ':'.
        var candidate = id
        var suffix = 2
        while used.contains(candidate) {
            candidate = id + ":" + String(suffix)
            suffix += 1
        }
        used.insert(candidate)
        return candidate
    }
}
