import Testing
import TributaryYAML

@Suite("Anchors, aliases and merge keys")
struct AliasMergeTests {
    @Test("an alias is a copy of the anchored node with the anchored node's marks")
    func aliasCopies() throws {
        let source = "base: &b\n  x: 1\n  y: [2, 3]\ncopy: *b\nname: &n swift\nother: *n\n"
        let root = try #require(try YAML.parse(source, file: "a.yaml"))
        let base = try #require(root["base"])
        let copy = try #require(root["copy"])
        #expect(copy == base)
        // libyaml starts an anchored collection at its anchor, here `&b` on line 1.
        #expect(copy.mark == at(1, 7))
        #expect(copy.pair(forKey: "x")?.key.mark == at(2, 3))
        #expect(copy["y"]?.mark == at(3, 6))
        #expect(root["other"]?.scalar == "swift")
        #expect(root["other"]?.mark == at(5, 7))
    }

    @Test("a redefined anchor refers to the latest definition")
    func redefinedAnchor() throws {
        let root = try #require(try YAML.parse("- &a one\n- *a\n- &a two\n- *a\n", file: "a.yaml"))
        #expect(root.sequence?.compactMap(\.scalar) == ["one", "one", "two", "two"])
    }

    @Test("an undefined alias is an error at the alias")
    func undefinedAlias() throws {
        let error = try #require(parseError("a: 1\nb: [x, *nope]\n", file: "feeds.yaml"))
        #expect(error.mark == at(2, 8))
        #expect(error.description == "feeds.yaml:2:8: error: undefined alias 'nope'")
    }

    @Test("an alias to its own enclosing node is rejected")
    func recursiveAlias() throws {
        let error = try #require(parseError("a: &x [1, *x]\n"))
        #expect(error.description == "feeds.yaml:1:11: error: recursive alias 'x' is not supported")
    }

    @Test("billion laughs is refused")
    func billionLaughs() throws {
        var lines = ["a: &a [\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\"]"]
        let names = ["b", "c", "d", "e", "f", "g", "h", "i"]
        var previous = "a"
        for name in names {
            let refs = Array(repeating: "*\(previous)", count: 9).joined(separator: ",")
            lines.append("\(name): &\(name) [\(refs)]")
            previous = name
        }
        let source = lines.joined(separator: "\n") + "\n"
        // Refused by the expansion budget: the work is bounded by it, not by the document.
        let thrown = try #require(parseError(source))
        #expect(thrown.message == "document too large after expanding aliases")
    }

    @Test("a moderate amount of aliasing is fine")
    func moderateAliasing() throws {
        let source = "a: &a [1, 2, 3]\nb: &b [*a, *a, *a]\nc: [*b, *b, *b]\n"
        let root = try #require(try YAML.parse(source, file: "a.yaml"))
        #expect(root["c"]?[2]?[1]?[0]?.scalar == "1")
    }

    @Test("a single merge key merges the pairs and keeps their marks")
    func singleMerge() throws {
        let source = "defaults: &d\n  interval: 60\n  enabled: true\nfeed:\n  <<: *d\n  name: swift\n"
        let root = try #require(try YAML.parse(source, file: "m.yaml"))
        let feed = try #require(root["feed"])
        #expect(feed.mapping?.map { $0.key.scalar } == ["interval", "enabled", "name"])
        #expect(feed["interval"]?.scalar == "60")
        #expect(feed.pair(forKey: "interval")?.key.mark == at(2, 3))
        #expect(feed["interval"]?.mark == at(2, 13))
        #expect(feed["<<"] == nil)
    }

    @Test("a list of merge sources: earlier ones win over later ones")
    func listMerge() throws {
        let source = """
            a: &a {x: a, y: a}
            b: &b {y: b, z: b}
            c:
              <<: [*a, *b]
              w: c
            """
        let root = try #require(try YAML.parse(source, file: "m.yaml"))
        let c = try #require(root["c"])
        #expect(c.mapping?.map { $0.key.scalar } == ["x", "y", "z", "w"])
        #expect(c["x"]?.scalar == "a")
        #expect(c["y"]?.scalar == "a")
        #expect(c["z"]?.scalar == "b")
        #expect(c["y"]?.mark == at(1, 17))
    }

    @Test("explicit keys win over merged keys, before or after the merge")
    func mergeOverride() throws {
        let source = "base: &base {interval: 60, tag: base}\nfeed:\n  interval: 5\n  <<: *base\n  tag: mine\n"
        let root = try #require(try YAML.parse(source, file: "m.yaml"))
        let feed = try #require(root["feed"])
        #expect(feed.mapping?.count == 2)
        #expect(feed["interval"]?.scalar == "5")
        #expect(feed["tag"]?.scalar == "mine")
        #expect(feed.pair(forKey: "tag")?.key.mark == at(5, 3))
    }

    @Test("an inline mapping can be merged and merges nest")
    func nestedMerge() throws {
        let source = "a: &a {x: 1}\nb: &b {<<: *a, y: 2}\nc: {<<: [*b, {z: 3}]}\n"
        let root = try #require(try YAML.parse(source, file: "m.yaml"))
        let c = try #require(root["c"])
        #expect(c.mapping?.map { $0.key.scalar } == ["x", "y", "z"])
    }

    @Test("keys that come from merges are not duplicates")
    func mergedKeysAreNotDuplicates() throws {
        let source = "a: &a {name: a}\nb: &b {name: b}\nc:\n  <<: [*a, *b]\n  name: c\n"
        let root = try #require(try YAML.parse(source, file: "m.yaml"))
        #expect(root["c"]?["name"]?.scalar == "c")
        #expect(root["c"]?.mapping?.count == 1)
    }

    @Test("a quoted << is an ordinary key")
    func quotedMergeKey() throws {
        let root = try #require(try YAML.parse("'<<': {a: 1}\n", file: "m.yaml"))
        #expect(root["<<"]?["a"]?.scalar == "1")
    }

    @Test(
        "a merge value that is not a mapping or a sequence of mappings is an error",
        arguments: [
            (
                "a:\n  <<: 5\n",
                "feeds.yaml:2:7: error: merge key '<<' expects a mapping or a sequence of mappings, found a scalar"
            ),
            (
                "x: &x {k: v}\na:\n  <<: [*x, [1]]\n",
                "feeds.yaml:3:12: error: merge key '<<' expects a mapping or a sequence of mappings, found a sequence in the sequence"
            ),
        ])
    func badMergeValue(source: String, expected: String) throws {
        let error = try #require(parseError(source))
        #expect(error.description == expected)
    }
}
