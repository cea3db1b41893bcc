/// Recognises feed formats from the first bytes of a document, without parsing it.
enum FormatSniffer {
    /// Whether the first character after a UTF-8 byte order mark and whitespace is `{`.
    static func startsWithBrace(_ bytes: [UInt8]) -> Bool {
        var index = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        while index < bytes.count, isSpace(bytes[index]) { index += 1 }
        return index < bytes.count && bytes[index] == UInt8(ascii: "{")
    }

    static func format(of original: [UInt8]) -> FeedFormat? {
        var bytes = original
        if let (charset, length) = DocumentDecoder.byteOrderMark(original) ?? DocumentDecoder.widePattern(original), charset != .utf8 {
            // Enough of the prolog to find the root element.
            var prefix = original[length..<min(original.count, length + 65_536)]
            if charset.name.hasPrefix("UTF-16"), prefix.count % 2 == 1 { prefix = prefix.dropLast() }
            bytes = Transcoder(from: charset)?.convert(prefix)?.bytes ?? []
        }
        if startsWithBrace(bytes) { return .jsonFeed }
        return bytes.withUnsafeBufferPointer { buffer in rootElement(buffer).flatMap { rootFormat(buffer, name: $0) } }
    }

    /// The name of a document's root element: ``rootElement(_:from:)`` after a UTF-8 byte order mark, if any.
    static func rootElement(_ buffer: UnsafeBufferPointer<UInt8>) -> Range<Int>? {
        rootElement(buffer, from: buffer.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0)
    }

    /// The name of the first element from `start` on, after whitespace, processing instructions (the XML declaration
    /// among them), comments and a document type declaration; nil when something else comes first.
    static func rootElement(_ buffer: UnsafeBufferPointer<UInt8>, from start: Int) -> Range<Int>? {
        var index = start
        while index < buffer.count {
            let byte = buffer[index]
            if isSpace(byte) {
                index += 1
                continue
            }
            guard byte == UInt8(ascii: "<") else { return nil }
            if InternalSubset.matches(buffer, index, "<?") {
                guard let end = InternalSubset.find(buffer, "?>", from: index + 2) else { return nil }
                index = end + 2
            } else if InternalSubset.matches(buffer, index, "<!--") {
                guard let end = InternalSubset.find(buffer, "-->", from: index + 4) else { return nil }
                index = end + 3
            } else if InternalSubset.matches(buffer, index, "<!DOCTYPE") {
                index = InternalSubset.read(buffer, from: index).end
            } else {
                var end = index + 1
                while end < buffer.count, !isSpace(buffer[end]), buffer[end] != UInt8(ascii: ">"), buffer[end] != UInt8(ascii: "/") {
                    end += 1
                }
                return index + 1..<end
            }
        }
        return nil
    }

    /// The feed format a root element of this name begins, if any.
    static func rootFormat(_ buffer: UnsafeBufferPointer<UInt8>, name: Range<Int>) -> FeedFormat? {
        let local = buffer[name].lastIndex(of: UInt8(ascii: ":")).map { $0 + 1 } ?? name.lowerBound
        switch String(decoding: UnsafeBufferPointer(rebasing: buffer[local..<name.upperBound]), as: UTF8.self) {
        case "rss", "RDF", "rdf", "channel": return .rss
        case "feed": return .atom
        default: return nil
        }
    }

    /// XML's whitespace.
    static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }
}
