import Foundation
import Testing

@testable import TributarySyndication

@Suite("HTMLSanitizer on hostile and broken input")
struct HTMLSanitizerRobustnessTests {
    static let sanitizer = HTMLSanitizer(baseURL: URL(string: "https://example.com/"))

    static func checkShape(_ html: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let output = sanitizer.sanitize(html)
        #expect(HTMLSanitizerOutputShape.problem(in: output) == nil, sourceLocation: sourceLocation)
        #expect(HTMLSanitizerOutputShape.depth(of: output) <= 100, sourceLocation: sourceLocation)
        _ = HTMLSanitizer.plainText(fromHTML: html, limit: 100)
    }

    @Test(arguments: [
        "", " ", "\n\n\t", "<", ">", "&", "&#", "&#x;", "&#99999999;", "<>", "</>", "<<<>>>", "<!", "<!-", "<!--", "<?", "<a",
        "<a href", "<a href=", "<a href=\"", "<a href='x", "<img src=\"x\" alt=\"", "</p>", "<p", "<!DOCTYPE", "<![CDATA[",
        "<script>", "<script>unterminated", "<style>", "<svg><p>", "<table><td>x", "<ul><li><ul><li>", "<select><p>x",
        "\u{0}", "\u{0}<\u{0}p\u{0}>\u{0}", "<p>\u{FEFF}x</p>", "<b></b></b></b>", "</body></html>tail",
    ])
    func survivesFragments(_ html: String) {
        Self.checkShape(html)
    }

    @Test func nulBytesAreDropped() {
        #expect(Self.sanitizer.sanitize("a\u{0}b<b>c\u{0}</b>") == "ab<b>c</b>")
        #expect(HTMLSanitizer.plainText(fromHTML: "a\u{0}b<b>c\u{0}</b>") == "abc")
    }

    @Test func deepNestingOfHundredThousandDivs() {
        let html = String(repeating: "<div>", count: 100_000) + "x" + String(repeating: "</div>", count: 100_000)
        let output = Self.sanitizer.sanitize(html)
        #expect(HTMLSanitizerOutputShape.problem(in: output) == nil)
        #expect(HTMLSanitizerOutputShape.depth(of: output) == 100)
        #expect(HTMLSanitizer.plainText(fromHTML: html).count <= 1)
    }

    @Test func oneMegabyteOfUnclosedDivs() {
        let html = String(repeating: "<div>", count: 1_048_576 / 5)
        let output = Self.sanitizer.sanitize(html)
        #expect(output == String(repeating: "<div>", count: 100) + String(repeating: "</div>", count: 100))
    }

    /// libxml2 searches all open elements for each stray end tag, so this input would cost time quadratic in its
    /// length. The parse stops at ``HTMLSAXParser/maximumDepth`` open elements, before libxml2 reaches any of the
    /// stray end tags: the rest is read as text, in one pass. What libxml2 was given to do is counted, not timed.
    @Test func deepNestingWithStrayEndTagsStopsLibXML2BeforeTheStrayTags() {
        let html = String(repeating: "<span>", count: 5_000) + String(repeating: "</x>", count: 100_000) + "end"
        let sink = CountingSink()
        HTMLSAXParser.parseWithLibXML2(html, into: sink)
        #expect(sink.starts <= HTMLSAXParser.maximumDepth + 2, "html and body, then the spans up to the limit")
        #expect(sink.ends == 0, "no stray end tag reached libxml2")
        #expect(sink.text == " end")
        let output = Self.sanitizer.sanitize(html)
        #expect(HTMLSanitizerOutputShape.problem(in: output) == nil)
        #expect(output.hasSuffix("end" + String(repeating: "</span>", count: 100)))
    }

    @Test func contentBelowTheDepthLimitIsKept() {
        let html = String(repeating: "<b>", count: 300) + "deep" + String(repeating: "</b>", count: 300) + "after"
        let output = Self.sanitizer.sanitize(html)
        #expect(output.contains("deep"))
        #expect(output.hasSuffix("after"))
        #expect(HTMLSanitizerOutputShape.depth(of: output) == 100)
    }

    @Test func textBeyondTheDepthLimitIsKeptWithoutItsMarkup() {
        let deep = String(repeating: "<div>", count: 1_000) + "deep &amp; <i>text</i>" + String(repeating: "</div>", count: 1_000)
        let html = "<p>before</p>" + deep + "<script>hidden()</script><!-- note --><p>after &lt;3</p>"
        let output = Self.sanitizer.sanitize(html)
        #expect(HTMLSanitizerOutputShape.problem(in: output) == nil)
        #expect(HTMLSanitizerOutputShape.depth(of: output) == 100)
        #expect(output.contains("deep &amp; text after &lt;3"))
        #expect(!output.contains("hidden") && !output.contains("note"))
        #expect(HTMLSanitizer.plainText(fromHTML: html) == "before deep & text after <3")
    }

    @Test func unclosedTagsAreClosed() {
        #expect(
            Self.sanitizer.sanitize("<table><tr><td><ul><li><blockquote><pre>x")
                == "<table><tr><td><ul><li><blockquote><pre>x</pre></blockquote></li></ul></td></tr></table>")
    }

    @Test func hugeAttributeValue() {
        let value = String(repeating: "x", count: 1_000_000)
        let output = Self.sanitizer.sanitize("<a title=\"\(value)\" onclick=\"\(value)\">t</a>")
        #expect(output == "<a title=\"\(value)\">t</a>")
    }

    @Test func hugeTextNode() {
        let text = String(repeating: "word ", count: 400_000)
        #expect(Self.sanitizer.sanitize("<p>\(text)</p>") == "<p>\(text)</p>")
    }

    @Test func invalidUTF8IsRepairedBeforeParsing() {
        let bytes: [UInt8] = [0x3C, 0x70, 0x3E, 0xFF, 0xFE, 0x61, 0xC3, 0x28, 0xE2, 0x82, 0x3C, 0x2F, 0x70, 0x3E, 0xED, 0xA0, 0x80]
        let html = String(decoding: bytes, as: UTF8.self)
        let output = Self.sanitizer.sanitize(html)
        #expect(output == "<p>\u{FFFD}\u{FFFD}a\u{FFFD}(\u{FFFD}</p>\u{FFFD}\u{FFFD}\u{FFFD}")
        #expect(HTMLSanitizer.plainText(fromHTML: html) == "\u{FFFD}\u{FFFD}a\u{FFFD}(\u{FFFD} \u{FFFD}\u{FFFD}\u{FFFD}")
    }

    @Test(arguments: 1...8)
    func binaryJunk(_ seed: Int) {
        var generator = HTMLSanitizerJunkGenerator(seed: UInt64(seed))
        let html = String(decoding: generator.markupBytes(count: 64 * 1024), as: UTF8.self)
        let output = Self.sanitizer.sanitize(html)
        #expect(HTMLSanitizerOutputShape.problem(in: output) == nil)
        // Junk may spell "javascript:" in text, where it is harmless; no tag may carry it.
        for tag in output.matches(of: #/<[^>]*>/#) {
            #expect(tag.output.firstMatch(of: #/(?i)^<(script|svg|style|iframe)|javascript:|\son[a-z]+=/#) == nil, "\(tag.output)")
        }
        _ = HTMLSanitizer.plainText(fromHTML: html, limit: 200)
    }

    @Test func concurrentUseGivesTheSameResults() async {
        let inputs = (0..<16).map { index in
            String(repeating: "<p class=x>Item \(index) <a href=\"/p/\(index)\">link</a><script>x</script></p>", count: 50)
        }
        let expected = inputs.map { Self.sanitizer.sanitize($0) }
        let results = await withTaskGroup(of: (Int, String).self) { group in
            for round in 0..<4 {
                for (index, input) in inputs.enumerated() {
                    group.addTask { (index, round % 2 == 0 ? Self.sanitizer.sanitize(input) : HTMLSanitizer.plainText(fromHTML: input)) }
                }
            }
            var results: [(Int, String)] = []
            for await result in group { results.append(result) }
            return results
        }
        #expect(results.count == 64)
        for (index, output) in results where output.hasPrefix("<") {
            #expect(output == expected[index])
        }
    }
}

/// Counts the events of a parse, and keeps its text.
private final class CountingSink: HTMLSAXSink {
    private(set) var starts = 0
    private(set) var ends = 0
    private(set) var text = ""

    func startElement(name: UnsafePointer<UInt8>, attributes: UnsafeMutablePointer<UnsafePointer<UInt8>?>?) {
        starts += 1
    }

    func endElement() {
        ends += 1
    }

    func characters(_ text: UnsafeBufferPointer<UInt8>) {
        self.text += String(decoding: text, as: UTF8.self)
    }
}
