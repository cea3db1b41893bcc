import Foundation
import TestSupport
import Testing

@testable import TributarySyndication

/// The byte-level shortcuts of the parser's hot paths, each held to the general path it
/// replaces on generated text: ASCII, CJK, and the scalars the shortcuts must hand back
/// (combining marks, emoji with modifiers and joiners, Hangul jamo, flags, odd whitespace).
@Suite("Text fast paths")
struct TextFastPathTests {
    /// Pieces of text, each one or more scalars; the first ones are "simple", the rest not.
    static let pieces: [String] = [
        "a", "Z", "7", " ", " ", " ", ".", "-", "~", "中", "文", "字", "龍", "，", "。", "「", "」", "！", "Ａ", "é", "ß", "ł", "ǅ",
        "—", "…", "“", "”", "\u{3001}", "\u{3029}", "\u{FF5E}", "\u{9FFF}", "\u{4E00}",
        // Not simple: they join a neighbour, are whitespace other than the space, or are outside the set.
        "\u{301}", "e\u{301}", "\u{200D}", "👍", "👍🏽", "👨‍👩‍👧", "🇫🇷", "\u{1100}", "\u{1161}", "\u{11A8}", "한", "\u{3000}", "\u{A0}",
        "\u{AD}", "\u{2028}", "\u{302A}", "\u{3099}", "\r\n", "\n", "\t", "\u{85}", "\u{FE0F}", "\u{E0100}", "Ω", "Ж", "ก", "ำ",
    ]

    /// Generated texts: mostly simple pieces (so the fast path is taken), some with one other
    /// piece at a random place (so the fallback is taken near the cut, or not at all).
    static let texts: [String] = {
        var random = SeededGenerator(seed: 0x7E47)
        let simpleCount = 32
        var texts = ["", " ", "  a", "a  ", String(repeating: "中", count: 300), String(repeating: "word ", count: 80)]
        for round in 0..<3_000 {
            let length = Int(random.next() % 420)
            var text = ""
            for _ in 0..<length {
                let pool = round % 3 == 0 ? pieces.count : simpleCount
                text += pieces[Int(random.next() % UInt64(pool))]
            }
            texts.append(text)
        }
        return texts
    }()

    @Test("truncating bytes equals truncating the string")
    func truncation() {
        for text in Self.texts {
            for limit in [0, 1, 5, 40, 299, 300, 301, 400] {
                let bytes = Array(text.utf8)
                let fast = bytes.withUnsafeBufferPointer { HTMLTextTruncation.truncate(utf8: $0, limit: limit) }
                #expect(fast == HTMLTextTruncation.truncate(text, limit: limit), "\(text.debugDescription) at \(limit)")
            }
        }
    }

    @Test("counting Characters on bytes agrees with the string, or declines")
    func characterCount() {
        var answered = 0
        for text in Self.texts {
            for count in [0, 3, 300, 301] {
                let bytes = Array(text.utf8)
                guard let more = bytes.withUnsafeBufferPointer({ HTMLTextTruncation.hasMoreCharacters(utf8: $0, than: count) }) else {
                    continue
                }
                answered += 1
                #expect(more == (text.count > count), "\(text.debugDescription) against \(count)")
            }
        }
        #expect(answered > Self.texts.count * 2)
    }

    @Test("the UTF-8 scan agrees with the standard library on valid, invalid and CJK bytes")
    func utf8Scan() {
        var random = SeededGenerator(seed: 0x0DF8)
        let samples = ["中文字", "é", "😀", "\u{FFFF}", "\u{10FFFF}", "\u{E000}", "\u{D7FF}", "abcdefgh"].map { Array($0.utf8) }
        let bad: [[UInt8]] = [
            [0xED, 0xA0, 0x80], [0xE0, 0x80, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xC0, 0xAF], [0xE4, 0xB8], [0xFF], [0x80],
        ]
        for round in 0..<4_000 {
            var bytes: [UInt8] = []
            for _ in 0..<(random.next() % 40) {
                switch random.next() % 8 {
                case 0: bytes += bad[Int(random.next() % UInt64(bad.count))]
                case 1: bytes.append(UInt8(truncatingIfNeeded: random.next()))
                case 2, 3: bytes += Array("plain ascii text".utf8.prefix(Int(random.next() % 17)))
                default: bytes += samples[Int(random.next() % UInt64(samples.count))]
                }
            }
            if round % 4 == 0 { bytes = bytes.filter { $0 < 0x80 } + Array("中文".utf8) }
            let scan = UTF8Validation.scan(bytes[...])
            #expect(scan.isValid == (String(validating: bytes, as: UTF8.self) != nil), "\(bytes)")
            if scan.isValid { #expect(scan.hasNonASCII == bytes.contains { $0 >= 0x80 }) }
        }
    }

    @Test("the UTF-8 scan reads nothing past the end of a slice, whatever its length")
    func utf8ScanStopsAtTheEnd() {
        // ASCII, then an invalid byte just past each slice's end.
        for length in 0..<70 {
            for text in [String(repeating: "a", count: length), "中" + String(repeating: "b", count: length)] {
                let bytes = Array(text.utf8) + [0xFF, 0xFF]
                let scan = UTF8Validation.scan(bytes[..<(bytes.count - 2)])
                #expect(scan.isValid, "\(length)")
                #expect(scan.hasNonASCII == text.hasPrefix("中"))
                #expect(!UTF8Validation.scan(bytes[...]).isValid)
            }
        }
    }

    @Test("the UTF-8 scan checks every character of a run of three-byte ones, to the last byte of the slice")
    func utf8ScanOfThreeByteRuns() {
        for count in 0..<12 {
            let run = Array(String(repeating: "中", count: count).utf8)
            #expect(UTF8Validation.scan((run + [0xFF])[..<run.count]).isValid, "\(count)")
            guard count > 0 else { continue }
            // A character cut short at the end, or one the quick test must not pass anywhere in the run.
            #expect(!UTF8Validation.scan(run.dropLast()).isValid, "\(count)")
            #expect(!UTF8Validation.scan(run.dropLast(2)).isValid, "\(count)")
            for bad: [UInt8] in [[0xE0, 0x80, 0x80], [0xED, 0xA0, 0x80], [0xE4, 0xB8, 0x41], [0xE4, 0x41, 0xAD]] {
                for position in 0..<count {
                    var bytes = run
                    bytes.replaceSubrange(3 * position..<3 * position + 3, with: bad)
                    #expect(!UTF8Validation.scan(bytes[...]).isValid, "\(count) \(position) \(bad)")
                }
            }
        }
    }

    @Test("continuation bytes are counted sixteen at a time as one by one, past 255 rounds too")
    func continuationBytes() {
        let long = String(repeating: "中a é", count: 1_500)
        for text in Self.texts + [long, long + "x", String(long.dropFirst(7))] {
            let bytes = Array(text.utf8)
            let counted = bytes.withUnsafeBufferPointer { ByteScan.continuationBytes(in: $0) }
            #expect(counted == bytes.filter { $0 & 0xC0 == 0x80 }.count, "\(text.debugDescription)")
        }
    }

    @Test("URL values the sanitizer writes as they are are those the URL policy keeps unchanged")
    func plainWebURLs() {
        var random = SeededGenerator(seed: 0x0A11)
        let parts = [
            "http", "HTTPS", "https", "hTTp", ":", "//", "/", "s", "example.org", "?q=1", "&", "#x", " ", "\t", "中", "%20", "javascript",
            "x", "\u{7F}", "@",
        ]
        let resolver = HTMLURLResolver(baseURL: URL(string: "https://base.example/a/b"))
        var plain = 0
        for _ in 0..<5_000 {
            // Half of them start like a web URL, so both answers are common.
            let start = random.next() % 2 == 0 ? parts[Int(random.next() % 4)] + "://" : ""
            let value = start + (0..<(1 + random.next() % 8)).map { _ in parts[Int(random.next() % UInt64(parts.count))] }.joined()
            let isPlain = Array(value.utf8).withUnsafeBufferPointer { HTMLURLPolicy.isPlainWebURL($0) }
            guard isPlain else { continue }
            plain += 1
            for (mailto, imageData) in [(false, false), (true, true)] {
                #expect(
                    HTMLURLPolicy.sanitize(value, allowsMailto: mailto, allowsImageData: imageData, resolver: resolver) == value, "\(value)"
                )
            }
        }
        #expect(plain > 500)
        for value in ["https://a.example/x", "HTTP://A/b?c=d#e", "http:x"] {
            #expect(Array(value.utf8).withUnsafeBufferPointer { HTMLURLPolicy.isPlainWebURL($0) }, "\(value)")
        }
        for value in ["https://a.example/?a=1&b=2", " https://a/", "https://a/ b", "https://a/中", "ftp://a/", "http", "http:", "/relative"]
        {
            #expect(!Array(value.utf8).withUnsafeBufferPointer { HTMLURLPolicy.isPlainWebURL($0) }, "\(value)")
        }
    }

    /// Image sources are decoded with `HTMLText.decodeEntities`, whose check for `&` is now a
    /// byte search; an `&` that begins a longer Character is still not a reference.
    @Test(
        "entities in attribute text decode as before",
        arguments: [
            ("a &amp; b", "a & b"), ("&#x41;&#66;", "AB"), ("&eacute;t&eacute;", "été"), ("no entities", "no entities"),
            ("x&\u{301}amp;y", "x&\u{301}amp;y"), ("&bogus; &", "&bogus; &"), ("中&lt;文", "中<文"), ("", ""),
        ])
    func decodeEntities(_ input: String, _ expected: String) {
        #expect(HTMLText.decodeEntities(input) == expected)
    }
}
