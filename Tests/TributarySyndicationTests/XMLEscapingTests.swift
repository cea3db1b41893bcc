import Foundation
import TestSupport
import Testing
import TributarySyndication

@Suite("XML escaping")
struct XMLEscapingTests {
    struct EscapeCase: Sendable, CustomTestStringConvertible {
        var input: String
        var text: String
        var attribute: String
        var testDescription: String { input.debugDescription }
    }

    static let cases: [EscapeCase] = [
        EscapeCase(input: "", text: "", attribute: ""),
        EscapeCase(input: "plain words", text: "plain words", attribute: "plain words"),
        EscapeCase(input: "a & b", text: "a &amp; b", attribute: "a &amp; b"),
        EscapeCase(input: "<b>bold</b>", text: "&lt;b&gt;bold&lt;/b&gt;", attribute: "&lt;b&gt;bold&lt;/b&gt;"),
        EscapeCase(input: "say \"hi\"", text: "say \"hi\"", attribute: "say &quot;hi&quot;"),
        EscapeCase(input: "it's", text: "it's", attribute: "it's"),
        EscapeCase(input: "&amp;", text: "&amp;amp;", attribute: "&amp;amp;"),
        EscapeCase(input: "]]>", text: "]]&gt;", attribute: "]]&gt;"),
        EscapeCase(input: "<![CDATA[x]]>", text: "&lt;![CDATA[x]]&gt;", attribute: "&lt;![CDATA[x]]&gt;"),
        EscapeCase(input: "a\tb", text: "a\tb", attribute: "a&#9;b"),
        EscapeCase(input: "a\nb", text: "a\nb", attribute: "a&#10;b"),
        EscapeCase(input: "a\rb", text: "a&#13;b", attribute: "a&#13;b"),
        EscapeCase(input: "a\r\nb", text: "a&#13;\nb", attribute: "a&#13;&#10;b"),
        EscapeCase(input: "a\u{0}b\u{1}c\u{8}d\u{B}e\u{C}f\u{1F}g", text: "abcdefg", attribute: "abcdefg"),
        EscapeCase(input: "x\u{FFFE}y\u{FFFF}z", text: "xyz", attribute: "xyz"),
        EscapeCase(input: "\u{FFFD}\u{FEFF}\u{EFFF}", text: "\u{FFFD}\u{FEFF}\u{EFFF}", attribute: "\u{FFFD}\u{FEFF}\u{EFFF}"),
        EscapeCase(input: "\u{7F}\u{85}\u{A0}", text: "\u{7F}\u{85}\u{A0}", attribute: "\u{7F}\u{85}\u{A0}"),
        EscapeCase(input: "头条 & 知乎", text: "头条 &amp; 知乎", attribute: "头条 &amp; 知乎"),
        EscapeCase(input: "🚀 <launch> 👩‍👩‍👧", text: "🚀 &lt;launch&gt; 👩‍👩‍👧", attribute: "🚀 &lt;launch&gt; 👩‍👩‍👧"),
        EscapeCase(input: "\u{10FFFF}\u{E000}", text: "\u{10FFFF}\u{E000}", attribute: "\u{10FFFF}\u{E000}"),
    ]

    @Test("text and attribute escaping", arguments: cases)
    func escaping(_ testCase: EscapeCase) {
        #expect(XMLEscaping.text(testCase.input) == testCase.text)
        #expect(XMLEscaping.attribute(testCase.input) == testCase.attribute)
    }

    @Test(
        "every C0 control other than tab, LF and CR is removed",
        arguments: (0x00...0x1F).compactMap(Unicode.Scalar.init(_:)))
    func controlCharacters(_ scalar: Unicode.Scalar) {
        let input = "a" + String(Character(scalar)) + "b"
        let expectedText: String
        let expectedAttribute: String
        switch scalar {
        case "\t": (expectedText, expectedAttribute) = ("a\tb", "a&#9;b")
        case "\n": (expectedText, expectedAttribute) = ("a\nb", "a&#10;b")
        case "\r": (expectedText, expectedAttribute) = ("a&#13;b", "a&#13;b")
        default: (expectedText, expectedAttribute) = ("ab", "ab")
        }
        #expect(XMLEscaping.text(input) == expectedText)
        #expect(XMLEscaping.attribute(input) == expectedAttribute)
        #expect(XMLEscaping.isAllowed(scalar) == ["\t", "\n", "\r"].contains(scalar))
    }

    @Test(
        "isAllowed follows the XML 1.0 Char production",
        arguments: [
            (0x9, true), (0xA, true), (0xD, true), (0x0, false), (0x1F, false), (0x20, true), (0x7F, true),
            (0xD7FF, true), (0xE000, true), (0xFFFD, true), (0xFFFE, false), (0xFFFF, false), (0x10000, true),
            (0x1F600, true), (0x10FFFF, true),
        ])
    func isAllowed(_ value: UInt32, _ expected: Bool) throws {
        let scalar = try #require(Unicode.Scalar(value))
        #expect(XMLEscaping.isAllowed(scalar) == expected)
    }

    @Test(
        "escaped text never contains ]]> or a character XML forbids",
        arguments: ["]]>", "]]]]>>", "]]\u{0}>", "]\u{1}]>", "x]]>y]]>z", "]]\u{FFFE}>", "<![CDATA[ ]]> ]]>"])
    func noCDATAEnd(_ input: String) {
        for escaped in [XMLEscaping.text(input), XMLEscaping.attribute(input)] {
            #expect(!escaped.contains("]]>"))
            #expect(escaped.unicodeScalars.allSatisfy(XMLEscaping.isAllowed))
            #expect(!escaped.contains("<"))
        }
    }

    @Test("escaped text reads back as the original minus forbidden characters")
    func parsesBack() throws {
        let input = "Tom & \"Jerry\" <3 ]]> \u{1}\u{FFFE} 你好 🎉\ttab\nline\rcr"
        let cleaned = "Tom & \"Jerry\" <3 ]]>  你好 🎉\ttab\nline\rcr"
        let xml = "<r a=\"\(XMLEscaping.attribute(input))\">\(XMLEscaping.text(input))</r>"
        let tree = try XMLTree.parse(xml)
        #expect(tree == XMLTree(name: "r", attributes: ["a": cleaned], text: cleaned, children: []))
    }

    /// The rules of the type's documentation, one scalar at a time: the oracle for the byte scanner.
    static func reference(_ input: String, attribute: Bool) -> String {
        var output = ""
        for scalar in input.unicodeScalars {
            switch scalar {
            case "&": output += "&amp;"
            case "<": output += "&lt;"
            case ">": output += "&gt;"
            case "\"" where attribute: output += "&quot;"
            case "\t" where attribute: output += "&#9;"
            case "\n" where attribute: output += "&#10;"
            case "\r": output += "&#13;"
            case _ where !XMLEscaping.isAllowed(scalar): break
            default: output.unicodeScalars.append(scalar)
            }
        }
        return output
    }

    @Test("generated text escapes as the rules say, through the String API and into a buffer", arguments: 0..<8)
    func generated(_ seed: UInt64) {
        // Special characters, controls, the EF-lead scalars around U+FFFE/U+FFFF (U+FF0C, U+FFFD,
        // U+FFFE, U+FFFF, U+EFFF), CJK and astral scalars, in runs of every length.
        let alphabet: [Unicode.Scalar] = [
            "a", "Z", "0", " ", "&", "<", ">", "\"", "'", "\t", "\n", "\r", "\u{0}", "\u{1F}", "\u{7F}", "]",
            "\u{FF0C}", "\u{FFFD}", "\u{FFFE}", "\u{FFFF}", "\u{EFFF}", "头", "条", "\u{1F680}", "\u{10FFFF}",
        ]
        var generator = SeededGenerator(seed: seed)
        for _ in 0..<300 {
            var input = ""
            for _ in 0..<Int.random(in: 0...40, using: &generator) {
                let scalar = alphabet.randomElement(using: &generator)!
                let run = Int.random(in: 1...3, using: &generator)
                for _ in 0..<run { input.unicodeScalars.append(scalar) }
            }
            for attribute in [false, true] {
                let expected = Self.reference(input, attribute: attribute)
                #expect((attribute ? XMLEscaping.attribute(input) : XMLEscaping.text(input)) == expected)
                var output = XMLOutput()
                output.raw("<")
                if attribute { output.attribute(input) } else { output.text(input) }
                #expect(output.string == "<" + expected)
            }
        }
    }

    static let cdataCases: [(String, String)] = [
        ("", ""),
        ("<p>Fish & chips</p>", "<![CDATA[<p>Fish & chips</p>]]>"),
        ("a]]>b", "<![CDATA[a]]]]><![CDATA[>b]]>"),
        ("]]]>", "<![CDATA[]]]]]><![CDATA[>]]>"),
        ("]] > ]>", "<![CDATA[]] > ]>]]>"),
        ("a\r\nb", "<![CDATA[a]]>&#13;<![CDATA[\nb]]>"),
        // A character XML cannot carry is dropped before "]]>" is looked for.
        ("]]\u{1}> ]\u{FFFF}]>", "<![CDATA[]]]]><![CDATA[> ]]]]><![CDATA[>]]>"),
        ("\u{0}tab\tline\n\u{B}\u{1F}\u{FFFE}\u{FFFF}\u{FFFD}\u{FF0C}", "<![CDATA[tab\tline\n\u{FFFD}\u{FF0C}]]>"),
        // Past the sixteen-byte step: the split lands at the right byte of a later block.
        (
            String(repeating: "x", count: 30) + "]]>" + String(repeating: "y", count: 17),
            "<![CDATA[" + String(repeating: "x", count: 30) + "]]]]><![CDATA[>" + String(repeating: "y", count: 17) + "]]>"
        ),
    ]

    @Test("HTML goes out in CDATA sections, split at ]]> and around carriage returns", arguments: cdataCases)
    func cdata(_ input: String, _ expected: String) {
        var output = XMLOutput(capacity: 8)
        output.cdata(input)
        #expect(output.string == expected)
    }

    @Test("generated text in CDATA sections reads back as escaped text does", arguments: 0..<4)
    func generatedCDATA(_ seed: UInt64) throws {
        let alphabet: [Unicode.Scalar] = [
            "a", "<", ">", "&", "]", "\t", "\n", "\r", "\u{0}", "\u{1F}", "\u{FFFD}", "\u{FFFE}", "\u{FFFF}", "\u{EFFF}", "头", "\u{1F680}",
        ]
        var generator = SeededGenerator(seed: seed)
        for _ in 0..<200 {
            var input = ""
            for _ in 0..<Int.random(in: 0...60, using: &generator) {
                let scalar = alphabet.randomElement(using: &generator)!
                for _ in 0..<Int.random(in: 1...4, using: &generator) { input.unicodeScalars.append(scalar) }
            }
            var output = XMLOutput()
            output.raw("<r>")
            output.cdata(input)
            output.raw("</r>")
            let expected = try XMLTree.parse("<r>" + XMLEscaping.text(input) + "</r>").text
            #expect(try XMLTree.parse(output.string).text == expected, "\(input.unicodeScalars.map { $0.value })")
        }
    }

    @Test("XMLOutput writes elements and attributes, and hands its bytes over when flushed")
    func output() {
        var output = XMLOutput(capacity: 16)
        output.indent(2)
        output.element("title", "Fish & <chips>")
        output.raw("<link")
        output.attribute("href", "https://example.com/?a=1&b=\"2\"")
        output.raw("/>")
        output.raw(Array("\n".utf8))
        var pieces: [String] = []
        output.flush { pieces.append(String(decoding: $0, as: UTF8.self)) }
        #expect(output.bytes.isEmpty)
        output.raw("</feed>" as String)
        output.flush { pieces.append(String(decoding: $0, as: UTF8.self)) }
        #expect(
            pieces == [
                "    <title>Fish &amp; &lt;chips&gt;</title><link href=\"https://example.com/?a=1&amp;b=&quot;2&quot;\"/>\n", "</feed>",
            ])
    }
}
