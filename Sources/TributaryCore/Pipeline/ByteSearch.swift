/// Substring search on UTF-8 bytes, for the pipeline's hot paths: Foundation's `contains` compares with
/// canonical equivalence through `NSString` and costs a microsecond or more per call.
enum ByteSearch {
    /// Whether `needle`'s UTF-8 bytes occur in `text`'s (an empty needle always does).
    static func contains(_ text: String, _ needle: String) -> Bool {
        var text = text
        var needle = needle
        return text.withUTF8 { haystack in
            needle.withUTF8 { needle in contains(haystack, needle) }
        }
    }

    /// Whether `needle` occurs in `haystack`.
    static func contains(_ haystack: UnsafeBufferPointer<UInt8>, _ needle: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let first = needle.first else { return true }
        guard haystack.count >= needle.count else { return false }
        let last = haystack.count - needle.count
        var start = 0
        while start <= last {
            if haystack[start] == first {
                var matched = 1
                while matched < needle.count && haystack[start + matched] == needle[matched] { matched += 1 }
                if matched == needle.count { return true }
            }
            start += 1
        }
        return false
    }

    /// Whether a byte search in `text` finds exactly what a search by characters with canonical equivalence would:
    /// true when every scalar of both texts is ASCII or in a block without canonical decompositions or combining
    /// marks (CJK ideographs and punctuation, general punctuation, full-width forms but the two sound marks).
    static func isBytewiseSearchable(_ text: String) -> Bool {
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0..<0x80, 0x2002...0x206F, 0x3000...0x3029, 0x3030...0x303F, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xFF01...0xFF9D,
                0xFFA0...0xFFEF:
                continue
            default:
                return false
            }
        }
        return true
    }
}
