import TributaryModel

/// Turns a feed's bytes, in whatever encoding they came, into UTF-8 for libxml2.
///
/// The order of evidence: a byte order mark (UTF-8, UTF-16, UTF-32) or the UTF-16 byte pattern
/// of `<`; then bytes that are valid UTF-8 with non-ASCII in them (a wrong declaration is far
/// more common than GBK or Latin-1 text that happens to be valid UTF-8); then the HTTP charset;
/// then the XML declaration's `encoding`; then GB18030 when it decodes without error (feeds that
/// do not say are most often Chinese here); then windows-1252, which decodes anything. A named
/// encoding that fails on a few bytes (at most 1%) is kept, with U+FFFD for the bad bytes. Every
/// guess and fallback is reported as a warning.
struct DocumentDecoder {
    /// The decoded document.
    struct Decoded {
        /// UTF-8 without a byte order mark.
        var bytes: [UInt8]
        /// The encoding the bytes were read as.
        var charset: Charset
        /// Guesses and replacements, as warnings.
        var problems: [Problem]
    }

    /// What kind of document it is: where it declares its encoding, and what it is read as without one.
    enum Markup {
        /// XML: the declaration's `encoding`; UTF-8 without one.
        case xml
        /// An HTML page: `<meta charset>` or `<meta http-equiv="Content-Type" content="…; charset=…">` near its start.
        case html
    }

    /// The charset from the HTTP `Content-Type`, if any.
    var httpCharset: String?
    /// What kind of document it is.
    var markup = Markup.xml

    func decode(_ bytes: [UInt8]) -> Decoded {
        var problems: [Problem] = []
        if let (charset, length) = DocumentDecoder.byteOrderMark(bytes) ?? DocumentDecoder.widePattern(bytes) {
            let body = bytes[length...]
            if charset == .utf8, UTF8Validation.scan(body).isValid {
                return Decoded(bytes: Array(body), charset: .utf8, problems: [])
            }
            let converted = Transcoder(from: charset)?.convert(body) ?? Transcoder.Output(bytes: Windows1252.decode(body), errors: 0)
            if converted.errors > 0 {
                problems.append(Problem(.warning, DocumentDecoder.replacedMessage(converted.errors, charset)))
            }
            return Decoded(bytes: converted.bytes, charset: charset, problems: problems)
        }

        let http = label(httpCharset, "the HTTP charset", &problems)
        let declared =
            switch markup {
            case .xml: label(DocumentDecoder.declaredEncoding(bytes), "the XML declaration's encoding", &problems)
            case .html: label(DocumentDecoder.metaCharset(bytes), "the page's meta charset", &problems)
            }
        let scan = UTF8Validation.scan(bytes[...])
        if !scan.hasNonASCII, !(declared?.name.hasPrefix("ISO-2022") ?? false) {
            return Decoded(bytes: bytes, charset: declared ?? .utf8, problems: problems)
        }
        if scan.isValid {
            for (charset, origin) in [(http, "the HTTP charset says"), (declared, "the document declares")] {
                if let charset, charset != .utf8, !charset.isWide {
                    problems.append(Problem(.warning, "\(origin) \(charset), but the bytes are valid UTF-8; read as UTF-8"))
                    break
                }
            }
            return Decoded(bytes: bytes, charset: .utf8, problems: problems)
        }

        // Not UTF-8: try what the server and the document say, then guess.
        var named: [(Charset, String)] = []
        for (charset, origin) in [(http, "the HTTP charset says"), (declared, "the document declares")] {
            guard let charset, !charset.isWide, !charset.isSingleByteLatin, !named.contains(where: { $0.0 == charset }) else { continue }
            named.append((charset, origin))
        }
        if declared == nil, http == nil, markup == .xml {
            named.append((.utf8, "XML's default is"))
        }
        let latinHint = http?.isSingleByteLatin == true || declared?.isSingleByteLatin == true
        let tolerance = max(1, bytes.count / 100)
        var best: (charset: Charset, output: Transcoder.Output)?
        var failed: [(Charset, String)] = []
        for (charset, origin) in named {
            guard let transcoder = Transcoder(from: charset) else {
                problems.append(Problem(.warning, "\(origin) '\(charset)', an encoding this system cannot decode"))
                continue
            }
            guard let output = transcoder.convert(bytes[...], maxErrors: tolerance) else {
                failed.append((charset, origin))
                continue
            }
            if output.errors == 0 {
                reportFailures(failed, readAs: charset, into: &problems)
                return Decoded(bytes: output.bytes, charset: charset, problems: problems)
            }
            failed.append((charset, origin))
            if best == nil || output.errors < best?.output.errors ?? .max { best = (charset, output) }
        }
        if !latinHint, !named.contains(where: { $0.0 == .gb18030 }),
            let output = Transcoder(from: .gb18030)?.convert(bytes[...], maxErrors: 0)
        {
            reportFailures(failed, readAs: .gb18030, into: &problems)
            if failed.isEmpty {
                problems.append(Problem(.warning, "no encoding declared and the bytes are not UTF-8; read as GB18030"))
            }
            return Decoded(bytes: output.bytes, charset: .gb18030, problems: problems)
        }
        if let best {
            problems.append(Problem(.warning, DocumentDecoder.replacedMessage(best.output.errors, best.charset)))
            return Decoded(bytes: best.output.bytes, charset: best.charset, problems: problems)
        }
        reportFailures(failed, readAs: .windows1252, into: &problems)
        if failed.isEmpty, !latinHint {
            problems.append(Problem(.warning, "no encoding declared and the bytes are neither UTF-8 nor GB18030; read as windows-1252"))
        }
        return Decoded(bytes: Windows1252.decode(bytes[...]), charset: .windows1252, problems: problems)
    }

    private func label(_ text: String?, _ what: String, _ problems: inout [Problem]) -> Charset? {
        guard let text, !text.isEmpty else { return nil }
        guard let charset = Charset(label: text) else {
            problems.append(Problem(.warning, "\(what) '\(text)' is not an encoding name; ignored"))
            return nil
        }
        return charset
    }

    private func reportFailures(_ failed: [(Charset, String)], readAs charset: Charset, into problems: inout [Problem]) {
        for (failedCharset, origin) in failed {
            problems.append(
                Problem(.warning, "\(origin) \(failedCharset), but the bytes are not valid \(failedCharset); read as \(charset)"))
        }
    }

    private static func replacedMessage(_ count: Int, _ charset: Charset) -> String {
        "\(count) byte sequence\(count == 1 ? "" : "s") could not be decoded as \(charset) and \(count == 1 ? "was" : "were") replaced with U+FFFD"
    }

    /// The encoding a byte order mark names, and the mark's length.
    static func byteOrderMark(_ bytes: [UInt8]) -> (Charset, Int)? {
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { return (.utf8, 3) }
        if bytes.starts(with: [0xFF, 0xFE, 0x00, 0x00]) { return (.utf32LE, 4) }
        if bytes.starts(with: [0x00, 0x00, 0xFE, 0xFF]) { return (.utf32BE, 4) }
        if bytes.starts(with: [0xFF, 0xFE]) { return (.utf16LE, 2) }
        if bytes.starts(with: [0xFE, 0xFF]) { return (.utf16BE, 2) }
        return nil
    }

    /// UTF-16 without a mark, recognised by a `<` (or whitespace) next to a zero byte.
    static func widePattern(_ bytes: [UInt8]) -> (Charset, Int)? {
        guard bytes.count >= 4 else { return nil }
        let isStart: (UInt8) -> Bool = { $0 == UInt8(ascii: "<") || $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }
        if isStart(bytes[0]), bytes[1] == 0, bytes[3] == 0, bytes[2] != 0 { return (.utf16LE, 0) }
        if bytes[0] == 0, isStart(bytes[1]), bytes[2] == 0, bytes[3] != 0 { return (.utf16BE, 0) }
        return nil
    }

    /// The `encoding` pseudo-attribute of an XML declaration at the start of the bytes.
    static func declaredEncoding(_ bytes: [UInt8]) -> String? {
        var index = 0
        while index < bytes.count, index < 512, isSpace(bytes[index]) { index += 1 }
        guard bytes[index...].starts(with: Array("<?xml".utf8)) else { return nil }
        let limit = min(bytes.count, index + 512)
        var end = index + 5
        while end + 1 < limit, !(bytes[end] == UInt8(ascii: "?") && bytes[end + 1] == UInt8(ascii: ">")) { end += 1 }
        guard let found = firstIndex(of: "encoding", in: bytes, from: index, to: end) else { return nil }
        var cursor = found + 8
        while cursor < end, isSpace(bytes[cursor]) { cursor += 1 }
        guard cursor < end, bytes[cursor] == UInt8(ascii: "=") else { return nil }
        cursor += 1
        while cursor < end, isSpace(bytes[cursor]) { cursor += 1 }
        guard cursor < end, bytes[cursor] == UInt8(ascii: "\"") || bytes[cursor] == UInt8(ascii: "'") else { return nil }
        let quote = bytes[cursor]
        cursor += 1
        let start = cursor
        while cursor < end, bytes[cursor] != quote { cursor += 1 }
        guard cursor < end else { return nil }
        return String(decoding: bytes[start..<cursor], as: UTF8.self)
    }

    /// The charset an HTML page declares in a `<meta>` element among its first 8 KB: `<meta charset="big5">`, or
    /// `<meta http-equiv="Content-Type" content="text/html; charset=big5">` (as browsers' prescan finds it).
    static func metaCharset(_ bytes: [UInt8]) -> String? {
        let end = min(bytes.count, 8192)
        var index = 0
        while let tag = firstIndex(of: "<meta", in: bytes, from: index, to: end, ignoringCase: true) {
            var close = tag + 5
            while close < end, bytes[close] != UInt8(ascii: ">") { close += 1 }
            if let found = firstIndex(of: "charset", in: bytes, from: tag + 5, to: close, ignoringCase: true) {
                var cursor = found + 7
                while cursor < close, isSpace(bytes[cursor]) { cursor += 1 }
                if cursor < close, bytes[cursor] == UInt8(ascii: "=") {
                    cursor += 1
                    while cursor < close,
                        isSpace(bytes[cursor]) || bytes[cursor] == UInt8(ascii: "\"")
                            || bytes[cursor] == UInt8(ascii: "'")
                    {
                        cursor += 1
                    }
                    let start = cursor
                    while cursor < close, !charsetValueEnds.contains(bytes[cursor]) { cursor += 1 }
                    if cursor > start { return String(decoding: bytes[start..<cursor], as: UTF8.self) }
                }
            }
            index = close
        }
        return nil
    }

    /// What ends a `charset=` value in a `<meta>` element: a quote, `;`, `/` or whitespace.
    private static let charsetValueEnds: Set<UInt8> = [0x22, 0x27, 0x3B, 0x2F, 0x20, 0x09, 0x0A, 0x0D]

    /// Where `needle` (ASCII; lower-case when `ignoringCase`) first lies wholly inside `bytes[start..<end]`.
    private static func firstIndex(
        of needle: StaticString, in bytes: [UInt8], from start: Int, to end: Int, ignoringCase: Bool = false
    ) -> Int? {
        needle.withUTF8Buffer { needle in
            guard end - start >= needle.count else { return nil }
            for candidate in start...(end - needle.count) {
                var offset = 0
                while offset < needle.count {
                    let byte = bytes[candidate + offset]
                    guard (ignoringCase ? ByteScan.lowercasedASCII(byte) : byte) == needle[offset] else { break }
                    offset += 1
                }
                if offset == needle.count { return candidate }
            }
            return nil
        }
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }
}
