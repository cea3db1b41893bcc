/// What one lexical piece of a date text is.
enum DateTokenKind: Equatable {
    /// A run of digits: its value (the first 18 digits) and how many digits there were.
    case number(Int, digits: Int)
    /// A run of letters (ASCII or Latin), lower-cased, combining marks dropped.
    case word(String)
    /// One ASCII punctuation character.
    case symbol(UInt8)
    /// Any other character (CJK and the like), one token each.
    case ideograph(Unicode.Scalar)
}

/// A lexical piece and whether whitespace came before it.
struct DateToken: Equatable {
    var kind: DateTokenKind
    var spaced: Bool
}

/// Splits a date text into numbers, words, ASCII punctuation and single other characters,
/// folding full-width forms to ASCII and every kind of space (NBSP, ideographic space, BOM) to
/// a separator, so that leading and trailing whitespace vanish.
enum DateTokenizer {
    /// Longer texts are not dates (and would only cost time).
    static let maximumLength = 256

    /// The tokens of `text`, or nil when it is too long to be a date.
    static func tokens(_ text: String) -> [DateToken]? {
        guard text.utf8.count <= maximumLength else { return nil }
        var builder = Builder()
        for original in text.unicodeScalars {
            let scalar = fold(original)
            let value = scalar.value
            if value >= 0x30 && value <= 0x39 {
                builder.flushWord()
                builder.addDigit(Int(value - 0x30))
            } else if let letter = lowercasedLetter(scalar) {
                builder.flushNumber()
                builder.addLetter(letter)
            } else if (0x300...0x36F).contains(value) {
                continue  // a combining accent: "de\u{301}c" reads as "dec"
            } else if isSpace(value) {
                builder.flush()
                builder.spaced = true
            } else if value < 0x80 {
                builder.flush()
                builder.append(.symbol(UInt8(value)))
            } else {
                builder.flush()
                builder.append(.ideograph(scalar))
            }
        }
        builder.flush()
        return builder.tokens
    }

    /// Full-width ASCII to ASCII, dashes and the minus sign to `-`, CJK punctuation to ASCII.
    private static func fold(_ scalar: Unicode.Scalar) -> Unicode.Scalar {
        let value = scalar.value
        if value < 0x80 { return scalar }
        switch value {
        case 0xFF01...0xFF5E: return Unicode.Scalar(UInt8(value - 0xFEE0))
        case 0x2010...0x2015, 0x2212: return "-"
        case 0x3001: return ","
        case 0x3002: return "."
        default: return scalar
        }
    }

    private static func isSpace(_ value: UInt32) -> Bool {
        switch value {
        case 0x09...0x0D, 0x20, 0xA0, 0x1680, 0x2000...0x200B, 0x202F, 0x205F, 0x3000, 0xFEFF: true
        default: false
        }
    }

    /// The lower-case form of an ASCII or Latin letter; nil for anything else.
    private static func lowercasedLetter(_ scalar: Unicode.Scalar) -> Unicode.Scalar? {
        let value = scalar.value
        switch value {
        case 0x41...0x5A: return Unicode.Scalar(UInt8(value + 0x20))
        case 0x61...0x7A: return scalar
        case 0xD7, 0xF7: return nil
        case 0xC0...0xDE: return Unicode.Scalar(value + 0x20) ?? scalar
        case 0xDF...0x24F: return scalar
        default: return nil
        }
    }

    /// Accumulates the current number or word and the tokens so far.
    private struct Builder {
        var tokens: [DateToken] = []
        var spaced = false
        private var number = 0
        private var digits = 0
        private var word = ""

        init() { tokens.reserveCapacity(24) }

        mutating func addDigit(_ digit: Int) {
            if digits < 18 { number = number * 10 + digit }
            digits += 1
        }

        mutating func addLetter(_ letter: Unicode.Scalar) { word.unicodeScalars.append(letter) }

        mutating func flushNumber() {
            guard digits > 0 else { return }
            append(.number(number, digits: digits))
            number = 0
            digits = 0
        }

        mutating func flushWord() {
            guard !word.isEmpty else { return }
            append(.word(word))
            word = ""
        }

        mutating func flush() {
            flushNumber()
            flushWord()
        }

        mutating func append(_ kind: DateTokenKind) {
            tokens.append(DateToken(kind: kind, spaced: spaced || tokens.isEmpty))
            spaced = false
        }
    }
}
