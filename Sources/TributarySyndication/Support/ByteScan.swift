/// Word-at-a-time tests over UTF-8, for the loops that skip plain text: eight bytes are checked
/// for "anything special" with a few integer operations instead of eight comparisons.
enum ByteScan {
    private static let ones: UInt64 = 0x0101_0101_0101_0101
    private static let highs: UInt64 = 0x8080_8080_8080_8080

    /// Whether some byte of `word` is below `limit` (at most 0x80).
    @inline(__always)
    static func hasByte(in word: UInt64, below limit: UInt8) -> Bool {
        (word &- ones &* UInt64(limit)) & ~word & highs != 0
    }

    /// Whether some byte of `word` equals `byte`.
    @inline(__always)
    static func hasByte(in word: UInt64, equalTo byte: UInt8) -> Bool {
        let difference = word ^ (ones &* UInt64(byte))
        return (difference &- ones) & ~difference & highs != 0
    }

    /// The high bit of each byte of `word` below `limit` (at most 0x80), and possibly of bytes
    /// after the first such byte; zero when there is none. Masks of several tests are combined
    /// with `|` and tested once, without a branch per test.
    @inline(__always)
    static func mask(of word: UInt64, below limit: UInt8) -> UInt64 {
        (word &- ones &* UInt64(limit)) & ~word & highs
    }

    /// The high bit of each byte of `word` equal to `byte`, and possibly of bytes after the
    /// first such byte; zero when there is none.
    @inline(__always)
    static func mask(of word: UInt64, equalTo byte: UInt8) -> UInt64 {
        let difference = word ^ (ones &* UInt64(byte))
        return (difference &- ones) & ~difference & highs
    }

    /// The eight bytes at `index` (which must leave eight bytes in `bytes`), first byte lowest.
    @inline(__always)
    static func word(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> UInt64 {
        UInt64(littleEndian: UnsafeRawPointer(bytes.baseAddress.unsafelyUnwrapped + index).loadUnaligned(as: UInt64.self))
    }
}
