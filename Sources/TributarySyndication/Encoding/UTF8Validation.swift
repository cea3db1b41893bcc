/// Checks UTF-8 quickly: eight ASCII bytes at a time, then the multi-byte rules of RFC 3629
/// (no overlongs, no surrogates, nothing above U+10FFFF).
enum UTF8Validation {
    /// The outcome of a scan.
    struct Result {
        /// Whether every sequence was valid.
        var isValid: Bool
        /// Whether any byte was 0x80 or above.
        var hasNonASCII: Bool
    }

    static func scan(_ bytes: ArraySlice<UInt8>) -> Result {
        bytes.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return Result(isValid: true, hasNonASCII: false) }
            let count = buffer.count
            var index = 0
            var nonASCII = false
            while index < count {
                // Long ASCII stretches: sixteen bytes per test.
                while index + 16 <= count {
                    let pair =
                        UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
                        | UnsafeRawPointer(base + index + 8).loadUnaligned(as: UInt64.self)
                    if pair & 0x8080_8080_8080_8080 != 0 { break }
                    index += 16
                }
                guard index < count else { break }
                if index + 8 <= count {
                    let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
                    if word & 0x8080_8080_8080_8080 == 0 {
                        index += 8
                        continue
                    }
                }
                let lead = base[index]
                if lead < 0x80 {
                    index += 1
                    continue
                }
                nonASCII = true
                // The usual non-ASCII character (CJK among them): a three-byte sequence whose
                // lead byte puts no extra bound on the second byte.
                if lead & 0xF0 == 0xE0, lead != 0xE0, lead != 0xED, index + 2 < count, base[index + 1] & 0xC0 == 0x80,
                    base[index + 2] & 0xC0 == 0x80
                {
                    index += 3
                    // A run of them (CJK text) stays here, a character per four-byte load.
                    while index + 4 <= count {
                        let bytes = UInt32(littleEndian: UnsafeRawPointer(base + index).loadUnaligned(as: UInt32.self))
                        let next = UInt8(truncatingIfNeeded: bytes)
                        guard bytes & 0x00C0_C0F0 == 0x0080_80E0, next != 0xE0, next != 0xED else { break }
                        index += 3
                    }
                    continue
                }
                let length: Int
                var lower: UInt8 = 0x80
                var upper: UInt8 = 0xBF
                switch lead {
                case 0xC2...0xDF: length = 2
                case 0xE0:
                    length = 3
                    lower = 0xA0
                case 0xE1...0xEC, 0xEE...0xEF: length = 3
                case 0xED:
                    length = 3
                    upper = 0x9F
                case 0xF0:
                    length = 4
                    lower = 0x90
                case 0xF1...0xF3: length = 4
                case 0xF4:
                    length = 4
                    upper = 0x8F
                default: return Result(isValid: false, hasNonASCII: true)
                }
                guard index + length <= count else { return Result(isValid: false, hasNonASCII: true) }
                let second = base[index + 1]
                guard second >= lower, second <= upper else { return Result(isValid: false, hasNonASCII: true) }
                var offset = 2
                while offset < length {
                    guard base[index + offset] & 0xC0 == 0x80 else { return Result(isValid: false, hasNonASCII: true) }
                    offset += 1
                }
                index += length
            }
            return Result(isValid: true, hasNonASCII: nonASCII)
        }
    }
}
