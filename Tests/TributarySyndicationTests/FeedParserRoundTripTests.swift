import Foundation
import Testing
import TributaryModel
import TributarySyndication

@Suite("FeedParser: parse → AtomWriter → parse")
struct FeedParserRoundTripTests {
    private typealias Fixtures = FeedParserFixtures

    @Test(arguments: ["rss20-full.xml", "atom10-xhtml.xml", "itunes-podcast.xml", "rss10-dublin-core.xml", "chinese-gb2312.xml"])
    func itemsSurviveTheRoundTrip(file: String) throws {
        let original = try Fixtures.parse(file, documentURL: "https://example.com/feed.xml")
        let writer = AtomWriter(generatorVersion: "test", sources: ["example": original.info], fallbackDate: Date(timeIntervalSince1970: 0))
        let head = AtomWriter.Head(
            id: "urn:tributary:test", title: "Round trip", author: Author(name: "Tributary"), updated: Date(timeIntervalSince1970: 0))
        let document = writer.document(head: head, items: original.items)
        let reparsed = try Fixtures.parse(bytes: Array(document.utf8))
        #expect(reparsed.format == .atom)
        #expect(reparsed.problems.isEmpty, "\(reparsed.problems)")
        try #require(reparsed.items.count == original.items.count)
        for (before, after) in zip(original.items, reparsed.items) {
            #expect(after.id == AtomWriter.entryID(for: before))
            #expect(after.title == before.title)
            #expect(after.url == before.url)
            #expect(after.published == before.published)
            if before.date != nil { #expect(after.date == before.date) }
            #expect(after.tags == before.tags)
            // Entries without authors inherit the feed's, as Atom says.
            #expect(after.authors == (before.authors.isEmpty ? [head.author] : before.authors))
            // Atom has no place for a playing time.
            #expect(
                after.attachments
                    == before.attachments.map {
                        Attachment(url: $0.url, mimeType: $0.mimeType, title: $0.title, sizeInBytes: $0.sizeInBytes)
                    })
            if before.contentHTML != nil || before.summary != nil {
                #expect(after.contentHTML == (before.contentHTML ?? before.summary.map(HTMLText.paragraphs(fromPlainText:))))
                #expect(after.summary == before.summary)
            }
        }
    }
}
