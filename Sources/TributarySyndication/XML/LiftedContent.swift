import TributaryJSON

/// Element content that `XMLPrepass` takes out of a document so that libxml2 does not read it,
/// and that `XMLStreamParser` hands to the builder in its place: CDATA sections, and text with
/// character or entity references (escaped HTML).
///
/// libxml2's push parser reads a CDATA section three times, a byte at a time: to find its `]]>`,
/// to check its characters, and to count its lines and columns; it reads escaped text a
/// character at a time, and reports every reference in it as a call of its own. Item HTML in
/// feeds is one or the other, so that was a large part of the time spent parsing. Content that
/// libxml2 would hand on unchanged (apart from references it decodes) is replaced by a
/// placeholder CDATA section: a marker, the content's number, and as many line feeds as the
/// content had. When libxml2 reports the placeholder, the stream parser hands the builder the
/// content instead — a section's bytes as they are, text with its references decoded — so the
/// builder sees the same characters in the same order as before. What is lifted:
/// - a CDATA section in element content (after the root element's start, just after a `>`),
///   terminated, of `minimumLength` to `maximumLength` bytes, with no character libxml2
///   refuses there;
/// - a run of text from its first non-blank character after the end of a tag, comment, CDATA
///   section or processing instruction (after the root element's start) up to the next `<`, of
///   the same lengths, with at least one reference, where every reference is one of XML's five
///   or a character reference to a character XML allows outside U+0080–U+009F (the ones the
///   prepass leaves alone), and with no carriage return (libxml2 turns line ends into line
///   feeds), no `]]>` (an error in text) and no character libxml2 refuses.
///
/// Lines stay where they were (the line feeds are kept). Columns on the line where lifted
/// content ends are off by what the placeholder lacks, which `columnShift` records; the stream
/// parser adds it back to every position libxml2 reports on that line. libxml2 counts the
/// columns of CDATA in bytes and those of text in characters, as `columnShift` does.
///
/// One instance serves one parse, on one thread.
final class LiftedContent {
    /// One lifted section or text.
    struct Section {
        /// Where the content is: the bytes between `<![CDATA[` and `]]>` in `document`, or the
        /// decoded text in `texts[text]`.
        var range: Range<Int>
        /// Whether `range` is in `texts[text]`.
        var isDecoded: Bool
        /// For text, the index of its decoded bytes in `texts`.
        var text = 0
        /// For text, where it is in `document`, references and all.
        var source: Range<Int>
        /// The line feeds in the content, which the placeholder repeats.
        var lineFeeds: Int
        /// The columns the placeholder falls short of the content on the line where both end.
        var columnShift: Int
    }

    /// Shorter content is left to libxml2: a placeholder would save nothing.
    static let minimumLength = 32
    /// Longer content is left to libxml2, which refuses to hold more than 10 MB of unread input
    /// ("Huge input lookup"); lifting such a section would change that outcome.
    static let maximumLength = 4 << 20
    /// The placeholder's first bytes: U+FDD0, a noncharacter that XML allows and text never has.
    static let marker: [UInt8] = [0xEF, 0xB7, 0x90]

    /// The document the ranges point into (the prepass's input, kept alive for the parse).
    private(set) var document: [UInt8] = []
    private(set) var sections: [Section] = []
    /// The decoded text of each lifted text run, decoded straight into an array of its own.
    private var texts: [[UInt8]] = []
    /// The number of the next placeholder libxml2 should report.
    private var next = 0

    /// Sets the document whose sections are lifted; call before the prepass reads it.
    func begin(document: [UInt8]) {
        self.document = document
        sections.removeAll()
        texts.removeAll()
        next = 0
    }

    /// The placeholder content for the section whose content is `range` of `bytes` (the
    /// document given to `begin`), or nil when the section stays as it is.
    func lift(_ range: Range<Int>, in bytes: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        guard range.count >= Self.minimumLength, range.count <= Self.maximumLength,
            let lines = Self.lines(UnsafeBufferPointer(rebasing: bytes[range]))
        else { return nil }
        var placeholder = Self.marker + Array(String(sections.count).utf8)
        let shift: Int
        if lines.lineFeeds == 0 {
            shift = range.count - placeholder.count
        } else {
            shift = range.count - lines.lastLineStart
            placeholder += repeatElement(0x0A, count: lines.lineFeeds)
        }
        sections.append(Section(range: range, isDecoded: false, source: range, lineFeeds: lines.lineFeeds, columnShift: shift))
        return placeholder
    }

    /// Lifts the text that starts at `start` of `bytes` (the document given to `begin`), just
    /// after markup, when it qualifies (see the type's documentation). Returns where the text
    /// ends (its `<`, or the end of the input), and when lifted where the lifted part starts
    /// (past the leading blanks, which libxml2 skips after the root element) and the
    /// placeholder CDATA section that replaces it.
    func liftText(from start: Int, in bytes: UnsafeBufferPointer<UInt8>) -> (end: Int, lifted: (start: Int, placeholder: [UInt8])?) {
        let count = bytes.count
        var textStart = start
        while textStart < count, bytes[textStart] == 0x20 || bytes[textStart] == 0x0A || bytes[textStart] == 0x09 { textStart += 1 }
        // Text without a `<` after it (a truncated document) stays with libxml2.
        guard let end = InternalSubset.find(bytes, "<", from: textStart) else { return (count, nil) }
        let length = end - textStart
        guard length >= Self.minimumLength, length <= Self.maximumLength else { return (end, nil) }
        // Decoded, the text is never longer: every reference is longer than its character's UTF-8.
        var decoded: (written: Int, references: Int, lineFeeds: Int, lineCharacters: Int)?
        let text = [UInt8](unsafeUninitializedCapacity: length) { output, initialized in
            decoded = Self.decode(UnsafeBufferPointer(rebasing: bytes[textStart..<end]), into: output)
            initialized = decoded?.written ?? 0
        }
        guard let decoded, decoded.references > 0 else { return (end, nil) }
        texts.append(text)
        var placeholder = Self.marker + Array(String(sections.count).utf8)
        // The placeholder's columns: `<![CDATA[`, the bytes after its last line feed, `]]>`.
        let shift = decoded.lineCharacters - (decoded.lineFeeds == 0 ? 9 + placeholder.count + 3 : 3)
        placeholder += repeatElement(0x0A, count: decoded.lineFeeds)
        sections.append(
            Section(
                range: 0..<text.count, isDecoded: true, text: texts.count - 1, source: textStart..<end,
                lineFeeds: decoded.lineFeeds, columnShift: shift))
        return (end, (textStart, placeholder))
    }

    /// Decodes `text` (which has no `<`) into `output` (at least as long) when it qualifies for
    /// lifting; with the bytes written, the references decoded, the line feeds and the
    /// characters after the last one (libxml2's columns in text). Nil when it does not qualify.
    private static func decode(
        _ text: UnsafeBufferPointer<UInt8>, into output: UnsafeMutableBufferPointer<UInt8>
    ) -> (written: Int, references: Int, lineFeeds: Int, lineCharacters: Int)? {
        let count = text.count
        var index = 0
        var copied = 0
        var written = 0
        var references = 0
        var lineFeeds = 0
        var lastLineStart = 0
        func flush(to end: Int) {
            guard copied < end, let source = text.baseAddress, let target = output.baseAddress else { return }
            (target + written).update(from: source + copied, count: end - copied)
            written += end - copied
        }
        while index < count {
            if index + 16 <= count {
                let pair = ByteScan.pair(text, at: index)
                let special =
                    ByteScan.mask(of: pair, below: 0x20) | ByteScan.mask(of: pair, equalTo: 0x26) | ByteScan.mask(of: pair, equalTo: 0x5D)
                    | ByteScan.mask(of: pair, equalTo: 0xEF)
                guard ByteScan.any(special) else {
                    index += 16
                    continue
                }
                index += ByteScan.firstFlag(special)
            }
            let byte = text[index]
            if byte == 0x26 {
                guard let (scalar, end) = reference(at: index, in: text) else { return nil }
                flush(to: index)
                written += UTF8Encoding.write(scalar, to: output, at: written)
                references += 1
                index = end
                copied = end
                continue
            }
            if byte == 0x0A {
                lineFeeds += 1
                lastLineStart = index + 1
            } else if byte < 0x20 {
                guard byte == 0x09 else { return nil }  // carriage returns and controls
            } else if byte == 0x5D {
                guard index + 2 >= count || text[index + 1] != 0x5D || text[index + 2] != 0x3E else { return nil }
            } else if byte == 0xEF, ByteScan.isNonCharacter(text, at: index) {
                return nil
            }
            index += 1
        }
        flush(to: count)
        // The last line's characters: its bytes but continuation bytes (a reference's bytes are
        // ASCII, one character each, as libxml2 counts them).
        let lastLine = UnsafeBufferPointer(rebasing: text[lastLineStart...])
        return (written, references, lineFeeds, lastLine.count - ByteScan.continuationBytes(in: lastLine))
    }

    /// The character of the reference at `index` (an `&`) and the index after it, when it is
    /// one of XML's five or a character reference the prepass leaves alone and libxml2 accepts.
    private static func reference(at index: Int, in bytes: UnsafeBufferPointer<UInt8>) -> (UInt32, Int)? {
        let count = bytes.count
        var cursor = index + 1
        guard cursor < count else { return nil }
        if bytes[cursor] == UInt8(ascii: "#") {
            cursor += 1
            let hex = cursor < count && bytes[cursor] == UInt8(ascii: "x")
            if hex { cursor += 1 }
            let digitsStart = cursor
            var value: UInt32 = 0
            while cursor < count, cursor - digitsStart <= 8 {
                let byte = bytes[cursor]
                if byte &- 0x30 < 10 {
                    value = value &* (hex ? 16 : 10) &+ UInt32(byte &- 0x30)
                } else if hex, byte | 0x20 &- 0x61 < 6 {
                    value = value &* 16 &+ UInt32((byte | 0x20) &- 0x61 + 10)
                } else {
                    break
                }
                cursor += 1
            }
            let digits = cursor - digitsStart
            guard digits > 0, digits <= 8, cursor < count, bytes[cursor] == UInt8(ascii: ";") else { return nil }
            switch value {
            case 0x09, 0x0A, 0x0D, 0x20..<0x80, 0xA0...0xD7FF, 0xE000...0xFFFD, 0x10000...0x10FFFF: return (value, cursor + 1)
            default: return nil
            }
        }
        let nameStart = cursor
        while cursor < count, cursor - nameStart < 5, bytes[cursor] | 0x20 &- 0x61 < 26 { cursor += 1 }
        guard cursor < count, bytes[cursor] == UInt8(ascii: ";") else { return nil }
        guard let value = XMLPredefinedEntity.value(named: UnsafeBufferPointer(rebasing: bytes[nameStart..<cursor])) else {
            return nil
        }
        return (value, cursor + 1)
    }

    /// The section a CDATA block from libxml2 stands for, when it is the next placeholder;
    /// nil for any other block (a section that was not lifted).
    func take(_ text: UnsafePointer<UInt8>, _ length: Int) -> Section? {
        guard next < sections.count, length > Self.marker.count, text[0] == Self.marker[0], text[1] == Self.marker[1],
            text[2] == Self.marker[2]
        else { return nil }
        var index = 0
        var offset = Self.marker.count
        while offset < length, text[offset] &- 0x30 < 10 {
            index = index &* 10 &+ Int(text[offset] &- 0x30)
            offset += 1
        }
        guard offset > Self.marker.count, offset - Self.marker.count <= 10, index == next,
            length - offset == sections[index].lineFeeds
        else { return nil }
        next += 1
        return sections[index]
    }

    /// Calls `body` with the content of a section: the lifted bytes, decoded when they were text.
    func withContent(of section: Section, _ body: (UnsafePointer<UInt8>, Int) -> Void) {
        (section.isDecoded ? texts[section.text] : document).withUnsafeBufferPointer { bytes in
            guard let base = bytes.baseAddress else { return }
            body(base + section.range.lowerBound, section.range.count)
        }
    }

    /// The line feeds in CDATA content and where its last line starts; nil when the content has
    /// a character libxml2 refuses in CDATA (a C0 control other than tab, line feed and carriage
    /// return, U+FFFE or U+FFFF). The content is valid UTF-8 (`DocumentDecoder` made it so).
    static func lines(_ content: UnsafeBufferPointer<UInt8>) -> (lineFeeds: Int, lastLineStart: Int)? {
        let count = content.count
        var lineFeeds = 0
        var lastLineStart = 0
        var index = 0
        while index < count {
            if index + 16 <= count {
                let pair = ByteScan.pair(content, at: index)
                let special = ByteScan.mask(of: pair, below: 0x20) | ByteScan.mask(of: pair, equalTo: 0xEF)
                guard ByteScan.any(special) else {
                    index += 16
                    continue
                }
                index += ByteScan.firstFlag(special)
            }
            let byte = content[index]
            if byte == 0x0A {
                lineFeeds += 1
                lastLineStart = index + 1
            } else if byte < 0x20 {
                guard byte == 0x09 || byte == 0x0D else { return nil }
            } else if byte == 0xEF, ByteScan.isNonCharacter(content, at: index) {
                return nil
            }
            index += 1
        }
        return (lineFeeds, lastLineStart)
    }
}
