import TributarySyndication

/// An XPath 1.0 expression that libxml2 compiles, checked when the configuration is read.
struct XPathExpression: Sendable, Hashable, CustomStringConvertible {
    /// The expression as written.
    let text: String

    /// Checks the expression.
    init(_ text: String) throws(MappingError) {
        do {
            try HTMLDocument.validate(text)
        } catch {
            throw MappingError(error.message)
        }
        self.text = text
    }

    var description: String { text }
}
