import Testing
import TributaryYAML

@Suite("Errors")
struct ErrorTests {
    struct SyntaxCase: Sendable, CustomTestStringConvertible {
        var name: String
        var source: String
        var rendered: String
        var testDescription: String { name }
    }

    static let syntaxCases: [SyntaxCase] = [
        SyntaxCase(
            name: "unterminated flow sequence",
            source: "title: [a, b\nnext: 1\n",
            rendered:
                "feeds.yaml:2:5: error: did not find expected ',' or ']' (while parsing a flow sequence that started at 1:8)"
        ),
        SyntaxCase(
            name: "bad indentation in a sequence",
            source: "feeds:\n  - name: a\n    url: x\n   bad: 1\n",
            rendered:
                "feeds.yaml:4:4: error: did not find expected '-' indicator (while parsing a block collection that started at 2:3)"
        ),
        SyntaxCase(
            name: "bad indentation in a mapping",
            source: "feed:\n  url: x\n name: y\n",
            rendered:
                "feeds.yaml:3:2: error: did not find expected key (while parsing a block mapping that started at 1:1)"
        ),
        SyntaxCase(
            name: "tab indentation",
            source: "feeds:\n\tname: a\n",
            rendered:
                "feeds.yaml:2:1: error: found character that cannot start any token (while scanning for the next token)"
        ),
        SyntaxCase(
            name: "unclosed quote",
            source: "name: \"swift\nurl: x\n",
            rendered:
                "feeds.yaml:3:1: error: found unexpected end of stream (while scanning a quoted scalar that started at 1:7)"
        ),
        SyntaxCase(
            name: "mapping value on a continuation line",
            source: "a: 1\n  b: 2\n",
            rendered: "feeds.yaml:2:4: error: mapping values are not allowed in this context"
        ),
    ]

    @Test("syntax errors render libyaml's problem, place and context", arguments: syntaxCases)
    func syntaxError(_ testCase: SyntaxCase) throws {
        let error = try #require(parseError(testCase.source))
        #expect(error.description == testCase.rendered)
        #expect(error.file == "feeds.yaml")
    }

    @Test("the error keeps the file name exactly as given")
    func fileNameKept() throws {
        let error = try #require(parseError("[", file: "conf/my feeds.yaml"))
        #expect(error.file == "conf/my feeds.yaml")
        #expect(error.description.hasPrefix("conf/my feeds.yaml:"))
    }

    @Test("duplicate keys are reported at the second key")
    func duplicateKey() throws {
        let source = "feeds:\n  - url: a\n    name: x\n    name: y\n"
        let error = try #require(parseError(source))
        #expect(error.mark == at(4, 5))
        #expect(error.message == "duplicate key 'name' (first defined at 3:5)")
        #expect(error.description == "feeds.yaml:4:5: error: duplicate key 'name' (first defined at 3:5)")
    }

    @Test("duplicate keys compare text regardless of quoting, also in flow mappings")
    func duplicateKeyQuotedFlow() throws {
        let error = try #require(parseError("{a: 1, 'a': 2}"))
        #expect(error.description == "feeds.yaml:1:8: error: duplicate key 'a' (first defined at 1:2)")
    }

    @Test("a duplicate key in a large mapping is found the same way, against its first definition", arguments: [3, 16, 17, 40])
    func duplicateKeyInLargeMapping(count: Int) throws {
        // Keys k0…k(count-1), then k1 again: the check compares small mappings key by key and hashes large ones.
        let lines = (0..<count).map { "k\($0): \($0)" } + ["k1: again"]
        let error = try #require(parseError(lines.joined(separator: "\n") + "\n"))
        #expect(error.description == "feeds.yaml:\(count + 1):1: error: duplicate key 'k1' (first defined at 2:1)")
        #expect(try YAML.parse((0..<count).map { "k\($0): \($0)" }.joined(separator: "\n"), file: "f.yaml")?.mapping?.count == count)
    }

    @Test("the same key in different mappings is fine")
    func sameKeyInSiblings() throws {
        let root = try #require(try YAML.parse("- name: a\n- name: b\n", file: "f.yaml"))
        #expect(root.sequence?.compactMap { $0["name"]?.scalar } == ["a", "b"])
    }

    @Test("invalid UTF-8 is a reader error at the offending byte")
    func invalidUTF8() throws {
        let bytes = Array("a: 1\nb: x".utf8) + [0xFF] + Array("\n".utf8)
        let error = try #require(parseError(bytes: bytes))
        #expect(error.mark == at(2, 5))
        #expect(error.message == "invalid leading UTF-8 octet (#xFF)")
    }

    @Test("rendered(source:) shows the offending line and a caret")
    func renderedWithCaret() throws {
        let source = "feeds:\n  - name: a\n    name: b\n"
        let error = try #require(parseError(source))
        #expect(
            error.rendered(source: source) == """
                feeds.yaml:3:5: error: duplicate key 'name' (first defined at 2:5)
                    name: b
                    ^
                """)
    }

    @Test("rendered(source:) aligns the caret after wide Chinese characters and keeps tabs")
    func renderedWideCharacters() throws {
        let source = "标题: a: b\n"
        let error = try #require(parseError(source))
        #expect(error.mark == at(1, 6))
        #expect(
            error.rendered(source: source) == """
                feeds.yaml:1:6: error: mapping values are not allowed in this context
                标题: a: b
                       ^
                """)
        let tabbed = YAMLError(file: "t.yaml", mark: at(2, 3), message: "m")
        #expect(tabbed.rendered(source: "x\r\n\ta\r\n") == "t.yaml:2:3: error: m\n\ta\n\t ^")
        #expect(tabbed.rendered(source: "one line") == tabbed.description)
    }

    @Test("a raw control character after Chinese text is located in Unicode scalars, not bytes")
    func controlCharacterColumn() throws {
        let error = try #require(parseError("名字: \u{1}\n"))
        #expect(error.description == "feeds.yaml:1:5: error: control characters are not allowed (#x1)")
    }

    @Test("Mark orders by line then column and renders as line:column")
    func markBasics() {
        #expect(at(3, 5).description == "3:5")
        #expect(at(1, 9) < at(2, 1))
        #expect(at(2, 1) < at(2, 3))
        #expect(!(at(2, 3) < at(2, 3)))
    }
}
