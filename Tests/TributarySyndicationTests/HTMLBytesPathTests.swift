import Foundation
import Testing
import TributaryModel

@testable import TributarySyndication

/// The feed parser hands item HTML to the sanitizer, the summary and the image search as the
/// UTF-8 bytes it collected; these tests hold each byte entry point to its `String` one.
@Suite("Item HTML as bytes")
struct HTMLBytesPathTests {
    /// The sanitizer tables and generated fragments, clean (the fast scanner's subset) and not
    /// (libxml2's fallback).
    static let inputs: [String] = {
        var inputs = HTMLSanitizerAttackTests.attacks.map(\.html)
        inputs += HTMLSanitizerTests.preserved.map(\.0) + HTMLSanitizerTests.unwrapped.map(\.0) + HTMLSanitizerTests.repaired.map(\.0)
        inputs += HTMLSanitizerPlainTextTests.texts.map(\.0)
        var generator = HTMLSanitizerJunkGenerator(seed: 0xB17E5)
        for round in 0..<2_000 {
            // Some long enough for the summary's prefix windows.
            let pieces = round % 10 == 0 ? 80 : 1
            inputs.append((0..<pieces).map { _ in HTMLFastScannerTests.fragment(&generator, clean: round % 2 == 0) }.joined())
        }
        return inputs
    }()

    @Test("sanitizing bytes equals sanitizing the string")
    func sanitize() {
        let sanitizer = HTMLSanitizer(baseURL: URL(string: "https://example.com/a/b"))
        for html in Self.inputs {
            #expect(sanitizer.sanitize(utf8: Array(html.utf8)) == sanitizer.sanitize(html), "\(html.debugDescription)")
        }
    }

    @Test("plain text and summaries of bytes equal those of the string")
    func plainTextAndSummary() {
        for html in Self.inputs {
            let bytes = Array(html.utf8)
            let plain = bytes.withUnsafeBufferPointer { HTMLSanitizer.plainText(fromHTML: $0, limit: 40) }
            #expect(plain == HTMLSanitizer.plainText(fromHTML: html, limit: 40), "\(html.debugDescription)")
            #expect(ItemDraft.summary(fromHTML: bytes) == HTMLSanitizer.plainText(fromHTML: html, limit: ItemDraft.summaryLength))
        }
    }

    @Test("item HTML captured from any document's bytes is valid UTF-8, so it is not checked again")
    func capturedHTMLIsUTF8() throws {
        var generator = HTMLSanitizerJunkGenerator(seed: 0x0DD)
        let references = ["&#xD800;", "&#x1F600;", "&#0;", "&#x110000;", "&#128;", "&#xFFFE;", "&eacute;", "中文", "&#x5B57;"]
        var captured = 0
        for round in 0..<400 {
            // Junk bytes (invalid UTF-8, NUL, markup) in a description, read in whatever encoding
            // `DocumentDecoder` settles on, with character references libxml2 must refuse or encode.
            var document = Array("<?xml version=\"1.0\"?><rss version=\"2.0\"><channel><item><title>t</title><description>".utf8)
            document += Array(references[round % references.count].utf8) + generator.markupBytes(count: round % 120)
            document += Array("\(references[(round / 3) % references.count])</description><category>x</category>".utf8)
            let decoded = DocumentDecoder().decode(document)
            let builder = FeedBuilder(
                settings: FeedBuilder.Settings(
                    source: "junk", documentURL: nil, dateParser: DateParser(timeZone: .gmt, now: Date()), sanitize: true))
            let stream = XMLStreamParser(builder: builder)
            try stream.begin()
            _ = try? XMLPrepass(expansionLimit: 1 << 20).run(decoded.bytes) { stream.feed($0) }
            // The item is still open: its description is the bytes as captured.
            guard let html = builder.item?.descriptionHTML?.html else { continue }
            captured += 1
            #expect(String(validating: html, as: UTF8.self) != nil, "\(document)")
        }
        #expect(captured > 200)
    }

    @Test("item links resolve against the home page as FeedText.resolve resolves them", arguments: HTMLSanitizerURLResolverTests.bases)
    func homePageResolution(_ base: String) throws {
        let homePage = try #require(URL(string: base))
        let resolvers = HTMLURLResolverCache()
        let extra = ["/entries/0", "entries/1?x=y", "https://a.example/x", "mailto:x@y", " /x", "", "HTTP://A/b", "\t/a\n"]
        for reference in HTMLSanitizerURLResolverTests.references + extra {
            // Against the home page without its user name and password: the links are published.
            let expected =
                FeedText.hasScheme(reference) ? reference : FeedText.resolve(reference, against: WebLink.withoutUserInformation(homePage))
            #expect(ItemDraft.absolute(reference, homePage, resolvers) == expected, "\(reference) against \(base)")
        }
        #expect(ItemDraft.absolute("/x", nil, resolvers) == "/x")
    }

    @Test("image sources resolve as FeedText.resolve resolves them", arguments: HTMLSanitizerURLResolverTests.bases)
    func imageSourceResolution(_ base: String) throws {
        let baseURL = try #require(URL(string: base))
        let resolver = HTMLURLResolver(baseURL: baseURL)
        let extra = [" /x", "/x ", "https://a.example/x", "https://a.example/x\u{3000}", "HTTP://A/b", "mailto:x@y", "", " ", "\t/a\n"]
        for reference in HTMLSanitizerURLResolverTests.references + extra {
            #expect(
                ItemDraft.resolve(reference, resolver) == FeedText.resolve(reference, against: WebLink.withoutUserInformation(baseURL)),
                "\(reference) against \(base)")
        }
    }

    @Test("the word-at-a-time search for <img finds what the byte-by-byte search finds")
    func imageTagSearch() {
        var generator = HTMLSanitizerJunkGenerator(seed: 0x1A6)
        let pieces = ["<img", "<IMG", "<iMg", "\u{1C}img", "<im", "img", "<", "a", "中", " ", "<p>", "\u{1C}", "<imgx"]
        for length in 0..<400 {
            let text = (0..<(length % 60)).map { _ in pieces[Int(generator.next() % UInt64(pieces.count))] }.joined()
            let bytes = Array(text.utf8)
            bytes.withUnsafeBufferPointer { buffer in
                for start in 0...buffer.count {
                    #expect(ItemDraft.findImageTag(in: buffer, from: start) == ItemDraft.find("<img", in: buffer, from: start))
                }
            }
        }
    }
}

@Suite("HTML writer: plain text runs")
struct HTMLPlainTextRunTests {
    /// Text of the kind `HTMLFastScanner` passes as plain, at every length around the eight-byte
    /// words, written both ways after each kind of earlier output.
    @Test("appendPlainText writes what appendText writes")
    func sameAsAppendText() {
        Self.expectSameAsAppendText(
            seed: 0x9A7, pieces: [">", "a", " ", "\t", "\n", "中", "\"", "'", "é", "😀", ">>", "x>y"],
            before: [[], Array("a\r".utf8), Array("b".utf8)]
        ) { writer, text in writer.appendPlainText(text) }
    }

    /// Plain text without `>`, as `HTMLFastScanner` passes to `verbatimCharacters`.
    @Test("appendVerbatimText writes what appendText writes")
    func verbatimSameAsAppendText() {
        Self.expectSameAsAppendText(
            seed: 0x9A8, pieces: ["a", " ", "\t", "\n", "中", "\"", "'", "é", "😀", "xy"],
            before: [[], Array("a\r".utf8), Array("b".utf8), Array("c\r\n".utf8)]
        ) { writer, text in writer.appendVerbatimText(text) }
    }

    /// Generated text made of `pieces`, written with `write` after each of `before` (and followed
    /// by more text), gives the bytes `appendText` gives.
    static func expectSameAsAppendText(
        seed: UInt64, pieces: [String], before: [[UInt8]], write: (inout HTMLByteWriter, UnsafeBufferPointer<UInt8>) -> Void
    ) {
        var generator = HTMLSanitizerJunkGenerator(seed: seed)
        for length in 0..<200 {
            let text = Array((0..<(length % 40)).map { _ in pieces[Int(generator.next() % UInt64(pieces.count))] }.joined().utf8)
            for prefix in before {
                var general = HTMLByteWriter(capacity: 0)
                var other = HTMLByteWriter(capacity: 0)
                prefix.withUnsafeBufferPointer {
                    general.appendText($0)
                    other.appendText($0)
                }
                text.withUnsafeBufferPointer {
                    general.appendText($0)
                    write(&other, $0)
                }
                Array("\nz".utf8).withUnsafeBufferPointer {
                    general.appendText($0)
                    other.appendText($0)
                }
                #expect(other.bytes == general.bytes, "\(String(decoding: text, as: UTF8.self).debugDescription)")
            }
        }
    }
}
