import Testing
import TributarySyndication

@Suite("HTML text")
struct HTMLTextTests {
    @Test(
        "plain text from HTML",
        arguments: [
            ("", ""),
            ("plain", "plain"),
            ("<p>Hello, <b>world</b>!</p>", "Hello, world!"),
            ("<P>Upper</P><P>case</P>", "Upper case"),
            ("<p>one</p><p>two</p>", "one two"),
            ("one<br>two<br/>three<br />four", "one two three four"),
            ("<div>a</div><div>b</div>", "a b"),
            ("<ul><li>x</li><li>y</li></ul>", "x y"),
            ("<h1>Title</h1>Body", "Title Body"),
            ("<h2>A</h2><h3>B</h3>", "A B"),
            ("<h4>Four</h4><h5>five</h5><h6>six</h6>text", "Four five six text"),
            ("<table><tr><td>a</td><td>b</td></tr><tr><th>c</th><th>d</th></tr></table>", "a b c d"),
            ("<blockquote>quoted</blockquote>said", "quoted said"),
            ("<pre>code</pre>after", "code after"),
            ("a<hr>b", "a b"),
            ("in<span>line</span> <em>tags</em> join", "inline tags join"),
            ("<a href=\"https://example.com/?a=1&amp;b=2\" title=\"t\">link</a> text", "link text"),
            ("<img src=\"x.png\" alt=\"pic\">caption", "caption"),
            ("<script>alert('x < y');</script>visible", "visible"),
            ("<script type=\"text/javascript\">var a = \"<p>\";</script>after", "after"),
            ("<STYLE>p { color: red }</STYLE>shown", "shown"),
            ("before<style>.a{}</style><p>after</p>", "before after"),
            ("Tom &amp; Jerry", "Tom & Jerry"),
            ("&lt;not a tag&gt;", "<not a tag>"),
            ("caf&eacute; &#233; &#xE9;", "café é é"),
            ("&ldquo;quoted&rdquo; &mdash; dash&hellip;", "“quoted” — dash…"),
            ("a&nbsp;b", "a b"),
            ("  lots \n\t of   \r\n  space  ", "lots of space"),
            ("<p>\n  indented\n  lines\n</p>", "indented lines"),
            ("中文<p>段落</p>", "中文 段落"),
            ("😀<br>🎉", "😀 🎉"),
        ])
    func plainText(_ html: String, _ expected: String) {
        #expect(HTMLText.plainText(fromHTML: html) == expected)
    }

    @Test(
        "HTML paragraphs from plain text",
        arguments: [
            ("", ""),
            ("   \n\n  ", ""),
            ("one line", "<p>one line</p>"),
            ("line 1\nline 2", "<p>line 1<br>line 2</p>"),
            ("para 1\n\npara 2", "<p>para 1</p><p>para 2</p>"),
            ("para 1\n\n\n\npara 2", "<p>para 1</p><p>para 2</p>"),
            ("  padded  \n\n  text  ", "<p>padded</p><p>text</p>"),
            ("line 1\r\nline 2", "<p>line 1<br>line 2</p>"),
            ("para 1\r\n\r\npara 2", "<p>para 1</p><p>para 2</p>"),
            ("a < b & c > d", "<p>a &lt; b &amp; c &gt; d</p>"),
            ("<script>alert(1)</script>", "<p>&lt;script&gt;alert(1)&lt;/script&gt;</p>"),
            ("bad\u{1}char", "<p>badchar</p>"),
            ("你好\n\n世界 🌏", "<p>你好</p><p>世界 🌏</p>"),
        ])
    func paragraphs(_ text: String, _ expected: String) {
        #expect(HTMLText.paragraphs(fromPlainText: text) == expected)
    }

    @Test(
        "paragraphs read back as the same words",
        arguments: ["one\n\ntwo three", "a & b\nc < d", "  x  \r\n\r\n  y  "])
    func paragraphsRoundTrip(_ text: String) {
        #expect(HTMLText.plainText(fromHTML: HTMLText.paragraphs(fromPlainText: text)) == HTMLText.collapseWhitespace(text))
    }

    @Test(
        "entity decoding",
        arguments: [
            ("", ""),
            ("no entities", "no entities"),
            ("&amp;", "&"),
            ("&lt;&gt;&quot;&apos;", "<>\"'"),
            ("&nbsp;", "\u{A0}"),
            ("&copy; &reg; &trade;", "© ® ™"),
            ("&lsquo;x&rsquo; &laquo;y&raquo; &bull; &middot; &ndash;", "‘x’ «y» • · –"),
            ("&#65;&#66;&#67;", "ABC"),
            ("&#0065;", "A"),
            ("&#x41;&#X42;&#x4a;", "ABJ"),
            ("&#x1F600;", "😀"),
            ("&#128512;", "😀"),
            ("&#20320;&#x597D;", "你好"),
            ("&unknown;", "&unknown;"),
            ("&AMP;", "&AMP;"),
            ("&amp", "&amp"),
            ("AT&T", "AT&T"),
            ("a & b; c", "a & b; c"),
            ("&&amp;", "&&"),
            ("&amp;lt;", "&lt;"),
            ("&#;", "&#;"),
            ("&#x;", "&#x;"),
            ("&#xZZ;", "&#xZZ;"),
            ("&#xD800;", "&#xD800;"),
            ("&#x110000;", "&#x110000;"),
            ("&#99999999999;", "&#99999999999;"),
            ("&averyveryverylongname;", "&averyveryverylongname;"),
            ("x &amp; y &#38; z &#x26;", "x & y & z &"),
        ])
    func decodeEntities(_ text: String, _ expected: String) {
        #expect(HTMLText.decodeEntities(text) == expected)
    }

    @Test(
        "whitespace collapsing",
        arguments: [
            ("", ""), ("  ", ""), ("a", "a"), (" a  b ", "a b"), ("a\n\n\tb", "a b"), ("a\u{A0}\u{3000}b", "a b"),
            ("a\r\nb", "a b"),
        ])
    func collapseWhitespace(_ text: String, _ expected: String) {
        #expect(HTMLText.collapseWhitespace(text) == expected)
    }
}
