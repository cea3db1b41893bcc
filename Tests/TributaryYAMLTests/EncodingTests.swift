import Testing
import TributaryYAML

@Suite("Encoding, line endings and columns")
struct EncodingTests {
    @Test("columns count Unicode scalars after Chinese text")
    func chineseColumns() throws {
        let source = "feeds:\n  - 名称: 中文博客\n    url: x\n"
        let root = try #require(try YAML.parse(source, file: "zh.yaml"))
        let feed = try #require(root["feeds"]?[0])
        let pair = try #require(feed.pair(forKey: "名称"))
        #expect(pair.key.mark == at(2, 5))
        #expect(pair.value.mark == at(2, 9))
        #expect(pair.value.scalar == "中文博客")
        #expect(feed.pair(forKey: "url")?.key.mark == at(3, 5))
    }

    @Test("errors after Chinese text are located in Unicode scalars")
    func chineseErrorColumn() throws {
        let error = try #require(parseError("标题: [甲, 乙\n"))
        #expect(
            error.description
                == "feeds.yaml:2:1: error: did not find expected ',' or ']' (while parsing a flow sequence that started at 1:5)"
        )
    }

    @Test("astral-plane and combining characters each count per scalar")
    func emojiAndCombining() throws {
        let root = try #require(try YAML.parse("😀: a\ne\u{301}: b\n", file: "e.yaml"))
        #expect(root["😀"]?.mark == at(1, 4))
        #expect(root["e\u{301}"]?.mark == at(2, 5))
    }

    @Test("CRLF line endings: same marks, no carriage returns in values")
    func crlf() throws {
        let source = "feeds:\r\n  - name: swift\r\n    url: x\r\nnote: |\r\n  one\r\n  two\r\n"
        let root = try #require(try YAML.parse(source, file: "crlf.yaml"))
        let feed = try #require(root["feeds"]?[0])
        #expect(feed["name"]?.scalar == "swift")
        #expect(feed.pair(forKey: "url")?.key.mark == at(3, 5))
        #expect(root["note"]?.scalar == "one\ntwo\n")
        #expect(root.pair(forKey: "note")?.key.mark == at(4, 1))
    }

    @Test("CRLF error positions")
    func crlfError() throws {
        let error = try #require(parseError("a: 1\r\nb: [x,\r\n"))
        #expect(error.mark == at(3, 1))
    }

    @Test("a UTF-8 BOM at the start does not shift columns", arguments: [true, false])
    func byteOrderMark(useBytes: Bool) throws {
        let text = "\u{FEFF}name: swift\nurl: x\n"
        let parsed =
            useBytes
            ? try YAML.parse(bytes: [0xEF, 0xBB, 0xBF] + Array("name: swift\nurl: x\n".utf8), file: "bom.yaml")
            : try YAML.parse(text, file: "bom.yaml")
        let root = try #require(parsed)
        let name = try #require(root.pair(forKey: "name"))
        #expect(name.key.mark == at(1, 1))
        #expect(name.value.mark == at(1, 7))
        #expect(root.mapping?.map { $0.key.scalar } == ["name", "url"])
    }

    @Test("bytes and text entry points agree")
    func bytesMatchText() throws {
        let source = "a: [1, 'two', \"三\"]\n"
        let fromText = try YAML.parse(source, file: "x.yaml")
        let fromBytes = try YAML.parse(bytes: Array(source.utf8), file: "x.yaml")
        #expect(fromText == fromBytes)
        #expect(fromText != nil)
    }
}
