import Testing
import TributaryJSON

struct AccessorCase: Sendable, CustomTestStringConvertible {
    let value: JSONValue
    let int: Int?
    let double: Double?
    let bool: Bool?
    let text: String?
    var testDescription: String { "\(value)" }
}

@Suite("Lenient accessors")
struct AccessorTests {
    static let cases: [AccessorCase] = [
        AccessorCase(value: num("42"), int: 42, double: 42, bool: nil, text: "42"),
        AccessorCase(value: "42", int: 42, double: 42, bool: nil, text: "42"),
        AccessorCase(value: " 42\n", int: 42, double: 42, bool: nil, text: " 42\n"),
        AccessorCase(value: "+7", int: 7, double: 7, bool: nil, text: "+7"),
        AccessorCase(value: "-3", int: -3, double: -3, bool: nil, text: "-3"),
        AccessorCase(value: "4.5", int: nil, double: 4.5, bool: nil, text: "4.5"),
        AccessorCase(value: num("4.5"), int: nil, double: 4.5, bool: nil, text: "4.5"),
        AccessorCase(value: num("1.5e3"), int: nil, double: 1500, bool: nil, text: "1.5e3"),
        AccessorCase(value: "1e3", int: nil, double: 1000, bool: nil, text: "1e3"),
        AccessorCase(value: num("12.0"), int: nil, double: 12, bool: nil, text: "12.0"),
        AccessorCase(
            value: "6462594562829140237", int: 6_462_594_562_829_140_237, double: 6.462594562829140237e18, bool: nil,
            text: "6462594562829140237"),
        AccessorCase(value: num("99999999999999999999"), int: nil, double: 1e20, bool: nil, text: "99999999999999999999"),
        AccessorCase(value: num("1e400"), int: nil, double: nil, bool: nil, text: "1e400"),
        AccessorCase(value: "abc", int: nil, double: nil, bool: nil, text: "abc"),
        AccessorCase(value: "", int: nil, double: nil, bool: nil, text: ""),
        AccessorCase(value: "nan", int: nil, double: nil, bool: nil, text: "nan"),
        AccessorCase(value: "inf", int: nil, double: nil, bool: nil, text: "inf"),
        AccessorCase(value: "0x10", int: nil, double: nil, bool: nil, text: "0x10"),
        AccessorCase(value: "12abc", int: nil, double: nil, bool: nil, text: "12abc"),
        AccessorCase(value: true, int: nil, double: nil, bool: true, text: "true"),
        AccessorCase(value: false, int: nil, double: nil, bool: false, text: "false"),
        AccessorCase(value: num("1"), int: 1, double: 1, bool: true, text: "1"),
        AccessorCase(value: num("0"), int: 0, double: 0, bool: false, text: "0"),
        AccessorCase(value: num("2"), int: 2, double: 2, bool: nil, text: "2"),
        AccessorCase(value: "1", int: 1, double: 1, bool: true, text: "1"),
        AccessorCase(value: "0", int: 0, double: 0, bool: false, text: "0"),
        AccessorCase(value: "TRUE", int: nil, double: nil, bool: true, text: "TRUE"),
        AccessorCase(value: "False", int: nil, double: nil, bool: false, text: "False"),
        AccessorCase(value: " Yes ", int: nil, double: nil, bool: true, text: " Yes "),
        AccessorCase(value: "no", int: nil, double: nil, bool: false, text: "no"),
        AccessorCase(value: "maybe", int: nil, double: nil, bool: nil, text: "maybe"),
        AccessorCase(value: .null, int: nil, double: nil, bool: nil, text: nil),
        AccessorCase(value: [1], int: nil, double: nil, bool: nil, text: nil),
        AccessorCase(value: ["a": 1], int: nil, double: nil, bool: nil, text: nil),
    ]

    @Test("int, double, bool and text are lenient where adapters need it", arguments: cases)
    func lenientScalars(_ testCase: AccessorCase) {
        #expect(testCase.value.int == testCase.int)
        #expect(testCase.value.double == testCase.double)
        #expect(testCase.value.bool == testCase.bool)
        #expect(testCase.value.text == testCase.text)
    }

    @Test("strict accessors only match their own case")
    func strictAccessors() {
        let string: JSONValue = "5"
        #expect(string.string == "5")
        #expect(string.number == nil)
        #expect(num("5").string == nil)
        #expect(num("5").number?.text == "5")
        #expect(JSONValue.null.isNull)
        #expect(!string.isNull)
        #expect(string.array == nil)
        #expect(string.object == nil)
        #expect(JSONValue.array([1]).array == [1])
        #expect(JSONValue.object(["a": 1]).object?.keys == ["a"])
        let count = 5
        let interpolated: JSONValue = "n=\(count)"
        #expect(interpolated == .string("n=5"))
    }

    @Test("subscripts and paths return nil instead of trapping")
    func subscriptsAndPaths() throws {
        let value = try JSON.parse(#"{"feed":{"items":[{"id":"x1"},{"id":2}],"meta":null}}"#)
        #expect(value["feed"]?["items"]?[1]?["id"]?.int == 2)
        #expect(value["feed"]?["items"]?[0]?["id"]?.string == "x1")
        #expect(value["feed"]?["items"]?[2] == nil)
        #expect(value["feed"]?["items"]?[-1] == nil)
        #expect(value["missing"] == nil)
        #expect(value[0] == nil)
        #expect(value["feed"]?["items"]?["id"] == nil)
        #expect(value.value(at: ["feed", "meta"]) == .null)
        #expect(value.value(at: ["feed", "meta", "x"]) == nil)
        #expect(value.value(at: []) == value)
    }

    @Test("JSONNumber validates text and converts exactly")
    func numberInitialisers() {
        #expect(JSONNumber("012") == nil)
        #expect(JSONNumber(" 1") == nil)
        #expect(JSONNumber("+1") == nil)
        #expect(JSONNumber("1.") == nil)
        #expect(JSONNumber("NaN") == nil)
        #expect(JSONNumber("-0.5E-3")?.text == "-0.5E-3")
        #expect(JSONNumber(Double.nan) == nil)
        #expect(JSONNumber(Double.infinity) == nil)
        #expect(JSONNumber(0.1)?.text == "0.1")
        #expect(JSONNumber(-42).text == "-42")
        #expect(JSONNumber(UInt64.max).text == "18446744073709551615")
        #expect(JSONNumber(UInt64.max).int == nil)
        #expect(JSONNumber(Int.max).int == Int.max)
        #expect(JSONNumber("1")?.isInteger == true)
        #expect(JSONNumber("1.0")?.isInteger == false)
        #expect(JSONNumber("1") != JSONNumber("1.0"))
    }

    @Test("JSONObject keeps order, updates in place, and compares without order")
    func objectBehaviour() {
        var object: JSONObject = ["b": 1, "a": 2]
        object["c"] = 3
        object["b"] = "replaced"
        #expect(object.keys == ["b", "a", "c"])
        #expect(object.values == ["replaced", 2, 3])
        object["a"] = nil
        #expect(object.keys == ["b", "c"])
        #expect(object.removeValue(forKey: "zzz") == nil)
        #expect(object.contains(key: "c"))
        #expect(object.map(\.key) == ["b", "c"])

        let reordered: JSONObject = ["c": 3, "b": "replaced"]
        #expect(object == reordered)
        #expect(object.hashValue == reordered.hashValue)
        #expect(Set<JSONValue>([.object(object), .object(reordered)]).count == 1)

        // Grow past the index threshold, remove in the middle, and shrink back.
        var large = JSONObject()
        for index in 0..<30 { large["k\(index)"] = JSONValue.number(JSONNumber(index)) }
        large["k10"] = nil
        #expect(large["k11"] == 11)
        #expect(large.keys.count == 29)
        for index in 0..<25 { large["k\(index)"] = nil }
        #expect(large.keys == ["k25", "k26", "k27", "k28", "k29"])
        #expect(large["k29"] == 29)
        large["k25"] = "x"
        #expect(large.keys.first == "k25")
    }
}

@Suite("Non-empty text")
struct NonEmptyTextTests {
    @Test(arguments: [
        (JSONValue.string("  abc \n"), "abc" as String?), (.string(" \t "), nil), (.string(""), nil), (.number(JSONNumber(42)), "42"),
        (.bool(true), "true"), (.null, nil), (.array([]), nil), (.string("\u{3000}中文\u{3000}"), "中文"),
    ])
    func trimmedOrNil(_ value: JSONValue, _ expected: String?) {
        #expect(value.nonEmptyText == expected)
    }
}
