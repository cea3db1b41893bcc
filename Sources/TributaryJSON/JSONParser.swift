/// A recursive-descent RFC 8259 parser over a buffer of UTF-8 bytes.
///
/// Leniencies (deliberate, for real-world feeds and APIs):
/// - raw control characters (tabs, newlines, …) inside strings are accepted as-is;
/// - invalid UTF-8 inside strings is replaced with U+FFFD;
/// - lone or mismatched UTF-16 surrogates in `\u` escapes become U+FFFD;
/// - a leading UTF-8 byte order mark is skipped.
///
/// Everything else follows the RFC grammar strictly: no comments, no trailing commas,
/// no single quotes, no `+1`, `012`, `NaN` or `Infinity`.
struct JSONParser {
    /// The deepest nesting of arrays and objects that is accepted.
    static let maxDepth = 512

    private let bytes: UnsafeBufferPointer<UInt8>
    private let end: Int
    /// Offset just after a leading BOM (or 0); columns on line 1 are counted from here.
    private let contentStart: Int
    private var pos: Int
    private var depth = 0
    /// Reused buffer for strings containing escapes.
    private var scratch: [UInt8] = []
    /// Values of the arrays and objects currently open, innermost last.
    private var valueStack: [JSONValue] = []
    /// Keys of the objects currently open, innermost last.
    private var keyStack: [String] = []

    private init(bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
        self.end = bytes.count
        var start = 0
        if bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF {
            start = 3
        }
        self.contentStart = start
        self.pos = start
    }

    /// Parses one complete JSON document from `bytes`.
    static func parse(_ bytes: UnsafeBufferPointer<UInt8>) throws(JSONParseError) -> JSONValue {
        var parser = JSONParser(bytes: bytes)
        return try parser.parseDocument()
    }

    private mutating func parseDocument() throws(JSONParseError) -> JSONValue {
        skipWhitespace()
        guard pos < end else { throw error("empty document", at: pos) }
        let value = try parseValue()
        skipWhitespace()
        guard pos == end else { throw error("unexpected content after the JSON value", at: pos) }
        return value
    }

    // MARK: - Values

    private mutating func parseValue() throws(JSONParseError) -> JSONValue {
        skipWhitespace()
        guard pos < end else { throw endOfInput(expected: "a value") }
        switch bytes[pos] {
        case .openBrace:
            return .object(try parseObject())
        case .openBracket:
            return .array(try parseArray())
        case .quote:
            return .string(try parseString())
        case UInt8(ascii: "t"):
            try parseLiteral("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try parseLiteral("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try parseLiteral("null")
            return .null
        case .minus, .digit0 ... .digit9:
            return .number(try parseNumber())
        case .plus:
            throw error("numbers must not start with '+'", at: pos)
        default:
            if startsWith("NaN", at: pos) || startsWith("Infinity", at: pos) {
                throw error("NaN and Infinity are not valid JSON numbers", at: pos)
            }
            throw unexpectedCharacter(expected: "a value")
        }
    }

    private mutating func parseLiteral(_ literal: StaticString) throws(JSONParseError) {
        let start = pos
        let count = literal.utf8CodeUnitCount
        let expected = literal.utf8Start
        for index in 0..<count {
            let offset = start + index
            guard offset < end else { throw endOfInput(expected: "'\(literal)'") }
            guard bytes[offset] == expected[index] else {
                throw error("invalid literal, expected '\(literal)'", at: start)
            }
        }
        pos = start + count
    }

    // MARK: - Numbers

    private mutating func parseNumber() throws(JSONParseError) -> JSONNumber {
        let start = pos
        if bytes[pos] == .minus {
            pos += 1
            guard pos < end else { throw endOfInput(expected: "a digit after '-'") }
            guard bytes[pos].isDigit else {
                if startsWith("Infinity", at: pos) {
                    throw error("NaN and Infinity are not valid JSON numbers", at: start)
                }
                throw error("expected a digit after '-'", at: pos)
            }
        }
        if bytes[pos] == .digit0 {
            pos += 1
            if pos < end && bytes[pos].isDigit {
                throw error("leading zeros are not allowed in numbers", at: start)
            }
        } else {
            skipDigits()
        }
        if pos < end && bytes[pos] == .dot {
            pos += 1
            guard pos < end else { throw endOfInput(expected: "a digit after the decimal point") }
            guard bytes[pos].isDigit else { throw error("expected a digit after the decimal point", at: pos) }
            skipDigits()
        }
        if pos < end && (bytes[pos] | 0x20) == UInt8(ascii: "e") {
            pos += 1
            if pos < end && (bytes[pos] == .plus || bytes[pos] == .minus) {
                pos += 1
            }
            guard pos < end else { throw endOfInput(expected: "a digit in the exponent") }
            guard bytes[pos].isDigit else { throw error("expected a digit in the exponent", at: pos) }
            skipDigits()
        }
        return JSONNumber(unchecked: makeString(from: start, to: pos))
    }

    @inline(__always)
    private mutating func skipDigits() {
        while pos < end && bytes[pos].isDigit {
            pos += 1
        }
    }

    // MARK: - Strings

    /// Parses a string starting at its opening quote.
    private mutating func parseString() throws(JSONParseError) -> String {
        pos += 1
        let start = pos
        while pos < end {
            let byte = bytes[pos]
            if byte == .quote {
                let string = makeString(from: start, to: pos)
                pos += 1
                return string
            }
            if byte == .backslash {
                return try parseEscapedString(from: start)
            }
            pos += 1
        }
        throw endOfInput(expected: "'\"' to close the string")
    }

    /// Continues a string whose raw part `start..<pos` ended at a backslash.
    private mutating func parseEscapedString(from start: Int) throws(JSONParseError) -> String {
        scratch.removeAll(keepingCapacity: true)
        var chunkStart = start
        while pos < end {
            let byte = bytes[pos]
            if byte == .quote {
                appendRaw(from: chunkStart, to: pos)
                pos += 1
                return String(decoding: scratch, as: UTF8.self)
            }
            if byte == .backslash {
                appendRaw(from: chunkStart, to: pos)
                try decodeEscape()
                chunkStart = pos
                continue
            }
            pos += 1
        }
        throw endOfInput(expected: "'\"' to close the string")
    }

    /// Decodes the escape sequence at `pos` (a backslash) into `scratch`.
    private mutating func decodeEscape() throws(JSONParseError) {
        let escapeStart = pos
        pos += 1
        guard pos < end else { throw endOfInput(expected: "an escape character after '\\'") }
        let code = bytes[pos]
        pos += 1
        switch code {
        case .quote, .backslash, .slash:
            scratch.append(code)
        case UInt8(ascii: "b"):
            scratch.append(0x08)
        case UInt8(ascii: "f"):
            scratch.append(0x0C)
        case UInt8(ascii: "n"):
            scratch.append(0x0A)
        case UInt8(ascii: "r"):
            scratch.append(0x0D)
        case UInt8(ascii: "t"):
            scratch.append(0x09)
        case UInt8(ascii: "u"):
            let unit = try readHex4(escapeStart: escapeStart)
            switch unit {
            case 0xD800...0xDBFF:
                // A high surrogate must be followed by `\u` + a low surrogate; otherwise it is replaced.
                if pos + 6 <= end, bytes[pos] == .backslash, bytes[pos + 1] == UInt8(ascii: "u"),
                    let low = peekHex4(at: pos + 2), (0xDC00...0xDFFF).contains(low)
                {
                    pos += 6
                    appendScalar(0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00))
                } else {
                    appendScalar(0xFFFD)
                }
            case 0xDC00...0xDFFF:
                appendScalar(0xFFFD)
            default:
                appendScalar(unit)
            }
        default:
            if code >= 0x21 && code < 0x7F {
                throw error("invalid escape sequence '\\\(Character(Unicode.Scalar(code)))'", at: escapeStart)
            }
            throw error("invalid escape sequence", at: escapeStart)
        }
    }

    /// Reads the four hex digits of a `\u` escape at `pos`.
    private mutating func readHex4(escapeStart: Int) throws(JSONParseError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard pos < end else { throw endOfInput(expected: "4 hex digits after '\\u'") }
            guard let digit = bytes[pos].hexValue else {
                throw error("invalid \\u escape, expected 4 hex digits", at: escapeStart)
            }
            value = value << 4 | digit
            pos += 1
        }
        return value
    }

    private func peekHex4(at offset: Int) -> UInt32? {
        guard offset + 4 <= end else { return nil }
        var value: UInt32 = 0
        for index in offset..<offset + 4 {
            guard let digit = bytes[index].hexValue else { return nil }
            value = value << 4 | digit
        }
        return value
    }

    private mutating func appendRaw(from start: Int, to stop: Int) {
        guard start < stop else { return }
        scratch.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<stop]))
    }

    /// Appends a Unicode scalar value (never a surrogate) to `scratch` as UTF-8.
    private mutating func appendScalar(_ value: UInt32) {
        UTF8Encoding.append(value, to: &scratch)
    }

    /// Makes a String from raw bytes; invalid UTF-8 is replaced with U+FFFD.
    @inline(__always)
    private func makeString(from start: Int, to stop: Int) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<stop]), as: UTF8.self)
    }

    // MARK: - Containers

    private mutating func parseArray() throws(JSONParseError) -> [JSONValue] {
        try enterContainer()
        pos += 1
        skipWhitespace()
        if pos < end && bytes[pos] == .closeBracket {
            pos += 1
            depth -= 1
            return []
        }
        // Elements are collected on a shared stack and copied out once, at their final size.
        let base = valueStack.count
        while true {
            let element = try parseValue()
            valueStack.append(element)
            skipWhitespace()
            guard pos < end else { throw endOfInput(expected: "',' or ']' after an array element") }
            switch bytes[pos] {
            case .comma:
                let comma = pos
                pos += 1
                skipWhitespace()
                if pos < end && bytes[pos] == .closeBracket {
                    throw error("trailing comma before ']'", at: comma)
                }
            case .closeBracket:
                pos += 1
                depth -= 1
                let elements = Array(valueStack[base...])
                valueStack.removeSubrange(base...)
                return elements
            default:
                throw error("expected ',' or ']' after an array element", at: pos)
            }
        }
    }

    private mutating func parseObject() throws(JSONParseError) -> JSONObject {
        try enterContainer()
        pos += 1
        skipWhitespace()
        guard pos < end else { throw endOfInput(expected: "a quoted object key or '}'") }
        if bytes[pos] == .closeBrace {
            pos += 1
            depth -= 1
            return JSONObject()
        }
        guard bytes[pos] == .quote else { throw error("expected a quoted object key or '}'", at: pos) }
        // Members are collected on shared stacks and copied out once, at their final size.
        let keyBase = keyStack.count
        let valueBase = valueStack.count
        while true {
            let key = try parseString()
            keyStack.append(key)
            skipWhitespace()
            guard pos < end else { throw endOfInput(expected: "':' after an object key") }
            guard bytes[pos] == .colon else { throw error("expected ':' after an object key", at: pos) }
            pos += 1
            let value = try parseValue()
            valueStack.append(value)
            skipWhitespace()
            guard pos < end else { throw endOfInput(expected: "',' or '}' after an object member") }
            switch bytes[pos] {
            case .comma:
                let comma = pos
                pos += 1
                skipWhitespace()
                guard pos < end else { throw endOfInput(expected: "a quoted object key") }
                if bytes[pos] == .quote { continue }
                if bytes[pos] == .closeBrace { throw error("trailing comma before '}'", at: comma) }
                throw error("expected a quoted object key", at: pos)
            case .closeBrace:
                pos += 1
                depth -= 1
                let object = JSONObject(parsedKeys: Array(keyStack[keyBase...]), values: Array(valueStack[valueBase...]))
                keyStack.removeSubrange(keyBase...)
                valueStack.removeSubrange(valueBase...)
                return object
            default:
                throw error("expected ',' or '}' after an object member", at: pos)
            }
        }
    }

    private mutating func enterContainer() throws(JSONParseError) {
        guard depth < Self.maxDepth else {
            throw error("nesting deeper than \(Self.maxDepth) levels", at: pos)
        }
        depth += 1
    }

    // MARK: - Helpers

    @inline(__always)
    private mutating func skipWhitespace() {
        while pos < end {
            switch bytes[pos] {
            case .space, .lineFeed, .carriageReturn, .tab:
                pos += 1
            default:
                return
            }
        }
    }

    private func startsWith(_ word: StaticString, at offset: Int) -> Bool {
        let count = word.utf8CodeUnitCount
        guard offset + count <= end else { return false }
        let expected = word.utf8Start
        for index in 0..<count where bytes[offset + index] != expected[index] {
            return false
        }
        return true
    }

    private func endOfInput(expected: String) -> JSONParseError {
        error("unexpected end of input, expected \(expected)", at: end)
    }

    private func unexpectedCharacter(expected: String) -> JSONParseError {
        error("unexpected character \(describeCharacter(at: pos)), expected \(expected)", at: pos)
    }

    /// Describes the character at `offset` for an error message, e.g. `'x'`, `'中'`, `U+0007` or `byte 0xFF`.
    private func describeCharacter(at offset: Int) -> String {
        let byte = bytes[offset]
        if byte == UInt8(ascii: "'") {
            return "\"'\""
        }
        if byte >= 0x20 && byte < 0x7F {
            return "'\(Character(Unicode.Scalar(byte)))'"
        }
        var iterator = UnsafeBufferPointer(rebasing: bytes[offset..<min(offset + 4, end)]).makeIterator()
        var decoder = UTF8()
        if case .scalarValue(let scalar) = decoder.decode(&iterator) {
            if scalar.value < 0x20 || (0x7F..<0xA0).contains(scalar.value) || scalar.properties.isWhitespace {
                return "U+" + hex(scalar.value, width: 4)
            }
            return "'\(scalar)'"
        }
        return "byte 0x" + hex(UInt32(byte), width: 2)
    }

    private func hex(_ value: UInt32, width: Int) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }

    /// Builds an error at byte `offset`, computing its line and column.
    private func error(_ message: String, at offset: Int) -> JSONParseError {
        var line = 1
        var column = 1
        var index = contentStart
        while index < offset {
            let byte = bytes[index]
            if byte == .lineFeed {
                line += 1
                column = 1
            } else if byte == .carriageReturn {
                if index + 1 >= end || bytes[index + 1] != .lineFeed {
                    line += 1
                    column = 1
                }
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
            index += 1
        }
        return JSONParseError(line: line, column: column, offset: offset, message: message)
    }
}

extension UInt8 {
    fileprivate static let tab: UInt8 = 0x09
    fileprivate static let lineFeed: UInt8 = 0x0A
    fileprivate static let carriageReturn: UInt8 = 0x0D
    fileprivate static let space: UInt8 = 0x20
    fileprivate static let quote: UInt8 = 0x22
    fileprivate static let plus: UInt8 = 0x2B
    fileprivate static let comma: UInt8 = 0x2C
    fileprivate static let minus: UInt8 = 0x2D
    fileprivate static let dot: UInt8 = 0x2E
    fileprivate static let slash: UInt8 = 0x2F
    fileprivate static let digit0: UInt8 = 0x30
    fileprivate static let digit9: UInt8 = 0x39
    fileprivate static let colon: UInt8 = 0x3A
    fileprivate static let openBracket: UInt8 = 0x5B
    fileprivate static let backslash: UInt8 = 0x5C
    fileprivate static let closeBracket: UInt8 = 0x5D
    fileprivate static let openBrace: UInt8 = 0x7B
    fileprivate static let closeBrace: UInt8 = 0x7D

    fileprivate var isDigit: Bool {
        self >= .digit0 && self <= .digit9
    }

    fileprivate var hexValue: UInt32? {
        switch self {
        case 0x30...0x39: UInt32(self - 0x30)
        case 0x41...0x46: UInt32(self - 0x37)
        case 0x61...0x66: UInt32(self - 0x57)
        default: nil
        }
    }
}
