public import Foundation

/// A validated option value, typed by its declaration.
public enum OptionValue: Sendable, Hashable, CustomStringConvertible {
    case string(String)
    case integer(Int)
    case number(Double)
    case boolean(Bool)
    case duration(Duration)
    /// A URL made absolute: `http(s)` as written, paths and `file:` resolved against the configuration's folder.
    case url(URL)
    case strings([String])
    /// A structured value with the positions of its nodes.
    case tree(OptionNode)

    /// The value in full, for a digest: every string with its length, so that no two values give the same text.
    var digestText: String {
        switch self {
        case .string(let text): "s\(text.utf8.count):\(text)"
        case .integer(let number): "i\(number)"
        case .number(let number): "n\(number)"
        case .boolean(let flag): flag ? "t" : "f"
        case .duration(let duration): "d\(duration.components.seconds).\(duration.components.attoseconds)"
        case .url(let url): "u" + OptionValue.string(url.absoluteString).digestText
        case .strings(let list): "l\(list.count)[" + list.map { OptionValue.string($0).digestText }.joined() + "]"
        case .tree(let node): node.digestText
        }
    }

    /// The value as it would be written in YAML.
    public var description: String {
        switch self {
        case .string(let text): text
        case .integer(let number): String(number)
        case .number(let number): String(number)
        case .boolean(let flag): flag ? "true" : "false"
        case .duration(let duration): DurationParser.format(duration)
        case .url(let url): url.isFileURL ? url.path : url.absoluteString
        case .strings(let list): "[" + list.joined(separator: ", ") + "]"
        case .tree(let node): node.shape
        }
    }
}
