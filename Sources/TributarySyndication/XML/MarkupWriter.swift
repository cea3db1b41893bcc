/// Writes elements met inside HTML-bearing fields (XHTML content, unescaped HTML in a
/// description) back out as HTML text: start tags with escaped attributes, escaped text, end
/// tags, and void elements (`br`, `img`, …) without end tags.
enum MarkupWriter {
    static func open(_ element: XMLElement, into output: inout [UInt8]) {
        output.append(UInt8(ascii: "<"))
        // HTML knows no prefixes, and the end tag (`close`) is written without one: a prefixed start tag left the
        // sanitizer an unknown element (whose text it keeps: the code of an `<svg:script>`) and an end tag that closed
        // another (`<x:p>…</x:p>` closed the enclosing `<p>`). Written as HTML, `<svg:script>` is a script, removed.
        appendCString(element.local, into: &output)
        element.attributes.visit { prefix, local, value in
            output.append(0x20)
            if let prefix, !isXMLPrefix(prefix) {
                appendCString(prefix, into: &output)
                output.append(UInt8(ascii: ":"))
            }
            appendCString(local, into: &output)
            output.append(contentsOf: "=\"".utf8)
            appendEscaped(value.utf8, quotes: true, into: &output)
            output.append(UInt8(ascii: "\""))
        }
        output.append(UInt8(ascii: ">"))
    }

    static func close(_ local: UnsafePointer<UInt8>, into output: inout [UInt8]) {
        if isVoid(local) { return }
        output.append(contentsOf: "</".utf8)
        appendCString(local, into: &output)
        output.append(UInt8(ascii: ">"))
    }

    static func appendEscaped(_ text: UnsafePointer<UInt8>, _ count: Int, into output: inout [UInt8]) {
        appendEscaped(UnsafeBufferPointer(start: text, count: count), quotes: false, into: &output)
    }

    static func appendEscaped(_ bytes: some Sequence<UInt8>, quotes: Bool, into output: inout [UInt8]) {
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "&"): output.append(contentsOf: "&amp;".utf8)
            case UInt8(ascii: "<"): output.append(contentsOf: "&lt;".utf8)
            case UInt8(ascii: ">"): output.append(contentsOf: "&gt;".utf8)
            case UInt8(ascii: "\"") where quotes: output.append(contentsOf: "&quot;".utf8)
            default: output.append(byte)
            }
        }
    }

    private static func appendCString(_ text: UnsafePointer<UInt8>, into output: inout [UInt8]) {
        output.append(contentsOf: UnsafeBufferPointer(start: text, count: strlenBytes(text)))
    }

    private static func isXMLPrefix(_ prefix: UnsafePointer<UInt8>) -> Bool {
        prefix[0] == UInt8(ascii: "x") && prefix[1] == UInt8(ascii: "m") && prefix[2] == UInt8(ascii: "l") && prefix[3] == 0
    }

    /// Whether an element has no end tag in HTML (`area base br col embed hr img input link meta
    /// param source track wbr`, in any case).
    static func isVoid(_ local: UnsafePointer<UInt8>) -> Bool {
        let length = strlenBytes(local)
        guard (2...6).contains(length) else { return false }
        var folded: UInt64 = 0
        for index in 0..<length { folded = folded << 8 | UInt64(local[index] | 0x20) }
        return voidElements.contains(folded)
    }

    /// The void element names packed into integers, one byte per letter.
    private static let voidElements: Set<UInt64> = Set(
        ["area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "param", "source", "track", "wbr"].map { name in
            name.utf8.reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        })
}
