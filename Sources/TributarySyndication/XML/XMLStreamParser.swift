internal import CLibXML2
import TributaryModel

/// Streams a UTF-8 document through libxml2's SAX2 push parser into a `FeedBuilder`: no tree is
/// ever built, and memory grows with what the builder keeps, not with the input.
///
/// It owns the libxml2 parser context for one parse. Options: `NONET` (no network), `RECOVER`
/// (keep going after well-formedness errors), `IGNORE_ENC` (the input is already UTF-8; the
/// declaration must not switch decoders), `NOWARNING`; never `NOENT`, `DTDLOAD`, `DTDATTR` or
/// `HUGE`. Entity declarations are never handed to libxml2's entity machinery (the prepass has
/// already expanded or removed every reference).
///
/// It also repairs libxml2's recovery from a mismatched end tag, which pops only the innermost
/// element (so `<description>a<p>b</description>` would leave `description` open and shift every
/// later element one level down): the builder sees the elements the document meant to close.
/// Elements nested deeper than `maxDepth` stop the parse with a `FeedParseError`.
///
/// Use: `begin()`, `feed(_:)` for each piece of the document, `finish()`; all on one thread.
final class XMLStreamParser {
    /// The deepest nesting accepted.
    let maxDepth: Int
    /// Why the parse was abandoned, when it was.
    // The properties read on every event are accessed without a dynamic exclusivity check:
    // the events run one at a time on one thread, and none calls back into an open access.
    @exclusivity(unchecked) private(set) var failure: FeedParseError?

    private let builder: FeedBuilder
    /// The CDATA sections the prepass replaced by placeholders, if it did.
    private let lifted: LiftedContent?
    /// The line where the last lifted section ended, and how many columns libxml2's positions
    /// on it lack (see `LiftedContent`).
    private var shiftedLine = 0
    private var columnShift = 0
    private var context: xmlParserCtxtPtr?
    @exclusivity(unchecked) private var table: XMLNameTable?
    @exclusivity(unchecked) private var stack: [UnsafePointer<UInt8>] = []
    private var pendingMismatch: [UInt8]?
    private var repairedMismatch = false
    private var reportedPrefixes: Set<[UInt8]> = []
    private var sawRoot = false
    private var firstFatal: Problem?
    private var errorCount = 0
    /// Whether libxml2 met content after the root element's end (where another document may begin).
    private(set) var contentAfterRoot = false
    /// libxml2 has reported an error since the last event (see `readReferencesAfterError`).
    private var afterError = false

    init(builder: FeedBuilder, lifted: LiftedContent? = nil, maxDepth: Int = 512) {
        self.builder = builder
        self.lifted = lifted
        self.maxDepth = maxDepth
    }

    deinit {
        close()
    }

    /// Creates the libxml2 context; call before `feed`.
    func begin() throws(FeedParseError) {
        var handler = XMLStreamParser.handler()
        let me = Unmanaged.passUnretained(self).toOpaque()
        guard let context = xmlCreatePushParserCtxt(&handler, me, nil, 0, nil) else {
            throw FeedParseError("could not create an XML parser")
        }
        self.context = context
        let options =
            XML_PARSE_NONET.rawValue | XML_PARSE_RECOVER.rawValue | XML_PARSE_IGNORE_ENC.rawValue | XML_PARSE_NOWARNING.rawValue
        xmlCtxtUseOptions(context, Int32(bitPattern: options))
        // libxml2 sets `str_xml_ns` only once parsing starts; the dictionary gives the same pointer now.
        let xmlNamespace = xmlDictLookup(context.pointee.dict, "http://www.w3.org/XML/1998/namespace", -1)
        table = XMLNameTable(dictionary: context.pointee.dict, xmlNamespace: xmlNamespace)
        builder.position = { [unowned self] in self.position() }
        tributary_xml_silence_generic_errors()
    }

    /// Parses the next piece of the document; false once parsing has stopped (a refusal, or
    /// libxml2 giving up), when feeding more is pointless.
    func feed(_ chunk: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let context, failure == nil, context.pointee.disableSAX == 0 else { return false }
        guard let start = chunk.baseAddress, !chunk.isEmpty else { return true }
        var offset = 0
        while offset < chunk.count {
            // xmlParseChunk takes an Int32 size.
            let length = min(1 << 30, chunk.count - offset)
            xmlParseChunk(context, UnsafeRawPointer(start + offset).assumingMemoryBound(to: CChar.self), Int32(length), 0)
            offset += length
        }
        return failure == nil && context.pointee.disableSAX == 0
    }

    /// Ends the document. A document with no root element at all, or one refused on the way
    /// (nested too deep, not a feed), throws; other problems went to the builder.
    func finish() throws(FeedParseError) {
        defer { close() }
        if failure == nil, let context { xmlParseChunk(context, nil, 0, 1) }
        if let failure { throw failure }
        guard sawRoot else {
            if let firstFatal {
                throw FeedParseError("not XML: \(firstFatal.message)", line: firstFatal.line, column: firstFatal.column)
            }
            throw FeedParseError("the document is empty")
        }
        let end = position()
        builder.finish(openElements: stack.count, line: end.line, column: end.column)
    }

    /// Frees the libxml2 context (and the entity table libxml2 may have attached to it).
    private func close() {
        guard let context else { return }
        tributary_xml_restore_generic_errors()
        if let document = context.pointee.myDoc {
            xmlFreeDoc(document)
            context.pointee.myDoc = nil
        }
        xmlFreeParserCtxt(context)
        self.context = nil
        table = nil
        builder.position = { (nil, nil) }
    }

    /// The parser's current line and column, from 1.
    private func position() -> (line: Int?, column: Int?) {
        guard let context else { return (nil, nil) }
        let raw = UnsafeMutableRawPointer(context)
        let line = Int(xmlSAX2GetLineNumber(raw))
        return (line, column(Int(xmlSAX2GetColumnNumber(raw)), on: line))
    }

    /// A column libxml2 reports on `line`, corrected for lifted CDATA sections before it.
    private func column(_ column: Int, on line: Int) -> Int {
        line == shiftedLine ? column + columnShift : column
    }

    // MARK: Events

    fileprivate func startElement(
        _ local: UnsafePointer<UInt8>, _ prefix: UnsafePointer<UInt8>?, _ uri: UnsafePointer<UInt8>?, _ attributeCount: Int,
        _ attributes: UnsafeMutablePointer<UnsafePointer<UInt8>?>?
    ) {
        readReferencesAfterError()
        guard let table, failure == nil else { return }
        if stack.count >= maxDepth {
            let where_ = position()
            failure = FeedParseError(
                "refused: elements nested more than \(maxDepth) deep (a hostile document?)", line: where_.line, column: where_.column)
            if let context { xmlStopParser(context) }
            return
        }
        sawRoot = true
        let name = table.name(local)
        if name == .item || name == .entry {
            closeOpenItem(named: local)
        }
        stack.append(local)
        let namespace: XMLNamespace
        if let uri {
            namespace = table.namespace(uri)
        } else if let prefix {
            namespace = XMLNamespace.wellKnown(prefix: prefix) ?? .other
            reportUndeclared(prefix, namespace)
        } else {
            namespace = .none
        }
        let event = XMLElement(
            name: name, namespace: namespace, local: local, prefix: prefix,
            attributes: XMLAttributes(base: attributes, count: attributeCount, names: table.pointers, xmlNamespace: table.xmlNamespace))
        if !builder.start(event) {
            failure = builder.fatal
            if let context { xmlStopParser(context) }
        }
    }

    /// Items do not nest: an item that starts while one of the same name is open means that one
    /// was not closed (`<item>…<item>`), so it ends here, with whatever is open inside it, instead
    /// of swallowing the items after it. libxml2 still nests them; its end tags are matched by
    /// name (see `endElement`).
    private func closeOpenItem(named local: UnsafePointer<UInt8>) {
        let depth = builder.itemDepth
        guard depth > 0, depth <= stack.count, XMLStreamParser.equal(stack[depth - 1], local) else { return }
        let at = position()
        let name = String(cString: local)
        note(Problem(.warning, "<\(name)> not closed before the next <\(name)>", line: at.line, column: at.column))
        while stack.count >= depth {
            builder.end(stack.removeLast())
        }
    }

    /// libxml2 closes `local`, its innermost open element. After a repaired fault its open
    /// elements can differ from the builder's (`stack`), which follows the document's end tags:
    /// a stray end tag closes nothing here but still closes libxml2's innermost element, so the
    /// builder's element of that name, wherever it is, is the one closed (`<title>a <b>b</i>
    /// c</title>`: the `</title>` closes `<b>` and `<title>`, and the next item is not swallowed).
    fileprivate func endElement(_ local: UnsafePointer<UInt8>) {
        readReferencesAfterError()
        guard failure == nil, let top = stack.last else { return }
        guard let actual = pendingMismatch else {
            if top == local || XMLStreamParser.equal(top, local) {
                builder.end(stack.removeLast())
            } else if let target = stack.lastIndex(where: { XMLStreamParser.equal($0, local) }) {
                while stack.count > target {
                    builder.end(stack.removeLast())
                }
            }
            return
        }
        pendingMismatch = nil
        repairedMismatch = true
        // libxml2 is closing its innermost element for an end tag that named another one.
        guard let target = stack.lastIndex(where: { XMLStreamParser.equal($0, actual) }) else {
            return  // a stray end tag: nothing the document opened is closed by it
        }
        while stack.count > target {
            builder.end(stack.removeLast())
        }
    }

    fileprivate func characters(_ text: UnsafePointer<UInt8>, _ length: Int) {
        readReferencesAfterError()
        builder.characters(text, length)
    }

    /// A CDATA block: a lifted section's placeholder brings back the section's content.
    fileprivate func cdata(_ text: UnsafePointer<UInt8>, _ length: Int) {
        readReferencesAfterError()
        guard let lifted, let context, let section = lifted.take(text, length) else {
            builder.characters(text, length)
            return
        }
        // libxml2 is at the start of the content; the section ends `lineFeeds` lines later.
        let line = Int(xmlSAX2GetLineNumber(UnsafeMutableRawPointer(context))) + section.lineFeeds
        if section.lineFeeds == 0, line == shiftedLine {
            columnShift += section.columnShift
        } else {
            shiftedLine = line
            columnShift = section.columnShift
        }
        lifted.withContent(of: section) { builder.characters($0, $1) }
    }

    fileprivate func error(_ error: UnsafePointer<xmlError>) {
        let code = Int(error.pointee.code)
        let line = error.pointee.line > 0 ? Int(error.pointee.line) : nil
        let column = error.pointee.int2 > 0 ? self.column(Int(error.pointee.int2), on: line ?? 0) : nil
        var message = error.pointee.message.map { String(cString: $0) } ?? "XML error \(code)"
        message = message.trimmingTrailingNewlines()
        let fatal = error.pointee.level == XML_ERR_FATAL
        switch code {
        case Int(XML_ERR_TAG_NAME_MISMATCH.rawValue):
            let expected = error.pointee.str1.map { Array(String(cString: $0).utf8) }
            let actual = error.pointee.str2.map { Array(String(cString: $0).utf8) }
            pendingMismatch = actual
            // Report only mismatches in the document itself, not the echoes of libxml2's own
            // recovery (where what it expects is an element the builder already closed).
            if let expected, let top = stack.last, XMLStreamParser.equal(top, expected) {
                let name = actual.map { String(decoding: $0, as: UTF8.self) } ?? "?"
                let open = String(decoding: expected, as: UTF8.self)
                let message =
                    if XMLStreamParser.equal(top, actual ?? []) {
                        "</\(name)> closes <\(open)> (names differ in case)"
                    } else if stack.contains(where: { XMLStreamParser.equal($0, actual ?? []) }) {
                        "<\(open)> not closed before </\(name)>"
                    } else {
                        "stray end tag </\(name)> ignored"
                    }
                note(Problem(.warning, message, line: line, column: column))
            }
        case Int(XML_ERR_TAG_NOT_FINISHED.rawValue), Int(XML_NS_ERR_UNDEFINED_NAMESPACE.rawValue), Int(XML_ERR_USER_STOP.rawValue):
            break  // reported by the builder as "document ends early" / per prefix / by whoever stopped
        case Int(XML_ERR_DOCUMENT_END.rawValue):
            // With elements still open this is the end of a truncated document (the builder
            // reports it); after a repaired mismatch libxml2 still thinks one is open.
            if stack.isEmpty, !repairedMismatch {
                contentAfterRoot = true
                note(Problem(.warning, "content after the end of the document ignored", line: line, column: column))
            }
        default:
            let problem = Problem(fatal ? .error : .warning, message, line: line, column: column)
            if fatal, firstFatal == nil { firstFatal = problem }
            note(problem)
        }
        afterError = true
    }

    /// Once a document is not well-formed, libxml2 (2.9) drops every entity reference in text,
    /// `&amp;` and `&lt;` included (`xmlParseReference` returns early): "AT&amp;T" after a
    /// repeated attribute would read "ATT". libxml2 marks the document after its error callback
    /// has returned, so the next event, which comes before any later text, marks it
    /// well-formed again; the error itself is reported.
    @inline(__always)
    private func readReferencesAfterError() {
        guard afterError else { return }
        afterError = false
        context?.pointee.wellFormed = 1
    }

    private func note(_ problem: Problem) {
        errorCount += 1
        if errorCount <= 100 {
            builder.report(problem)
        } else if errorCount == 101 {
            builder.report(Problem(.warning, "more XML errors not reported", line: problem.line, column: problem.column))
        }
    }

    private func reportUndeclared(_ prefix: UnsafePointer<UInt8>, _ namespace: XMLNamespace) {
        let bytes = Array(UnsafeBufferPointer(start: prefix, count: strlenBytes(prefix)))
        guard reportedPrefixes.count < 20, reportedPrefixes.insert(bytes).inserted else { return }
        let name = String(decoding: bytes, as: UTF8.self)
        let at = position()
        let meaning = namespace == .other ? "its elements are ignored" : "read as \(namespace.displayName)"
        builder.report(Problem(.warning, "namespace prefix '\(name)' is not declared; \(meaning)", line: at.line, column: at.column))
    }

    /// Whether two element names are the same, regardless of ASCII case (`</title>` closes
    /// `<Title>` when the document's own case is wrong).
    private static func equal(_ name: UnsafePointer<UInt8>, _ other: UnsafePointer<UInt8>) -> Bool {
        var index = 0
        while ByteScan.lowercasedASCII(name[index]) == ByteScan.lowercasedASCII(other[index]) {
            if name[index] == 0 { return true }
            index += 1
        }
        return false
    }

    private static func equal(_ name: UnsafePointer<UInt8>, _ bytes: [UInt8]) -> Bool {
        for (index, byte) in bytes.enumerated() where ByteScan.lowercasedASCII(name[index]) != ByteScan.lowercasedASCII(byte) {
            return false
        }
        return name[bytes.count] == 0
    }

    // MARK: The SAX handler

    private static func handler() -> xmlSAXHandler {
        var handler = xmlSAXHandler()
        handler.initialized = UInt32(XML_SAX2_MAGIC)
        handler.startElementNs = { context, local, prefix, uri, _, _, attributeCount, _, attributes in
            guard let context, let local else { return }
            let parser = Unmanaged<XMLStreamParser>.fromOpaque(context).takeUnretainedValue()
            parser.startElement(local, prefix, uri, Int(attributeCount), attributes)
        }
        handler.endElementNs = { context, local, _, _ in
            guard let context, let local else { return }
            Unmanaged<XMLStreamParser>.fromOpaque(context).takeUnretainedValue().endElement(local)
        }
        let text: charactersSAXFunc = { context, characters, length in
            guard let context, let characters, length > 0 else { return }
            Unmanaged<XMLStreamParser>.fromOpaque(context).takeUnretainedValue().characters(characters, Int(length))
        }
        handler.characters = text
        handler.cdataBlock = { context, characters, length in
            guard let context, let characters, length > 0 else { return }
            Unmanaged<XMLStreamParser>.fromOpaque(context).takeUnretainedValue().cdata(characters, Int(length))
        }
        handler.ignorableWhitespace = text
        handler.serror = { context, error in
            guard let context, let error else { return }
            Unmanaged<XMLStreamParser>.fromOpaque(context).takeUnretainedValue().error(error)
        }
        return handler
    }
}

/// One start tag, as the builder sees it.
struct XMLElement {
    /// The local name, when it is one the mappings know.
    var name: XMLName?
    /// Its namespace (by URI, or by well-known prefix when the prefix is undeclared).
    var namespace: XMLNamespace
    /// The local name (interned by libxml2; valid during the parse).
    var local: UnsafePointer<UInt8>
    /// The prefix as written, if any.
    var prefix: UnsafePointer<UInt8>?
    /// The attributes (valid only during the callback).
    var attributes: XMLAttributes
}

extension String {
    fileprivate func trimmingTrailingNewlines() -> String {
        var text = self
        while let last = text.last, last == "\n" || last == " " { text.removeLast() }
        return text
    }
}
