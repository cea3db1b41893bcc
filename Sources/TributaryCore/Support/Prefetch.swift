import CLinux
import TributaryModel

/// Hints that bring memory into the cache a little before a loop reads it: the elements of large tables read in no
/// order, and an item's heap blocks. Each of an item's texts and its metrics is a heap block of its own, so a loop
/// over many items waits for one cache miss after another at their first bytes; asked for a few items ahead, those
/// misses overlap the work on the items before.
///
/// A hint never touches the block: a copy of a text or a dictionary (or any use that retains it) would itself wait
/// for the memory, so the address is read from the value's representation on 64-bit Linux. A string's second word
/// holds its storage's address (its UTF-8 32 bytes on) unless bit 61 marks a small string, whose bytes are in the
/// words themselves; a dictionary or an array is the address of its storage (an array's elements 32 bytes on). A
/// prefetch never faults, so were the layout to differ, the cost would be a wasted hint, never a wrong result.
enum Prefetch {
    /// Where an item's title, summary, link, metrics and tags lie in it (stored properties, so they have offsets).
    private static let offsets = (
        title: MemoryLayout<Item>.offset(of: \.title)!, summary: MemoryLayout<Item>.offset(of: \.summary)!,
        url: MemoryLayout<Item>.offset(of: \.url)!, metrics: MemoryLayout<Item>.offset(of: \.metrics)!,
        tags: MemoryLayout<Item>.offset(of: \.tags)!, id: MemoryLayout<Item>.offset(of: \.id)!
    )

    /// How many items ahead a loop over items asks for an item's blocks: far enough for the misses to overlap the
    /// work on the items before, near enough for the lines to be in the cache when the loop gets there.
    static let itemsAhead = 4

    /// How many items ahead preparing asks for an item's fields (it does little else with an item).
    static let preparedAhead = 8

    /// Asks for what normalizing and the rules read of an item: the first bytes of its title, summary and link, its
    /// tags and its metrics.
    @inline(__always)
    static func fields(of item: UnsafePointer<Item>) {
        let texts = textBytes(of: item)
        if let title = texts.title { tributary_prefetch(title) }
        if let summary = texts.summary { tributary_prefetch(summary) }
        if let url = texts.url { tributary_prefetch(url) }
        // Short tags are in the array's elements themselves.
        tributary_prefetch(UnsafeRawPointer(bitPattern: tagsStorage(of: item) &+ 32))
        tributary_prefetch(UnsafeRawPointer(bitPattern: metricsStorage(of: item)))
    }

    /// Asks for what preparing reads of an item: the first bytes of its id (to drop a repeated id) and of its link
    /// (to check that it is a web link) and, when the source adds tags, its tags.
    @inline(__always)
    static func preparedFields(of item: UnsafePointer<Item>, tags: Bool) {
        if let id = bytes(ofStringAt: UnsafeRawPointer(item) + offsets.id) { tributary_prefetch(id) }
        if let url = bytes(ofStringAt: UnsafeRawPointer(item) + offsets.url) { tributary_prefetch(url) }
        // The array's count is 16 bytes into its storage, its elements 32.
        if tags { tributary_prefetch(UnsafeRawPointer(bitPattern: tagsStorage(of: item) &+ 16)) }
    }

    /// Where the UTF-8 of the item's title, summary and link start (nil for a small or missing one).
    @inline(__always)
    static func textBytes(of item: UnsafePointer<Item>) -> (title: UnsafeRawPointer?, summary: UnsafeRawPointer?, url: UnsafeRawPointer?) {
        let raw = UnsafeRawPointer(item)
        let offsets = offsets
        return (bytes(ofStringAt: raw + offsets.title), bytes(ofStringAt: raw + offsets.summary), bytes(ofStringAt: raw + offsets.url))
    }

    /// Asks for the item's metrics dictionary: its header, and the two lines after it, where a small dictionary keeps
    /// its buckets, keys and values.
    @inline(__always)
    static func metrics(of item: UnsafePointer<Item>) {
        let storage = metricsStorage(of: item)
        for line in 0..<3 { tributary_prefetch(UnsafeRawPointer(bitPattern: storage &+ UInt(line * 64))) }
    }

    /// The address of the item's metrics dictionary's storage.
    @inline(__always)
    static func metricsStorage(of item: UnsafePointer<Item>) -> UInt {
        UnsafeRawPointer(item).load(fromByteOffset: offsets.metrics, as: UInt.self)
    }

    /// The address of the item's tags array's storage (its elements start 32 bytes on).
    @inline(__always)
    static func tagsStorage(of item: UnsafePointer<Item>) -> UInt {
        UnsafeRawPointer(item).load(fromByteOffset: offsets.tags, as: UInt.self)
    }

    /// Asks for the element at `index` of `buffer` (in bounds).
    @inline(__always)
    static func element<Element>(_ index: Int, of buffer: UnsafeBufferPointer<Element>) {
        tributary_prefetch(buffer.baseAddress! + index)
    }

    /// Where the UTF-8 of the (optional) string whose representation is at `pointer` starts, if it is kept apart
    /// from it (nil for a small string, and for nil, whose second word is zero).
    @inline(__always)
    static func bytes(ofStringAt pointer: UnsafeRawPointer) -> UnsafeRawPointer? {
        let object = pointer.load(fromByteOffset: 8, as: UInt64.self)
        let address = UInt(object & 0x0FFF_FFFF_FFFF_FFFF)
        guard object & (1 << 61) == 0, address != 0 else { return nil }
        return UnsafeRawPointer(bitPattern: address &+ 32)
    }
}
