/// The first step of headline normalization: one pass over the Unicode scalars that folds away differences a
/// reader does not see as different: full-width forms (ＡＢＣ１２３，：｜) become ASCII, letters are lower-cased and
/// Latin-1 accents dropped, typographic quotes and dashes become their ASCII forms, CJK brackets (【】〔〕) become
/// `[` `]`, book-title and corner quotes (《》「」) become `"`, invisible characters disappear, and common
/// traditional Chinese characters become simplified ones.
///
/// This is an "NFKC-ish" folding tuned for headlines, not full Unicode normalization: it is a table lookup per
/// scalar, so it costs a few nanoseconds per character.
enum HeadlineFolding {
    /// Scalar values for the ASCII characters the later steps look at.
    enum ASCII {
        static let space: UInt32 = 0x20
        static let exclamation: UInt32 = 0x21
        static let quote: UInt32 = 0x22
        static let apostrophe: UInt32 = 0x27
        static let openParen: UInt32 = 0x28
        static let closeParen: UInt32 = 0x29
        static let comma: UInt32 = 0x2C
        static let hyphen: UInt32 = 0x2D
        static let period: UInt32 = 0x2E
        static let colon: UInt32 = 0x3A
        static let question: UInt32 = 0x3F
        static let openBracket: UInt32 = 0x5B
        static let closeBracket: UInt32 = 0x5D
        static let underscore: UInt32 = 0x5F
        static let bar: UInt32 = 0x7C
        static let zero: UInt32 = 0x30
        static let nine: UInt32 = 0x39
        static let lowerA: UInt32 = 0x61
        static let lowerZ: UInt32 = 0x7A
    }

    /// Base letters for U+00C0…U+00FF (Latin-1 letters with accents), lower-cased; `\0` keeps the scalar.
    private static let latin1: [UInt32] = {
        let letters = "aaaaaaaceeeeiiii" + "dnooooo\0ouuuuyts" + "aaaaaaaceeeeiiii" + "dnooooo\0ouuuuyty"
        return letters.unicodeScalars.map { $0.value }
    }()

    /// Writes the folded form of `title` to the start of `output`, and to `capitals` whether each folded scalar was
    /// an upper-case letter before folding (names and acronyms are capitalized in sentence-case headlines); returns
    /// how many scalars it wrote. The buffers only grow, so folding headline after headline allocates nothing. Decodes
    /// the UTF-8 directly, with fast paths for ASCII and the main CJK block.
    static func fold(_ title: String, into output: inout [UInt32], capitals: inout [Bool]) -> Int {
        if let written = title.utf8.withContiguousStorageIfAvailable({ fold($0, into: &output, capitals: &capitals) }) {
            return written
        }
        var copy = title  // a bridged string: make it native and contiguous
        return copy.withUTF8 { fold($0, into: &output, capitals: &capitals) }
    }

    /// Folds UTF-8 `bytes` into the buffers, growing them if needed.
    private static func fold(_ bytes: UnsafeBufferPointer<UInt8>, into output: inout [UInt32], capitals: inout [Bool]) -> Int {
        if output.count < bytes.count { output = [UInt32](repeating: 0, count: bytes.count * 2) }
        if capitals.count < bytes.count { capitals = [Bool](repeating: false, count: bytes.count * 2) }
        return output.withUnsafeMutableBufferPointer { output in
            capitals.withUnsafeMutableBufferPointer { capitals in
                TraditionalChinese.table.withUnsafeBufferPointer { simplified in
                    fold(bytes, into: output, capitals: capitals, simplified: simplified)
                }
            }
        }
    }

    /// The loop of ``fold(_:into:capitals:)``; `output` and `capitals` have room for one scalar per byte.
    private static func fold(
        _ bytes: UnsafeBufferPointer<UInt8>, into output: UnsafeMutableBufferPointer<UInt32>,
        capitals: UnsafeMutableBufferPointer<Bool>, simplified: UnsafeBufferPointer<UInt16>
    ) -> Int {
        var written = 0
        var index = 0
        let count = bytes.count
        while index < count {
            let lead = UInt32(bytes[index])
            if lead < 0x80 {
                output[written] = foldASCII(lead)
                capitals[written] = lead >= 0x41 && lead <= 0x5A
                written += 1
                index += 1
                continue
            }
            var value: UInt32
            if lead < 0xE0 {
                guard index + 1 < count else { break }
                value = (lead & 0x1F) << 6 | UInt32(bytes[index + 1] & 0x3F)
                index += 2
            } else if lead < 0xF0 {
                guard index + 2 < count else { break }
                value = (lead & 0x0F) << 12 | UInt32(bytes[index + 1] & 0x3F) << 6 | UInt32(bytes[index + 2] & 0x3F)
                index += 3
            } else {
                guard index + 3 < count else { break }
                value = (lead & 0x07) << 18 | UInt32(bytes[index + 1] & 0x3F) << 12
                value |= UInt32(bytes[index + 2] & 0x3F) << 6 | UInt32(bytes[index + 3] & 0x3F)
                index += 4
            }
            if value >= TraditionalChinese.base && value < TraditionalChinese.end {
                let mapped = simplified[Int(value - TraditionalChinese.base)]
                output[written] = mapped == 0 ? value : TraditionalChinese.base + UInt32(mapped) - 1
                capitals[written] = false
                written += 1
            } else if let scalar = Unicode.Scalar(value), let folded = foldOther(scalar) {
                output[written] = folded
                capitals[written] = scalar.properties.isUppercase  // Ａ, É, Д
                written += 1
            }
        }
        return written
    }

    /// ASCII: upper case to lower case, control characters to spaces.
    @inline(__always)
    private static func foldASCII(_ value: UInt32) -> UInt32 {
        if value >= 0x41 && value <= 0x5A { return value + 0x20 }
        if value < 0x20 || value == 0x7F { return ASCII.space }
        return value
    }

    /// Everything outside ASCII and the main CJK block; nil drops the scalar.
    private static func foldOther(_ scalar: Unicode.Scalar) -> UInt32? {
        let value = scalar.value
        switch value {
        case 0xFF01...0xFF5E:  // full-width ASCII
            return foldASCII(value - 0xFEE0)
        case 0x00C0...0x00FF:
            let base = latin1[Int(value - 0xC0)]
            return base != 0 ? base : ASCII.space  // × and ÷ separate
        case 0x00A0, 0x2000...0x200A, 0x202F, 0x205F, 0x3000, 0x00B7, 0x30FB, 0x2022, 0x2026:
            return ASCII.space  // spaces, middle dots, bullets, ellipsis
        case 0x200B...0x200D, 0x2060, 0xFEFF, 0x00AD:
            return nil  // zero-width characters, soft hyphen
        case 0x2010...0x2015, 0x2212, 0xFE58, 0xFE63:
            return ASCII.hyphen
        case 0x2018...0x201B, 0x2032, 0x00B4:
            return ASCII.apostrophe
        case 0x201C...0x201F, 0x2033, 0x00AB, 0x00BB, 0x2039, 0x203A, 0x3008...0x300F, 0xFF62, 0xFF63, 0x301D...0x301F:
            return ASCII.quote
        case 0x3010, 0x3014, 0x3016, 0x3018, 0x301A:
            return ASCII.openBracket
        case 0x3011, 0x3015, 0x3017, 0x3019, 0x301B:
            return ASCII.closeBracket
        case 0x3001, 0x3002, 0xFF61, 0xFF64:
            return ASCII.comma  // 、。
        case 0xFE30...0xFE4F:  // CJK compatibility forms (vertical punctuation)
            return ASCII.space
        default:
            break
        }
        let properties = scalar.properties
        if properties.generalCategory == .nonspacingMark || properties.generalCategory == .enclosingMark { return nil }
        if properties.changesWhenLowercased, let lower = properties.lowercaseMapping.unicodeScalars.first {
            return lower.value
        }
        return value
    }

    /// Whether `value` is a Chinese, Japanese or Korean character: these are shingled character by character.
    @inline(__always)
    static func isCJK(_ value: UInt32) -> Bool {
        switch value {
        case 0x4E00...0x9FFF, 0x3400...0x4DBF, 0x3040...0x30FF, 0xAC00...0xD7AF, 0xF900...0xFAFF, 0x20000...0x2FFFF:
            return true
        default:
            return false
        }
    }

    /// Whether `value` is an ASCII digit.
    @inline(__always)
    static func isDigit(_ value: UInt32) -> Bool { value >= ASCII.zero && value <= ASCII.nine }

    /// Whether `value` is a letter that is part of a word (ASCII or another alphabetic script; not CJK).
    @inline(__always)
    static func isLetter(_ value: UInt32) -> Bool {
        if value < 0x80 { return value >= ASCII.lowerA && value <= ASCII.lowerZ }
        if isCJK(value) { return false }
        guard let scalar = Unicode.Scalar(value) else { return false }
        return scalar.properties.isAlphabetic
    }

    /// Whether `value` is a letter or a digit (part of a word or number token).
    @inline(__always)
    static func isWordCharacter(_ value: UInt32) -> Bool { isDigit(value) || isLetter(value) }
}
