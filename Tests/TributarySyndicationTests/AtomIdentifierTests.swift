import TestSupport
import Testing

@testable import TributarySyndication

@Suite("Atom writer: which ids are already IRIs")
struct AtomIdentifierTests {
    /// The rule written with `Character`s, as the byte scan must read it.
    static func reference(_ text: String) -> Bool {
        guard let colon = text.firstIndex(of: ":"), colon != text.startIndex else { return false }
        guard ["http", "https", "urn", "tag"].contains(text[..<colon].lowercased()) else { return false }
        let rest = text[text.index(after: colon)...]
        return !rest.isEmpty && !text.contains(where: { $0.isWhitespace || $0 == "<" || $0 == ">" || $0 == "\"" })
    }

    @Test(
        "fixed cases",
        arguments: [
            ("https://example.com/a", true), ("HTTP://EXAMPLE.COM/", true), ("urn:uuid:1", true), ("tag:x.org,2024:1", true),
            ("Tag:x", true), ("http:", false), (":http", false), ("article:43071", false), ("mailto:a@b", false),
            ("https://example.com/a b", false), ("https://example.com/\u{3000}", false), ("https://example.com/\u{A0}", false),
            ("https://例子.测试/路径", true), ("https://example.com/<x>", false), ("urn:\"q\"", false), ("htt\u{0130}p:x", false),
            ("https://example.com/\u{85}", false), ("https://example.com/\u{1C}", true), ("", false), ("https://e.com/\t", false),
        ])
    func fixed(_ text: String, _ expected: Bool) {
        #expect(AtomWriter.isAbsoluteIRI(text) == expected)
        #expect(Self.reference(text) == expected)
    }

    @Test("generated ids read as the Character rule reads them")
    func generated() {
        let pieces = [
            "http", "HTTPS", "urn", "tag", "Tag", ":", "//", "example.com", "/", " ", "\t", "\u{A0}", "\u{3000}", "\u{2028}",
            "<", ">", "\"", "知乎", "é", "e\u{301}", "\u{200B}", "😀", "x", "1",
        ]
        var generator = SeededGenerator(seed: 31)
        var mismatches: [String] = []
        for _ in 0..<5000 {
            let text = (0..<Int.random(in: 0...6, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined()
            if AtomWriter.isAbsoluteIRI(text) != Self.reference(text) { mismatches.append(text.debugDescription) }
        }
        #expect(mismatches == [])
    }
}
