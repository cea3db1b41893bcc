/// Derives item ids that stay the same across runs, machines and Swift versions.
///
/// Swift's `Hasher` is seeded per process, so it cannot make stable ids. This uses 64-bit
/// FNV-1a over the UTF-8 bytes of the parts, each part followed by a 0x1F separator so that
/// `("ab", "c")` and `("a", "bc")` differ. The scheme is versioned: changing it changes every
/// derived id, which the state store must migrate.
public enum StableID {
    /// The version of how ids are derived, here and by the parsers; bump it when a derivation
    /// changes, and the state migrates the stored ids (matching items by link and title).
    /// 2: an RSS or Atom item without an id of its own is identified by its link alone (by link
    /// and title in 1, so a corrected headline made a new item), unless another item of its
    /// document has the same link.
    public static let schemeVersion = 2

    /// A 16-hex-digit digest of the parts, e.g. `"a3f29c01d4e5b687"`.
    public static func digest(_ parts: String...) -> String {
        digest(parts)
    }

    /// A 16-hex-digit digest of the parts, e.g. `"a3f29c01d4e5b687"`.
    public static func digest(_ parts: [String]) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        // Over the bytes in place where the string keeps them together (a configuration's whole text is one part).
        func add<Bytes: Sequence<UInt8>>(_ bytes: Bytes) {
            for byte in bytes {
                hash ^= UInt64(byte)
                hash &*= 0x0000_0100_0000_01b3
            }
        }
        for part in parts {
            if part.utf8.withContiguousStorageIfAvailable(add) == nil { add(part.utf8) }
            hash ^= 0x1F
            hash &*= 0x0000_0100_0000_01b3
        }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }
}
