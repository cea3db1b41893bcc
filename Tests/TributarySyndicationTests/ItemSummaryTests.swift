import Testing

@testable import TributarySyndication

/// An item's summary reads only the start of long HTML; it must equal the summary of the whole.
@Suite("Item summaries of long HTML")
struct ItemSummaryTests {
    static let paragraphs = [
        "<p>技开日服重闻闻务看行论新布日新闻报补客条布日闻重协。</p>", "<p>Swift river link libxml2 entry request item linux title parser.</p>",
        #"<p>See <a href="https://example.org/1">the notes</a> &amp; <em>more</em>.</p>"#, #"<img src="/img/1.jpg" alt="figure">"#,
        "<p>e\u{301}\u{301} combining marks</p>", "<ul><li>one</li><li>two</li></ul>", "<p>" + String(repeating: "长", count: 200) + "</p>",
        "<script>var a = 1 > 2;</script>", "<p>word " + String(repeating: "x", count: 40) + "</p>",
    ]

    @Test func windowedSummaryEqualsTheWholeSummary() {
        var generator = HTMLSanitizerJunkGenerator(seed: 7)
        for _ in 0..<300 {
            var html = ""
            let target = 2_000 + Int(generator.next() % 30_000)
            while html.utf8.count < target {
                html += Self.paragraphs[Int(generator.next() % UInt64(Self.paragraphs.count))]
            }
            let whole = HTMLSanitizer.plainText(fromHTML: html, limit: ItemDraft.summaryLength)
            #expect(ItemDraft.summary(fromHTML: html) == whole)
        }
    }
}
