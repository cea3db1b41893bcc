import Foundation

/// Conversions between plain text and HTML that need no parser.
public enum HTMLText {
    /// Plain text as HTML paragraphs: escaped, blank lines separating `<p>`s, single line breaks as `<br>`.
    public static func paragraphs(fromPlainText text: String) -> String {
        // Line ends are unified before escaping, which would turn CR into `&#13;`.
        let escaped = XMLEscaping.text(text.replacingOccurrences(of: "\r\n", with: "\n"))
        let blocks = escaped.components(separatedBy: "\n\n")
        return blocks.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }.filter { !$0.isEmpty }
            .map { "<p>" + $0.replacingOccurrences(of: "\n", with: "<br>") + "</p>" }.joined()
    }

    /// The text of an HTML fragment: tags dropped, the common entities decoded, whitespace collapsed.
    ///
    /// A quick reading for summaries; the libxml2-based sanitizer does the full job.
    public static func plainText(fromHTML html: String) -> String {
        let blocks = ["p", "br", "hr", "div", "li", "ul", "ol", "h1", "h2", "h3", "h4", "h5", "h6", "tr", "td", "th", "blockquote", "pre"]
        let breaking = Set(blocks + blocks.map { "/" + $0 })
        var output = ""
        var inTag = false
        var nameDone = false
        var tagName = ""
        var skipping: String?
        var skipped = ""
        for character in html {
            if let closing = skipping {
                // Script and style content is raw text: only the closing tag ends it, whatever `<` come before.
                skipped.append(character)
                guard character == ">" else { continue }
                if skipped.lowercased().filter({ !$0.isWhitespace }).hasSuffix("</\(closing)>") { skipping = nil }
                skipped = ""
            } else if inTag {
                if character == ">" {
                    inTag = false
                    let name = tagName.lowercased()
                    if name == "script" || name == "style" {
                        skipping = name
                    } else if breaking.contains(name) {
                        output += " "
                    }
                } else if character.isWhitespace || (character == "/" && !tagName.isEmpty) {
                    nameDone = true
                } else if !nameDone {
                    tagName.append(character)
                }
            } else if character == "<" {
                inTag = true
                nameDone = false
                tagName = ""
            } else {
                output.append(character)
            }
        }
        return collapseWhitespace(decodeEntities(output))
    }

    /// Replaces runs of whitespace with one space and trims the ends.
    public static func collapseWhitespace(_ text: String) -> String {
        text.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
    }

    /// Decodes numeric character references and the entities common in feeds.
    public static func decodeEntities(_ text: String) -> String {
        guard text.contains("&") else { return text }
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
            if let decoded = decode(name) {
                output += decoded
                rest = rest[rest.index(after: semicolon)...]
            } else {
                output += "&"
                rest = rest[afterAmpersand...]
            }
        }
        output += rest
        return output
    }

    private static func decode(_ name: Substring) -> String? {
        if name.hasPrefix("#x") || name.hasPrefix("#X") {
            return UInt32(name.dropFirst(2), radix: 16).flatMap(Unicode.Scalar.init).map { String(Character($0)) }
        }
        if name.hasPrefix("#") {
            return UInt32(name.dropFirst()).flatMap(Unicode.Scalar.init).map { String(Character($0)) }
        }
        return namedEntities[String(name)]
    }

    private static let namedEntities: [String: String] = [
        "amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'", "nbsp": "\u{A0}", "hellip": "…",
        "mdash": "—", "ndash": "–", "lsquo": "‘", "rsquo": "’", "ldquo": "“", "rdquo": "”", "copy": "©",
        "reg": "®", "trade": "™", "middot": "·", "laquo": "«", "raquo": "»", "bull": "•", "eacute": "é",
    ]
}
