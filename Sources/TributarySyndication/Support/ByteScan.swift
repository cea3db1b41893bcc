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

    /// Whether `byte` is an ASCII letter.
    @inline(__always)
    static func isASCIILetter(_ byte: UInt8) -> Bool {
        byte | 0x20 &- UInt8(ascii: "a") < 26
    }

    /// Whether `byte` is an ASCII letter or digit.
    @inline(__always)
    static func isASCIIAlphanumeric(_ byte: UInt8) -> Bool {
        isASCIILetter(byte) || byte &- UInt8(ascii: "0") < 10
    }

    /// `byte` in lower case when it is an ASCII capital letter, else as it is.
    @inline(__always)
    static func lowercasedASCII(_ byte: UInt8) -> UInt8 {
        byte &- UInt8(ascii: "A") < 26 ? byte | 0x20 : byte
    }

    /// Whether the bytes at `index` (an 0xEF) are U+FFFE or U+FFFF (EF BF BE, EF BF BF), the
    /// two noncharacters XML 1.0 does not allow, which every text path drops.
    @inline(__always)
    static func isNonCharacter(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> Bool {
        index + 2 < bytes.count && bytes[index + 1] == 0xBF && bytes[index + 2] & 0xFE == 0xBE
    }

    // MARK: Sixteen bytes at a time

    /// The same tests on two words at once, lane by lane: `SIMD2<UInt64>` arithmetic is one
    /// vector register (SSE2 on x86-64), so sixteen bytes cost about what eight did. (Byte-lane
    /// comparisons such as `SIMD16<UInt8> .==` compile to a loop over the lanes, far slower.)
    typealias Pair = SIMD2<UInt64>

    /// The sixteen bytes at `index` (which must leave sixteen bytes in `bytes`), first byte lowest
    /// (lanes are read little-endian, as on every platform Tributary builds for).
    @inline(__always)
    static func pair(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> Pair {
        UnsafeRawPointer(bytes.baseAddress.unsafelyUnwrapped + index).loadUnaligned(as: Pair.self)
    }

    /// `mask(of:below:)` of each word.
    @inline(__always)
    static func mask(of pair: Pair, below limit: UInt8) -> Pair {
        (pair &- Pair(repeating: ones &* UInt64(limit))) & ~pair & Pair(repeating: highs)
    }

    /// `mask(of:equalTo:)` of each word.
    @inline(__always)
    static func mask(of pair: Pair, equalTo byte: UInt8) -> Pair {
        let difference = pair ^ Pair(repeating: ones &* UInt64(byte))
        return (difference &- Pair(repeating: ones)) & ~difference & Pair(repeating: highs)
    }

    /// Whether a mask of a pair has a flag.
    @inline(__always)
    static func any(_ mask: Pair) -> Bool {
        mask[0] | mask[1] != 0
    }

    /// The offset (0–15) of the first flagged byte of a pair's mask that has one: the lowest
    /// flag of each word's mask is exact.
    @inline(__always)
    static func firstFlag(_ mask: Pair) -> Int {
        mask[0] != 0 ? mask[0].trailingZeroBitCount >> 3 : 8 + mask[1].trailingZeroBitCount >> 3
    }

    /// The number of UTF-8 continuation bytes (10xxxxxx) in `bytes`: its length less this is
    /// its number of scalars. Counted sixteen bytes at a time, in byte lanes summed every 255
    /// rounds (before a lane can overflow).
    static func continuationBytes(in bytes: UnsafeBufferPointer<UInt8>) -> Int {
        let count = bytes.count
        var total = 0
        var index = 0
        while index + 16 <= count {
            var lanes = Pair(repeating: 0)
            var rounds = 0
            while index + 16 <= count, rounds < 255 {
                let pair = ByteScan.pair(bytes, at: index)
                lanes &+= (pair & ~(pair &<< 1) & Pair(repeating: highs)) &>> 7
                index += 16
                rounds += 1
            }
            // Byte lanes to 16-bit lanes (at most 510 each), then their sum in the top 16 bits.
            let halves = (lanes & Pair(repeating: 0x00FF_00FF_00FF_00FF)) &+ ((lanes &>> 8) & Pair(repeating: 0x00FF_00FF_00FF_00FF))
            let sums = (halves &* Pair(repeating: 0x0001_0001_0001_0001)) &>> 48
            total += Int(sums[0] &+ sums[1])
        }
        while index < count {
            if bytes[index] & 0xC0 == 0x80 { total += 1 }
            index += 1
        }
        return total
    }
}
