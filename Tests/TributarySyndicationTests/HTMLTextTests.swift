import Testing
import TributarySyndication

@Suite("HTML text")
struct HTMLTextTests {
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
        #expect(
            HTMLSanitizer.plainText(fromHTML: HTMLText.paragraphs(fromPlainText: text))
                == text.split(whereSeparator: { $0.isWhitespace }).joined(separator: " "))
    }

}
