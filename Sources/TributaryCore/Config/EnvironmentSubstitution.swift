import Foundation

/// Expands `${VAR}` and `${VAR:-default}` in configuration values; `$$` is a literal `$`.
///
/// Only values are expanded, never keys, so the shape of the configuration cannot depend on the
/// environment. A `$` not followed by `{` or `$` is kept as it is.
struct EnvironmentSubstitution {
    /// The variables to read.
    let environment: [String: String]

    /// Why an expansion failed.
    enum Failure: Error, Equatable {
        case unset(String)
        case unterminated
        case badName(String)
    }

    /// Whether a byte may be part of a variable's name: an ASCII letter, digit or `_` (a name does not start with a
    /// digit).
    static func isNameByte(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "_") || (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z")
            || byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }

    /// The text with every reference replaced.
    func expand(_ text: String) -> Result<String, Failure> {
        // Byte and standard-library searches: `String.contains(String)` and `range(of:)` would go through
        // Foundation's locale-aware search, a copy of the text each (this runs for every value).
        guard text.withUTF8Bytes({ bytes in bytes.baseAddress.map { memchr($0, Int32(UInt8(ascii: "$")), bytes.count) != nil } ?? false })
        else {
            return .success(text)
        }
        var output = ""
        var index = text.startIndex
        while index < text.endIndex {
            let character = text[index]
            guard character == "$" else {
                output.append(character)
                index = text.index(after: index)
                continue
            }
            let next = text.index(after: index)
            if next < text.endIndex, text[next] == "$" {
                output.append("$")
                index = text.index(after: next)
                continue
            }
            guard next < text.endIndex, text[next] == "{" else {
                output.append("$")
                index = next
                continue
            }
            guard let close = text[next...].firstIndex(of: "}") else { return .failure(.unterminated) }
            let body = text[text.index(after: next)..<close]
            let name: Substring
            let fallback: Substring?
            if let separator = body.firstRange(of: ":-") {
                name = body[..<separator.lowerBound]
                fallback = body[separator.upperBound...]
            } else {
                name = body
                fallback = nil
            }
            guard let first = name.utf8.first, first < UInt8(ascii: "0") || first > UInt8(ascii: "9"),
                name.utf8.allSatisfy(Self.isNameByte)
            else { return .failure(.badName(String(name))) }
            if let value = environment[String(name)], !(value.isEmpty && fallback != nil) {
                output += value
            } else if let fallback {
                output += fallback
            } else {
                return .failure(.unset(String(name)))
            }
            index = text.index(after: close)
        }
        return .success(output)
    }
}
