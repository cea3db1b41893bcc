/// Escapes text for XML 1.0 and drops the characters XML 1.0 cannot carry at all.
///
/// Text content escapes `&`, `<` and `>` (so `]]>` can never appear); attribute values also
/// escape quotes and keep tabs and line breaks as character references, which attribute-value
/// normalization would otherwise turn into spaces. Control characters other than tab, LF and CR,
/// and U+FFFE/U+FFFF, are removed: no escape makes them legal in XML 1.0.
public enum XMLEscaping {
    /// Escaped character data for element content.
    public static func text(_ string: String) -> String {
        escape(string, attribute: false)
    }

    /// Escaped character data for a double-quoted attribute value.
    public static func attribute(_ string: String) -> String {
        escape(string, attribute: true)
    }

    /// Whether XML 1.0 allows the scalar in a document at all.
    public static func isAllowed(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x9, 0xA, 0xD: true
        case 0x20...0xD7FF, 0xE000...0xFFFD, 0x10000...0x10FFFF: true
        default: false
        }
    }

    private static func escape(_ string: String, attribute: Bool) -> String {
        var string = string
        let changes = string.withUTF8 { bytes in
            var index = 0
            while index < bytes.count {
                if change(in: bytes, at: index, attribute: attribute) != nil { return true }
                index += 1
            }
            return false
        }
        guard changes else { return string }
        var output = XMLOutput(capacity: string.utf8.count + 16)
        if attribute { output.attribute(string) } else { output.text(string) }
        return output.string
    }

    /// What becomes of the byte at `index`: nil when it stays, else how many bytes are replaced
    /// and by what. Every byte that needs work is ASCII, except the lead byte of U+FFFE and U+FFFF
    /// (EF BF BE, EF BF BF), which are dropped.
    @inline(__always)
    static func change(
        in bytes: UnsafeBufferPointer<UInt8>, at index: Int, attribute: Bool
    ) -> (length: Int, replacement: StaticString)? {
        switch bytes[index] {
        case UInt8(ascii: "&"): (1, "&amp;")
        case UInt8(ascii: "<"): (1, "&lt;")
        case UInt8(ascii: ">"): (1, "&gt;")
        case UInt8(ascii: "\"") where attribute: (1, "&quot;")
        case UInt8(ascii: "\t") where attribute: (1, "&#9;")
        case UInt8(ascii: "\n") where attribute: (1, "&#10;")
        case UInt8(ascii: "\r"): (1, "&#13;")
        case UInt8(ascii: "\t"), UInt8(ascii: "\n"): nil
        case 0x00..<0x20: (1, "")
        case 0xEF where ByteScan.isNonCharacter(bytes, at: index): (3, "")
        default: nil
        }
    }
}

/// An XML document under construction as UTF-8 bytes: markup appended as is, text and
/// attribute values escaped straight into the buffer (no intermediate strings).
///
/// The buffer is its own memory, written through a pointer: escaping copies eight plain bytes
/// at a time and writes replacements in place, without an array append per piece.
public struct XMLOutput: ~Copyable {
    private var base: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    /// How many bytes the document has so far.
    public private(set) var count = 0

    /// An empty document with room for `capacity` bytes.
    public init(capacity: Int = 0) {
        self.capacity = max(capacity, 64)
        base = .allocate(capacity: self.capacity)
    }

    deinit {
        base.deallocate()
    }

    /// The document so far.
    public var bytes: [UInt8] { Array(UnsafeBufferPointer(start: base, count: count)) }

    /// The document as a string.
    public var string: String { String(decoding: UnsafeBufferPointer(start: base, count: count), as: UTF8.self) }

    /// Hands the bytes so far to `emit` and starts over, keeping the memory.
    public mutating func flush(to emit: (UnsafeRawBufferPointer) -> Void) {
        emit(UnsafeRawBufferPointer(start: base, count: count))
        count = 0
    }

    /// Makes room for `more` bytes after the current ones.
    @inline(__always)
    private mutating func reserve(_ more: Int) {
        guard count + more > capacity else { return }
        let grown = max(count + more, capacity * 2)
        let larger = UnsafeMutablePointer<UInt8>.allocate(capacity: grown)
        larger.update(from: base, count: count)
        base.deallocate()
        base = larger
        capacity = grown
    }

    private mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let source = bytes.baseAddress, !bytes.isEmpty else { return }
        reserve(bytes.count)
        (base + count).update(from: source, count: bytes.count)
        count += bytes.count
    }

    /// Appends markup as it is.
    @inline(__always)
    public mutating func raw(_ markup: StaticString) {
        markup.withUTF8Buffer { append($0) }
    }

    /// Appends markup (or text known to need no escaping) as it is.
    public mutating func raw(_ markup: String) {
        var markup = markup
        markup.withUTF8 { append($0) }
    }

    /// Appends bytes made by another `XMLOutput` as they are.
    public mutating func raw(_ markup: [UInt8]) {
        markup.withUnsafeBufferPointer { append($0) }
    }

    /// Appends `count` levels of two-space indentation.
    public mutating func indent(_ count: Int) {
        for _ in 0..<count { raw("  ") }
    }

    /// Appends character data, escaped for element content.
    public mutating func text(_ value: String) {
        var value = value
        value.withUTF8 { escaped($0, attribute: false) }
    }

    /// Appends an attribute value, escaped for double quotes.
    public mutating func attribute(_ value: String) {
        var value = value
        value.withUTF8 { escaped($0, attribute: true) }
    }

    /// Appends ` name="value"`, the value escaped.
    public mutating func attribute(_ name: StaticString, _ value: String) {
        raw(" ")
        raw(name)
        raw("=\"")
        attribute(value)
        raw("\"")
    }

    /// Appends `<name>text</name>`, the text escaped.
    public mutating func element(_ name: StaticString, _ value: String) {
        raw("<")
        raw(name)
        raw(">")
        text(value)
        raw("</")
        raw(name)
        raw(">")
    }

    /// Appends character data in CDATA sections: markup-heavy text such as HTML goes out as it
    /// is, copied sixteen bytes at a time, where `text` would write every `<`, `>` and `&` as an
    /// entity (a third of an HTML document's bytes can be markup characters). What a parser reads
    /// back is what `text` would give: a `]]>` in the text is split over two sections, a carriage
    /// return is written as `&#13;` between two sections (in a section a parser would read it as a
    /// line feed), and the characters XML 1.0 cannot carry are dropped. Empty text writes nothing.
    public mutating func cdata(_ value: String) {
        var value = value
        value.withUTF8 { cdata($0) }
    }

    private mutating func cdata(_ input: UnsafeBufferPointer<UInt8>) {
        let start = count
        if cdataSections(input) { return }
        // The text has a character XML cannot carry: it is dropped first and the text written
        // again, since a "]]>" can form where it was ("]]\u{1}>").
        count = start
        var kept: [UInt8] = []
        kept.reserveCapacity(input.count)
        var index = 0
        while index < input.count {
            // Dropped: what escaping replaces with nothing.
            if let change = XMLEscaping.change(in: input, at: index, attribute: false), change.replacement.utf8CodeUnitCount == 0 {
                index += change.length
                continue
            }
            kept.append(input[index])
            index += 1
        }
        kept.withUnsafeBufferPointer { _ = cdataSections($0) }
    }

    /// Writes `input` in CDATA sections, unless it has a character XML cannot carry: then the
    /// answer is false and what was written is to be dropped.
    private mutating func cdataSections(_ input: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let source = input.baseAddress, !input.isEmpty else { return true }
        raw("<![CDATA[")
        // The text and the slack of a sixteen-byte store; the rare replacements make their own room.
        reserve(input.count + 16)
        var output = base + count
        let end = input.count
        var index = 0
        while index < end {
            if index + 16 <= end {
                // Flagged: control characters, ']' and EF (the lead byte of U+FFFE and U+FFFF).
                // The sixteen bytes are stored whole; those from the first flagged one on are
                // written again.
                let pair = ByteScan.pair(input, at: index)
                let flags =
                    ByteScan.mask(of: pair, below: 0x20) | ByteScan.mask(of: pair, equalTo: UInt8(ascii: "]"))
                    | ByteScan.mask(of: pair, equalTo: 0xEF)
                UnsafeMutableRawPointer(output).storeBytes(of: pair, as: ByteScan.Pair.self)
                guard ByteScan.any(flags) else {
                    output += 16
                    index += 16
                    continue
                }
                let plain = ByteScan.firstFlag(flags)
                output += plain
                index += plain
            }
            let byte = source[index]
            let replacement: StaticString
            let length: Int
            switch byte {
            case UInt8(ascii: "]")
            where index + 2 < end && source[index + 1] == UInt8(ascii: "]") && source[index + 2] == UInt8(ascii: ">"):
                (replacement, length) = ("]]]]><![CDATA[>", 3)
            case UInt8(ascii: "\r"):
                (replacement, length) = ("]]>&#13;<![CDATA[", 1)
            case UInt8(ascii: "\t"), UInt8(ascii: "\n"), 0x20...:
                guard byte != 0xEF || !ByteScan.isNonCharacter(input, at: index) else { return false }
                output.pointee = byte
                output += 1
                index += 1
                continue
            default:
                return false
            }
            count = output - base
            reserve(replacement.utf8CodeUnitCount + end - index + 16)
            output = base + count
            Self.copy(replacement, to: &output)
            index += length
        }
        count = output - base
        raw("]]>")
        return true
    }

    /// Writes `text` at `output` (room made by the caller) and moves `output` past it.
    @inline(__always)
    private static func copy(_ text: StaticString, to output: inout UnsafeMutablePointer<UInt8>) {
        text.withUTF8Buffer { bytes in
            for byte in bytes {
                output.pointee = byte
                output += 1
            }
        }
    }

    private static let ones: UInt64 = 0x0101_0101_0101_0101
    private static let highs: UInt64 = 0x8080_8080_8080_8080

    /// Non-zero when one of the eight bytes of `word` is `byte`.
    @inline(__always)
    private static func has(_ word: UInt64, _ byte: UInt8) -> UInt64 {
        let difference = word ^ (ones &* UInt64(byte))
        return (difference &- ones) & ~difference & highs
    }

    /// Appends `input` escaped as `XMLEscaping` says. Room for the worst case (six bytes for
    /// one, `&quot;`) is made first, so the loop writes without checks.
    private mutating func escaped(_ input: UnsafeBufferPointer<UInt8>, attribute: Bool) {
        guard let source = input.baseAddress, !input.isEmpty else { return }
        reserve(input.count * 6)
        var output = base + count
        let end = input.count
        var index = 0
        while index < end {
            if index + 8 <= end {
                // Eight bytes at once: flagged are control characters, '&', '<', '>', EF (U+FFFE
                // and U+FFFF's lead byte) and, in attributes, '"'. The word is stored whole; the
                // bytes before the first flagged one are final, the rest are written again. (The
                // lowest flag is exact: a false flag only appears above a true one.)
                let raw = UnsafeRawPointer(source + index).loadUnaligned(as: UInt64.self)
                let word = UInt64(littleEndian: raw)
                let controls = (word &- Self.ones &* 0x20) & ~word & Self.highs
                let quotes = attribute ? Self.has(word, UInt8(ascii: "\"")) : 0
                let flags =
                    controls | quotes | Self.has(word, UInt8(ascii: "&")) | Self.has(word, UInt8(ascii: "<"))
                    | Self.has(word, UInt8(ascii: ">")) | Self.has(word, 0xEF)
                UnsafeMutableRawPointer(output).storeBytes(of: raw, as: UInt64.self)
                if flags == 0 {
                    output += 8
                    index += 8
                    continue
                }
                let plain = flags.trailingZeroBitCount >> 3
                output += plain
                index += plain
            }
            let byte = source[index]
            // Markup's own characters, the usual reason to stop, are written with one store.
            if byte == UInt8(ascii: "<") || byte == UInt8(ascii: ">") {
                // "&lt;" or "&gt;", little-endian.
                let entity: UInt32 = byte == UInt8(ascii: "<") ? 0x3B74_6C26 : 0x3B74_6726
                UnsafeMutableRawPointer(output).storeBytes(of: UInt32(littleEndian: entity), as: UInt32.self)
                output += 4
                index += 1
                continue
            }
            if byte == UInt8(ascii: "&") {
                // "&amp" and ";".
                UnsafeMutableRawPointer(output).storeBytes(of: UInt32(littleEndian: 0x706D_6126), as: UInt32.self)
                output[4] = UInt8(ascii: ";")
                output += 5
                index += 1
                continue
            }
            if byte >= 0x20 && byte != 0xEF && byte != UInt8(ascii: "&") && byte != UInt8(ascii: "<") && byte != UInt8(ascii: ">")
                && byte != UInt8(ascii: "\"")
            {
                output.pointee = byte
                output += 1
                index += 1
                continue
            }
            guard let change = XMLEscaping.change(in: input, at: index, attribute: attribute) else {
                output.pointee = byte
                output += 1
                index += 1
                continue
            }
            Self.copy(change.replacement, to: &output)
            index += change.length
        }
        count = output - base
    }
}
