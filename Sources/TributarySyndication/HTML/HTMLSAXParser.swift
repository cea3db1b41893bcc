internal import CLibXML2

/// Streams an HTML fragment through libxml2's HTML parser into an `HTMLSAXSink`.
///
/// No tree is built: SAX callbacks forward each event as it is parsed, from one in-memory buffer
/// (`htmlSAXParseDoc` with options; the push parser stops at the first text after a stray
/// `</html>`, where this one carries on). The fragment is parsed as if it followed `<body>`, so
/// libxml2 never invents `<html>`, `<head>` or a wrapping `<p>` around top-level text, and a
/// leading `<style>` or `<meta>` cannot pull later content into an implied `<head>`. Comments,
/// processing instructions and DOCTYPEs have no callback and vanish.
enum HTMLSAXParser {
    /// Relaxed parsing, no network, no diagnostics, no implied elements, and no switching
    /// encoding on a `<meta charset>` inside the content (the input is always UTF-8).
    private static let options: Int32 = {
        let flags: [htmlParserOption] = [
            HTML_PARSE_RECOVER, HTML_PARSE_NONET, HTML_PARSE_NOERROR, HTML_PARSE_NOWARNING,
            HTML_PARSE_NOIMPLIED, HTML_PARSE_IGNORE_ENC,
        ]
        return Int32(bitPattern: flags.reduce(0) { $0 | $1.rawValue })
    }()

    /// libxml2's one-time global set-up; the first call is not thread-safe, so it runs once here.
    static let libraryInitialized: Bool = {
        xmlInitParser()
        return true
    }()

    /// How many elements may be open in libxml2 before the parse stops. libxml2 looks a stray
    /// end tag up through all open elements, so input that opens thousands of elements and then
    /// repeats stray end tags costs time quadratic in its length; this bounds it (about half a
    /// second for a megabyte of such input). Real content does not nest this deep, unclosed
    /// inline tags included. What came before is kept, and the text of the rest arrives as one
    /// run of characters in the innermost element (``textAfterStop(_:)``): the markup is lost,
    /// the words are not.
    static let maximumDepth = 512

    /// The prefix that opens the body the fragment lives in.
    private static let bodyPrefix: StaticString = "<body>"

    /// Parses `html` into a sink from `makeSink`, and returns the sink. Simple HTML is read by
    /// `HTMLFastScanner`, with the events libxml2 would produce; anything else by libxml2, into
    /// a fresh sink.
    static func parse<Sink: HTMLSAXSink>(_ html: String, makeSink: () -> Sink) -> Sink {
        var html = html
        return html.withUTF8 { parse(utf8: $0, makeSink: makeSink) }
    }

    /// Parses HTML given as valid UTF-8, as `parse(_:makeSink:)` does.
    static func parse<Sink: HTMLSAXSink>(utf8 html: UnsafeBufferPointer<UInt8>, makeSink: () -> Sink) -> Sink {
        let sink = makeSink()
        if HTMLFastScanner.scan(html, into: sink) { return sink }
        let fresh = makeSink()
        parseWithLibXML2(utf8: html, into: fresh)
        return fresh
    }

    /// Parses `html` (UTF-8) with libxml2, calling `sink` for every event, and returns when the
    /// input is done.
    ///
    /// Inputs of 2 GiB or more (beyond libxml2's `int` sizes) produce no events.
    static func parseWithLibXML2(_ html: String, into sink: some HTMLSAXSink) {
        var html = html
        html.withUTF8 { parseWithLibXML2(utf8: $0, into: sink) }
    }

    /// `parseWithLibXML2(_:into:)` for HTML given as valid UTF-8.
    static func parseWithLibXML2(utf8 html: UnsafeBufferPointer<UInt8>, into sink: some HTMLSAXSink) {
        guard libraryInitialized else { return }
        let count = html.count
        guard count < Int(Int32.max) - 64 else { return }
        // One contiguous buffer: the body prefix, then the cleaned input.
        var bytes: [UInt8] = []
        bytes.reserveCapacity(bodyPrefix.utf8CodeUnitCount + count)
        bodyPrefix.withUTF8Buffer { bytes.append(contentsOf: $0) }
        appendCleaned(html, to: &bytes)
        bytes.withUnsafeBufferPointer { parse(bytes: $0, into: sink) }
    }

    /// Copies `input` without what libxml2 would mishandle:
    /// - C0 controls other than tab, line feed, form feed and carriage return: XML 1.0 forbids
    ///   them, and NUL would end libxml2's input early;
    /// - `<![CDATA[ … ]]>`, which HTML has no use for, content included;
    /// - other markup declarations such as `<![if !supportLists]>` and `<![endif]>` (Microsoft
    ///   Word writes them around list bullets), up to the next `>`. HTML5 reads them as comments;
    ///   libxml2 would turn them into visible text.
    /// Comments (`<!--`) and DOCTYPEs are left to libxml2, which drops them. A named reference
    /// written without its semicolon gets one when browsers read it so (``legacyReferenceEnd(_:at:)``):
    /// libxml2 would show `&copy 2024` as it is, a browser and feedparser `© 2024`.
    private static func appendCleaned(_ input: UnsafeBufferPointer<UInt8>, to output: inout [UInt8]) {
        let count = input.count
        var runStart = 0
        var index = 0
        var inComment = false
        while index < count {
            if !inComment {
                // The common case: bytes that are neither controls nor `<` or `&`.
                while index < count, input[index] >= 0x20, input[index] != UInt8(ascii: "<"), input[index] != UInt8(ascii: "&") {
                    index += 1
                }
                if index == count { break }
            }
            let byte = input[index]
            if byte < 0x20 {
                if isStrippedControl(byte) {
                    output.append(contentsOf: UnsafeBufferPointer(rebasing: input[runStart..<index]))
                    runStart = index + 1
                }
                index += 1
            } else if inComment {
                // Kept for libxml2 to drop; only controls are removed inside.
                if byte == UInt8(ascii: "-") && has("-->", in: input, at: index) {
                    inComment = false
                    index += 3
                } else {
                    index += 1
                }
            } else if byte == UInt8(ascii: "&") {
                if let nameEnd = legacyReferenceEnd(input, at: index) {
                    output.append(contentsOf: UnsafeBufferPointer(rebasing: input[runStart..<nameEnd]))
                    output.append(UInt8(ascii: ";"))
                    runStart = nameEnd
                    index = nameEnd
                } else {
                    index += 1
                }
            } else if byte != UInt8(ascii: "<") || index + 1 == count || input[index + 1] != UInt8(ascii: "!") {
                index += 1
            } else if has("<!--", in: input, at: index) {
                inComment = true
                index += 4
            } else if has("<!doctype", in: input, at: index) {
                index += 9
            } else {
                output.append(contentsOf: UnsafeBufferPointer(rebasing: input[runStart..<index]))
                index =
                    has("<![cdata[", in: input, at: index)
                    ? end(of: "]]>", in: input, from: index + 9) : end(of: ">", in: input, from: index + 2)
                runStart = index
            }
        }
        output.append(contentsOf: UnsafeBufferPointer(rebasing: input[runStart..<count]))
    }

    /// Where the name ends of a named reference at `index` (an `&`) that browsers read without its
    /// semicolon: one of HTML's legacy names, which libxml2's table spells the same way — `amp`,
    /// `lt`, `gt`, `quot` and the Latin-1 characters' names (`nbsp`, `copy`, `para`, `eacute` …) —
    /// followed by something that cannot continue it: not a letter, digit, `;` or `=` (after those,
    /// browsers leave the text alone in attribute values, and so does this). Nil otherwise.
    private static func legacyReferenceEnd(_ input: UnsafeBufferPointer<UInt8>, at index: Int) -> Int? {
        let nameStart = index + 1
        var cursor = nameStart
        while cursor < input.count, cursor - nameStart <= legacyNameLimit, ByteScan.isASCIIAlphanumeric(input[cursor]) { cursor += 1 }
        let length = cursor - nameStart
        guard length >= 2, length <= legacyNameLimit, ByteScan.isASCIILetter(input[nameStart]) else { return nil }
        if cursor < input.count, input[cursor] == UInt8(ascii: ";") || input[cursor] == UInt8(ascii: "=") { return nil }
        guard let value = entity(named: UnsafeBufferPointer(rebasing: input[nameStart..<cursor])) else { return nil }
        return (0xA0...0xFF).contains(value) || value == 0x26 || value == 0x3C || value == 0x3E || value == 0x22 ? cursor : nil
    }

    /// The character a named reference stands for, from libxml2's HTML 4 table; nil for a name it does not know.
    static func entity(named name: UnsafeBufferPointer<UInt8>) -> UInt32? {
        switch name.count {
        case 2 where name[1] == UInt8(ascii: "t"):
            if name[0] == UInt8(ascii: "l") { return 0x3C }
            if name[0] == UInt8(ascii: "g") { return 0x3E }
        case 3 where name[0] == UInt8(ascii: "a") && name[1] == UInt8(ascii: "m") && name[2] == UInt8(ascii: "p"):
            return 0x26
        default:
            break
        }
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: name.count + 1) { buffer in
            _ = buffer.initialize(from: name)
            buffer[name.count] = 0
            guard let found = htmlEntityLookup(UnsafePointer(buffer.baseAddress)), found.pointee.value > 0 else { return nil }
            return UInt32(found.pointee.value)
        }
    }

    /// The longest legacy name (`frac12`, `middot`, `eacute` …).
    private static let legacyNameLimit = 6

    private static func isStrippedControl(_ byte: UInt8) -> Bool {
        byte < 0x20 && byte != 0x09 && byte != 0x0A && byte != 0x0C && byte != 0x0D
    }

    /// Whether `input` has `text` at `index`, ASCII letters matched case-insensitively (`text`
    /// is lower-case).
    private static func has(_ text: StaticString, in input: UnsafeBufferPointer<UInt8>, at index: Int) -> Bool {
        let length = text.utf8CodeUnitCount
        guard input.count - index >= length else { return false }
        return text.withUTF8Buffer { expected in
            for offset in 0..<length {
                if ByteScan.lowercasedASCII(input[index + offset]) != expected[offset] { return false }
            }
            return true
        }
    }

    /// The index just past the first `terminator` at or after `start`; the end of `input` if none.
    private static func end(of terminator: StaticString, in input: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        var index = start
        while index < input.count {
            if has(terminator, in: input, at: index) { return index + terminator.utf8CodeUnitCount }
            index += 1
        }
        return input.count
    }

    private static func parse(bytes: UnsafeBufferPointer<UInt8>, into sink: some HTMLSAXSink) {
        let box = HTMLSAXSinkBox(sink)
        withExtendedLifetime(box) {
            let characters = bytes.withMemoryRebound(to: CChar.self) { $0.baseAddress }
            guard let parser = htmlCreateMemoryParserCtxt(characters, Int32(bytes.count)) else { return }
            defer {
                if let document = parser.pointee.myDoc { xmlFreeDoc(document) }
                htmlFreeParserCtxt(parser)
            }
            // The context owns a malloc'd handler; replace its callbacks, keep the allocation.
            parser.pointee.sax.pointee = makeHandler()
            parser.pointee.userData = Unmanaged.passUnretained(box).toOpaque()
            box.parser = parser
            _ = htmlCtxtUseOptions(parser, options)
            // Without this libxml2 guesses, and falls back to ISO-8859-1 at the first non-ASCII byte.
            _ = xmlSwitchEncoding(parser, XML_CHAR_ENCODING_UTF8)
            _ = htmlParseDocument(parser)
            if box.stopped, let offset = box.stopOffset, offset < bytes.count {
                var text = textAfterStop(UnsafeBufferPointer(rebasing: bytes[offset...]))
                if !text.isEmpty { text.withUTF8 { box.sink.characters($0) } }
            }
        }
    }

    /// The text of the input left when the parse stopped (at the `>` of the start tag that went
    /// too deep): tags, comments and the contents of `script` and `style` removed, references
    /// decoded, whitespace collapsed, and a space before it to part it from the text before.
    /// Empty when no text is left.
    static func textAfterStop(_ input: UnsafeBufferPointer<UInt8>) -> String {
        var kept: [UInt8] = []
        var index = input.first == UInt8(ascii: ">") ? 1 : has("/>", in: input, at: 0) ? 2 : 0
        while index < input.count {
            let byte = input[index]
            guard byte == UInt8(ascii: "<"), index + 1 < input.count else {
                kept.append(byte)
                index += 1
                continue
            }
            let next = input[index + 1]
            guard ByteScan.isASCIILetter(next) || next == UInt8(ascii: "/") || next == UInt8(ascii: "!") || next == UInt8(ascii: "?")
            else {
                kept.append(byte)
                index += 1
                continue
            }
            if has("<!--", in: input, at: index) {
                index = end(of: "-->", in: input, from: index + 4)
            } else if has("<script", in: input, at: index) {
                index = end(of: "</script", in: input, from: index + 7)
                index = end(of: ">", in: input, from: index)
            } else if has("<style", in: input, at: index) {
                index = end(of: "</style", in: input, from: index + 6)
                index = end(of: ">", in: input, from: index)
            } else {
                index = end(of: ">", in: input, from: index + 1)
            }
            kept.append(UInt8(ascii: " "))
        }
        let text = HTMLText.collapseWhitespace(HTMLText.decodeEntities(String(decoding: kept, as: UTF8.self)))
        return text.isEmpty ? "" : " " + text
    }

    /// A handler with element and text callbacks only; built per parse because a shared C struct
    /// is not `Sendable`. The callbacks cannot capture, so they find the sink through the context.
    private static func makeHandler() -> htmlSAXHandler {
        var handler = htmlSAXHandler()
        handler.startElement = { context, name, attributes in
            guard let context, let name else { return }
            let box = HTMLSAXSinkBox.from(context)
            guard !box.stopped else { return }
            if let parser = box.parser, parser.pointee.nameNr > HTMLSAXParser.maximumDepth {
                // libxml2 still reports the end of every open element; those are not passed on.
                box.stopped = true
                if let input = parser.pointee.input, let base = input.pointee.base, let cursor = input.pointee.cur {
                    box.stopOffset = Int(input.pointee.consumed) + (cursor - base)
                }
                xmlStopParser(parser)
                return
            }
            box.sink.startElement(name: name, attributes: attributes)
        }
        handler.endElement = { context, _ in
            guard let context else { return }
            let box = HTMLSAXSinkBox.from(context)
            if !box.stopped { box.sink.endElement() }
        }
        let characters: charactersSAXFunc = { context, text, length in
            guard let context, let text, length > 0 else { return }
            let box = HTMLSAXSinkBox.from(context)
            if !box.stopped { box.sink.characters(UnsafeBufferPointer(start: text, count: Int(length))) }
        }
        handler.characters = characters
        handler.ignorableWhitespace = characters
        handler.cdataBlock = characters
        return handler
    }
}

/// Carries a sink through libxml2's `void *` user data.
private final class HTMLSAXSinkBox {
    let sink: any HTMLSAXSink
    /// The parse's context, so a callback can stop it.
    var parser: htmlParserCtxtPtr?
    /// The parse was stopped; later events are dropped.
    var stopped = false
    /// Where in the input the parse was stopped.
    var stopOffset: Int?

    init(_ sink: any HTMLSAXSink) {
        self.sink = sink
    }

    /// The box behind a context pointer; valid while `HTMLSAXParser.parse` keeps the box alive.
    static func from(_ context: UnsafeMutableRawPointer) -> HTMLSAXSinkBox {
        Unmanaged<HTMLSAXSinkBox>.fromOpaque(context).takeUnretainedValue()
    }
}
