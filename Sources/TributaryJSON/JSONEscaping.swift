/// The string escaping both `JSONWriter` and `JSONByteWriter` use: `"`, `\` and control
/// characters (as `\n`, `\r`, `\t`, `\b`, `\f` or `\u00XX`) plus U+2028/U+2029 (as
/// `\u2028`/`\u2029`); every other byte is copied as it is.
///
/// Runs of bytes that need nothing are found sixteen at a time (a few integer operations on two
/// words in one vector register) and copied with one `append`, so long text costs little more
/// than a copy.
enum JSONEscaping {
    /// Appends `input`, escaped, to `output` (without the surrounding quotes).
    static func append(_ input: UnsafeBufferPointer<UInt8>, to output: inout [UInt8]) {
        guard let base = input.baseAddress else { return }
        let count = input.count
        var runStart = 0
        var index = 0
        while index < count {
            if index + 32 <= count {
                // Two words at once, in one vector register (SSE2 on x86-64), two registers per
                // round; lanes are read little-endian, first byte lowest, as on every platform
                // Tributary builds for.
                let first = flagged(UnsafeRawPointer(base + index).loadUnaligned(as: SIMD2<UInt64>.self))
                let second = flagged(UnsafeRawPointer(base + index + 16).loadUnaligned(as: SIMD2<UInt64>.self))
                let both = first | second
                if both[0] | both[1] == 0 {
                    index += 32
                    continue
                }
                // Straight to the first flagged byte (the lowest flag of each word is exact).
                index += first[0] | first[1] != 0 ? firstFlag(first) : 16 + firstFlag(second)
            } else if index + 16 <= count {
                let flags = flagged(UnsafeRawPointer(base + index).loadUnaligned(as: SIMD2<UInt64>.self))
                if flags[0] | flags[1] == 0 {
                    index += 16
                    continue
                }
                index += firstFlag(flags)
            } else if index + 8 <= count {
                let word = UInt64(littleEndian: UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self))
                let flags = flagged(word)
                if flags == 0 {
                    index += 8
                    continue
                }
                index += flags.trailingZeroBitCount >> 3
            }
            let byte = base[index]
            if byte >= 0x20 && byte != 0x22 && byte != 0x5C && byte != 0xE2 {
                index += 1
                continue
            }
            if byte == 0xE2 {
                // U+2028 / U+2029 are E2 80 A8 / E2 80 A9.
                guard index + 2 < count, base[index + 1] == 0x80, base[index + 2] == 0xA8 || base[index + 2] == 0xA9 else {
                    index += 1
                    continue
                }
                flush(base, from: runStart, to: index, into: &output)
                appendStatic(base[index + 2] == 0xA8 ? "\\u2028" : "\\u2029", to: &output)
                index += 3
                runStart = index
                continue
            }
            flush(base, from: runStart, to: index, into: &output)
            switch byte {
            case 0x22: appendEscape(UInt8(ascii: "\""), to: &output)
            case 0x5C: appendEscape(UInt8(ascii: "\\"), to: &output)
            case 0x0A: appendEscape(UInt8(ascii: "n"), to: &output)
            case 0x0D: appendEscape(UInt8(ascii: "r"), to: &output)
            case 0x09: appendEscape(UInt8(ascii: "t"), to: &output)
            case 0x08: appendEscape(UInt8(ascii: "b"), to: &output)
            case 0x0C: appendEscape(UInt8(ascii: "f"), to: &output)
            default:
                appendStatic("\\u00", to: &output)
                output.append(hexDigit(byte >> 4))
                output.append(hexDigit(byte & 0x0F))
            }
            index += 1
            runStart = index
        }
        flush(base, from: runStart, to: count, into: &output)
    }

    private static let ones: UInt64 = 0x0101_0101_0101_0101
    private static let highs: UInt64 = 0x8080_8080_8080_8080

    /// The high bit of each of the eight bytes of `word` (little-endian) that is a control
    /// character, `"`, `\` or 0xE2 set, and possibly of bytes after the first such byte; zero when
    /// there is none.
    @inline(__always)
    private static func flagged(_ word: UInt64) -> UInt64 {
        let below = (word &- ones &* 0x20) & ~word & highs
        return below | has(word, 0x22) | has(word, 0x5C) | has(word, 0xE2)
    }

    /// `flagged` for two words at once, lane by lane.
    @inline(__always)
    private static func flagged(_ words: SIMD2<UInt64>) -> SIMD2<UInt64> {
        let ones = SIMD2<UInt64>(repeating: Self.ones)
        let highs = SIMD2<UInt64>(repeating: Self.highs)
        func has(_ byte: UInt8) -> SIMD2<UInt64> {
            let difference = words ^ (ones &* UInt64(byte))
            return (difference &- ones) & ~difference & highs
        }
        let below = (words &- ones &* 0x20) & ~words & highs
        return below | has(0x22) | has(0x5C) | has(0xE2)
    }

    /// The offset (0–15) of the first flagged byte of two words' flags, when there is one.
    @inline(__always)
    private static func firstFlag(_ flags: SIMD2<UInt64>) -> Int {
        flags[0] != 0 ? flags[0].trailingZeroBitCount >> 3 : 8 + flags[1].trailingZeroBitCount >> 3
    }

    @inline(__always)
    private static func has(_ word: UInt64, _ byte: UInt8) -> UInt64 {
        let difference = word ^ (ones &* UInt64(byte))
        return (difference &- ones) & ~difference & highs
    }

    @inline(__always)
    private static func flush(_ base: UnsafePointer<UInt8>, from start: Int, to end: Int, into output: inout [UInt8]) {
        guard start < end else { return }
        output.append(contentsOf: UnsafeBufferPointer(start: base + start, count: end - start))
    }

    @inline(__always)
    private static func appendStatic(_ text: StaticString, to output: inout [UInt8]) {
        text.withUTF8Buffer { output.append(contentsOf: $0) }
    }

    /// A backslash and `letter`: two single appends cost less than one of a two-byte buffer.
    @inline(__always)
    private static func appendEscape(_ letter: UInt8, to output: inout [UInt8]) {
        output.append(0x5C)
        output.append(letter)
    }

    @inline(__always)
    private static func hexDigit(_ value: UInt8) -> UInt8 {
        value < 10 ? 0x30 + value : 0x57 + value
    }
}
