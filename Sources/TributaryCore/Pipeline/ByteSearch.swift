/// Substring search on UTF-8 bytes, for the pipeline's hot paths: Foundation's `contains` compares with
/// canonical equivalence through `NSString` and costs a microsecond or more per call.
enum ByteSearch {
    /// Whether `needle`'s UTF-8 bytes occur in `text`'s (an empty needle always does).
    static func contains(_ text: String, _ needle: String) -> Bool {
        text.withUTF8Bytes { haystack in
            needle.withUTF8Bytes { needle in contains(haystack, needle) }
        }
    }

    /// Whether `needle` occurs in `haystack`.
    static func contains(_ haystack: UnsafeBufferPointer<UInt8>, _ needle: UnsafeBufferPointer<UInt8>) -> Bool {
        contains(haystack, needle, reading: { $0 })
    }

    /// Whether `needle` occurs in `haystack` read through `read` (each haystack byte mapped first).
    @inline(__always)
    private static func contains(
        _ haystack: UnsafeBufferPointer<UInt8>, _ needle: UnsafeBufferPointer<UInt8>, reading read: (UInt8) -> UInt8
    ) -> Bool {
        guard let first = needle.first else { return true }
        guard haystack.count >= needle.count else { return false }
        let last = haystack.count - needle.count
        var start = 0
        while start <= last {
            if read(haystack[start]) == first {
                var matched = 1
                while matched < needle.count && read(haystack[start + matched]) == needle[matched] { matched += 1 }
                if matched == needle.count { return true }
            }
            start += 1
        }
        return false
    }

    /// The byte with A–Z lower-cased.
    @inline(__always)
    static func lowerASCII(_ byte: UInt8) -> UInt8 { byte &- 0x41 < 26 ? byte | 0x20 : byte }

    /// Whether `needle` occurs in `haystack` with its A–Z lower-cased: for a text that ``isCaseSimple(_:)``, what a
    /// byte search in `String.lowercased()` of it finds, without making that string.
    static func containsLowercased(_ haystack: UnsafeBufferPointer<UInt8>, _ needle: UnsafeBufferPointer<UInt8>) -> Bool {
        contains(haystack, needle, reading: lowerASCII)
    }

    /// Whether `haystack` begins with `prefix` once its A–Z are lower-cased.
    static func hasPrefixLowercased(_ haystack: UnsafeBufferPointer<UInt8>, _ prefix: some Collection<UInt8>) -> Bool {
        guard haystack.count >= prefix.count else { return false }
        var index = 0
        for byte in prefix {
            if lowerASCII(haystack[index]) != byte { return false }
            index += 1
        }
        return true
    }

    /// Whether `haystack` begins with `prefix`.
    static func hasPrefix(_ haystack: UnsafeBufferPointer<UInt8>, _ prefix: UnsafeBufferPointer<UInt8>) -> Bool {
        guard haystack.count >= prefix.count else { return false }
        for index in prefix.indices where haystack[index] != prefix[index] { return false }
        return true
    }

    /// Whether a byte search in `text` finds exactly what a search by characters with canonical equivalence would:
    /// true when every scalar of both texts is ASCII or in a block without canonical decompositions or combining
    /// marks (CJK ideographs and punctuation, general punctuation, full-width forms but the two sound marks).
    static func isBytewiseSearchable(_ text: String) -> Bool {
        text.withUTF8Bytes { bytes in allScalars(bytes, ideographsPass: true, isBytewiseSearchableScalar) }
    }

    /// A scalar value in the blocks of ``isBytewiseSearchable(_:)`` (ASCII aside).
    @inline(__always)
    static func isBytewiseSearchableScalar(_ value: UInt32) -> Bool {
        switch value {
        case 0..<0x80, 0x2002...0x206F, 0x3000...0x3029, 0x3030...0x303F, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xFF01...0xFF9D,
            0xFFA0...0xFFEF:
            true
        default: false
        }
    }

    /// Whether the text in `bytes` is bytewise searchable (``isBytewiseSearchable(_:)``) and `String.lowercased()`
    /// changes nothing in it but A–Z: every scalar is ASCII or in one of those blocks, the full-width capitals
    /// `Ａ`–`Ｚ` excepted. No such scalar case-folds to ASCII either, so case-insensitive matching of an ASCII pattern
    /// in such a text is ASCII case-insensitive matching.
    static func isCaseSimple(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        allScalars(bytes, ideographsPass: true) { value in isBytewiseSearchableScalar(value) && !(0xFF21...0xFF3A).contains(value) }
    }

    /// Whether `test` holds for every scalar outside ASCII of the valid UTF-8 in `bytes` (only scalars of three
    /// bytes, U+0800…U+FFFF, are ever accepted). With `ideographsPass` (`test` accepts every scalar in
    /// U+5000…U+9FFF, CJK ideographs all), those are passed over by their first byte, without decoding them.
    @inline(__always)
    static func allScalars(_ bytes: UnsafeBufferPointer<UInt8>, ideographsPass: Bool = false, _ test: (UInt32) -> Bool) -> Bool {
        guard let base = bytes.baseAddress else { return true }
        let count = bytes.count
        var index = 0
        while index < count {
            // Eight ASCII bytes at a time.
            while index + 8 <= count {
                let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
                if word & 0x8080_8080_8080_8080 != 0 { break }
                index += 8
            }
            guard index < count else { break }
            let byte = bytes[index]
            if byte < 0x80 {
                index += 1
                continue
            }
            guard byte & 0xF0 == 0xE0, index + 2 < count else { return false }
            if ideographsPass && byte &- 0xE5 < 5 {  // E5–E9: U+5000…U+9FFF
                index += 3
                continue
            }
            let value = UInt32(byte & 0x0F) << 12 | UInt32(bytes[index + 1] & 0x3F) << 6 | UInt32(bytes[index + 2] & 0x3F)
            guard test(value) else { return false }
            index += 3
        }
        return true
    }

    /// Whether every byte is ASCII (eight at a time).
    static func isASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        allScalars(bytes) { _ in false }
    }

    /// Whether `text` with its A–Z lower-cased is `lowered`.
    static func equalsLowercased(_ text: UnsafeBufferPointer<UInt8>, _ lowered: UnsafeBufferPointer<UInt8>) -> Bool {
        guard text.count == lowered.count else { return false }
        for index in text.indices where lowerASCII(text[index]) != lowered[index] { return false }
        return true
    }

    /// Whether the two byte strings are equal once A–Z are lower-cased.
    static func equalIgnoringASCIICase(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Bool {
        guard a.count == b.count else { return false }
        for index in a.indices where a[index] != b[index] && lowerASCII(a[index]) != lowerASCII(b[index]) { return false }
        return true
    }

    /// Whether the bytes hold an A–Z.
    static func hasUppercaseASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        bytes.contains { $0 &- 0x41 < 26 }
    }
}

extension String {
    /// `body` over the string's UTF-8 bytes, read in place when the string keeps them contiguously (native and small
    /// strings do), else over a contiguous copy. `withUTF8` needs a mutable copy of the string, which costs a
    /// retain and a release per call.
    @inline(__always)
    func withUTF8Bytes<Result>(_ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        if let result = utf8.withContiguousStorageIfAvailable(body) { return result }
        var copy = self
        return copy.withUTF8(body)
    }
}
