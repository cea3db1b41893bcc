extension FeedText {
    /// Whether text from an element that does not say its type (RSS's `title`) reads as HTML, as
    /// Python's feedparser judges it: it holds a closing tag of an HTML element (`</b>`, `</a>`)
    /// or a character reference (`&eacute;`, `&#8217;`, `&amp;`), left after XML's own escaping.
    /// A feed that escaped its markup once too often (`&lt;b&gt;Breaking:&lt;/b&gt;`,
    /// `Caf&amp;eacute;`) means HTML; a title about markup (`Why <div> soup is bad`,
    /// `Vec<T>`, `a < b & c`) has neither.
    static func looksLikeHTML(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { bytes in
            var index = 0
            while index < bytes.count {
                switch bytes[index] {
                case UInt8(ascii: "&"):
                    if isCharacterReference(bytes, at: index) { return true }
                case UInt8(ascii: "<"):
                    if isClosingTag(bytes, at: index) { return true }
                default: break
                }
                index += 1
            }
            return false
        }
    }

    /// `&name;`, `&#123;` or `&#x1F;` at `index`.
    private static func isCharacterReference(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> Bool {
        var position = index + 1
        let numeric = position < bytes.count && bytes[position] == UInt8(ascii: "#")
        if numeric { position += 1 }
        let hex = numeric && position < bytes.count && bytes[position] | 0x20 == UInt8(ascii: "x")
        if hex { position += 1 }
        let start = position
        while position < bytes.count, position - start < 32 {
            let byte = bytes[position]
            let letter = (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z")
            let digit = byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
            if numeric ? (digit || (hex && letter && (byte | 0x20) <= UInt8(ascii: "f"))) : (letter || (digit && position > start)) {
                position += 1
            } else {
                break
            }
        }
        return position > start && position < bytes.count && bytes[position] == UInt8(ascii: ";")
    }

    /// `</name>` at `index`, `name` an HTML element (in any case; spaces before the `>` allowed).
    private static func isClosingTag(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> Bool {
        guard index + 3 < bytes.count, bytes[index + 1] == UInt8(ascii: "/") else { return false }
        var position = index + 2
        var name: [UInt8] = []
        while position < bytes.count, name.count <= 10 {
            let byte = bytes[position] | 0x20
            guard
                (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
                    || (bytes[position] >= UInt8(ascii: "1") && bytes[position] <= UInt8(ascii: "6"))
            else { break }
            name.append(bytes[position] >= UInt8(ascii: "A") ? byte : bytes[position])
            position += 1
        }
        while position < bytes.count, bytes[position] == UInt8(ascii: " ") { position += 1 }
        guard position < bytes.count, bytes[position] == UInt8(ascii: ">") else { return false }
        return htmlElements.contains(name)
    }

    /// The elements whose closing tag marks text as HTML: those of formatted text.
    private static let htmlElements: Set<[UInt8]> = Set(
        [
            "a", "abbr", "acronym", "address", "b", "big", "blockquote", "center", "cite", "code", "dd", "del", "dfn", "div",
            "dl", "dt", "em", "font", "h1", "h2", "h3", "h4", "h5", "h6", "i", "ins", "kbd", "li", "mark", "ol", "p", "pre", "q",
            "s", "samp", "small", "span", "strike", "strong", "sub", "sup", "table", "td", "th", "time", "tr", "tt", "u", "ul",
            "var",
        ].map { Array($0.utf8) })
}
