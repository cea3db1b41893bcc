import Foundation
import Testing
import TributaryModel
import TributarySyndication

@Suite("FeedParser: hostile documents")
struct FeedParserSafetyTests {
    private typealias Fixtures = FeedParserFixtures

    /// Refused by the prepass's expansion budget, before libxml2 sees a byte: the work is bounded
    /// by that budget, not by the document (speed itself is the benchmarks' business, not a test's).
    @Test func billionLaughsIsRefused() throws {
        let bytes = try Fixtures.bytes("hostile-billion-laughs.xml")
        #expect {
            _ = try Fixtures.parse(bytes: bytes)
        } throws: { error in
            (error as? FeedParseError)?.message.contains("entity-expansion attack") == true
        }
    }

    @Test func quadraticBlowupIsRefused() throws {
        let entity = String(repeating: "a", count: 50_000)
        let references = String(repeating: "&big;", count: 50_000)
        let xml =
            "<?xml version=\"1.0\"?>\n<!DOCTYPE rss [<!ENTITY big \"\(entity)\">]>\n<rss><channel><title>\(references)</title></channel></rss>"
        let bytes = Array(xml.utf8)
        #expect {
            _ = try Fixtures.parse(bytes: bytes)
        } throws: { error in
            guard let error = error as? FeedParseError else { return false }
            return error.message.hasPrefix("refused: entity references expand to more than") && error.line == 3
        }
    }

    @Test func selfReferencingEntityIsRefused() {
        let xml = "<!DOCTYPE rss [<!ENTITY a \"x&b;\"><!ENTITY b \"y&a;\">]><rss><channel><title>&a;</title></channel></rss>"
        #expect(throws: FeedParseError("refused: entity 'a' refers to itself")) { try Fixtures.parse(xml: xml) }
    }

    @Test func tooManyEntityDeclarationsAreRefused() {
        let declarations = (0..<1_001).map { "<!ENTITY e\($0) \"x\">" }.joined()
        let xml = "<!DOCTYPE rss [\(declarations)]><rss/>"
        #expect(throws: FeedParseError.self) { try Fixtures.parse(xml: xml) }
    }

    @Test func internalEntitiesExpandWithinTheBudget() throws {
        let xml =
            "<!DOCTYPE rss [<!ENTITY who \"The &amp; Team\"><!ENTITY sig \"&who; &#8212; &copy; 2024\">]><rss><channel><title>&sig;</title></channel></rss>"
        let feed = try Fixtures.parse(xml: xml)
        #expect(feed.info.title == "The & Team — © 2024")
    }

    @Test func externalEntitiesAndDTDsAreNeverRead() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tributary-xxe-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let secret = directory.appendingPathComponent("secret.txt")
        let marker = "TOP-SECRET-\(UUID().uuidString)"
        try Data(marker.utf8).write(to: secret)
        let dtd = directory.appendingPathComponent("evil.dtd")
        try Data("<!ENTITY leak \"\(marker)\">".utf8).write(to: dtd)
        let documents = [
            // A general external entity.
            """
            <?xml version="1.0"?>
            <!DOCTYPE rss [<!ENTITY xxe SYSTEM "\(secret.absoluteString)">]>
            <rss version="2.0"><channel><title>Leak: &xxe;</title><item><title>&xxe;</title><description>&xxe;</description></item></channel></rss>
            """,
            // An external DTD declaring the entity.
            """
            <?xml version="1.0"?>
            <!DOCTYPE rss SYSTEM "\(dtd.absoluteString)">
            <rss version="2.0"><channel><title>Leak: &leak;</title></channel></rss>
            """,
            // An external parameter entity pulling the DTD in.
            """
            <?xml version="1.0"?>
            <!DOCTYPE rss [<!ENTITY % remote SYSTEM "\(dtd.absoluteString)"> %remote;]>
            <rss version="2.0"><channel><title>Leak: &leak;</title></channel></rss>
            """,
        ]
        for document in documents {
            let feed = try Fixtures.parse(xml: document)
            let everything = "\(feed.info) \(feed.items) \(feed.problems)"
            #expect(!everything.contains(marker))
            #expect(feed.info.title?.hasPrefix("Leak:") == true)
        }
        let feed = try Fixtures.parse(xml: documents[0])
        #expect(feed.info.title == "Leak:")
        #expect(Fixtures.problems(feed, containing: "references to external entities not loaded").count == 1)
    }

    /// The parse stops at the 513th level, in the document's first two kilobytes (the error's
    /// column says where), instead of reading the other 50 MB.
    @Test func fiftyMegabytesOfNestingFailsFast() throws {
        let bytes = Array(("<rss version=\"2.0\"><channel>" + String(repeating: "<a>", count: (50 << 20) / 3)).utf8)
        let options = FeedParser.Options(source: "deep", maxBytes: 64 << 20)
        #expect {
            _ = try FeedParser(options).parse(bytes)
        } throws: { error in
            guard let error = error as? FeedParseError else { return false }
            return error.message == "refused: elements nested more than 512 deep (a hostile document?)" && error.line == 1
                && (error.column ?? .max) < 2_048
        }
    }

    @Test func inputLargerThanTheLimitIsRefused() {
        let bytes = Array("<rss><channel><title>tiny but over the limit</title></channel></rss>".utf8)
        #expect(throws: FeedParseError("refused: the document is \(bytes.count) bytes, more than the limit of 16")) {
            try FeedParser(.init(source: "s", maxBytes: 16)).parse(bytes)
        }
    }

    @Test func deepButReasonableNestingIsFine() throws {
        let depth = 300
        let inner = String(repeating: "<div>", count: depth) + "deep" + String(repeating: "</div>", count: depth)
        let xml =
            "<feed xmlns=\"http://www.w3.org/2005/Atom\"><entry><id>d</id><content type=\"xhtml\"><div xmlns=\"http://www.w3.org/1999/xhtml\">\(inner)</div></content></entry></feed>"
        let feed = try Fixtures.parse(xml: xml)
        #expect(feed.items.first?.contentHTML?.contains("deep") == true)
    }
}
