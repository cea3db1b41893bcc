import Testing
import TributarySyndication

@Suite("HTMLSanitizer.plainText")
struct HTMLSanitizerPlainTextTests {
    /// HTML and its text with no limit.
    static let texts: [(String, String)] = [
        ("<p>Hello</p><p>World</p>", "Hello World"),
        ("a<br>b<br/>c", "a b c"),
        ("<b>中</b>文", "中文"),
        ("<p>中文</p><p>内容</p>", "中文 内容"),
        ("<span>a</span><span>b</span><em>c</em>", "abc"),
        ("x&nbsp;y&nbsp;&nbsp; z", "x y z"),
        ("<script>var a = 1 < 2;</script>Text<style>p { color: red }</style>", "Text"),
        ("<title>T</title><head><title>U</title></head><p>x</p>", "x"),
        ("<noscript>enable js</noscript><template>t</template><svg><text>s</text></svg>ok", "ok"),
        ("&lt;tag&gt; &amp; &eacute; &#x1F600; &quot;q&quot;", "<tag> & é 😀 \"q\""),
        ("<ul><li>one</li><li>two</li></ul><ol><li>three</li></ol>", "one two three"),
        ("<h1>Title</h1>body<h2>Sub</h2>more", "Title body Sub more"),
        ("<table><tr><th>a</th><td>b</td></tr><tr><td>c</td></tr></table>", "a b c"),
        ("<dl><dt>term</dt><dd>definition</dd></dl>", "term definition"),
        ("<div>a</div><div>b</div>", "a b"),
        ("<section>a</section><article>b</article><header>c</header><footer>d</footer>", "a b c d"),
        ("<blockquote>q</blockquote>after", "q after"),
        ("<figure><img src=x alt=pic><figcaption>cap</figcaption></figure>next", "cap next"),
        ("<pre>line 1\n   line 2</pre>", "line 1 line 2"),
        ("  lead \n\n and \t trail  ", "lead and trail"),
        ("<!-- comment -->x<?pi ?>y", "xy"),
        ("<a href=\"javascript:alert(1)\">link</a> text", "link text"),
        ("", ""),
        ("   \n\t ", ""),
        ("<p></p><div> </div>", ""),
        ("a\u{0}b\u{1}c", "abc"),
        ("word<b>bold</b>word", "wordboldword"),
        ("<p>Hello <b>big</b> world</p>", "Hello big world"),
        // Legacy names without their semicolon, as browsers and feedparser read them; others stay text.
        ("x &para. y &copy 2024 AT&T &amp z &eacute <b>&nbsp</b>&amp", "x ¶. y © 2024 AT&T & z é &"),
        ("&pound5 &ltb &notit; &AMP x &hellip end &amp;&amp=", "&pound5 &ltb &notit; &AMP x &hellip end &&amp="),
    ]

    @Test(arguments: texts)
    func extractsText(_ html: String, _ expected: String) {
        #expect(HTMLSanitizer.plainText(fromHTML: html) == expected)
    }

    /// HTML, limit, and the text.
    static let truncations: [(String, Int, String)] = [
        // Latin text cuts at the last space within the final fifth of the limit.
        ("The quick brown fox jumps over the lazy dog", 20, "The quick brown fox…"),
        ("The quick brown fox jumps over the lazy dog", 22, "The quick brown fox…"),
        // The limit falls right before a space: the whole word fits.
        ("abc def ghi", 7, "abc def…"),
        // No space late enough: cut mid-word rather than lose most of the text.
        ("Supercalifragilistic expialidocious", 10, "Supercalif…"),
        ("a bcdefghijklmnopqrstuvwxyz", 20, "a bcdefghijklmnopqrs…"),
        // CJK has no spaces: a hard cut at the limit.
        ("中文字符测试内容很长很长", 4, "中文字符…"),
        ("<p>中文字符</p><p>测试内容</p>", 6, "中文字符 测…"),
        // Characters, not scalars or bytes.
        ("👍🏽👍🏽👍🏽👍🏽", 2, "👍🏽👍🏽…"),
        ("éééé", 3, "ééé…"),
        // Short enough: unchanged, no ellipsis.
        ("abc def", 7, "abc def"),
        ("abc def", 100, "abc def"),
        ("", 5, ""),
        // Tags and entities do not count.
        ("<p>Hello <b>big</b> world</p>", 9, "Hello big…"),
        ("<p>a &amp; b &amp; c</p>", 5, "a & b…"),
        // Degenerate limits.
        ("abc", 0, "…"),
        ("abc", -3, "…"),
    ]

    @Test(arguments: truncations)
    func truncates(_ html: String, _ limit: Int, _ expected: String) {
        #expect(HTMLSanitizer.plainText(fromHTML: html, limit: limit) == expected)
    }

    @Test func truncatedTextStaysWithinLimitPlusEllipsis() {
        let html = String(repeating: "<p>lorem ipsum dolor sit amet 中文内容</p>", count: 50)
        for limit in [1, 5, 17, 40, 99, 250] {
            let text = HTMLSanitizer.plainText(fromHTML: html, limit: limit)
            #expect(text.hasSuffix("…"))
            #expect(text.count <= limit + 1)
            #expect(text.dropLast().last?.isWhitespace != true)
        }
    }

    @Test func noLimitKeepsEverything() {
        let html = String(repeating: "<p>word</p>", count: 1000)
        #expect(HTMLSanitizer.plainText(fromHTML: html, limit: nil).count == 1000 * 5 - 1)
    }
}
