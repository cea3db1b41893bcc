import Foundation

/// Decides whether a URL attribute value may be written, and in which form.
///
/// The value arrives with entities decoded by libxml2. Tab, line breaks and other control
/// characters are removed everywhere (browsers ignore them inside a scheme, so `java\tscript:`
/// is `javascript:`), surrounding spaces are trimmed, and then a value is kept only when it is
/// - `http:` or `https:`;
/// - `mailto:` where the element allows it (`a href`);
/// - `data:image/png|jpeg|gif|webp` where the element allows it (`img src`);
/// - a relative reference, protocol-relative `//host/path` included, resolved against the base.
///
/// Any other value with a colon before its first `/`, `?` or `#` names some other scheme and
/// is refused, so odd spellings (`java script:`, full-width letters) fail closed.
enum HTMLURLPolicy {
    /// The value to write, or nil to drop the attribute.
    static func sanitize(_ value: String, allowsMailto: Bool, allowsImageData: Bool, resolver: HTMLURLResolver) -> String? {
        let cleaned = clean(decodeSchemeEntities(value))
        guard !cleaned.isEmpty else { return nil }
        switch scheme(of: cleaned) {
        case .http, .https:
            return cleaned
        case .mailto:
            return allowsMailto ? cleaned : nil
        case .data:
            return allowsImageData && isRasterImageData(cleaned) ? cleaned : nil
        case .other:
            return nil
        case .none:
            guard resolver.baseURL != nil else { return cleaned }
            let resolved = resolver.resolve(cleaned)
            switch scheme(of: resolved) {
            case .http, .https, .none: return resolved
            case .mailto, .data, .other: return cleaned  // an unusual base: leave the reference relative
            }
        }
    }

    /// An `http:` or `https:` URL (scheme in any case) of printable ASCII without spaces or
    /// `&`: nothing to decode, trim, remove or resolve, so `sanitize` returns it unchanged.
    static func isPlainWebURL(_ value: UnsafeBufferPointer<UInt8>) -> Bool {
        guard value.count > 5, value[0] | 0x20 == UInt8(ascii: "h"), value[1] | 0x20 == UInt8(ascii: "t"),
            value[2] | 0x20 == UInt8(ascii: "t"), value[3] | 0x20 == UInt8(ascii: "p"),
            value[4] == UInt8(ascii: ":") || value[4] | 0x20 == UInt8(ascii: "s") && value[5] == UInt8(ascii: ":")
        else { return false }
        for byte in value where byte <= 0x20 || byte >= 0x7F || byte == UInt8(ascii: "&") { return false }
        return true
    }

    /// A `srcset` value with every candidate's URL checked like `src` (no `data:`) and resolved;
    /// candidates with a refused URL or malformed descriptors are left out, nil when none is left.
    static func sanitizeSourceSet(_ value: String, resolver: HTMLURLResolver) -> String? {
        let scalars = Array(decodeSchemeEntities(value).unicodeScalars)
        var candidates: [String] = []
        var index = 0
        while index < scalars.count {
            // Candidates are separated by commas and whitespace.
            while index < scalars.count, isSourceSetSpace(scalars[index]) || scalars[index] == "," { index += 1 }
            guard index < scalars.count else { break }
            var url = String.UnicodeScalarView()
            while index < scalars.count, !isSourceSetSpace(scalars[index]) {
                url.append(scalars[index])
                index += 1
            }
            var descriptors = String.UnicodeScalarView()
            if url.last == "," {
                while url.last == "," { url.removeLast() }
            } else {
                while index < scalars.count, scalars[index] != "," {
                    descriptors.append(scalars[index])
                    index += 1
                }
            }
            let descriptorList = String(descriptors).split(whereSeparator: { $0.unicodeScalars.allSatisfy(isSourceSetSpace) })
            guard descriptorList.allSatisfy(isDescriptor),
                let sanitized = sanitize(String(url), allowsMailto: false, allowsImageData: false, resolver: resolver)
            else { continue }
            candidates.append(([sanitized] + descriptorList.map(String.init)).joined(separator: " "))
        }
        return candidates.isEmpty ? nil : candidates.joined(separator: ", ")
    }

    enum Scheme {
        case none, http, https, mailto, data, other
    }

    /// The scheme of a cleaned value: the text before a colon that comes before any `/`, `?`, `#`.
    static func scheme(of value: String) -> Scheme {
        // The name so far, ASCII letters lowered, packed first byte lowest; the names that
        // matter have at most six bytes, so a longer one is just "other".
        var name: UInt64 = 0
        var length = 0
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: ":"):
                if length == 4, name == packed("http") { return .http }
                if length == 5, name == packed("https") { return .https }
                if length == 6, name == packed("mailto") { return .mailto }
                if length == 4, name == packed("data") { return .data }
                return .other
            case UInt8(ascii: "/"), UInt8(ascii: "?"), UInt8(ascii: "#"):
                return .none
            default:
                if length < 8 { name |= UInt64(ByteScan.lowercasedASCII(byte)) << (8 * length) }
                length += 1
            }
        }
        return .none
    }

    private static func packed(_ name: StaticString) -> UInt64 {
        name.withUTF8Buffer { bytes in
            bytes.enumerated().reduce(0) { $0 | UInt64($1.element) << (8 * $1.offset) }
        }
    }

    /// Controls removed everywhere, spaces trimmed at both ends.
    private static func clean(_ value: String) -> String {
        // The usual value, printable ASCII with no space at either end, has nothing to remove.
        if let first = value.utf8.first, let last = value.utf8.last, first != 0x20, last != 0x20,
            value.utf8.allSatisfy({ (0x20...0x7E).contains($0) })
        {
            return value
        }
        var scalars = String.UnicodeScalarView()
        for scalar in value.unicodeScalars where !isControl(scalar) {
            if scalar == " " && scalars.isEmpty { continue }
            scalars.append(scalar)
        }
        while scalars.last == " " { scalars.removeLast() }
        return String(scalars)
    }

    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }

    /// HTML5 names libxml2 (an HTML 4 parser) leaves undecoded, used to hide a scheme:
    /// `javascript&colon;`, `java&Tab;script:`.
    private static func decodeSchemeEntities(_ value: String) -> String {
        guard value.utf8.contains(UInt8(ascii: "&")) else { return value }
        return value.replacingOccurrences(of: "&colon;", with: ":").replacingOccurrences(of: "&Tab;", with: "\t")
            .replacingOccurrences(of: "&NewLine;", with: "\n")
    }

    private static let rasterImageTypes: Set<String> = ["image/png", "image/jpeg", "image/gif", "image/webp"]

    /// `data:` followed by a raster image type, then `;` or `,`.
    private static func isRasterImageData(_ value: String) -> Bool {
        let afterScheme = value.utf8.dropFirst(5)
        guard let end = afterScheme.firstIndex(where: { $0 == UInt8(ascii: ";") || $0 == UInt8(ascii: ",") }) else { return false }
        let mediaType = String(decoding: afterScheme[..<end], as: UTF8.self).lowercased()
        return rasterImageTypes.contains(mediaType)
    }

    private static func isSourceSetSpace(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value <= 0x20
    }

    /// A width, density or height descriptor: `640w`, `1.5x`.
    private static func isDescriptor(_ token: Substring) -> Bool {
        guard let unit = token.last, unit == "w" || unit == "x" || unit == "h" else { return false }
        let number = token.dropLast()
        return !number.isEmpty && number.allSatisfy { $0 == "." || $0.isASCII && $0.isNumber }
    }
}
