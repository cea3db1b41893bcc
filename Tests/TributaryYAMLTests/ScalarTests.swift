import Testing
import TributaryYAML

@Suite("Scalars")
struct ScalarTests {
    struct StyleCase: Sendable, CustomTestStringConvertible {
        var source: String
        var text: String
        var style: ScalarStyle
        var mark: Mark
        var testDescription: String { "\(style)" }
    }

    static let styleCases: [StyleCase] = [
        StyleCase(source: "key: plain text\n", text: "plain text", style: .plain, mark: at(1, 6)),
        StyleCase(source: "key: 'it''s'\n", text: "it's", style: .singleQuoted, mark: at(1, 6)),
        StyleCase(source: "key:   \"tab\\there\"\n", text: "tab\there", style: .doubleQuoted, mark: at(1, 8)),
        StyleCase(source: "key: |\n  line 1\n  line 2\n", text: "line 1\nline 2\n", style: .literal, mark: at(1, 6)),
        StyleCase(source: "key: >-\n  folded\n  text\n", text: "folded text", style: .folded, mark: at(1, 6)),
    ]

    @Test("each scalar style keeps its text, style and start mark", arguments: styleCases)
    func scalarStyle(_ testCase: StyleCase) throws {
        let root = try #require(try YAML.parse(testCase.source, file: "s.yaml"))
        let value = try #require(root["key"])
        #expect(value.scalar == testCase.text)
        #expect(value.style == testCase.style)
        #expect(value.content == .scalar(testCase.text, testCase.style))
        #expect(value.mark == testCase.mark)
        #expect(value.tag == nil)
    }

    @Test("a bare top-level scalar is the root")
    func topLevelScalar() throws {
        let root = try #require(try YAML.parse("  hello\n", file: "s.yaml"))
        #expect(root.scalar == "hello")
        #expect(root.mark == at(1, 3))
    }

    @Test("scalars are not type-resolved")
    func scalarsStayStrings() throws {
        let root = try #require(try YAML.parse("n: 12\nb: true\nf: 1.5\nd: 2024-01-01\n", file: "s.yaml"))
        #expect(root["n"]?.scalar == "12")
        #expect(root["b"]?.scalar == "true")
        #expect(root["f"]?.scalar == "1.5")
        #expect(root["d"]?.scalar == "2024-01-01")
    }

    @Test("a double-quoted \\0 escape yields an embedded NUL")
    func nulInDoubleQuoted() throws {
        let root = try #require(try YAML.parse("v: \"a\\0b\"\n", file: "s.yaml"))
        let text = try #require(root["v"]?.scalar)
        #expect(text == "a\0b")
        #expect(Array(text.utf8) == [0x61, 0x00, 0x62])
        #expect(text.unicodeScalars.count == 3)
    }

    @Test(
        "null detection",
        arguments: [
            ("v: ~", true), ("v: null", true), ("v: Null", true), ("v: NULL", true), ("v:", true),
            ("v: ''", false), ("v: 'null'", false), ("v: nil", false), ("v: !!str ~", false),
            ("v: !!null x", true), ("v: nULL", false),
        ])
    func nullDetection(source: String, expected: Bool) throws {
        let root = try #require(try YAML.parse(source, file: "s.yaml"))
        let value = try #require(root["v"])
        #expect(value.isNull == expected)
    }

    @Test("a document of just ~ is a null scalar node")
    func tildeDocument() throws {
        let root = try #require(try YAML.parse("~\n", file: "s.yaml"))
        #expect(root.isNull)
        #expect(root.scalar == "~")
        #expect(root.mark == at(1, 1))
    }

    @Test("an explicit empty document is an empty null node")
    func emptyExplicitDocument() throws {
        let root = try #require(try YAML.parse("---\n", file: "s.yaml"))
        #expect(root.isNull)
        #expect(root.scalar == "")
    }

    @Test("explicit tags keep libyaml's resolved tag text")
    func tags() throws {
        let source = "a: !!str 123\nb: !custom x\nc: !!seq [1]\nd: !<tag:example.com,2024:feed> {k: v}\ne: plain\n"
        let root = try #require(try YAML.parse(source, file: "s.yaml"))
        #expect(root["a"]?.tag == "tag:yaml.org,2002:str")
        #expect(root["a"]?.scalar == "123")
        #expect(root["a"]?.mark == at(1, 4))  // the mark starts at the tag
        #expect(root["b"]?.tag == "!custom")
        #expect(root["c"]?.tag == "tag:yaml.org,2002:seq")
        #expect(root["c"]?.sequence?.count == 1)
        #expect(root["d"]?.tag == "tag:example.com,2024:feed")
        #expect(root["e"]?.tag == nil)
    }
}
