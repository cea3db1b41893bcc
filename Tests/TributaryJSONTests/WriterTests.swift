import Foundation
import Testing
import TributaryJSON

struct EscapeCase: Sendable, CustomTestStringConvertible {
    let value: String
    let expected: String
    var testDescription: String { value.debugDescription }
}

@Suite("Writer")
struct WriterTests {
    static let sample: JSONValue = [
        "name": "Tributary",
        "id": num("6462594562829140237"),
        "tags": ["a", "b"],
        "empty": [:],
        "list": [],
        "ok": true,
        "none": .null,
        "ratio": num("1.5e3"),
        "nested": ["x": [1, ["y": []]]],
    ]

    @Test("pretty output is pinned exactly")
    func prettyOutput() {
        let expected = """
            {
              "name": "Tributary",
              "id": 6462594562829140237,
              "tags": [
                "a",
                "b"
              ],
              "empty": {},
              "list": [],
              "ok": true,
              "none": null,
              "ratio": 1.5e3,
              "nested": {
                "x": [
                  1,
                  {
                    "y": []
                  }
                ]
              }
            }

            """
        #expect(JSONWriter.string(from: Self.sample) == expected)
        #expect(JSONWriter.string(from: [], style: .pretty) == "[]\n")
    }

    @Test("compact output is pinned exactly")
    func compactOutput() {
        let expected =
            #"{"name":"Tributary","id":6462594562829140237,"tags":["a","b"],"empty":{},"list":[],"ok":true,"none":null,"ratio":1.5e3,"nested":{"x":[1,{"y":[]}]}}"#
        #expect(JSONWriter.string(from: Self.sample, style: .compact) == expected)
        #expect(Self.sample.description == expected)
    }

    static let escapeCases: [EscapeCase] = [
        EscapeCase(value: "a\"b\\c/d", expected: #""a\"b\\c/d""#),
        EscapeCase(value: "\n\r\t\u{8}\u{C}", expected: #""\n\r\t\b\f""#),
        EscapeCase(value: "\u{0}\u{1}\u{1F}\u{7F}", expected: "\"\\u0000\\u0001\\u001f\u{7F}\""),
        EscapeCase(value: "\u{2028}x\u{2029}", expected: #""\u2028x\u2029""#),
        EscapeCase(value: "\u{2027}\u{202F}", expected: "\"\u{2027}\u{202F}\""),
        EscapeCase(value: "中文标题", expected: "\"中文标题\""),
        EscapeCase(value: "😀 👍🏽 🇫🇷", expected: "\"😀 👍🏽 🇫🇷\""),
        EscapeCase(value: "", expected: #""""#),
    ]

    @Test("strings are escaped per RFC 8259 plus U+2028/U+2029", arguments: escapeCases)
    func escaping(_ testCase: EscapeCase) throws {
        let written = JSONWriter.string(from: .string(testCase.value), style: .compact)
        #expect(Array(written.utf8) == Array(testCase.expected.utf8))
        #expect(try JSON.parse(written) == .string(testCase.value))
    }

    @Test("keys are escaped too")
    func keyEscaping() {
        let value: JSONValue = ["a\"\n": 1]
        #expect(JSONWriter.string(from: value, style: .compact) == #"{"a\"\n":1}"#)
    }

    @Test("write(into:) appends to an existing string")
    func appending() {
        var output = "prefix "
        JSONWriter.write([1, "two"], into: &output, style: .compact)
        JSONWriter.write(.null, into: &output, style: .pretty)
        #expect(output == "prefix [1,\"two\"]null\n")
    }

    @Test("writer → parser round trip on a generated document", arguments: [JSONWriter.Style.compact, .pretty])
    func roundTrip(style: JSONWriter.Style) throws {
        let document = DocumentGenerator.document(seed: 0x5EED, members: 300)
        let text = JSONWriter.string(from: document, style: style)
        #expect(text.utf8.count > 20_000)
        let parsed = try JSON.parse(text)
        #expect(parsed == document)
        // Byte-exact: same key order, same number text, same string bytes.
        #expect(Array(JSONWriter.string(from: parsed, style: style).utf8) == Array(text.utf8))
        // Through bytes and Data as well.
        let data = Data(JSONWriter.bytes(from: document, style: style))
        #expect(try JSON.parse(data) == document)
    }
}
