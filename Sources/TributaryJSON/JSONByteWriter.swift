/// Writes JSON text straight into a UTF-8 byte buffer, one value at a time, without building a
/// ``JSONValue`` first; the bytes are exactly those ``JSONWriter`` writes for the same value.
///
/// Open a container with ``beginObject()`` or ``beginArray()``, give each object member a
/// ``key(_:)`` before its value, and close with ``endObject()`` / ``endArray()``; commas,
/// and in the pretty style line breaks and indentation, are written for you. Misuse (a value
/// without a key inside an object, unbalanced containers) writes invalid JSON and is a
/// programming error. Strings are escaped as ``JSONWriter`` documents.
public struct JSONByteWriter: Sendable {
    /// The text written so far (pretty output gets its final newline from ``finish()``).
    public private(set) var bytes: [UInt8]
    private let pretty: Bool
    /// One entry per open container: whether it has a member yet.
    private var hasMembers: [Bool] = []
    /// A key was just written; the next value follows it on the same line.
    private var afterKey = false

    /// Creates a writer; `capacity` bytes are reserved up front (see `JSONWriter.bytes`).
    public init(style: JSONWriter.Style = .pretty, capacity: Int = 256) {
        pretty = style == .pretty
        bytes = []
        bytes.reserveCapacity(max(capacity, 256))
        hasMembers.reserveCapacity(16)
    }

    /// The finished text: pretty output ends with a newline, as `JSONWriter` writes it.
    public mutating func finish() -> [UInt8] {
        if pretty { bytes.append(0x0A) }
        return bytes
    }

    /// Hands the text written so far to `emit` and goes on with an empty buffer (of the same
    /// capacity) where it left off, so a long document can go out in pieces; after the last
    /// value, ``finish()`` returns what is left.
    public mutating func flush(to emit: (UnsafeRawBufferPointer) -> Void) {
        bytes.withUnsafeBytes { emit($0) }
        bytes.removeAll(keepingCapacity: true)
    }

    /// Starts an object (as a value: after a key, in an array, or at the top).
    public mutating func beginObject() {
        beforeValue()
        bytes.append(UInt8(ascii: "{"))
        hasMembers.append(false)
    }

    /// Ends the innermost object.
    public mutating func endObject() {
        endContainer(UInt8(ascii: "}"))
    }

    /// Starts an array.
    public mutating func beginArray() {
        beforeValue()
        bytes.append(UInt8(ascii: "["))
        hasMembers.append(false)
    }

    /// Ends the innermost array.
    public mutating func endArray() {
        endContainer(UInt8(ascii: "]"))
    }

    /// The key of the next object member.
    public mutating func key(_ name: String) {
        beforeValue()
        appendString(name)
        bytes.append(UInt8(ascii: ":"))
        if pretty { bytes.append(0x20) }
        afterKey = true
    }

    /// A string value.
    public mutating func string(_ text: String) {
        beforeValue()
        appendString(text)
    }

    /// A string value given as UTF-8.
    public mutating func string(utf8 text: UnsafeBufferPointer<UInt8>) {
        beforeValue()
        bytes.append(UInt8(ascii: "\""))
        JSONEscaping.append(text, to: &bytes)
        bytes.append(UInt8(ascii: "\""))
    }

    /// A number value.
    public mutating func number(_ number: JSONNumber) {
        beforeValue()
        appendUTF8(of: number.text)
    }

    /// An integer value.
    public mutating func number(_ value: Int) {
        beforeValue()
        appendUTF8(of: String(value))
    }

    /// `true` or `false`.
    public mutating func bool(_ flag: Bool) {
        beforeValue()
        appendStatic(flag ? "true" : "false")
    }

    /// `null`.
    public mutating func null() {
        beforeValue()
        appendStatic("null")
    }

    /// Any value, written as `JSONWriter` would write it in this position.
    public mutating func value(_ value: JSONValue) {
        switch value {
        case .null: null()
        case .bool(let flag): bool(flag)
        case .number(let number): self.number(number)
        case .string(let text): string(text)
        case .array(let elements):
            beginArray()
            for element in elements { self.value(element) }
            endArray()
        case .object(let object):
            beginObject()
            for (name, member) in object {
                key(name)
                self.value(member)
            }
            endObject()
        }
    }

    // MARK: Layout

    /// The comma and line break before a value or key, unless it follows its key.
    @inline(__always)
    private mutating func beforeValue() {
        if afterKey {
            afterKey = false
            return
        }
        let depth = hasMembers.count
        guard depth > 0 else { return }
        if hasMembers[depth - 1] {
            bytes.append(UInt8(ascii: ","))
        } else {
            hasMembers[depth - 1] = true
        }
        if pretty { newline(level: depth) }
    }

    private mutating func endContainer(_ close: UInt8) {
        let hadMembers = hasMembers.removeLast()
        if hadMembers, pretty { newline(level: hasMembers.count) }
        bytes.append(close)
    }

    private mutating func newline(level: Int) {
        bytes.append(0x0A)
        bytes.append(contentsOf: repeatElement(0x20, count: 2 * level))
    }

    private mutating func appendString(_ text: String) {
        bytes.append(UInt8(ascii: "\""))
        var text = text
        text.withUTF8 { JSONEscaping.append($0, to: &bytes) }
        bytes.append(UInt8(ascii: "\""))
    }

    private mutating func appendStatic(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    private mutating func appendUTF8(of text: String) {
        var text = text
        text.withUTF8 { bytes.append(contentsOf: $0) }
    }
}
