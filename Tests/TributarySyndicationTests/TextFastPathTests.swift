import Foundation
import TestSupport
import Testing

@testable import TributarySyndication

/// The byte-level shortcuts of the parser's hot paths, each held to the general path it
/// replaces on generated text: ASCII, CJK, and the scalars the shortcuts must hand back
/// (combining marks, emoji with modifiers and joiners, Hangul jamo, flags, odd whitespace).
@Suite("Text fast paths")
struct TextFastPathTests {
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
}
