import Foundation

/// The sanitizer's side of the parse: rewrites the events of kept elements and text into safe
/// HTML, keeping a stack of what it opened so the output is always balanced.
final class HTMLSanitizingSink: HTMLSAXSink {
    /// Kept elements nested deeper than this are unwrapped (their text stays). No real content
    /// nests this deep, and it keeps the output within what XML consumers accept (libxml2 stops
    /// at 256 levels).
    static let maximumDepth = 100

    /// All mutable state in one struct, accessed without a dynamic exclusivity check: only the
    /// event methods touch it, one access each, and nothing they call comes back to the sink.
    @exclusivity(unchecked) private var state: State

    init(baseURL: URL?, inputSize: Int, closesVoidElements: Bool = false) {
        state = State(
            baseURL: baseURL, writer: HTMLByteWriter(capacity: Self.outputCapacity(inputSize)), closesVoidElements: closesVoidElements)
    }

    /// A sink that resolves with `resolver` (and its base).
    init(resolver: HTMLURLResolver, inputSize: Int) {
        state = State(baseURL: resolver.baseURL, resolver: resolver, writer: HTMLByteWriter(capacity: Self.outputCapacity(inputSize)))
    }

    /// Room for the output of `inputSize` bytes of input: the output is often a little longer
    /// (`&` escaped again, relative URLs made absolute), and growing the buffer once copies all of it.
    private static func outputCapacity(_ inputSize: Int) -> Int {
        inputSize + inputSize / 8 + 256
    }

    /// The output, with every element still open closed.
    func finish() -> String {
        state.finish()
    }

    func startElement(name: UnsafePointer<UInt8>, attributes: UnsafeMutablePointer<UnsafePointer<UInt8>?>?) {
        state.startElement(rule: { HTMLElementRule.named(name) }, attributes: attributes)
    }

    func startElement(name: UnsafePointer<UInt8>, attributes: UnsafeMutablePointer<UnsafePointer<UInt8>?>?, rule: HTMLElementRule) {
        state.startElement(rule: { rule }, attributes: attributes)
    }

    func endElement() {
        state.endElement()
    }

    func characters(_ text: UnsafeBufferPointer<UInt8>) {
        state.characters(text)
    }

    func plainCharacters(_ text: UnsafeBufferPointer<UInt8>) {
        state.plainCharacters(text)
    }

    func verbatimCharacters(_ text: UnsafeBufferPointer<UInt8>) {
        state.verbatimCharacters(text)
    }

    private struct State {
        let baseURL: URL?
        /// Made for the first URL that needs more than `HTMLURLPolicy.isPlainWebURL`: most
        /// content links only to absolute http(s) URLs, and the resolver reads the base's text.
        var resolver: HTMLURLResolver?
        var writer: HTMLByteWriter
        /// Void elements written as `<br/>`, for markup that must read as XML too.
        var closesVoidElements = false
        /// One entry per open element outside dropped ones: the name of a kept element, or nil
        /// for elements whose tags were not written.
        var open: [HTMLNameKey?] = []
        /// How many of `open` are kept elements with an end tag to write.
        var keptDepth = 0
        /// How deep inside a dropped element the parse is; 0 outside.
        var droppedDepth = 0

        mutating func finish() -> String {
            while let name = open.popLast() {
                if let name { writeEndTag(name) }
            }
            return writer.string
        }

        /// An element opens; `rule` is looked up only outside dropped elements.
        mutating func startElement(rule: () -> HTMLElementRule, attributes: UnsafeMutablePointer<UnsafePointer<UInt8>?>?) {
            if droppedDepth > 0 {
                droppedDepth += 1
                return
            }
            let rule = rule()
            switch rule.action {
            case .drop:
                droppedDepth = 1
            case .unwrap:
                open.append(nil)
            case .keep where rule.isVoid:
                writeStartTag(rule, attributes: attributes, closed: closesVoidElements)
                open.append(nil)  // nothing to close; libxml2 may still report children
            case .keep where keptDepth >= HTMLSanitizingSink.maximumDepth:
                open.append(nil)
            case .keep:
                writeStartTag(rule, attributes: attributes)
                open.append(rule.name)
                keptDepth += 1
            }
        }

        mutating func endElement() {
            if droppedDepth > 0 {
                droppedDepth -= 1
                return
            }
            guard let entry = open.popLast(), let name = entry else { return }
            writeEndTag(name)
            keptDepth -= 1
        }

        mutating func characters(_ text: UnsafeBufferPointer<UInt8>) {
            if droppedDepth == 0 { writer.appendText(text) }
        }

        mutating func plainCharacters(_ text: UnsafeBufferPointer<UInt8>) {
            if droppedDepth == 0 { writer.appendPlainText(text) }
        }

        mutating func verbatimCharacters(_ text: UnsafeBufferPointer<UInt8>) {
            if droppedDepth == 0 { writer.appendVerbatimText(text) }
        }

        private mutating func writeStartTag(
            _ rule: HTMLElementRule, attributes: UnsafeMutablePointer<UnsafePointer<UInt8>?>?, closed: Bool = false
        ) {
            writer.append(UInt8(ascii: "<"))
            writer.append(rule.name)
            if let attributes {
                var written = HTMLAttributeSet()
                var position = 0
                while let name = attributes[position] {
                    let value = attributes[position + 1]
                    position += 2
                    guard let attribute = HTMLAttribute.named(name), rule.attributes.contains(attribute), !written.contains(attribute)
                    else { continue }
                    if writeAttribute(attribute, value: value, rule: rule) { written.add(attribute) }
                }
            }
            if closed { writer.append(UInt8(ascii: "/")) }
            writer.append(UInt8(ascii: ">"))
        }

        /// Writes ` name="value"` when the value passes; returns whether it did.
        private mutating func writeAttribute(_ attribute: HTMLAttribute, value: UnsafePointer<UInt8>?, rule: HTMLElementRule) -> Bool {
            switch attribute.valueKind {
            case .text:
                writeAttributeName(attribute)
                if let value {
                    writer.appendAttributeValue(UnsafeBufferPointer(start: value, count: Self.length(of: value)))
                }
            case .url:
                guard let value else { return false }
                let bytes = UnsafeBufferPointer(start: value, count: Self.length(of: value))
                if HTMLURLPolicy.isPlainWebURL(bytes) {
                    // What `HTMLURLPolicy.sanitize` returns for it unchanged, without a `String`.
                    writeAttributeName(attribute)
                    writer.appendAttributeValue(bytes)
                    break
                }
                if let origin = madeResolver().origin(forPlainAbsolutePath: bytes) {
                    // What `HTMLURLPolicy.sanitize` returns for it (`origin` + the path), without a `String`.
                    writeAttributeName(attribute)
                    writer.appendAttributeValue(origin)
                    writer.appendAttributeValue(bytes)
                    break
                }
                guard
                    let url = HTMLURLPolicy.sanitize(
                        Self.string(value), allowsMailto: rule.allowsMailto && attribute == .href,
                        allowsImageData: rule.allowsImageData && attribute == .src, resolver: madeResolver()
                    )
                else { return false }
                writeAttributeName(attribute)
                writer.appendAttributeValue(url)
            case .sourceSet:
                guard let value, let sourceSet = HTMLURLPolicy.sanitizeSourceSet(Self.string(value), resolver: madeResolver()) else {
                    return false
                }
                writeAttributeName(attribute)
                writer.appendAttributeValue(sourceSet)
            }
            writer.append(UInt8(ascii: "\""))
            return true
        }

        private mutating func madeResolver() -> HTMLURLResolver {
            if let resolver { return resolver }
            let made = HTMLURLResolver(baseURL: baseURL)
            resolver = made
            return made
        }

        /// ` name="`
        private mutating func writeAttributeName(_ attribute: HTMLAttribute) {
            writer.append(UInt8(ascii: " "))
            writer.append(attribute.key)
            writer.append(UInt8(ascii: "="))
            writer.append(UInt8(ascii: "\""))
        }

        private mutating func writeEndTag(_ name: HTMLNameKey) {
            writer.append(UInt8(ascii: "<"))
            writer.append(UInt8(ascii: "/"))
            writer.append(name)
            writer.append(UInt8(ascii: ">"))
        }

        private static func length(of string: UnsafePointer<UInt8>) -> Int {
            var length = 0
            while string[length] != 0 { length += 1 }
            return length
        }

        private static func string(_ value: UnsafePointer<UInt8>) -> String {
            String(decoding: UnsafeBufferPointer(start: value, count: length(of: value)), as: UTF8.self)
        }
    }
}
