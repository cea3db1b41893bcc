import Foundation
import Testing
import TributarySyndication

@Suite("HTMLSanitizer keeps allowed content")
struct HTMLSanitizerTests {
    static let base = URL(string: "https://example.com/blog/post.html")
    static let sanitizer = HTMLSanitizer(baseURL: base)

    /// Input and the exact output with `base`.
    static let preserved: [(String, String)] = [
        // Paragraphs, links, images.
        (
            #"<p>Hello <a href="/about">about</a> and <a href="https://x.example/">x</a>.</p>"#,
            #"<p>Hello <a href="https://example.com/about">about</a> and <a href="https://x.example/">x</a>.</p>"#
        ),
        (
            #"<img src="pic.jpg" alt="A &amp; B" width="100" height="50" title="t">"#,
            #"<img src="https://example.com/blog/pic.jpg" alt="A &amp; B" width="100" height="50" title="t">"#
        ),
        (
            #"<figure><img src="a.png"><figcaption>cap</figcaption></figure>"#,
            #"<figure><img src="https://example.com/blog/a.png"><figcaption>cap</figcaption></figure>"#
        ),
        // Tables and lists.
        (
            #"<table><caption>C</caption><thead><tr><th scope="col">H</th></tr></thead><tbody><tr><td colspan="2" rowspan="1" headers="h">D</td></tr></tbody><tfoot><tr><td>F</td></tr></tfoot></table>"#,
            #"<table><caption>C</caption><thead><tr><th scope="col">H</th></tr></thead><tbody><tr><td colspan="2" rowspan="1" headers="h">D</td></tr></tbody><tfoot><tr><td>F</td></tr></tfoot></table>"#
        ),
        (#"<colgroup span="2"><col span="1"></colgroup>"#, #"<colgroup span="2"><col span="1"></colgroup>"#),
        (
            #"<ol start="3" reversed type="a"><li value="5">x</li></ol><ul><li>a<li>b</ul>"#,
            #"<ol start="3" reversed="" type="a"><li value="5">x</li></ol><ul><li>a</li><li>b</li></ul>"#
        ),
        ("<dl><dt>T</dt><dd>D</dd></dl>", "<dl><dt>T</dt><dd>D</dd></dl>"),
        // Whitespace in pre and code is kept byte for byte.
        ("<pre><code>  let x = 1\n    if a &lt; b {\n}</code></pre>", "<pre><code>  let x = 1\n    if a &lt; b {\n}</code></pre>"),
        ("<pre>\n\tindented\n\n  two blank</pre>", "<pre>\n\tindented\n\n  two blank</pre>"),
        // Entities: markup characters stay escaped, the rest become characters.
        (
            "&amp; &eacute; &lt;b&gt; &quot;q&quot; &#x1F600; &#233; &copy; &unknown;",
            "&amp; é &lt;b&gt; \"q\" 😀 é © &amp;unknown;"
        ),
        ("<p>中文内容，测试。😀👍🏽 Ünïcödé</p>", "<p>中文内容，测试。😀👍🏽 Ünïcödé</p>"),
        // Inline semantics, media, ruby.
        (
            #"<time datetime="2024-01-01">d</time><q cite="/src">q</q><del cite="http://x.example/">d</del><ins>i</ins>"#,
            #"<time datetime="2024-01-01">d</time><q cite="https://example.com/src">q</q><del cite="http://x.example/">d</del><ins>i</ins>"#
        ),
        (
            #"<b>b</b><i>i</i><em>e</em><strong>s</strong><code>c</code><sub>1</sub><sup>2</sup><mark>m</mark><small>s</small><kbd>k</kbd><abbr title="HyperText">HT</abbr>"#,
            #"<b>b</b><i>i</i><em>e</em><strong>s</strong><code>c</code><sub>1</sub><sup>2</sup><mark>m</mark><small>s</small><kbd>k</kbd><abbr title="HyperText">HT</abbr>"#
        ),
        (
            #"<video controls poster="p.jpg" width="320" height="240" preload="none" autoplay loop><track src="s.vtt" kind="subtitles" srclang="en" label="English"></video>"#,
            #"<video controls="" poster="https://example.com/blog/p.jpg" width="320" height="240" preload="none"><track src="https://example.com/blog/s.vtt" kind="subtitles" srclang="en" label="English"></video>"#
        ),
        (
            #"<picture><source srcset="a.webp 1x, b.webp 2x" type="image/webp"><img src="a.jpg"></picture>"#,
            #"<picture><source srcset="https://example.com/blog/a.webp 1x, https://example.com/blog/b.webp 2x" type="image/webp"><img src="https://example.com/blog/a.jpg"></picture>"#
        ),
        ("<ruby>漢<rp>(</rp><rt>kan</rt><rp>)</rp></ruby>", "<ruby>漢<rp>(</rp><rt>kan</rt><rp>)</rp></ruby>"),
        ("<details><summary>S</summary>body</details>", "<details><summary>S</summary>body</details>"),
        (#"<center>c</center><span lang="en" dir="ltr" style="x">s</span>"#, #"<center>c</center><span lang="en" dir="ltr">s</span>"#),
        // Tags lower-cased, voids in HTML5 form, attribute values re-escaped.
        ("<P ALIGN=center CLASS=x>X</P><BR/><hr/><br></br>", "<p>X</p><br><hr><br>"),
        (
            #"<a title='a "b" <c> & d' href="x?a=1&amp;b=2">t</a>"#,
            #"<a title="a &quot;b&quot; &lt;c&gt; &amp; d" href="https://example.com/blog/x?a=1&amp;b=2">t</a>"#
        ),
        ("<abbr title=\"line1\nline2\ttab\">x</abbr>", #"<abbr title="line1&#10;line2&#9;tab">x</abbr>"#),
    ]

    @Test(arguments: preserved)
    func preservesAllowedContent(_ input: String, _ expected: String) {
        #expect(Self.sanitizer.sanitize(input) == expected)
    }

    /// Input and the exact output: wrappers vanish, their children stay.
    static let unwrapped: [(String, String)] = [
        (#"<font face="Arial" color="red">hi</font>"#, "hi"),
        ("<section><p>x</p></section>", "<p>x</p>"),
        ("<article><header>h</header><main>m</main><footer>f</footer><aside>a</aside><nav>n</nav></article>", "hmfan"),
        ("<my-element>custom</my-element><x-y a=b>z</x-y>", "customz"),
        ("<foo><bar><p>deep</p></bar></foo>", "<p>deep</p>"),
        ("<blink>b</blink><marquee>m</marquee>", "bm"),
        (#"<html><body onload="x"><p>y</p></body></html>"#, "<p>y</p>"),
        ("<head><title>T</title></head><body><p>x</p></body>", "<p>x</p>"),
        (
            #"<!DOCTYPE html><html><head><meta charset="utf-8"><title>T</title><link rel="x" href="y"></head><body><h1>Head</h1><p>Para</p></body></html>"#,
            "<h1>Head</h1><p>Para</p>"
        ),
        ("<wbr>a<wbr>b", "ab"),
        (#"<p>a<embed src="x">b</p>c"#, "<p>ab</p>c"),
    ]

    @Test(arguments: unwrapped)
    func unwrapsOtherElements(_ input: String, _ expected: String) {
        #expect(Self.sanitizer.sanitize(input) == expected)
    }

    /// Input and the exact output: what the parser repairs.
    static let repaired: [(String, String)] = [
        ("<p><b>x", "<p><b>x</b></p>"),
        ("<div><p><b><i>text", "<div><p><b><i>text</i></b></p></div>"),
        ("</div>x</b>y</p>", "xy"),
        ("<p>a</body>b</html>c", "<p>a</p><p>bc</p>"),
        ("a<!-- comment -->b<!---->c", "abc"),
        ("a<!-- \u{0} <![CDATA[ -->b", "ab"),
        ("<p><![if !supportLists]><span>1.</span><![endif]>Item</p>", "<p><span>1.</span>Item</p>"),
        ("a<![CDATA[x<b>y</b>]]>b<![CDATA[unterminated", "ab"),
        ("a<!bogus>b<!DOCTYPE html>c<!x", "abc"),
        ("<<<>>>", "&lt;&lt;&lt;&gt;&gt;&gt;"),
        ("x\r\ny\rz", "x\ny\nz"),
        ("a\u{1}b\u{B}c\u{FFFE}d&#1;e", "abcde"),
        (#"<meta charset="iso-8859-1"><p>é中文</p>"#, "<p>é中文</p>"),
        ("text before<style>x</style> after", "text before after"),
        // A legacy name without its semicolon is read as browsers read it, in text and attribute values, unless a
        // letter, digit, `;` or `=` follows (a query parameter such as `&copy=2` stays).
        (
            #"<p>&copy 2024 &para.<a href="https://e.org/?a=1&copy=2&reg">x &amp y</a> &notit;</p>"#,
            #"<p>© 2024 ¶.<a href="https://e.org/?a=1&amp;copy=2®">x &amp; y</a> &amp;notit;</p>"#
        ),
    ]

    @Test(arguments: repaired)
    func repairsMalformedInput(_ input: String, _ expected: String) {
        #expect(Self.sanitizer.sanitize(input) == expected)
    }

    @Test("closesVoidElements writes void elements as XML wants them, and changes nothing else")
    func closesVoidElements() {
        let input = #"<p>a<br>b <img src="https://x.example/1.png" alt="x > y"></p><hr><p>c</p>"#
        #expect(HTMLSanitizer().sanitize(input) == #"<p>a<br>b <img src="https://x.example/1.png" alt="x &gt; y"></p><hr><p>c</p>"#)
        #expect(
            HTMLSanitizer(closesVoidElements: true).sanitize(input)
                == #"<p>a<br/>b <img src="https://x.example/1.png" alt="x &gt; y"/></p><hr/><p>c</p>"#)
    }

    /// `href` value and the `href` written, with `base`; nil when the attribute is dropped.
    static let links: [(String, String?)] = [
        ("https://x.example/a?b=c#d", "https://x.example/a?b=c#d"),
        ("HTTP://X.EXAMPLE/", "HTTP://X.EXAMPLE/"),
        ("mailto:me@example.com", "mailto:me@example.com"),
        ("/about", "https://example.com/about"),
        ("page.html", "https://example.com/blog/page.html"),
        ("../up", "https://example.com/up"),
        ("./here", "https://example.com/blog/here"),
        ("#frag", "https://example.com/blog/post.html#frag"),
        ("?q=1", "https://example.com/blog/post.html?q=1"),
        ("a b.html", "https://example.com/blog/a%20b.html"),
        ("/x/ü", "https://example.com/x/%C3%BC"),
        ("//cdn.example/x", "https://cdn.example/x"),
        ("  /padded  ", "https://example.com/padded"),
        ("ftp://x.example/", nil),
        ("tel:+1234", nil),
        ("data:image/png;base64,AA", nil),
        ("javascript:alert(1)", nil),
        ("", nil),
        ("   ", nil),
    ]

    @Test(arguments: links)
    func filtersAndResolvesLinks(_ href: String, _ expected: String?) {
        let output = Self.sanitizer.sanitize("<a href=\"\(href)\">t</a>")
        #expect(output == (expected.map { "<a href=\"\($0)\">t</a>" } ?? "<a>t</a>"))
    }

    /// `img src` value and whether it is kept.
    static let imageSources: [(String, Bool)] = [
        ("data:image/png;base64,iVBORw0KGgo=", true),
        ("DATA:IMAGE/PNG;base64,AA", true),
        ("data:image/jpeg,xx", true),
        ("data:image/gif;base64,AA", true),
        ("data:image/webp;base64,AA", true),
        ("data:image/svg+xml;base64,AA", false),
        ("data:image/png", false),
        ("data:text/html,<b>x</b>", false),
        ("mailto:x@example.com", false),
        ("https://x.example/a.png", true),
    ]

    @Test(arguments: imageSources)
    func allowsRasterDataImagesOnly(_ source: String, _ kept: Bool) {
        let output = Self.sanitizer.sanitize("<img src=\"\(source)\">")
        #expect(output == (kept ? "<img src=\"\(source)\">" : "<img>"))
    }

    @Test func keepsRelativeReferencesWithoutBase() {
        let output = HTMLSanitizer().sanitize(#"<a href="/about">a</a><img src="x.png" srcset="y.png 2x"><a href="//h.example/">h</a>"#)
        #expect(output == #"<a href="/about">a</a><img src="x.png" srcset="y.png 2x"><a href="//h.example/">h</a>"#)
    }

    @Test func dropsDataImagesEverywhereButImgSrc() {
        let output = Self.sanitizer.sanitize(
            #"<a href="data:image/png;base64,AA">a</a><video poster="data:image/png;base64,AA" src="data:image/png;base64,AA"></video><img srcset="data:image/png;base64,AA 1x">"#
        )
        #expect(output == "<a>a</a><video></video><img>")
    }

    @Test func ignoresBaseElement() {
        let output = Self.sanitizer.sanitize(#"<base href="https://evil.example/"><a href="x">t</a>"#)
        #expect(output == #"<a href="https://example.com/blog/x">t</a>"#)
    }

    @Test func baseURLCanBeChanged() {
        var sanitizer = HTMLSanitizer()
        sanitizer.baseURL = URL(string: "http://other.example/dir/")
        #expect(sanitizer.sanitize(#"<img src="a.png">"#) == #"<img src="http://other.example/dir/a.png">"#)
    }

    @Test func capsNestingOfKeptElements() {
        let html = String(repeating: "<div>", count: 150) + "deep" + String(repeating: "</div>", count: 150)
        let output = Self.sanitizer.sanitize(html)
        #expect(output == String(repeating: "<div>", count: 100) + "deep" + String(repeating: "</div>", count: 100))
    }

    @Test func emptyInputGivesEmptyOutput() {
        #expect(Self.sanitizer.sanitize("") == "")
        #expect(Self.sanitizer.sanitize("   \n\t ").trimmingCharacters(in: .whitespacesAndNewlines).isEmpty)
        #expect(Self.sanitizer.sanitize("<script>x</script><!-- y -->") == "")
    }
}
