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

        /// Creates an entry.
        public init(name: String, adapter: String = "rss", url: String, tags: [String] = []) {
            self.name = name
            self.adapter = adapter
            self.url = url
            self.tags = tags
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

    /// The configuration text with `entries` added at the end of its block `sources:` list:
    /// before the next top-level key (and the comment lines just above it), else at the end.
    /// Throws, naming the place, when the text has no block `sources:` list to add to.
    public static func appending(_ entries: [Entry], to text: String, file: String) throws(ConfigErrors) -> String {
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
        var lines = text.components(separatedBy: "\n")
        if lines.last == "" { lines.removeLast() }
        guard let first = sources.value.sequence?.first, sources.value.mark.line - 1 < lines.count,
            lines[sources.value.mark.line - 1].dropFirst(sources.value.mark.column - 1).first == "-"
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
        var insertAt = lines.count
        if let nextKey {
            insertAt = nextKey.line - 1
            while insertAt > 0, lines[insertAt - 1].isEmpty || lines[insertAt - 1].hasPrefix("#") {
                insertAt -= 1
            }
        }
        let added = yaml(entries, indent: indent).split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
        lines.insert(contentsOf: added, at: insertAt)
        return lines.joined(separator: "\n") + "\n"
    }
}
