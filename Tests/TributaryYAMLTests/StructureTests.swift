import Testing
import TributaryYAML

@Suite("Collections and marks")
struct StructureTests {
    @Test("nested block mapping and sequence marks")
    func nestedBlockMarks() throws {
        let root = try #require(try YAML.parse("feeds:\n  - name: swift\n    url: x", file: "f.yaml"))
        #expect(root.mark == at(1, 1))
        let feedsPair = try #require(root.pair(forKey: "feeds"))
        #expect(feedsPair.key.mark == at(1, 1))
        let feeds = try #require(feedsPair.value.sequence)
        #expect(feedsPair.value.mark == at(2, 3))
        #expect(feeds.count == 1)
        let feed = try #require(feeds.first)
        #expect(feed.mark == at(2, 5))
        let pairs = try #require(feed.mapping)
        #expect(pairs.map { $0.key.scalar } == ["name", "url"])
        #expect(pairs[0].key.mark == at(2, 5))
        #expect(pairs[0].value.mark == at(2, 11))
        #expect(pairs[1].key.mark == at(3, 5))
        #expect(pairs[1].value.mark == at(3, 10))
        #expect(feed["url"]?.scalar == "x")
    }

    @Test("flow collection marks point at the brackets")
    func flowMarks() throws {
        let root = try #require(try YAML.parse("tags: [a, {b: c}, 'd']\n", file: "f.yaml"))
        let tags = try #require(root["tags"])
        #expect(tags.mark == at(1, 7))
        let items = try #require(tags.sequence)
        #expect(items.map(\.mark) == [at(1, 8), at(1, 11), at(1, 19)])
        #expect(items[1]["b"]?.mark == at(1, 15))
        #expect(items[2].style == .singleQuoted)
        #expect(tags[2]?.scalar == "d")
        #expect(tags[3] == nil)
    }

    @Test("mapping keeps document order")
    func documentOrder() throws {
        let root = try #require(try YAML.parse("z: 1\na: 2\nm: 3\n", file: "f.yaml"))
        #expect(root.mapping?.map { $0.key.scalar } == ["z", "a", "m"])
    }

    @Test("accessors return nil for the wrong kind of node")
    func accessorsOnWrongKind() throws {
        let root = try #require(try YAML.parse("- a\n- b\n", file: "f.yaml"))
        #expect(root.mapping == nil)
        #expect(root.scalar == nil)
        #expect(root["a"] == nil)
        #expect(root.sequence?.compactMap(\.scalar) == ["a", "b"])
        #expect(root[0]?.mapping == nil)
        #expect(!root.isNull)
    }

    @Test("an empty value is an empty plain scalar that counts as null")
    func emptyValue() throws {
        let root = try #require(try YAML.parse("a:\nb: 1\n", file: "f.yaml"))
        let value = try #require(root["a"])
        #expect(value.isNull)
        #expect(value.content == .scalar("", .plain))
    }

    @Test("complex keys are kept in the tree")
    func complexKey() throws {
        let root = try #require(try YAML.parse("? [a, b]\n: v\n", file: "f.yaml"))
        let pair = try #require(root.mapping?.first)
        #expect(pair.key.sequence?.compactMap(\.scalar) == ["a", "b"])
        #expect(pair.key.mark == at(1, 3))
        #expect(pair.value.scalar == "v")
    }

    @Test(
        "streams without content parse to nil",
        arguments: ["", " \n\n  ", "# just a comment\n", "# one\n  # two\n\n"])
    func emptyStreams(source: String) throws {
        #expect(try YAML.parse(source, file: "f.yaml") == nil)
        #expect(try YAML.parse(bytes: Array(source.utf8), file: "f.yaml") == nil)
    }

    @Test("comments around content are ignored")
    func commentsAroundContent() throws {
        let root = try #require(try YAML.parse("# head\na: 1 # trailing\n# tail\n", file: "f.yaml"))
        #expect(root["a"]?.scalar == "1")
        #expect(root.mark == at(2, 1))
    }

    @Test("explicit document markers around a single document are fine")
    func singleExplicitDocument() throws {
        let root = try #require(try YAML.parse("%YAML 1.1\n---\na: 1\n...\n", file: "f.yaml"))
        #expect(root["a"]?.scalar == "1")
        #expect(root.mark == at(3, 1))
    }

    @Test(
        "more than one document is an error at the second document",
        arguments: [
            ("a: 1\n---\nb: 2\n", at(2, 1)),
            ("--- a\n--- b\n", at(2, 1)),
            ("a\n...\n---\n", at(3, 1)),
        ])
    func multipleDocuments(source: String, mark: Mark) throws {
        let error = try #require(parseError(source))
        #expect(error.mark == mark)
        #expect(error.message == "expected a single document in the stream")
    }

    @Test("nesting within the limit parses; beyond it fails")
    func nestingLimit() throws {
        let shallow = String(repeating: "[", count: 100) + String(repeating: "]", count: 100)
        let root = try #require(try YAML.parse(shallow, file: "f.yaml"))
        #expect(root.sequence?.count == 1)

        let deep =
            String(repeating: "[", count: YAML.nestingLimit + 1)
            + String(repeating: "]", count: YAML.nestingLimit + 1)
        let error = try #require(parseError(deep))
        #expect(error.message == "nesting too deep (more than \(YAML.nestingLimit) levels)")
        #expect(error.mark == at(1, YAML.nestingLimit + 1))
    }
}
