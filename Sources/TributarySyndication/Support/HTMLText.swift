import Foundation

/// Plain text turned into HTML without a parser (the other way is `HTMLSanitizer.plainText`).
public enum HTMLText {
    /// Plain text as HTML paragraphs: escaped, blank lines separating `<p>`s, single line breaks as `<br>`.
    public static func paragraphs(fromPlainText text: String) -> String {
        // Line ends are unified before escaping, which would turn CR into `&#13;`.
        let escaped = XMLEscaping.text(text.replacingOccurrences(of: "\r\n", with: "\n"))
        let blocks = escaped.components(separatedBy: "\n\n")
        return blocks.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }.filter { !$0.isEmpty }
            .map { "<p>" + $0.replacingOccurrences(of: "\n", with: "<br>") + "</p>" }.joined()
    }
}

extension HTMLText {
    /// Replaces runs of whitespace with one space and trims the ends.
    static func collapseWhitespace(_ text: String) -> String {
        text.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
    }

    /// Decodes numeric character references and the HTML 4 named entities; anything else stays.
    static func decodeEntities(_ text: String) -> String {
        // A byte search: `contains("&")` here is Foundation's, which goes through NSString.
        guard text.utf8.contains(UInt8(ascii: "&")) else { return text }
        var output = ""
        var rest = Substring(text)
        while let ampersand = rest.firstIndex(of: "&") {
            output += rest[..<ampersand]
            let afterAmpersand = rest.index(after: ampersand)
            guard let semicolon = rest[afterAmpersand...].prefix(12).firstIndex(of: ";") else {
                output += "&"
                rest = rest[afterAmpersand...]
                continue
            }
            let name = rest[afterAmpersand..<semicolon]
            let value: UInt32? =
                if name.hasPrefix("#x") || name.hasPrefix("#X") { UInt32(name.dropFirst(2), radix: 16) } else if name.hasPrefix("#") {
                    UInt32(name.dropFirst())
                } else { HTMLEntities.codePoint(named: String(name)) }
            if let value, let scalar = Unicode.Scalar(value) {
                output.unicodeScalars.append(scalar)
                rest = rest[rest.index(after: semicolon)...]
            } else {
                output += "&"
                rest = rest[afterAmpersand...]
            }
        }
        return output + rest
    }
}
