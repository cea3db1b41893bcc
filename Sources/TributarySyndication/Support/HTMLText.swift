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
