import Foundation
import Testing
import TributaryModel

@testable import TributarySyndication

/// The prepass lifts CDATA sections and escaped text out of libxml2's way and the stream parser hands their
/// content on itself (`LiftedContent`); these tests hold the result, problems and their
/// positions included, to what libxml2 gives when it reads the sections.
@Suite("Lifted element content")
struct LiftedContentTests {
    /// A paragraph long enough to be lifted.
    /// U+FDD0, the placeholders' marker (a noncharacter Swift literals refuse).
    static let marker = String(decoding: LiftedContent.marker, as: UTF8.self)

    static let long = "<p>Long enough to be lifted out of the document, with <a href=\"https://x.example/\">a link</a> &amp; more.</p>"

    /// Documents with CDATA sections in every position, each followed on its line by something
    /// libxml2 or the builder reports with a column.
    static let documents: [String] = [
        // Sections of one line, several on a line, then a stray end tag, an undeclared prefix
        // and an unparseable date on the same line.
        """
        <?xml version="1.0"?>
        <rss version="2.0"><channel><title>T</title>
        <item><title>A</title><description><![CDATA[\(long)]]></b></description><pubDate>not a date</pubDate></item>
        <item><title>B</title><description><![CDATA[\(long)]]></description><content:encoded><![CDATA[\(long)\(long)]]></content:encoded><x:y>z</x:y><pubDate>never</pubDate></item>
        </channel></rss>
        """,
        // Sections over several lines (line feeds, carriage returns, a last line of multi-byte
        // characters), then a mismatched end tag on the line where one ends.
        """
        <rss version="2.0"><channel><title>T</title><item><title>C</title><description>
          <![CDATA[\(long)
        second line\r
        中文字符中文字符中文字符中文字符中文字符中文字符]]></p></description><pubDate>bad</pubDate></item>
        <item><title>D</title><description><![CDATA[\(long)
        ]]><![CDATA[\(long)]]></description><pubDate>also bad</pubDate></item></channel></rss>
        """,
        // Sections that stay with libxml2: short, empty, with a control character, with U+FFFF.
        """
        <rss version="2.0"><channel><item><title><![CDATA[short]]></title><description><![CDATA[]]></description></item>
        <item><title>E</title><description><![CDATA[\(long)\u{FFFF}]]></description><pubDate>x</pubDate></item>
        <item><title>F</title><description><![CDATA[\(long)\u{1}]]></description><pubDate>y</pubDate></item>
        </channel></rss>
        """,
        // Text around a section, a section in XHTML content, and a truncated document.
        """
        <feed xmlns="http://www.w3.org/2005/Atom"><title>Atom</title><entry><title>G</title><id>g</id>
        <content type="xhtml"><div xmlns="http://www.w3.org/1999/xhtml">before <![CDATA[\(long)]]> after</div></content>
        <summary type="html">text <![CDATA[\(long)]]> more</summary><updated>soon</updated></entry>
        <entry><title>H</title><id>h</id><content type="html"><![CDATA[\(long)]]></content><updated>later
        """,
        // A section before the root element, and after it.
        "<![CDATA[\(long)]]><rss version=\"2.0\"><channel><item><title>I</title></item></channel></rss>",
        "<rss version=\"2.0\"><channel><item><title>J</title></item></channel></rss><![CDATA[\(long)]]>",
        // Sections inside attribute values (libxml2 refuses the `<`), one right after a `>`.
        """
        <rss version="2.0"><channel><item><title a="<![CDATA[\(long)]]>">K</title></item>
        <item><title a="x><![CDATA[\(long)]]>">L</title><pubDate>z</pubDate></item></channel></rss>
        """,
        // A section that looks like a placeholder, and one in a document with a DTD.
        """
        <!DOCTYPE rss [<!ENTITY e "entity">]><rss version="2.0"><channel><item><title>M</title>
        <description><![CDATA[\(marker)0\(marker)1 \(long) &e;]]></description><link>&e;</link></item></channel></rss>
        """,
    ]

    /// Escaped HTML, long enough to be lifted.
    static let escaped =
        "&lt;p&gt;Escaped &amp;amp; lifted, with &lt;a href=\"https://x.example/?a=1&amp;amp;b=2\"&gt;a link&lt;/a&gt; &#x4E2D;&#25991; &#x1F600;&lt;/p&gt;"

    /// Documents with escaped text in every position, each followed on its line by something
    /// libxml2 or the builder reports with a column.
    static let texts: [String] = [
        // Text of one line, of several (multi-byte characters on the last), with leading blanks.
        """
        <feed xmlns="http://www.w3.org/2005/Atom"><title>T &amp; more</title><entry><title>A</title><id>a</id>
        <content type="html">\(escaped)</content></b><updated>never</updated><summary type="html">
           \(escaped)
        中文字符 &amp; 中文字符</summary><x:y>z</x:y><updated>no</updated></entry>
        <entry><title>B &#13; &#9; &#x41;&#65;&quot;&apos;</title><id>b</id><content type="html">\(escaped)</content><updated>x</updated>
        <content type="xhtml"><div xmlns="http://www.w3.org/1999/xhtml">\(escaped) <b>\(escaped)</b></div></content><updated>y</updated>
        </entry></feed>
        """,
        // Text that stays with libxml2: references the prepass rewrites or libxml2 refuses, a
        // carriage return, `]]>`, a control character, no reference, too short.
        """
        <rss version="2.0"><channel><item><title>C</title><description>\(escaped) &nbsp;</description><pubDate>a</pubDate></item>
        <item><title>D</title><description>\(escaped) &#128;</description><pubDate>b</pubDate></item>
        <item><title>E</title><description>\(escaped) &#X41; &#0; &#xD800; &#123456789;</description><pubDate>c</pubDate></item>
        <item><title>F</title><description>\(escaped)\r\n&amp;</description><pubDate>d</pubDate></item>
        <item><title>G</title><description>\(escaped) ]]> &amp;</description><pubDate>e</pubDate></item>
        <item><title>H</title><description>\(escaped) \u{1} &amp;</description><pubDate>f</pubDate></item>
        <item><title>I</title><description>\(long) with no reference at all, long enough</description><pubDate>g</pubDate></item>
        <item><title>&amp;</title><description>&amp;x</description><pubDate>h</pubDate></item>
        </channel></rss>
        """,
        // Tags libxml2 might end elsewhere: a `>` in an attribute value, attributes without
        // quotes or values, an end tag with more in it.
        """
        <rss version="2.0"><channel><item><title a="1 > 0 &amp; 2 \(escaped)">I</title><pubDate>a</pubDate></item>
        <item a=b><title>J</title><description c>\(escaped)</description><pubDate>b</pubDate></item>
        <item><title>K</title><description>x</description x>\(escaped)</item><pubDate>c</pubDate>
        <item><title>L</title><description>a<b c='\(escaped)' d="&amp;">\(escaped)</b></description><pubDate>d</pubDate></item>
        </channel></rss>
        """,
        // Text before the root element, after it, and at the end of a truncated document.
        "<!-- c -->\(escaped)<rss version=\"2.0\"><channel><item><title>M</title></item></channel></rss>",
        "<rss version=\"2.0\"><channel><item><title>N</title></item></channel></rss>\n  \(escaped)<x/>",
        "<rss version=\"2.0\"><channel><item><title>O</title><description>\(escaped)",
        "<rss version=\"2.0\"><channel><item><title>P</title><description>\(escaped)<",
    ]

    @Test("lifting text changes nothing in the result", arguments: texts.indices)
    func sameResultForText(_ index: Int) throws {
        try expectSameResult(Array(Self.texts[index].utf8))
    }

    @Test("lifting sections changes nothing in the result", arguments: documents.indices)
    func sameResult(_ index: Int) throws {
        try expectSameResult(Array(Self.documents[index].utf8))
    }

    @Test("lifting sections changes nothing in the fixture feeds")
    func fixtures() throws {
        let directory = try #require(Bundle.module.url(forResource: "feeds", withExtension: nil, subdirectory: "Fixtures"))
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".xml") }
        #expect(names.count > 20)
        for name in names.sorted() {
            try expectSameResult(Array(Data(contentsOf: directory.appendingPathComponent(name))), name)
        }
    }

    @Test("lifting sections changes nothing in a generated feed")
    func generatedFeed() throws {
        let bytes = FeedParserBenchmarkTests.generatedRSS(bytes: 200_000)
        try expectSameResult(bytes)
        // And the sections were lifted: each item has two, and a title with a reference.
        let lifted = LiftedContent()
        var emitted: [UInt8] = []
        _ = try XMLPrepass(expansionLimit: 1 << 20).run(bytes, lifting: lifted) { chunk in
            emitted += chunk
            return true
        }
        let items = try FeedParser(FeedParser.Options(source: "s")).parse(bytes).items.count
        #expect(items > 50)
        #expect(lifted.sections.count == 3 * items)
        #expect(emitted.count < bytes.count / 2)
    }

    @Test("placeholders keep line feeds and record the columns they lack")
    func placeholders() throws {
        let content = Array("abc\ndéf\nghij".utf8) + Array(repeating: UInt8(ascii: "x"), count: 40)
        let document = Array("<a>".utf8) + content + Array("</a>".utf8)
        let lifted = LiftedContent()
        lifted.begin(document: document)
        let placeholder = try #require(document.withUnsafeBufferPointer { lifted.lift(3..<3 + content.count, in: $0) })
        #expect(placeholder == LiftedContent.marker + Array("0\n\n".utf8))
        #expect(lifted.sections.first?.lineFeeds == 2)
        #expect(lifted.sections.first?.columnShift == 44)
        let taken = placeholder.withUnsafeBufferPointer { lifted.take($0.baseAddress!, $0.count) }
        #expect(taken?.range == 3..<3 + content.count)
        // Each placeholder is taken once, in order.
        #expect(placeholder.withUnsafeBufferPointer { lifted.take($0.baseAddress!, $0.count) } == nil)
        #expect(document.withUnsafeBufferPointer { lifted.lift(3..<10, in: $0) } == nil)
    }

    @Test("text is lifted with its references decoded, and the columns its last line had")
    func liftedText() throws {
        let document = Array("<a>  x &lt;p&gt; \u{4E2D} &#x41;&amp;\nline two &quot;end&quot;</a>".utf8)
        let lifted = LiftedContent()
        lifted.begin(document: document)
        let text = document.withUnsafeBufferPointer { lifted.liftText(from: 3, in: $0) }
        let (start, placeholder) = try #require(text.lifted)
        #expect(start == 5)
        #expect(text.end == document.count - 4)
        #expect(placeholder == LiftedContent.marker + Array("0\n".utf8))
        let section = try #require(lifted.sections.first)
        #expect(section.lineFeeds == 1)
        #expect(section.columnShift == "line two &quot;end&quot;".count - 3)
        var content: [UInt8] = []
        lifted.withContent(of: section) { content += UnsafeBufferPointer(start: $0, count: $1) }
        #expect(String(decoding: content, as: UTF8.self) == "x <p> \u{4E2D} A&\nline two \"end\"")
    }

    @Test("the prepass closes HTML void elements in any case, and only those")
    func voidElements() throws {
        let input = "<d>a<BR>b<Img src=\"x>y\">c<br/>d<br></br>e<hr >f<BaseFont>g<brr>h<b>i</b><isindex x='1'>j<col></COL>k</d>"
        let output = try XMLPrepass(expansionLimit: 1 << 20).run(Array(input.utf8)).bytes
        #expect(
            String(decoding: output, as: UTF8.self)
                == "<d>a<BR/>b<Img src=\"x>y\"/>c<br/>d<br></br>e<hr />f<BaseFont/>g<brr>h<b>i</b><isindex x='1'/>j<col></COL>k</d>")
    }

    @Test("content libxml2 refuses in CDATA stays with libxml2", arguments: ["a\u{0}b", "a\u{1F}", "\u{FFFE}", "x\u{FFFF}y", "\u{8}"])
    func refusedContent(_ text: String) {
        let bytes = Array((String(repeating: "padding ", count: 8) + text).utf8)
        #expect(bytes.withUnsafeBufferPointer { LiftedContent.lines($0) } == nil)
    }

    @Test("tab, carriage return and other characters are content like any other")
    func acceptedContent() {
        let bytes = Array("a\tb\r\nc\u{FFFD}\(Self.marker)中\n".utf8)
        let lines = bytes.withUnsafeBufferPointer { LiftedContent.lines($0) }
        #expect(lines?.lineFeeds == 2)
        #expect(lines?.lastLineStart == bytes.count)
    }

    private func expectSameResult(_ bytes: [UInt8], _ name: String = "", sourceLocation: SourceLocation = #_sourceLocation) throws {
        let parser = FeedParser(FeedParser.Options(source: "s", now: Date(timeIntervalSince1970: 1_800_000_000)))
        let lifted = Result { () throws(FeedParseError) in try parser.parse(bytes, liftingCDATA: true) }
        let plain = Result { () throws(FeedParseError) in try parser.parse(bytes, liftingCDATA: false) }
        switch (lifted, plain) {
        case (.success(let lifted), .success(let plain)):
            #expect(lifted.items == plain.items, "\(name)", sourceLocation: sourceLocation)
            #expect(lifted.info == plain.info, "\(name)", sourceLocation: sourceLocation)
            #expect(lifted.problems == plain.problems, "\(name)", sourceLocation: sourceLocation)
            #expect(lifted.format == plain.format && lifted.version == plain.version, "\(name)", sourceLocation: sourceLocation)
        case (.failure(let lifted), .failure(let plain)):
            #expect(lifted == plain, "\(name)", sourceLocation: sourceLocation)
        default:
            Issue.record("\(name): lifted \(lifted), not lifted \(plain)", sourceLocation: sourceLocation)
        }
    }
}
