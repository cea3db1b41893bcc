import Foundation
import Testing
import TributaryJSON

struct ValidCase: Sendable, CustomTestStringConvertible {
    let input: String
    let expected: JSONValue
    var testDescription: String { input.debugDescription }
}

struct StringCase: Sendable, CustomTestStringConvertible {
    let json: String
    let expected: String
    var testDescription: String { json }
}

@Suite("Parser")
struct ParserTests {
    static let validCases: [ValidCase] = [
        ValidCase(input: "null", expected: .null),
        ValidCase(input: " true ", expected: true),
        ValidCase(input: "false", expected: false),
        ValidCase(input: "0", expected: num("0")),
        ValidCase(input: "-0", expected: num("-0")),
        ValidCase(input: "1.5e3", expected: num("1.5e3")),
        ValidCase(input: "-12.25E-2", expected: num("-12.25E-2")),
        ValidCase(input: "1E+2", expected: num("1E+2")),
        ValidCase(input: #""""#, expected: ""),
        ValidCase(input: #""héllo 中文 😀""#, expected: "héllo 中文 😀"),
        ValidCase(input: "[]", expected: []),
        ValidCase(input: "{}", expected: .object(JSONObject())),
        ValidCase(input: #"[1,"a",null,true,{"k":[]}]"#, expected: [1, "a", .null, true, ["k": []]]),
        ValidCase(input: " \t\r\n{ \"a\" : 1 , \"b\" : [ 2 , 3 ] } \n", expected: ["a": 1, "b": [2, 3]]),
        ValidCase(input: #"{"a":{"b":{"c":"deep"}}}"#, expected: ["a": ["b": ["c": "deep"]]]),
        ValidCase(input: "\"raw\ttab and\nnewline\"", expected: "raw\ttab and\nnewline"),
        ValidCase(input: "\"bell\u{7}\u{0}\"", expected: "bell\u{7}\u{0}"),
        ValidCase(input: "\u{FEFF}[1]", expected: [1]),
        ValidCase(input: "[[[[]]]]", expected: [[[[]]]]),
    ]

    @Test("valid documents parse to the expected values", arguments: validCases)
    func validDocuments(_ testCase: ValidCase) throws {
        #expect(try JSON.parse(testCase.input) == testCase.expected)
    }

    static let stringCases: [StringCase] = [
        StringCase(json: #""\"\\\/\b\f\n\r\t""#, expected: "\"\\/\u{8}\u{C}\n\r\t"),
        StringCase(json: #""\u0041\u00e9\u4E2D""#, expected: "Aé中"),
        StringCase(json: #""\ud83d\ude00""#, expected: "😀"),
        StringCase(json: #""x\uD83D""#, expected: "x\u{FFFD}"),
        StringCase(json: #""\uDE00x""#, expected: "\u{FFFD}x"),
        StringCase(json: #""\uD83Dabc""#, expected: "\u{FFFD}abc"),
        StringCase(json: #""\uD83D\u0041""#, expected: "\u{FFFD}A"),
        StringCase(json: #""\uD83D\uD83D\uDE00""#, expected: "\u{FFFD}😀"),
        StringCase(json: #""\u0000""#, expected: "\u{0}"),
        StringCase(json: #""中文\n内容 😀""#, expected: "中文\n内容 😀"),
        StringCase(json: #""\u2028\u2029""#, expected: "\u{2028}\u{2029}"),
    ]

    @Test("escapes and surrogates decode (lone surrogates become U+FFFD)", arguments: stringCases)
    func escapes(_ testCase: StringCase) throws {
        #expect(try JSON.parse(testCase.json) == .string(testCase.expected))
    }

    @Test("invalid UTF-8 inside strings becomes U+FFFD")
    func invalidUTF8() throws {
        #expect(try JSON.parse([0x22, 0x61, 0xFF, 0x62, 0x22] as [UInt8]) == "a\u{FFFD}b")
        #expect(try JSON.parse([0x22, 0xE4, 0xB8, 0x22] as [UInt8]) == "\u{FFFD}")
        // Also on the escape path.
        #expect(try JSON.parse([0x22, 0xFF, 0x5C, 0x6E, 0xC3, 0x22] as [UInt8]) == "\u{FFFD}\n\u{FFFD}")
    }

    @Test("a leading UTF-8 BOM is skipped")
    func byteOrderMark() throws {
        let bytes: [UInt8] = [0xEF, 0xBB, 0xBF] + Array(#"{"a":1}"#.utf8)
        #expect(try JSON.parse(bytes) == ["a": 1])
    }

    @Test("the 19-digit id keeps its exact text and Int value")
    func nineteenDigitID() throws {
        let input = #"{"id":6462594562829140237,"ids":[6462594562829140237]}"#
        let value = try JSON.parse(input)
        let id = try #require(value["id"]?.number)
        #expect(id.text == "6462594562829140237")
        #expect(id.int == 6_462_594_562_829_140_237)
        #expect(value["id"]?.int == 6_462_594_562_829_140_237)
        #expect(value["ids"]?[0]?.text == "6462594562829140237")
        #expect(JSONWriter.string(from: value, style: .compact) == input)
    }

    @Test("numbers keep their exact text")
    func numberText() throws {
        let value = try JSON.parse("[1.50, -0, 1E+2, 9223372036854775808, 12.0, 1e3]")
        let texts = try #require(value.array).compactMap(\.text)
        #expect(texts == ["1.50", "-0", "1E+2", "9223372036854775808", "12.0", "1e3"])
        #expect(value[3]?.int == nil)
        #expect(value[3]?.double == 9_223_372_036_854_775_808.0)
        #expect(value[4]?.int == nil)
        #expect(value[5]?.int == nil)
        #expect(value[5]?.double == 1000)
        #expect(value[1]?.int == 0)
        #expect(try JSON.parse("-9223372036854775808").int == Int.min)
    }

    @Test("duplicate keys: last value wins, first position kept")
    func duplicateKeys() throws {
        let small = try #require(try JSON.parse(#"{"a":1,"b":2,"a":3}"#).object)
        #expect(small.keys == ["a", "b"])
        #expect(small["a"] == 3)

        // Large enough to use the hash index.
        let members = (0..<20).map { #""k\#($0)":\#($0)"# }.joined(separator: ",")
        let large = try #require(try JSON.parse("{\(members),\"k3\":\"again\",\"k0\":null}").object)
        #expect(large.count == 20)
        #expect(large.keys == (0..<20).map { "k\($0)" })
        #expect(large["k3"] == "again")
        #expect(large["k0"] == .null)
        #expect(large["k19"] == 19)
    }

    @Test("nesting up to 512 levels is accepted")
    func deepButAllowedNesting() throws {
        var value = try JSON.parse(String(repeating: "[", count: 512) + String(repeating: "]", count: 512))
        var depth = 1
        while let inner = value[0] {
            value = inner
            depth += 1
        }
        #expect(depth == 512)
        let objects = String(repeating: #"{"a":"#, count: 512) + "1" + String(repeating: "}", count: 512)
        #expect(try JSON.parse(objects).value(at: Array(repeating: "a", count: 512)) == 1)
    }

    @Test("hostile nesting fails cleanly instead of overflowing the stack")
    func hostileNesting() {
        #expect(parseErrorDescription(String(repeating: "[", count: 100_000)) == "1:513: nesting deeper than 512 levels")
        #expect(parseErrorDescription(String(repeating: #"{"a":"#, count: 100_000)) == "1:2561: nesting deeper than 512 levels")
        #expect(
            parseErrorDescription(String(repeating: "[", count: 513) + String(repeating: "]", count: 513))
                == "1:513: nesting deeper than 512 levels")
    }

    @Test("every input type parses the same document")
    func inputTypes() throws {
        let text = #"{"title":"中文","n":[1,2.5]}"#
        let expected: JSONValue = ["title": "中文", "n": [1, num("2.5")]]
        let bytes = Array(text.utf8)
        #expect(try JSON.parse(text) == expected)
        #expect(try JSON.parse(bytes) == expected)
        #expect(try JSON.parse(Data(text.utf8)) == expected)
        #expect(try JSON.parse(bytes[...]) == expected)
        #expect(try JSON.parse(bytes.lazy.map { $0 }) == expected)
        #expect(try bytes.withUnsafeBytes { raw throws(JSONParseError) in try JSON.parse(raw) } == expected)
        // Data is parsed in place, not copied.
        #expect(Data(text.utf8).withContiguousStorageIfAvailable { _ in true } == true)
        // A bridged-looking substring-based string also works.
        #expect(try JSON.parse(String(text[...])) == expected)
    }

    @Test("errors report the byte offset separately from the column")
    func errorOffset() throws {
        #expect(throws: JSONParseError(line: 1, column: 7, offset: 10, message: "unexpected character '?', expected a value")) {
            try JSON.parse("[\"中文\",?]")
        }
        #expect(throws: JSONParseError(line: 1, column: 2, offset: 4, message: "unexpected character 'x', expected a value")) {
            try JSON.parse("\u{FEFF}[x]")
        }
    }
}
