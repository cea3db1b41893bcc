/// Feeds served as two or more documents one after the other: a script that printed its feed twice, two files joined.
/// XML allows one root element, so libxml2 stops where the first ends; Python's feedparser, falling back to its loose
/// parser, reads the items of all of them. So does `FeedParser`: the bytes after the first root element are parsed as
/// a document of their own when they begin one (an XML declaration or a feed's root element, after whitespace and
/// comments). Anything else there stays ignored, with the warning libxml2's error gave.
enum ConcatenatedDocuments {
    /// How many documents one response may hold; the rest is ignored.
    static let limit = 16

    /// Where the next document begins in `bytes` (a document decoded to UTF-8), after the end tag of the first
    /// document's root element; nil when none follows it.
    static func nextDocument(in bytes: [UInt8]) -> Int? {
        bytes.withUnsafeBufferPointer { buffer in
            guard let name = FormatSniffer.rootElement(buffer) else { return nil }
            // The first end tag of that name that is followed by a document; one inside a CDATA section or a
            // comment is followed by the rest of the first document, and the search goes on.
            var from = name.upperBound
            while let close = endTag(buffer, name: name, from: from) {
                if let start = documentStart(buffer, from: close.upperBound) { return start }
                from = close.lowerBound + 2
            }
            return nil
        }
    }

    /// The next end tag (`</name>`, with optional spaces before `>`) from `start` on.
    private static func endTag(_ buffer: UnsafeBufferPointer<UInt8>, name: Range<Int>, from start: Int) -> Range<Int>? {
        var index = start
        while let open = InternalSubset.find(buffer, "</", from: index) {
            var end = open + 2
            var matched = true
            for offset in name.indices {
                guard end < buffer.count, buffer[end] == buffer[offset] else {
                    matched = false
                    break
                }
                end += 1
            }
            if matched {
                while end < buffer.count, FormatSniffer.isSpace(buffer[end]) { end += 1 }
                if end < buffer.count, buffer[end] == UInt8(ascii: ">") { return open..<end + 1 }
            }
            index = open + 2
        }
        return nil
    }

    /// Where a document begins at `start` (after whitespace and comments), if one does: its XML declaration, or a
    /// feed's root element.
    private static func documentStart(_ buffer: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        var index = start
        while index < buffer.count {
            if FormatSniffer.isSpace(buffer[index]) {
                index += 1
            } else if InternalSubset.matches(buffer, index, "<!--") {
                guard let end = InternalSubset.find(buffer, "-->", from: index + 4) else { return nil }
                index = end + 3
            } else if InternalSubset.matches(buffer, index, "<?xml"), index + 5 < buffer.count, FormatSniffer.isSpace(buffer[index + 5]) {
                return index
            } else if let name = FormatSniffer.rootElement(buffer, from: index), name.lowerBound == index + 1,
                FormatSniffer.rootFormat(buffer, name: name) != nil
            {
                return index
            } else {
                return nil
            }
        }
        return nil
    }
}
