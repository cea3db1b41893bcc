import Foundation
import Testing
import TributaryModel
import TributarySyndication

@Suite("FeedParser: iTunes and Media RSS")
struct FeedParserMediaTests {
    private typealias Fixtures = FeedParserFixtures

    @Test func itunesPodcast() throws {
        let feed = try Fixtures.parse("itunes-podcast.xml")
        #expect(
            feed.info
                == FeedInfo(
                    title: "The Example Podcast", homePageURL: "https://podcast.example.com",
                    description: "Every week we talk about examples.",
                    authors: [Author(name: "Pod Caster")], icon: "https://podcast.example.com/cover.jpg", language: "en-us"))
        try #require(feed.items.count == 2)
        #expect(
            feed.items[0]
                == Item(
                    id: "https://podcast.example.com/episodes/2", source: "example", url: "https://podcast.example.com/episodes/2",
                    title: "Episode 2: Durations", summary: "We discuss durations in depth.", image: "https://podcast.example.com/ep2.jpg",
                    authors: [Author(name: "Guest Speaker")], published: Fixtures.date("2024-03-07T05:00:00Z"),
                    attachments: [
                        Attachment(
                            url: "https://podcast.example.com/ep2.mp3", mimeType: "audio/mpeg", sizeInBytes: 24_986_239,
                            durationInSeconds: 3723)
                    ]))
        #expect(
            feed.items[1]
                == Item(
                    id: "podcast-ep-1", source: "example", title: "Episode 1: Seconds", summary: "Show notes for the first episode.",
                    contentHTML: "<p>Show notes for the first episode.</p>", published: Fixtures.date("2024-02-29T05:00:00Z"),
                    attachments: [
                        Attachment(
                            url: "https://podcast.example.com/ep1.m4a", mimeType: "audio/x-m4a", sizeInBytes: 8_727_310,
                            durationInSeconds: 1830)
                    ]))
        #expect(feed.problems.isEmpty, "\(feed.problems)")
    }

    @Test(arguments: [
        ("01:02:03", 3723), ("62:03", 3723), ("1830", 1830), ("1830.6", 1831), (" 00:00:59 ", 59), ("abc", -1), ("1:2:3:4", -1),
    ])
    func itunesDurations(text: String, seconds: Int) throws {
        let xml = """
            <rss version="2.0" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd"><channel><item><title>t</title>
            <enclosure url="https://d.example/a.mp3" type="audio/mpeg"/><itunes:duration>\(text)</itunes:duration></item></channel></rss>
            """
        let attachment = try #require(try Fixtures.parse(xml: xml).items.first?.attachments.first)
        #expect(attachment.durationInSeconds == (seconds < 0 ? nil : seconds))
    }

    @Test func mediaGroupAndThumbnail() throws {
        let feed = try Fixtures.parse("media-rss.xml")
        try #require(feed.items.count == 2)
        #expect(
            feed.items[0]
                == Item(
                    id: "https://video.example.com/v/1", source: "example", url: "https://video.example.com/v/1", title: "Sunset timelapse",
                    summary: "A timelapse of the sun setting over the sea.", image: "https://cdn.example.com/v1.jpg",
                    attachments: [
                        Attachment(
                            url: "https://cdn.example.com/v1-1080.mp4", mimeType: "video/mp4", sizeInBytes: 104_857_600,
                            durationInSeconds: 185),
                        Attachment(
                            url: "https://cdn.example.com/v1-480.webm", mimeType: "video/webm", sizeInBytes: 20_971_520,
                            durationInSeconds: 185),
                    ]))
        #expect(
            feed.items[1]
                == Item(
                    id: StableID.digest("https://video.example.com/p/2"), source: "example",
                    url: "https://video.example.com/p/2", title: "Photo of the day", image: "https://cdn.example.com/p2.png",
                    attachments: [Attachment(url: "https://cdn.example.com/p2.png", mimeType: "image/png")]))
        #expect(feed.problems.isEmpty, "\(feed.problems)")
    }

    @Test func enclosureAndMediaContentForTheSameFileMerge() throws {
        let xml = """
            <rss version="2.0" xmlns:media="http://search.yahoo.com/mrss/"><channel><item><title>t</title>
            <enclosure url="https://m.example/a.mp3" length="100" type="audio/mpeg"/>
            <media:content url="https://m.example/a.mp3" duration="61"/>
            </item></channel></rss>
            """
        let item = try #require(try Fixtures.parse(xml: xml).items.first)
        #expect(
            item.attachments == [
                Attachment(url: "https://m.example/a.mp3", mimeType: "audio/mpeg", sizeInBytes: 100, durationInSeconds: 61)
            ])
    }

    @Test func imagePriority() throws {
        // media:thumbnail beats itunes:image, which beats the first <img> in the content.
        let xml = """
            <rss version="2.0" xmlns:media="http://search.yahoo.com/mrss/" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd"><channel>
            <item><title>a</title><itunes:image href="https://i.example/it.jpg"/><media:thumbnail url="https://i.example/th.jpg"/>
              <description>&lt;img src="https://i.example/content.jpg"&gt;</description></item>
            <item><title>b</title><itunes:image href="https://i.example/it.jpg"/><description>&lt;img src="https://i.example/content.jpg"&gt;</description></item>
            <item><title>c</title><description>&lt;p&gt;&lt;img src='javascript:alert(1)'&gt;&lt;img alt="x" src="/content.jpg"&gt;&lt;/p&gt;</description></item>
            </channel></rss>
            """
        let feed = try Fixtures.parse(xml: xml, documentURL: "https://i.example/feed")
        #expect(feed.items.map(\.image) == ["https://i.example/th.jpg", "https://i.example/it.jpg", "https://i.example/content.jpg"])
    }
}
