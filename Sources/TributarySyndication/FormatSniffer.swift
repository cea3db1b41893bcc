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
        return bytes.withUnsafeBufferPointer { buffer in
            var index = buffer.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
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
                    return rootFormat(buffer, from: index + 1)
                }
            }
            return nil
        }
    }

    private static func rootFormat(_ buffer: UnsafeBufferPointer<UInt8>, from start: Int) -> FeedFormat? {
        var index = start
        var localStart = start
        while index < buffer.count, !isSpace(buffer[index]), buffer[index] != UInt8(ascii: ">"), buffer[index] != UInt8(ascii: "/") {
            if buffer[index] == UInt8(ascii: ":") { localStart = index + 1 }
            index += 1
        }
        switch String(decoding: UnsafeBufferPointer(rebasing: buffer[localStart..<index]), as: UTF8.self) {
        case "rss", "RDF", "rdf", "channel": return .rss
        case "feed": return .atom
        default: return nil
        }
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }
}
