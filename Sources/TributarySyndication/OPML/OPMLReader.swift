internal import CLibXML2
import Foundation
public import TributaryModel

/// Reads OPML subscription lists (OPML 1.0 and 2.0) as exported by feed readers.
///
/// The bytes go through the feed parser's decoder (any encoding, BOM, wrong declarations) and
/// repair pass (bare `&`, HTML entities such as `&nbsp;` in titles), then through libxml2's
/// streaming reader: no tree of the document is built, no network, no DTDs or external
/// entities. Attribute names are matched without regard to case (`xmlUrl`, `xmlurl`, `XMLURL`),
/// and `url` stands in for `xmlUrl` on outlines whose `type` is a feed format. Repairs come back
/// as problems; a document that is not OPML at all, or breaks off, throws with its line.
public struct OPMLReader: Sendable {
    /// The largest document accepted, in bytes.
    public var maxBytes: Int
    /// The deepest outline nesting accepted.
    public var maxDepth: Int

    /// Creates a reader.
    public init(maxBytes: Int = 20 << 20, maxDepth: Int = 256) {
        self.maxBytes = maxBytes
        self.maxDepth = maxDepth
    }

    /// The document and what was repaired on the way.
    public func read(_ bytes: [UInt8]) throws(FeedParseError) -> (document: OPMLDocument, problems: [Problem]) {
        guard bytes.count <= maxBytes else {
            throw FeedParseError("refused: the document is \(bytes.count) bytes, more than the limit of \(maxBytes)")
        }
        let decoded = DocumentDecoder(httpCharset: nil).decode(bytes)
        let repaired = try XMLPrepass(expansionLimit: max(1 << 20, decoded.bytes.count)).run(decoded.bytes)
        guard repaired.bytes.contains(where: { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }) else {
            throw FeedParseError("the document is empty")
        }
        let session = ReaderSession()
        let document = try session.read(repaired.bytes, maxDepth: maxDepth)
        return (document, decoded.problems + repaired.problems + session.warnings)
    }
}

/// One pass of libxml2's `xmlTextReader` over a repaired document.
private final class ReaderSession {
    var warnings: [Problem] = []
    var firstError: FeedParseError?

    func read(_ bytes: [UInt8], maxDepth: Int) throws(FeedParseError) -> OPMLDocument {
        let options = Int32(
            bitPattern: XML_PARSE_NONET.rawValue | XML_PARSE_IGNORE_ENC.rawValue | XML_PARSE_NOWARNING.rawValue
                | XML_PARSE_NOERROR.rawValue)
        let created = bytes.withUnsafeBufferPointer { buffer in
            buffer.baseAddress.flatMap { base in
                base.withMemoryRebound(to: CChar.self, capacity: buffer.count) {
                    xmlReaderForMemory($0, Int32(buffer.count), nil, "UTF-8", options)
                }
            }
        }
        guard let reader = created else { throw FeedParseError("the document is empty") }
        defer { xmlFreeTextReader(reader) }
        xmlTextReaderSetStructuredErrorHandler(
            reader,
            { context, error in
                guard let context, let error else { return }
                let session = Unmanaged<ReaderSession>.fromOpaque(context).takeUnretainedValue()
                let message = error.pointee.message.map { String(cString: $0) }?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "error"
                let line = Int(error.pointee.line)
                let column = Int(error.pointee.int2)
                if error.pointee.level.rawValue >= XML_ERR_ERROR.rawValue {
                    if session.firstError == nil {
                        session.firstError = FeedParseError(message, line: line > 0 ? line : nil, column: column > 0 ? column : nil)
                    }
                } else {
                    session.warnings.append(Problem(.warning, message, line: line > 0 ? line : nil, column: column > 0 ? column : nil))
                }
            }, Unmanaged.passUnretained(self).toOpaque())

        var document = OPMLDocument()
        // The open outlines; index 0 collects the body's top level.
        var stack: [OPMLOutline] = [OPMLOutline()]
        var path: [String] = []
        var sawRoot = false
        while true {
            let status = xmlTextReaderRead(reader)
            if status == 0 { break }
            guard status == 1 else {
                throw firstError ?? FeedParseError("the document could not be read", line: Int(xmlTextReaderGetParserLineNumber(reader)))
            }
            let type = xmlTextReaderNodeType(reader)
            let name = xmlTextReaderConstLocalName(reader).map { String(cString: $0) } ?? ""
            // The node's own line: the parser reads ahead of the reader.
            let line = xmlTextReaderCurrentNode(reader).map { Int($0.pointee.line) } ?? Int(xmlTextReaderGetParserLineNumber(reader))
            if type == Int32(XML_READER_TYPE_ELEMENT.rawValue) {
                if !sawRoot {
                    sawRoot = true
                    guard name.lowercased() == "opml" else {
                        throw FeedParseError("not OPML: the root element is <\(name)>", line: line)
                    }
                }
                let empty = xmlTextReaderIsEmptyElement(reader) == 1
                let lower = name.lowercased()
                if lower == "title", path.last?.lowercased() == "head" {
                    document.title = xmlTextReaderReadString(reader).map { pointer in
                        defer { tributary_xml_free(pointer) }
                        return String(cString: pointer).trimmingCharacters(in: .whitespacesAndNewlines)
                    }
                } else if lower == "outline", path.contains(where: { $0.lowercased() == "body" }) {
                    let outline = outline(reader, line: line)
                    if empty {
                        stack[stack.count - 1].children.append(outline)
                    } else {
                        guard stack.count <= maxDepth else {
                            throw FeedParseError("refused: outlines nested deeper than \(maxDepth)", line: line)
                        }
                        stack.append(outline)
                    }
                }
                if !empty { path.append(name) }
            } else if type == Int32(XML_READER_TYPE_END_ELEMENT.rawValue) {
                if name.lowercased() == "outline", stack.count > 1, path.contains(where: { $0.lowercased() == "body" }) {
                    let done = stack.removeLast()
                    stack[stack.count - 1].children.append(done)
                }
                if !path.isEmpty { path.removeLast() }
            }
        }
        if let firstError { throw firstError }
        guard sawRoot else { throw FeedParseError("the document is empty") }
        // Outlines left open by a document that ended early.
        while stack.count > 1 {
            let done = stack.removeLast()
            stack[stack.count - 1].children.append(done)
        }
        document.outlines = stack[0].children
        return document
    }

    /// The outline the reader is on, from its attributes. Attributes in ``OPMLOutline/tributaryNamespace`` go to
    /// its `source`; a `tributary:enabled` that is neither `true` nor `false` is a warning.
    private func outline(_ reader: xmlTextReaderPtr, line: Int) -> OPMLOutline {
        var outline = OPMLOutline(line: line)
        var url: String?
        while xmlTextReaderMoveToNextAttribute(reader) == 1 {
            guard let rawName = xmlTextReaderConstLocalName(reader), let rawValue = xmlTextReaderConstValue(reader) else { continue }
            let value = String(cString: rawValue).trimmingCharacters(in: .whitespacesAndNewlines)
            let name = String(cString: rawName)
            if let namespace = xmlTextReaderConstNamespaceUri(reader), String(cString: namespace) == OPMLOutline.tributaryNamespace {
                var source = outline.source ?? OPMLOutline.SourceAttributes()
                switch name {
                case "name": source.name = value.isEmpty ? nil : value
                case "adapter": source.adapter = value.isEmpty ? nil : value
                case "enabled":
                    switch value.lowercased() {
                    case "true": source.enabled = true
                    case "false": source.enabled = false
                    default: warnings.append(Problem(.warning, "tributary:enabled must be true or false, found '\(value)'", line: line))
                    }
                default: break
                }
                outline.source = source
                continue
            }
            switch name.lowercased() {
            case "text": outline.text = value
            case "title": outline.title = value
            case "type": outline.type = value
            case "xmlurl": outline.xmlURL = value
            case "htmlurl": outline.htmlURL = value
            case "url": url = value
            default: break
            }
        }
        xmlTextReaderMoveToElement(reader)
        if (outline.xmlURL ?? "").isEmpty, let url, !url.isEmpty,
            let type = outline.type?.lowercased(), ["rss", "atom", "feed", "jsonfeed", "json"].contains(type)
        {
            outline.xmlURL = url
        }
        if outline.xmlURL?.isEmpty == true { outline.xmlURL = nil }
        return outline
    }
}
