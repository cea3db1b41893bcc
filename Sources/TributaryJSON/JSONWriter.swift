/// Serialises ``JSONValue``s to JSON text.
///
/// Keys are written in stored order and numbers as their exact text. Strings escape `"`, `\`
/// and control characters (as `\n`, `\r`, `\t`, `\b`, `\f` or `\u00XX`) plus U+2028/U+2029
/// (as `\u2028`/`\u2029`, safe for JavaScript); `/` and other non-ASCII text are written as-is in UTF-8.
public struct JSONWriter: Sendable {
    /// The layout of the output.
    public enum Style: Sendable, Hashable {
        /// No whitespace at all.
        case compact
        /// Two-space indentation, `"key": value`, one member per line, and a trailing newline.
        case pretty
    }

    /// Returns `value` as JSON text (pretty output ends with a newline).
    public static func string(from value: JSONValue, style: Style = .pretty) -> String {
        String(decoding: bytes(from: value, style: style), as: UTF8.self)
    }

    /// Appends `value` as JSON text to `output` (pretty output ends with a newline).
    public static func write(_ value: JSONValue, into output: inout String, style: Style = .pretty) {
        output.append(String(decoding: bytes(from: value, style: style), as: UTF8.self))
    }

    /// Returns `value` as UTF-8 encoded JSON (pretty output ends with a newline), e.g. for `Data(bytes)`.
    /// A large document is best given a `capacity` of at least its expected size: growing the buffer
    /// by doubling holds the old and the new buffer at once. Pages never written cost no memory.
    public static func bytes(from value: JSONValue, style: Style = .pretty, capacity: Int = 256) -> [UInt8] {
        var emitter = Emitter(pretty: style == .pretty, capacity: capacity)
        emitter.emit(value, level: 0)
        if style == .pretty {
            emitter.output.append(0x0A)
        }
        return emitter.output
    }
}

/// Builds JSON output into a byte buffer.
private struct Emitter {
    var output: [UInt8] = []
    let pretty: Bool

    init(pretty: Bool, capacity: Int) {
        self.pretty = pretty
        output.reserveCapacity(max(capacity, 256))
    }

    mutating func emit(_ value: JSONValue, level: Int) {
        switch value {
        case .null:
            append("null")
        case .bool(let flag):
            append(flag ? "true" : "false")
        case .number(let number):
            appendUTF8(of: number.text)
        case .string(let string):
            emitString(string)
        case .array(let elements):
            guard !elements.isEmpty else {
                append("[]")
                return
            }
            output.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                newline(level: level + 1)
                emit(element, level: level + 1)
            }
            newline(level: level)
            output.append(UInt8(ascii: "]"))
        case .object(let object):
            guard !object.isEmpty else {
                append("{}")
                return
            }
            output.append(UInt8(ascii: "{"))
            var first = true
            for (key, member) in object {
                if !first { output.append(UInt8(ascii: ",")) }
                first = false
                newline(level: level + 1)
                emitString(key)
                output.append(UInt8(ascii: ":"))
                if pretty { output.append(0x20) }
                emit(member, level: level + 1)
            }
            newline(level: level)
            output.append(UInt8(ascii: "}"))
        }
    }

    private mutating func newline(level: Int) {
        guard pretty else { return }
        output.append(0x0A)
        output.append(contentsOf: repeatElement(0x20, count: 2 * level))
    }

    private mutating func append(_ text: StaticString) {
        text.withUTF8Buffer { output.append(contentsOf: $0) }
    }

    private mutating func appendUTF8(of text: String) {
        if let done = text.utf8.withContiguousStorageIfAvailable({ output.append(contentsOf: $0) }) {
            return done
        }
        output.append(contentsOf: text.utf8)
    }

    private mutating func emitString(_ string: String) {
        output.append(UInt8(ascii: "\""))
        let escaped: Void? = string.utf8.withContiguousStorageIfAvailable { appendEscaped($0) }
        if escaped == nil {
            Array(string.utf8).withUnsafeBufferPointer { appendEscaped($0) }
        }
        output.append(UInt8(ascii: "\""))
    }

    private mutating func appendEscaped(_ bytes: UnsafeBufferPointer<UInt8>) {
        JSONEscaping.append(bytes, to: &output)
    }
}
