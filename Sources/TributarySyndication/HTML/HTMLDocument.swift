internal import CLibXML2
public import TributaryModel

/// A whole HTML page parsed into a tree by libxml2's HTML parser (in recover mode, no network),
/// queried with XPath 1.0: what the declarative `html` adapter scrapes listing pages with.
///
/// The bytes are decoded to UTF-8 first by the same rules as feeds (byte order mark, valid
/// UTF-8, the HTTP charset, the page's `<meta charset>`, then GB18030 and windows-1252). Not thread-safe: use a document
/// from one task, and drop it (and its nodes) before the task suspends.
public final class HTMLDocument {
    /// The libxml2 tree; freed in `deinit`, never shared.
    private let document: htmlDocPtr

    /// Warnings from decoding (guessed charsets, replaced bytes), and one when the page nests
    /// elements deeper than ``maximumDepth``.
    public let problems: [Problem]

    /// How deeply elements may nest before the parse stops. libxml2 stops at 256 unless told
    /// `XML_PARSE_HUGE`, which in libxml2 2.9 lifts the limit altogether, and a listing whose items
    /// never close their `<div>` nests one level deeper per item: 400 items, 400 levels, all of
    /// them shown by a browser. This bound replaces libxml2's. It stays a bound because libxml2 looks
    /// a stray end tag up through all open elements: a page that opens thousands of elements and then
    /// repeats stray end tags costs (its length × the depth). At 1024 such a page of 20 MB (the
    /// default `max_response_bytes`) takes seconds, not the hours it could without one (and three
    /// times what 256 allowed). `XML_PARSE_HUGE`'s other relaxations (text nodes and names over
    /// 10 MB) cost time and memory linear in the page, whose size `max_response_bytes` bounds; HTML
    /// has no entity declarations to expand. A page nested deeper keeps what came before the
    /// element that went too deep and gives a warning.
    public static let maximumDepth = 1024

    /// Parses a page; `charset` is the HTTP `Content-Type` charset, when there is one.
    public init(bytes: [UInt8], charset: String? = nil) throws(XPathError) {
        let decoded = DocumentDecoder(httpCharset: charset, markup: .html).decode(bytes)
        guard decoded.bytes.count < Int(Int32.max) else { throw XPathError("the page is too large to parse") }
        let flags: [htmlParserOption] = [
            HTML_PARSE_RECOVER, HTML_PARSE_NONET, HTML_PARSE_NOERROR, HTML_PARSE_NOWARNING, HTML_PARSE_IGNORE_ENC,
        ]
        let options = Int32(bitPattern: flags.reduce(XML_PARSE_HUGE.rawValue) { $0 | $1.rawValue })
        guard let parser = htmlNewParserCtxt() else { throw XPathError("the page could not be parsed as HTML (out of memory)") }
        defer { htmlFreeParserCtxt(parser) }
        // The context owns a malloc'd copy of the tree-building handler: its element callbacks are wrapped, to stop the
        // parse at `maximumDepth`, and reached through the context's `_private`.
        let depthGuard = HTMLDepthGuard(handler: parser.pointee.sax.pointee)
        parser.pointee._private = Unmanaged.passUnretained(depthGuard).toOpaque()
        parser.pointee.sax.pointee.startElement = HTMLDepthGuard.startElement
        parser.pointee.sax.pointee.endElement = HTMLDepthGuard.endElement
        let parsed = withExtendedLifetime(depthGuard) {
            decoded.bytes.withUnsafeBufferPointer { buffer in
                buffer.baseAddress.flatMap { base in
                    base.withMemoryRebound(to: CChar.self, capacity: buffer.count) {
                        htmlCtxtReadMemory(parser, $0, Int32(buffer.count), nil, "UTF-8", options)
                    }
                }
            }
        }
        guard let parsed else { throw XPathError("the page could not be parsed as HTML (is it empty?)") }
        document = parsed
        var problems = decoded.problems
        if depthGuard.cut {
            problems.append(Problem(.warning, "the page nests elements deeper than \(Self.maximumDepth); the rest of it was not read"))
        }
        self.problems = problems
    }

    deinit {
        xmlFreeDoc(document)
    }

    /// The page's `<base href>`, as written, when it has one: what its relative links resolve against.
    public var baseHref: String? {
        (try? strings("(//base[@href])[1]/@href"))?.first
    }

    /// Checks that `expression` is XPath 1.0 libxml2 can compile.
    public static func validate(_ expression: String) throws(XPathError) {
        tributary_xml_silence_generic_errors()
        defer { tributary_xml_restore_generic_errors() }
        guard let compiled = xmlXPathCompile(expression) else {
            throw XPathError("'\(expression)' is not a valid XPath 1.0 expression")
        }
        xmlXPathFreeCompExpr(compiled)
    }

    /// The nodes `expression` selects from `node` (the whole document when nil); a result that
    /// is not a node set (a string, number or boolean) selects nothing.
    public func nodes(_ expression: String, from node: HTMLNode? = nil) throws(XPathError) -> [HTMLNode] {
        try evaluate(expression, from: node) { result in
            guard result.pointee.type == XPATH_NODESET, let set = result.pointee.nodesetval else { return [] }
            return (0..<Int(set.pointee.nodeNr)).compactMap { index in
                set.pointee.nodeTab[index].map { HTMLNode(document: self, pointer: $0) }
            }
        }
    }

    /// The texts `expression` gives from `node`: for a node set, each node's text (an
    /// attribute's value, an element's text with whitespace collapsed); for a string, number or
    /// boolean result (`concat(…)`, `count(…)`), that value as text.
    public func strings(_ expression: String, from node: HTMLNode? = nil) throws(XPathError) -> [String] {
        try evaluate(expression, from: node) { result in
            if result.pointee.type == XPATH_NODESET {
                guard let set = result.pointee.nodesetval else { return [] }
                return (0..<Int(set.pointee.nodeNr)).compactMap { index in
                    set.pointee.nodeTab[index].map { HTMLNode(document: self, pointer: $0).text }
                }
            }
            guard let text = xmlXPathCastToString(result) else { return [] }
            defer { tributary_xml_free(text) }
            return [String(cString: text)]
        }
    }

    private func evaluate<T>(
        _ expression: String, from node: HTMLNode?, _ read: (UnsafeMutablePointer<xmlXPathObject>) -> [T]
    ) throws(XPathError) -> [T] {
        tributary_xml_silence_generic_errors()
        defer { tributary_xml_restore_generic_errors() }
        guard let context = xmlXPathNewContext(document) else { throw XPathError("cannot create an XPath context") }
        defer { xmlXPathFreeContext(context) }
        if let node { context.pointee.node = node.pointer }
        guard let result = xmlXPathEvalExpression(expression, context) else {
            throw XPathError("'\(expression)' is not a valid XPath 1.0 expression")
        }
        defer { xmlXPathFreeObject(result) }
        return read(result)
    }

    /// The outer HTML of a node.
    fileprivate func markup(_ pointer: xmlNodePtr) -> String {
        guard let buffer = xmlBufferCreate() else { return "" }
        defer { xmlBufferFree(buffer) }
        htmlNodeDump(buffer, document, pointer)
        guard let content = xmlBufferContent(buffer) else { return "" }
        return String(cString: content)
    }
}

/// A node of an `HTMLDocument`: an element, attribute or text. Valid while its document lives
/// (it keeps the document alive).
public struct HTMLNode {
    /// The document that owns the node.
    let document: HTMLDocument
    /// The libxml2 node.
    let pointer: xmlNodePtr

    /// The node's text: an attribute's value, or an element's text as a browser shows it, with runs
    /// of whitespace collapsed to one space and the ends trimmed.
    public var text: String {
        let raw: String
        switch pointer.pointee.type {
        case XML_ELEMENT_NODE, XML_DOCUMENT_NODE, XML_HTML_DOCUMENT_NODE, XML_DOCUMENT_FRAG_NODE:
            raw = Self.shownText(under: pointer)
        default:
            guard let content = xmlNodeGetContent(pointer) else { return "" }
            defer { tributary_xml_free(content) }
            raw = String(cString: content)
        }
        return raw.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
    }

    /// Elements whose contents a browser does not show as text: libxml2's text content has them
    /// (a title read `HeadlinetrackClick()`), a field's text does not. The node a field selects is
    /// read whatever its name: `./script[@type='application/ld+json']` gives the script's text.
    private static let hiddenElements = HTMLNameTable(["script", "style", "template", "noscript"].map { ($0, ()) })

    /// The text of the text nodes below `root`, in document order, leaving out comments and the
    /// contents of `hiddenElements`. A loop, not recursion: a page may nest elements deeply.
    private static func shownText(under root: xmlNodePtr) -> String {
        var bytes: [UInt8] = []
        var node = root.pointee.children
        while let current = node {
            var descend = false
            switch current.pointee.type {
            case XML_TEXT_NODE, XML_CDATA_SECTION_NODE:
                if let content = current.pointee.content {
                    bytes.append(contentsOf: UnsafeBufferPointer(start: content, count: Int(xmlStrlen(content))))
                }
            case XML_ELEMENT_NODE:
                descend = current.pointee.name.map { hiddenElements.value(for: $0) == nil } ?? true
            default:
                break  // comments, processing instructions
            }
            if descend, let child = current.pointee.children {
                node = child
                continue
            }
            // The next sibling, else that of the nearest ancestor below `root` that has one.
            node = nil
            var climbing: xmlNodePtr? = current
            while let step = climbing, step != root {
                if let next = step.pointee.next {
                    node = next
                    break
                }
                climbing = step.pointee.parent
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The node as HTML (the element with its tags); an attribute or text gives its text.
    public var html: String {
        switch pointer.pointee.type {
        case XML_ELEMENT_NODE: document.markup(pointer)
        default: text
        }
    }
}

/// The parse's element callbacks, wrapped to stop it at `HTMLDocument.maximumDepth`; found through the
/// context's `_private`, as C callbacks cannot capture.
private final class HTMLDepthGuard {
    /// libxml2's tree-building callbacks.
    let start: startElementSAXFunc?
    let end: endElementSAXFunc?
    /// An element went too deep and the parse was stopped.
    var cut = false

    init(handler: htmlSAXHandler) {
        start = handler.startElement
        end = handler.endElement
    }

    /// The guard of the parse whose user data (the context, for a tree-building parse) is `context`.
    private static func of(_ context: UnsafeMutableRawPointer) -> (htmlParserCtxtPtr, HTMLDepthGuard)? {
        let parser = context.assumingMemoryBound(to: xmlParserCtxt.self)
        guard let box = parser.pointee._private else { return nil }
        return (parser, Unmanaged<HTMLDepthGuard>.fromOpaque(box).takeUnretainedValue())
    }

    static let startElement: startElementSAXFunc = { context, name, attributes in
        guard let context, let (parser, depthGuard) = of(context), !depthGuard.cut else { return }
        // libxml2 has pushed the element's name, not yet its node.
        if parser.pointee.nameNr > HTMLDocument.maximumDepth {
            depthGuard.cut = true
            xmlStopParser(parser)
            return
        }
        depthGuard.start?(context, name, attributes)
    }

    /// Once stopped, libxml2 still closes every open element; the tree is done by then, and the
    /// element refused has no node to close.
    static let endElement: endElementSAXFunc = { context, name in
        guard let context, let (_, depthGuard) = of(context), !depthGuard.cut else { return }
        depthGuard.end?(context, name)
    }
}

/// An XPath expression that cannot be compiled or evaluated, or a page that cannot be parsed.
public struct XPathError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong.
    public var message: String

    /// Creates an error.
    public init(_ message: String) { self.message = message }

    /// The message.
    public var description: String { message }
}
