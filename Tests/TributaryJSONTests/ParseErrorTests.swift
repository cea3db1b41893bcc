import Testing
import TributaryJSON

struct ErrorCase: Sendable, CustomTestStringConvertible {
    let input: String
    let expected: String
    var testDescription: String { input.debugDescription }
}

@Suite("Parse errors")
struct ParseErrorTests {
    static let cases: [ErrorCase] = [
        ErrorCase(input: "", expected: "1:1: empty document"),
        ErrorCase(input: "   \n  ", expected: "2:3: empty document"),
        ErrorCase(input: #"{"a":1,}"#, expected: "1:7: trailing comma before '}'"),
        ErrorCase(input: "[1,2,]", expected: "1:5: trailing comma before ']'"),
        ErrorCase(input: "[\r\n1,\r\n]", expected: "2:2: trailing comma before ']'"),
        ErrorCase(input: "[1 2]", expected: "1:4: expected ',' or ']' after an array element"),
        ErrorCase(input: "{\n  \"a\": 1,\n  \"b\": 2 \"c\": 3\n}", expected: "3:10: expected ',' or '}' after an object member"),
        ErrorCase(input: #"{"a" 1}"#, expected: "1:6: expected ':' after an object key"),
        ErrorCase(input: "{a:1}", expected: "1:2: expected a quoted object key or '}'"),
        ErrorCase(input: #"{"a":1,b:2}"#, expected: "1:8: expected a quoted object key"),
        ErrorCase(input: "[01]", expected: "1:2: leading zeros are not allowed in numbers"),
        ErrorCase(input: "+1", expected: "1:1: numbers must not start with '+'"),
        ErrorCase(input: "NaN", expected: "1:1: NaN and Infinity are not valid JSON numbers"),
        ErrorCase(input: "[-Infinity]", expected: "1:2: NaN and Infinity are not valid JSON numbers"),
        ErrorCase(input: "1.", expected: "1:3: unexpected end of input, expected a digit after the decimal point"),
        ErrorCase(input: "1.e5", expected: "1:3: expected a digit after the decimal point"),
        ErrorCase(input: "1e", expected: "1:3: unexpected end of input, expected a digit in the exponent"),
        ErrorCase(input: "-", expected: "1:2: unexpected end of input, expected a digit after '-'"),
        ErrorCase(input: "-x", expected: "1:2: expected a digit after '-'"),
        ErrorCase(input: "tru", expected: "1:4: unexpected end of input, expected 'true'"),
        ErrorCase(input: "[nul]", expected: "1:2: invalid literal, expected 'null'"),
        ErrorCase(input: #"{"a":1} x"#, expected: "1:9: unexpected content after the JSON value"),
        ErrorCase(input: "[1]]", expected: "1:4: unexpected content after the JSON value"),
        ErrorCase(input: #""abc"#, expected: #"1:5: unexpected end of input, expected '"' to close the string"#),
        ErrorCase(input: #""a\qb""#, expected: #"1:3: invalid escape sequence '\q'"#),
        ErrorCase(input: #""\u12G4""#, expected: #"1:2: invalid \u escape, expected 4 hex digits"#),
        ErrorCase(input: #""\u12"#, expected: #"1:6: unexpected end of input, expected 4 hex digits after '\u'"#),
        ErrorCase(input: #""\"#, expected: #"1:3: unexpected end of input, expected an escape character after '\'"#),
        ErrorCase(input: "[1,\n 2,\n @]", expected: "3:2: unexpected character '@', expected a value"),
        ErrorCase(input: #"{"标题": "中文内容", "x": ?}"#, expected: "1:21: unexpected character '?', expected a value"),
        ErrorCase(input: "[\n\"😀🎉\" 中]", expected: "2:6: expected ',' or ']' after an array element"),
        ErrorCase(input: "[1,2", expected: "1:5: unexpected end of input, expected ',' or ']' after an array element"),
        ErrorCase(input: #"{"a":"#, expected: "1:6: unexpected end of input, expected a value"),
        ErrorCase(input: #"{"a""#, expected: "1:5: unexpected end of input, expected ':' after an object key"),
        ErrorCase(input: "{", expected: "1:2: unexpected end of input, expected a quoted object key or '}'"),
        ErrorCase(input: #"{"a":1,"#, expected: "1:8: unexpected end of input, expected a quoted object key"),
        ErrorCase(input: "['single']", expected: #"1:2: unexpected character "'", expected a value"#),
        ErrorCase(input: "[\u{7}]", expected: "1:2: unexpected character U+0007, expected a value"),
        ErrorCase(input: "[中]", expected: "1:2: unexpected character '中', expected a value"),
        ErrorCase(input: #"["a" : 1]"#, expected: "1:6: expected ',' or ']' after an array element"),
        ErrorCase(input: "\u{FEFF}", expected: "1:1: empty document"),
        ErrorCase(input: "[1,\r2,\r,]", expected: "3:1: unexpected character ',', expected a value"),
    ]

    @Test("invalid documents fail with a pinned line:column: message", arguments: cases)
    func invalidDocument(_ testCase: ErrorCase) {
        #expect(parseErrorDescription(testCase.input) == testCase.expected)
    }

    @Test("invalid UTF-8 outside strings is reported with its byte value")
    func invalidByteOutsideString() {
        do {
            _ = try JSON.parse([0x5B, 0xFF, 0x5D] as [UInt8])
            Issue.record("expected an error")
        } catch {
            #expect(error.description == "1:2: unexpected character byte 0xFF, expected a value")
            #expect(error.offset == 1)
        }
    }
}
