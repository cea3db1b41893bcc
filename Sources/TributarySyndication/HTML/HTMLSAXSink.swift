/// Receives the events of one streaming HTML parse (see `HTMLSAXParser`).
///
/// Names arrive lower-cased by libxml2 and NUL-terminated; text arrives as UTF-8 with entities
/// already decoded. Every `startElement` is matched by one `endElement` (libxml2 closes what is
/// open at the end and drops stray end tags), so a sink may keep a stack of its own; only when
/// the parse is stopped early (`HTMLSAXParser.maximumDepth`) do ends go missing, so a sink
/// closes whatever it still has open when it finishes. The pointers are only valid during the
/// call.
protocol HTMLSAXSink: AnyObject {
    /// An element opens; `attributes` alternates names and values, ends with a nil name, and
    /// has a nil value for an attribute written without one (`<video controls>`).
    func startElement(name: UnsafePointer<UInt8>, attributes: UnsafeMutablePointer<UnsafePointer<UInt8>?>?)

    /// `startElement(name:attributes:)` from `HTMLFastScanner`, which knows the element's
    /// rule already (`HTMLElementRule.named(name)`). By default the rule is not used.
    func startElement(name: UnsafePointer<UInt8>, attributes: UnsafeMutablePointer<UnsafePointer<UInt8>?>?, rule: HTMLElementRule)

    /// The innermost open element closes.
    func endElement()

    /// Character data: text, whitespace, and the raw contents of `script` and `style`.
    func characters(_ text: UnsafeBufferPointer<UInt8>)

    /// Character data that `HTMLFastScanner` has checked: no C0 control other than tab and line
    /// feed, no `&`, `<` or 0xEF byte. A sink may write it with less checking; by default it is
    /// `characters(_:)`.
    func plainCharacters(_ text: UnsafeBufferPointer<UInt8>)

    /// `plainCharacters(_:)` that also has no `>`: nothing in it needs escaping. By default it
    /// is `plainCharacters(_:)`.
    func verbatimCharacters(_ text: UnsafeBufferPointer<UInt8>)
}

extension HTMLSAXSink {
    func startElement(name: UnsafePointer<UInt8>, attributes: UnsafeMutablePointer<UnsafePointer<UInt8>?>?, rule: HTMLElementRule) {
        startElement(name: name, attributes: attributes)
    }

    func plainCharacters(_ text: UnsafeBufferPointer<UInt8>) {
        characters(text)
    }

    func verbatimCharacters(_ text: UnsafeBufferPointer<UInt8>) {
        plainCharacters(text)
    }
}
