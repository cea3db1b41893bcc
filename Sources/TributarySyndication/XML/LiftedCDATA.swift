/// CDATA sections that `XMLPrepass` takes out of a document so that libxml2 does not read them,
/// and that `XMLStreamParser` hands to the builder in their place.
///
/// libxml2's push parser reads a CDATA section three times, a byte at a time: to find its `]]>`,
/// to check its characters, and to count its lines and columns; item HTML in RSS is mostly
/// CDATA, so that was about a tenth of the time spent parsing the benchmark corpus. A section
/// libxml2 would hand on whole and unchanged — terminated, in element content (after the root
/// element's start, just after a `>`), of `minimumLength` to `maximumLength` bytes, with no
/// character libxml2 refuses there — is replaced by a placeholder section: a marker, the
/// section's number, and as many line feeds as the section had. When libxml2 reports the
/// placeholder, the stream parser hands the builder the original content instead, so the
/// builder sees the same bytes in the same order as before.
///
/// Lines stay where they were (the line feeds are kept). Columns on the line where a lifted
/// section ends are off by the bytes the placeholder lacks, which `columnShift` records; the
/// stream parser adds it back to every position libxml2 reports on that line. libxml2 counts
/// the columns of CDATA in bytes, as `columnShift` does.
///
/// One instance serves one parse, on one thread.
final class LiftedCDATA {
    /// One lifted section.
    struct Section {
        /// Where the content (between `<![CDATA[` and `]]>`) is in `document`.
        var range: Range<Int>
        /// The line feeds in the content, which the placeholder repeats.
        var lineFeeds: Int
        /// The columns the placeholder falls short of the content on the line where both end.
        var columnShift: Int
    }

    /// Shorter sections are left to libxml2: a placeholder would save nothing.
    static let minimumLength = 32
    /// Longer sections are left to libxml2, which refuses to hold more than 10 MB of unread
    /// input ("Huge input lookup"); lifting such a section would change that outcome.
    static let maximumLength = 4 << 20
    /// The placeholder's first bytes: U+FDD0, a noncharacter that XML allows and text never has.
    static let marker: [UInt8] = [0xEF, 0xB7, 0x90]

    /// The document the ranges point into (the prepass's input, kept alive for the parse).
    private(set) var document: [UInt8] = []
    private(set) var sections: [Section] = []
    /// The number of the next placeholder libxml2 should report.
    private var next = 0

    /// Sets the document whose sections are lifted; call before the prepass reads it.
    func begin(document: [UInt8]) {
        self.document = document
        sections.removeAll()
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
        sections.append(Section(range: range, lineFeeds: lines.lineFeeds, columnShift: shift))
        return placeholder
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

    /// Calls `body` with the content of a section.
    func withContent(of section: Section, _ body: (UnsafePointer<UInt8>, Int) -> Void) {
        document.withUnsafeBufferPointer { bytes in
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
            if index + 8 <= count {
                let word = ByteScan.word(content, at: index)
                if !ByteScan.hasByte(in: word, below: 0x20), !ByteScan.hasByte(in: word, equalTo: 0xEF) {
                    index += 8
                    continue
                }
            }
            let byte = content[index]
            if byte == 0x0A {
                lineFeeds += 1
                lastLineStart = index + 1
            } else if byte < 0x20 {
                guard byte == 0x09 || byte == 0x0D else { return nil }
            } else if byte == 0xEF, index + 2 < count, content[index + 1] == 0xBF, content[index + 2] & 0xFE == 0xBE {
                return nil
            }
            index += 1
        }
        return (lineFeeds, lastLineStart)
    }
}
