import Foundation
import Testing

@testable import TributarySyndication

/// Records the events of one parse as lines, adjacent text merged (libxml2 splits text where it
/// likes), so two parses can be compared whole.
private final class RecordingSink: HTMLSAXSink {
    private(set) var events: [String] = []
    private var text: [UInt8] = []

    func startElement(name: UnsafePointer<UInt8>, attributes: UnsafeMutablePointer<UnsafePointer<UInt8>?>?) {
        flushText()
        var line = "start " + String(cString: name)
        if let attributes {
            var position = 0
            while let attribute = attributes[position] {
                line += " [" + String(cString: attribute) + "]="
                line += attributes[position + 1].map { "[" + String(cString: $0) + "]" } ?? "nil"
                position += 2
            }
        } else {
            line += " (no attributes)"
        }
        events.append(line)
    }

    func endElement() {
        flushText()
        events.append("end")
    }

    func characters(_ text: UnsafeBufferPointer<UInt8>) {
        self.text.append(contentsOf: text)
    }

    func finish() -> [String] {
        flushText()
        return events
    }

    private func flushText() {
        guard !text.isEmpty else { return }
        events.append("text " + text.map { String($0, radix: 16) }.joined(separator: " "))
        text.removeAll()
    }
}

/// The fast scanner must produce exactly libxml2's events whenever it accepts an input.
@Suite("HTMLFastScanner against libxml2's HTML parser")
struct HTMLFastScannerTests {
    static func libxml2Events(_ html: String) -> [String] {
        let sink = RecordingSink()
        HTMLSAXParser.parseWithLibXML2(html, into: sink)
        return sink.finish()
    }

    /// The scanner's events, nil when it gave up.
    static func scannerEvents(_ html: String) -> [String]? {
        let sink = RecordingSink()
        var html = html
        return html.withUTF8 { HTMLFastScanner.scan($0, into: sink) } ? sink.finish() : nil
    }

    /// Typical feed HTML, which the scanner must accept (it is what makes parsing fast).
    static let accepted = [
        "plain text", "", "<p>One</p><p>Two &amp; three</p>", "<p>中文 text</p>\n<p>more</p>",
        #"<p>See <a href="https://example.org/1">the notes</a> &amp; <em>more</em>.</p>"#,
        #"<p>x</p><img src="/img/1.jpg" alt="figure"><p>y"#, "<p>A<br>B<br/>C</p>", "<ul><li>a</li><li>b</li></ul>",
        "<blockquote><p>q</p></blockquote>", "&lt;tag&gt; &quot;q&quot; &#65;&#x4E2D; &nbsp;&eacute;",
        "<P CLASS=x>Upper</P>", #"<a href='single' title="t">x</a>"#, "<a href=/x/y>unquoted</a>", "<img src=a.jpg/>",
        #"<a href = "spaced" >x</a >"#, "<div><span>in</span> out</div>", "<pre>\ncode\n</pre>", "<h2>Title</h2><p>text",
        "<strong><em>both</em></strong>", #"<img src="a.png" alt="a &amp; b &#x22;q&#x22;">"#, "<p>a > b</p>", "<p>]]></p>",
        "<p>\t tabs \n</p>", "<span hidden>x</span>", "<hr><hr/>", #"<a href="x" title>y</a>"#,
    ]

    @Test(arguments: accepted)
    func acceptsTypicalHTML(_ html: String) throws {
        let events = try #require(Self.scannerEvents(html), "the scanner gave up on \(html.debugDescription)")
        #expect(events == Self.libxml2Events(html))
    }

    /// Inputs the scanner must hand to libxml2: its reading would differ from a plain one.
    static let refused = [
        "<p>a<p>b", "<p>a<div>b</div>", "<li>a<li>b", "<b>a</i>", "a</p>", "<!-- c -->x", "<!DOCTYPE html>x", "<![CDATA[x]]>",
        "a < b", "<script>x</script>", "<table><td>x</td></table>", "<body>x</body>", "<a href=\"x", "<a href", "a\rb",
        "a\u{0}b", "a\u{1}b", "a\u{FFFE}b", "&#0;", "&#xD800;", "&#1114112;", "&bogus;", "&amp", "a & b", "<a b=c d=e b=f>",
        "<a href=`x`>", "<x-y>z</x-y>", "<p/a>", "<a\u{0}>", "<br></br>", "<p>a</P >",
    ]

    @Test(arguments: refused)
    func refusesWhatLibxml2ReadsDifferently(_ html: String) {
        if let events = Self.scannerEvents(html) {
            // Accepting is only a defect if the reading differs; most of these must be refused.
            #expect(events == Self.libxml2Events(html), "accepted \(html.debugDescription) with a different reading")
        }
    }

    @Test func mostRefusedInputsAreRefused() {
        let accepted = Self.refused.filter { Self.scannerEvents($0) != nil }
        #expect(accepted.count <= 1, "accepted: \(accepted)")
    }

    /// Every sanitizer test input: where the scanner accepts, the events are libxml2's.
    @Test func agreesOnTheSanitizerTables() {
        var inputs = HTMLSanitizerAttackTests.attacks.map(\.html)
        inputs += HTMLSanitizerTests.preserved.map(\.0) + HTMLSanitizerTests.unwrapped.map(\.0) + HTMLSanitizerTests.repaired.map(\.0)
        inputs += HTMLSanitizerPlainTextTests.texts.map(\.0)
        var acceptedCount = 0
        for html in inputs {
            guard let events = Self.scannerEvents(html) else { continue }
            acceptedCount += 1
            #expect(events == Self.libxml2Events(html), "differs on \(html.debugDescription)")
        }
        #expect(acceptedCount > 20)
    }

    /// Generated fragments mixing everything the scanner reads with what it must refuse.
    @Test func agreesOnGeneratedFragments() {
        var generator = HTMLSanitizerJunkGenerator(seed: 0x5EED)
        var acceptedCount = 0
        let total = 20_000
        for round in 0..<total {
            let html = Self.fragment(&generator, clean: round % 2 == 0)
            guard let events = Self.scannerEvents(html) else { continue }
            acceptedCount += 1
            let expected = Self.libxml2Events(html)
            #expect(events == expected, "differs on \(html.debugDescription)")
            if events != expected { return }
        }
        #expect(acceptedCount > total / 5, "only \(acceptedCount) of \(total) accepted: the comparison says little")
    }

    /// The sinks use what only the scanner gives them (the element's rule, runs known to need
    /// no escaping), so their output is compared too, not only the events.
    @Test func sinksWriteTheSameThroughBothParsers() {
        var generator = HTMLSanitizerJunkGenerator(seed: 0x51AC)
        var acceptedCount = 0
        let total = 5_000
        let base = URL(string: "https://example.com/a/b")
        for round in 0..<total {
            let html = Array(Self.fragment(&generator, clean: round % 4 != 0).utf8)
            html.withUnsafeBufferPointer { bytes in
                let scanned = HTMLSanitizingSink(baseURL: base, inputSize: bytes.count)
                let scannedText = HTMLPlainTextSink(inputSize: bytes.count)
                guard HTMLFastScanner.scan(bytes, into: scanned), HTMLFastScanner.scan(bytes, into: scannedText) else { return }
                acceptedCount += 1
                let parsed = HTMLSanitizingSink(baseURL: base, inputSize: bytes.count)
                let parsedText = HTMLPlainTextSink(inputSize: bytes.count)
                HTMLSAXParser.parseWithLibXML2(utf8: bytes, into: parsed)
                HTMLSAXParser.parseWithLibXML2(utf8: bytes, into: parsedText)
                let html = String(decoding: bytes, as: UTF8.self).debugDescription
                #expect(scanned.finish() == parsed.finish(), "sanitized differently: \(html)")
                #expect(scannedText.finish() == parsedText.finish(), "plain text differs: \(html)")
            }
        }
        #expect(acceptedCount > total / 4, "only \(acceptedCount) of \(total) accepted: the comparison says little")
    }

    static let texts = [
        "hello", " ", "\n", "\t", "中文", "a > b", "x]]>y", "&amp;", "&lt;", "&gt;", "&quot;", "&nbsp;", "&eacute;", "&apos;",
        "&AMP;", "&#65;", "&#x4E2D;", "&#X41;", "&#128;", "&#159;", "&#9;", "&#10;", "&#13;", "&#0;", "&#xFFFE;", "&#x1F600;",
        "&bogus;", "&amp", "& ", "é", "😀", "\u{FEFF}", "\u{A0}", "'\"", "=", "/", "a/b",
    ]
    static let rareTexts = ["\r\n", "\u{0}", "\u{1}", "\u{FFFE}", "<", "&#", "&#;", "<!-- c -->", "<!x>", "<?p?>", "</>", "</ p>"]
    static let elements = HTMLFastScanner.names.split(separator: " ").map(String.init)
    static let otherElements = ["script", "table", "tr", "td", "body", "html", "head", "title", "textarea", "svg", "x-y", "embed"]
    static let attributeNames = ["href", "src", "alt", "title", "class", "id", "onclick", "HREF", "data-x", "x_y", "a:b", "controls"]
    static let attributeValues = [
        #""v""#, "'v'", "v", #""""#, "''", #""a&amp;b""#, #""&#x6A;avascript:x""#, "\"a\nb\"", "\"a\tb\"", #"" spaced ""#, "/x/y",
        "a/", #""<x>""#, #""é""#, #""a'b""#, "'a\"b'", #""&nbsp;&eacute;""#, #""&bogus;""#, "a&b", "", #""a>b""#,
    ]

    static func pick<T>(_ list: [T], _ generator: inout HTMLSanitizerJunkGenerator) -> T {
        list[Int(generator.next() % UInt64(list.count))]
    }

    /// The pieces the scanner accepts on their own, for clean fragments.
    static let cleanTexts = texts.filter { scannerEvents($0) != nil }
    static let cleanAttributeNames = attributeNames.filter { scannerEvents("<b \($0)>") != nil }
    static let cleanAttributeValues = attributeValues.filter { scannerEvents("<b x=\($0)>") != nil }

    static func startTag(_ name: String, _ generator: inout HTMLSanitizerJunkGenerator, clean: Bool) -> String {
        var tag = "<" + (generator.next() % 8 == 0 ? name.uppercased() : name)
        for _ in 0..<Int(generator.next() % 4) {
            tag += pick([" ", "  ", "\n", "\t"], &generator) + pick(clean ? cleanAttributeNames : attributeNames, &generator)
            let value = pick(clean ? cleanAttributeValues : attributeValues, &generator)
            switch generator.next() % 6 {
            case 0: break
            case 1: tag += " = " + value
            default: tag += "=" + value
            }
        }
        return tag + pick([">", ">", ">", "/>", " >", " />"], &generator)
    }

    /// A fragment: mostly nested, closed elements and text, with mistakes mixed in (fewer when
    /// `clean`, so that the scanner accepts many and the comparison covers its whole subset).
    static func fragment(_ generator: inout HTMLSanitizerJunkGenerator, clean: Bool) -> String {
        var html = ""
        var open: [String] = []
        for _ in 0..<(1 + Int(generator.next() % 14)) {
            switch generator.next() % 20 {
            case 0..<6:
                html += pick(clean ? cleanTexts : texts, &generator)
            case 6 where !clean:
                html += pick(rareTexts, &generator)
            case 7..<11:
                let name = !clean && generator.next() % 12 == 0 ? pick(otherElements, &generator) : pick(elements, &generator)
                html += startTag(name, &generator, clean: clean)
                open.append(name)
            case 11..<15:
                if let name = open.popLast() { html += "</" + name + pick([">", ">", " >"], &generator) }
            case 15 where !clean:
                html += "</" + pick(elements, &generator) + ">"
            default:
                html += pick(clean ? cleanTexts : texts, &generator) + pick(clean ? cleanTexts : texts, &generator)
            }
        }
        if clean || generator.next() % 3 != 0 {
            while let name = open.popLast() { html += "</" + name + ">" }
        }
        return html
    }
}
