import Foundation
import TributaryYAML

/// Writes new `sources:` entries as YAML and adds them to a configuration's text without
/// touching anything else in it (comments, anchors, formatting stay as they are).
public enum SourceListEditor {
    /// A feed source to be added.
    public struct Entry: Sendable, Hashable {
        /// The source's unique name.
        public var name: String
        /// The adapter kind (`rss`).
        public var adapter: String
        /// The feed's URL.
        public var url: String
        /// Tags for its items (the OPML folders it was in).
        public var tags: [String]
        /// Whether the source runs; `enabled: false` is written when not.
        public var enabled: Bool

        /// Creates an entry.
        public init(name: String, adapter: String = "rss", url: String, tags: [String] = [], enabled: Bool = true) {
            self.name = name
            self.adapter = adapter
            self.url = url
            self.tags = tags
            self.enabled = enabled
        }

        /// The number of lines ``SourceListEditor/yaml(_:indent:)`` writes for the entry.
        var lineCount: Int { 3 + (tags.isEmpty ? 0 : 1) + (enabled ? 0 : 1) }
    }

    /// A configuration's text with entries added, and where they went: errors found in the new text can be told
    /// apart as the entries' own or placed in the text the user has.
    public struct Edit: Sendable, Hashable {
        /// The whole new text.
        public var text: String
        /// The line the first added entry starts on, from 1.
        public var firstLine: Int
        /// The number of lines each added entry took, in order.
        public var entryLineCounts: [Int]

        /// The index of the added entry that `line` of the new text belongs to; nil for a line of the old text.
        public func entry(atLine line: Int) -> Int? {
            var start = firstLine
            for (index, count) in entryLineCounts.enumerated() {
                if line >= start, line < start + count { return index }
                start += count
            }
            return nil
        }

        /// The line of the old text that `line` of the new text is; nil for an added line.
        public func originalLine(_ line: Int) -> Int? {
            let added = entryLineCounts.reduce(0, +)
            if line < firstLine { return line }
            return line >= firstLine + added ? line - added : nil
        }
    }

    /// The entries as block-list YAML, each line starting with `indent`.
    public static func yaml(_ entries: [Entry], indent: String = "  ") -> String {
        var text = ""
        for entry in entries {
            text += indent + "- name: " + quoted(entry.name) + "\n"
            text += indent + "  adapter: " + entry.adapter + "\n"
            text += indent + "  url: " + quoted(entry.url) + "\n"
            if !entry.tags.isEmpty {
                text += indent + "  tags: [" + entry.tags.map(quoted).joined(separator: ", ") + "]\n"
            }
            if !entry.enabled { text += indent + "  enabled: false\n" }
        }
        return text
    }

    /// A double-quoted YAML scalar that reads back as `text` after `${VAR}` expansion (so `$`
    /// is written `$$`).
    public static func quoted(_ text: String) -> String {
        var output = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            case "$": output += "$$"
            case "\n": output += "\\n"
            case "\t": output += "\\t"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F || (0x80..<0xA0).contains(scalar.value) || scalar.value == 0xFEFF {
                    output += String(format: "\\u%04X", scalar.value)
                } else {
                    output.unicodeScalars.append(scalar)
                }
            }
        }
        return output + "\""
    }

    /// The configuration text with `entries` added at the end of its block `sources:` list: before the next top-level
    /// key or a document end marker (`...`), and the comment lines just above it, else at the end. The new lines end
    /// as the text's lines do (CR LF or LF). Throws, naming the place, when the text has no block `sources:` list to
    /// add to.
    public static func appending(_ entries: [Entry], to text: String, file: String) throws(ConfigErrors) -> Edit {
        let root: YAMLNode?
        do {
            root = try YAML.parse(text, file: file)
        } catch {
            throw ConfigErrors([ConfigError(file: file, line: error.mark.line, column: error.mark.column, message: error.message)])
        }
        guard let pairs = root?.mapping, let sources = pairs.first(where: { $0.key.scalar == "sources" }) else {
            throw ConfigErrors([
                ConfigError(file: file, line: nil, column: nil, message: "the configuration has no 'sources:' list to add to")
            ])
        }
        var (lines, lineBreak) = Self.lines(of: text)
        guard let first = sources.value.sequence?.first, sources.value.mark.line - 1 < lines.count,
            lines[sources.value.mark.line - 1].unicodeScalars.dropFirst(sources.value.mark.column - 1).first == "-"
        else {
            throw ConfigErrors([
                ConfigError(
                    file: file, line: sources.value.mark.line, column: sources.value.mark.column,
                    message: "'sources' must be a block list (one '- name: …' entry a line) to add to it")
            ])
        }
        let itemLine = lines[first.mark.line - 1]
        let indent = String(itemLine.prefix { $0 == " " })
        let nextKey = pairs.map(\.key.mark).filter { $0.line > sources.key.mark.line }.min()
        // Lines are counted from 0 here; marks from 1.
        let documentEnd = lines.indices.first { $0 >= sources.key.mark.line && isDocumentEnd(lines[$0]) }
        var insertAt = lines.count
        if let end = [nextKey.map { $0.line - 1 }, documentEnd].compactMap({ $0 }).min() {
            insertAt = end
            while insertAt > 0, lines[insertAt - 1].isEmpty || lines[insertAt - 1].hasPrefix("#") {
                insertAt -= 1
            }
        }
        let added = yaml(entries, indent: indent).split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
        lines.insert(contentsOf: added, at: insertAt)
        return Edit(
            text: lines.joined(separator: lineBreak) + lineBreak, firstLine: insertAt + 1, entryLineCounts: entries.map(\.lineCount))
    }

    /// The text's lines without their ends (CR LF, LF or a lone CR, as YAML counts lines), and the end of its first
    /// line (LF when it has one line).
    private static func lines(of text: String) -> (lines: [String], lineBreak: String) {
        var lines: [String] = []
        var lineBreak: String?
        let scalars = text.unicodeScalars
        var start = scalars.startIndex
        var index = start
        while index < scalars.endIndex {
            let scalar = scalars[index]
            guard scalar == "\n" || scalar == "\r" else {
                index = scalars.index(after: index)
                continue
            }
            lines.append(String(String.UnicodeScalarView(scalars[start..<index])))
            var next = scalars.index(after: index)
            if scalar == "\r", next < scalars.endIndex, scalars[next] == "\n" { next = scalars.index(after: next) }
            if lineBreak == nil { lineBreak = String(String.UnicodeScalarView(scalars[index..<next])) }
            start = next
            index = next
        }
        if start < scalars.endIndex { lines.append(String(String.UnicodeScalarView(scalars[start...]))) }
        return (lines, lineBreak ?? "\n")
    }

    /// Whether a line is YAML's document end marker: `...` at its start, alone or before a space and a comment.
    private static func isDocumentEnd(_ line: String) -> Bool {
        line.hasPrefix("...") && (line.count == 3 || line.dropFirst(3).first?.isWhitespace == true)
    }
}
