import Glibc

/// The entity declarations of a document's internal DTD subset (`<!DOCTYPE rss [ … ]>`), read
/// without libxml2 so that Tributary, not the XML parser, decides what an entity expands to.
struct InternalSubset {
    /// What a general entity declaration says.
    enum Entity: Equatable {
        /// `<!ENTITY name "value">`: the literal value, as UTF-8.
        case text([UInt8])
        /// `<!ENTITY name SYSTEM "uri">` or `PUBLIC "id" "uri"`: never loaded.
        case external(String)
    }

    /// General entities by name; parameter entities are not kept.
    var entities: [String: Entity] = [:]
    /// How many entity declarations (general and parameter) the subset holds.
    var declarationCount = 0

    /// Reads the `<!DOCTYPE` declaration starting at `start` (the `<`); returns the index just
    /// past its closing `>`, or the end of the input when it never closes.
    static func read(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> (subset: InternalSubset, end: Int) {
        var subset = InternalSubset()
        let count = bytes.count
        var index = start + 9
        // Up to the internal subset or the end of the declaration.
        while index < count {
            let byte = bytes[index]
            if byte == quote || byte == apostrophe {
                index = skipQuoted(bytes, from: index)
            } else if byte == UInt8(ascii: ">") {
                return (subset, index + 1)
            } else if byte == UInt8(ascii: "[") {
                index += 1
                break
            } else {
                index += 1
            }
        }
        // The internal subset.
        while index < count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "]") {
                index += 1
                while index < count, bytes[index] != UInt8(ascii: ">") { index += 1 }
                return (subset, min(count, index + 1))
            }
            if byte == UInt8(ascii: "<") {
                if matches(bytes, index, "<!--") {
                    index = find(bytes, "-->", from: index + 4).map { $0 + 3 } ?? count
                } else if matches(bytes, index, "<?") {
                    index = find(bytes, "?>", from: index + 2).map { $0 + 2 } ?? count
                } else if matches(bytes, index, "<!ENTITY") {
                    index = subset.readEntity(bytes, from: index + 8)
                } else {
                    index = skipDeclaration(bytes, from: index + 1)
                }
            } else {
                index += 1
            }
        }
        return (subset, count)
    }

    private mutating func readEntity(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        declarationCount += 1
        var index = skipSpaces(bytes, from: start)
        var isParameter = false
        if index < bytes.count, bytes[index] == UInt8(ascii: "%") {
            isParameter = true
            index = skipSpaces(bytes, from: index + 1)
        }
        let nameStart = index
        while index < bytes.count, !isSpace(bytes[index]), bytes[index] != quote, bytes[index] != apostrophe,
            bytes[index] != UInt8(ascii: ">")
        {
            index += 1
        }
        let name = String(decoding: UnsafeBufferPointer(rebasing: bytes[nameStart..<index]), as: UTF8.self)
        index = skipSpaces(bytes, from: index)
        guard index < bytes.count else { return index }
        var entity: Entity?
        if bytes[index] == quote || bytes[index] == apostrophe {
            let end = skipQuoted(bytes, from: index)
            let valueEnd = max(index + 1, end - 1)
            entity = .text(Array(UnsafeBufferPointer(rebasing: bytes[(index + 1)..<min(valueEnd, bytes.count)])))
            index = end
        } else if matches(bytes, index, "SYSTEM") || matches(bytes, index, "PUBLIC") {
            let isPublic = matches(bytes, index, "PUBLIC")
            index = skipSpaces(bytes, from: index + 6)
            var literals: [String] = []
            while index < bytes.count, bytes[index] == quote || bytes[index] == apostrophe, literals.count < 2 {
                let end = skipQuoted(bytes, from: index)
                literals.append(
                    String(decoding: UnsafeBufferPointer(rebasing: bytes[(index + 1)..<max(index + 1, end - 1)]), as: UTF8.self))
                index = skipSpaces(bytes, from: end)
            }
            entity = .external((isPublic ? literals.dropFirst().first : literals.first) ?? "")
        }
        if !isParameter, let entity, !name.isEmpty, entities[name] == nil {
            entities[name] = entity
        }
        return InternalSubset.skipDeclaration(bytes, from: index)
    }

    /// Skips to just past the `>` that ends a markup declaration, stepping over quoted literals.
    private static func skipDeclaration(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        var index = start
        while index < bytes.count {
            let byte = bytes[index]
            if byte == quote || byte == apostrophe {
                index = skipQuoted(bytes, from: index)
            } else if byte == UInt8(ascii: ">") {
                return index + 1
            } else {
                index += 1
            }
        }
        return index
    }

    private static func skipQuoted(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        let delimiter = bytes[start]
        var index = start + 1
        while index < bytes.count, bytes[index] != delimiter { index += 1 }
        return min(bytes.count, index + 1)
    }

    private func skipSpaces(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        var index = start
        while index < bytes.count, isSpace(bytes[index]) { index += 1 }
        return index
    }

    private func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    private func matches(_ bytes: UnsafeBufferPointer<UInt8>, _ index: Int, _ text: StaticString) -> Bool {
        InternalSubset.matches(bytes, index, text)
    }

    private func skipQuoted(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        InternalSubset.skipQuoted(bytes, from: start)
    }

    /// Whether `text` (ASCII) occurs at `index`.
    static func matches(_ bytes: UnsafeBufferPointer<UInt8>, _ index: Int, _ text: StaticString) -> Bool {
        let length = text.utf8CodeUnitCount
        guard index + length <= bytes.count else { return false }
        let pattern = text.utf8Start
        for offset in 0..<length where bytes[index + offset] != pattern[offset] {
            return false
        }
        return true
    }

    /// The index of the next occurrence of `text` (ASCII) at or after `start`.
    static func find(_ bytes: UnsafeBufferPointer<UInt8>, _ text: StaticString, from start: Int) -> Int? {
        guard let base = bytes.baseAddress else { return nil }
        let first = Int32(text.utf8Start[0])
        var index = start
        while index < bytes.count {
            guard let hit = memchr(base + index, first, bytes.count - index) else { return nil }
            index = base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
            if matches(bytes, index, text) { return index }
            index += 1
        }
        return nil
    }
}

private let quote = UInt8(ascii: "\"")
private let apostrophe = UInt8(ascii: "'")
