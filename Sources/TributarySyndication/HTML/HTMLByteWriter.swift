import TributaryModel

/// Builds UTF-8 output a run of bytes at a time, escaping text and attribute values for HTML and
/// XML 1.0 alike.
///
/// Escaping drops what XML 1.0 cannot carry (C0 controls other than tab and line feed, U+FFFE,
/// U+FFFF) and turns carriage returns into line feeds (`\r\n` into one), so the output can be
/// embedded in Atom as it is.
struct HTMLByteWriter {
    private(set) var bytes: [UInt8] = []
    /// The last text byte was a carriage return (written as a line feed), so a line feed that
    /// follows is its pair and is skipped.
    private var afterCarriageReturn = false

    init(capacity: Int) {
        bytes.reserveCapacity(capacity)
    }

    var string: String { String(validUTF8: bytes) }

    mutating func append(_ byte: UInt8) {
        bytes.append(byte)
        afterCarriageReturn = false
    }

    mutating func append(_ name: HTMLNameKey) {
        name.write(to: &bytes)
        afterCarriageReturn = false
    }

    mutating func append(_ run: [UInt8]) {
        bytes.append(contentsOf: run)
        afterCarriageReturn = false
    }

    /// Character data with `&`, `<` and `>` escaped.
    mutating func appendText(_ text: UnsafeBufferPointer<UInt8>) {
        appendEscaped(text, inAttribute: false)
    }

    /// `appendText` for text with no C0 control other than tab and line feed and no `&`, `<` or
    /// 0xEF byte (see `HTMLSAXSink.plainCharacters`): of what `appendText` changes, only `>`
    /// can occur, so runs between `>`s are found eight bytes at a time and copied whole.
    mutating func appendPlainText(_ text: UnsafeBufferPointer<UInt8>) {
        guard !afterCarriageReturn else {
            appendText(text)
            return
        }
        let count = text.count
        var runStart = 0
        var index = 0
        while index < count {
            if index + 8 <= count, !ByteScan.hasByte(in: ByteScan.word(text, at: index), equalTo: 0x3E) {
                index += 8
                continue
            }
            if text[index] == 0x3E {
                flush(text, from: runStart, to: index)
                append(Self.greaterThan)
                runStart = index + 1
            }
            index += 1
        }
        flush(text, from: runStart, to: count)
    }

    /// `appendPlainText` for text that has no `>` either (see `HTMLSAXSink.verbatimCharacters`):
    /// copied as it is, unless a line feed at its start may pair with a carriage return before.
    mutating func appendVerbatimText(_ text: UnsafeBufferPointer<UInt8>) {
        guard !afterCarriageReturn else {
            appendText(text)
            return
        }
        bytes.append(contentsOf: text)
    }

    /// An attribute value for double quotes: also `"` escaped, and tab, line feed and carriage
    /// return as character references so attribute-value normalization keeps them.
    mutating func appendAttributeValue(_ value: UnsafeBufferPointer<UInt8>) {
        appendEscaped(value, inAttribute: true)
    }

    /// An attribute value held in a `String`.
    mutating func appendAttributeValue(_ value: String) {
        var value = value
        value.withUTF8 { appendEscaped($0, inAttribute: true) }
    }

    private mutating func appendEscaped(_ input: UnsafeBufferPointer<UInt8>, inAttribute: Bool) {
        var runStart = 0
        var index = 0
        let count = input.count
        while index < count {
            // Most bytes need nothing: skip eight at a time, copy them later as one run.
            if index + 8 <= count {
                let word = ByteScan.word(input, at: index)
                if !Self.mayNeedEscaping(word, inAttribute: inAttribute) {
                    index += 8
                    continue
                }
            }
            let byte = input[index]
            if byte > 0x3E && byte != 0xEF || byte >= 0x20 && byte != 0x26 && byte != 0x3C && byte != 0x3E && byte != 0x22 {
                index += 1
                continue
            }
            if byte == 0xEF {
                if ByteScan.isNonCharacter(input, at: index) {
                    flush(input, from: runStart, to: index)
                    index += 3
                    runStart = index
                } else {
                    index += 1
                }
                continue
            }
            if byte == 0x22 && !inAttribute {
                index += 1
                continue
            }
            flush(input, from: runStart, to: index)
            index += 1
            runStart = index
            switch byte {
            case 0x26: append(Self.ampersand)
            case 0x3C: append(Self.lessThan)
            case 0x3E: append(Self.greaterThan)
            case 0x22: append(Self.quote)
            case 0x09 where inAttribute: append(Self.tab)
            case 0x09: append(byte)
            case 0x0A where inAttribute: append(Self.lineFeed)
            case 0x0D where inAttribute: append(Self.carriageReturn)
            case 0x0A:
                if !afterCarriageReturn { bytes.append(0x0A) }
            case 0x0D:
                bytes.append(0x0A)
                afterCarriageReturn = true
                continue
            default:
                continue  // other C0 controls: not allowed in XML 1.0
            }
            afterCarriageReturn = false
        }
        flush(input, from: runStart, to: count)
    }

    /// False when none of the eight bytes in `word` needs escaping or removal: no C0 control,
    /// `&`, `<`, `>`, 0xEF (U+FFFE/U+FFFF start with it), nor in attributes `"`.
    @inline(__always)
    private static func mayNeedEscaping(_ word: UInt64, inAttribute: Bool) -> Bool {
        let special =
            ByteScan.mask(of: word, below: 0x20) | ByteScan.mask(of: word, equalTo: 0x26) | ByteScan.mask(of: word, equalTo: 0x3C)
            | ByteScan.mask(of: word, equalTo: 0x3E) | ByteScan.mask(of: word, equalTo: 0xEF)
        return special != 0 || inAttribute && ByteScan.hasByte(in: word, equalTo: 0x22)
    }

    private mutating func flush(_ input: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int) {
        guard start < end else { return }
        afterCarriageReturn = false
        bytes.append(contentsOf: UnsafeBufferPointer(rebasing: input[start..<end]))
    }

    private static let ampersand = Array("&amp;".utf8)
    private static let lessThan = Array("&lt;".utf8)
    private static let greaterThan = Array("&gt;".utf8)
    private static let quote = Array("&quot;".utf8)
    private static let tab = Array("&#9;".utf8)
    private static let lineFeed = Array("&#10;".utf8)
    private static let carriageReturn = Array("&#13;".utf8)
}
