import TributaryModel

/// Repairs, before libxml2 sees them, the byte-level faults that real feeds have and that XML
/// parsers reject, and applies Tributary's entity policy. One linear pass; the input is copied
/// only when something changes.
///
/// - Entities: `&name;` for a name that is neither one of XML's five nor declared in the internal
///   DTD subset becomes `&#N;` when HTML 4 knows it (`&nbsp;` → `&#160;`, zero-padded to keep
///   columns) and `&amp;name;` otherwise; a bare `&` becomes `&amp;`; `&#128;`…`&#159;` are read as
///   windows-1252, as browsers do; invalid character references become U+FFFD.
/// - Internal entities declared in the DTD are expanded here, never by libxml2, within a budget
///   (`expansionLimit` bytes in all): billion-laughs and quadratic-blowup documents are refused
///   with a `FeedParseError` before any parsing. External entities are never loaded: their
///   references are removed, with a warning.
/// - HTML void elements written without a slash (`<br>`, `<img …>`) are closed (`<br/>`), so an
///   unescaped HTML description does not swallow the rest of the feed.
/// - A `<` that cannot start markup (`a < b`) becomes `&lt;`; C0 control characters other than
///   tab, line feed and carriage return become spaces; whitespace before the XML declaration is
///   moved after it.
/// - CDATA sections, comments and processing instructions are left alone (but CDATA sections
///   may be lifted out for the stream parser: see `LiftedContent`).
///
/// The repaired bytes are handed on in chunks of about `chunkSize` bytes as the pass goes, so
/// the parser works while the data is still in cache, no second copy of the document is made,
/// and a parse that stops early (a hostile document) stops the pass too.
struct XMLPrepass {
    /// How many bytes entity expansion may produce in all.
    var expansionLimit: Int
    /// How many entity declarations the internal subset may hold.
    var maxDeclarations = 1_000
    /// About how many bytes to hand on at a time (chunks end before an ASCII byte in text).
    var chunkSize = 256 << 10

    /// Repairs `original`, handing the result to `emit` chunk by chunk (it returns false to stop
    /// early), and returns one warning per kind of repair, positioned at its first occurrence.
    ///
    /// With `lifted`, CDATA sections in element content are replaced by placeholders for the
    /// stream parser to fill in (see `LiftedContent`).
    func run(
        _ original: [UInt8], lifting lifted: LiftedContent? = nil, emit: (UnsafeBufferPointer<UInt8>) -> Bool
    ) throws(FeedParseError) -> [Problem] {
        let (blanked, skipped) = XMLPrepass.blankingTextBeforeDocument(original)
        let input = XMLPrepass.movingDeclarationFirst(blanked)
        lifted?.begin(document: input)
        var pass = Pass(limit: expansionLimit, maxDeclarations: maxDeclarations, chunkSize: max(1, chunkSize), lifted: lifted)
        try input.withUnsafeBufferPointer { (bytes) throws(FeedParseError) in
            try pass.rewrite(bytes, emit: emit)
        }
        let ignored = skipped > 0 ? [Problem(.warning, "\(skipped) bytes of text before the document ignored", line: 1, column: 1)] : []
        return ignored + pass.problems(in: input)
    }

    /// Repairs `original` in one piece (for tests and small inputs).
    func run(_ original: [UInt8]) throws(FeedParseError) -> (bytes: [UInt8], problems: [Problem]) {
        var output: [UInt8] = []
        let problems = try run(original) { chunk in
            output.append(contentsOf: chunk)
            return true
        }
        return (output, problems)
    }

    /// Text before the document (a PHP warning, `<br />` and all, or a stray line the server
    /// printed first) is an error for XML parsers; it becomes spaces (line breaks stay, so lines
    /// and columns do not move) when an XML declaration follows within the first 64 KB, or, with
    /// no declaration, when it holds no markup before the root element. Returns how many bytes
    /// were blanked.
    static func blankingTextBeforeDocument(_ bytes: [UInt8]) -> (bytes: [UInt8], blanked: Int) {
        func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }
        // `<?xml ` itself, not `<?xml-stylesheet`.
        let pattern: [UInt8] = Array("<?xml".utf8)
        func isDeclaration(at index: Int) -> Bool {
            index + 5 < bytes.count && bytes[index] == UInt8(ascii: "<") && bytes[index + 1] == UInt8(ascii: "?")
                && bytes[index...].starts(with: pattern) && isSpace(bytes[index + 5])
        }
        guard let first = bytes.firstIndex(where: { !isSpace($0) }), !isDeclaration(at: first) else { return (bytes, 0) }
        // A document that starts as a feed has nothing before it (a `<?xml ` later on would be
        // inside it, in a CDATA section say).
        if FormatSniffer.format(of: bytes) != nil { return (bytes, 0) }
        let window = bytes[first..<min(bytes.count, first + 65_536)]
        var end: Int
        if let declaration = window.indices.first(where: isDeclaration) {
            end = declaration
        } else if bytes[first] != UInt8(ascii: "<"), let markup = window.firstIndex(of: UInt8(ascii: "<")) {
            end = markup
        } else {
            return (bytes, 0)
        }
        var blanked = bytes
        for index in first..<end where !isSpace(blanked[index]) {
            blanked[index] = 0x20
        }
        while end > first, isSpace(bytes[end - 1]) { end -= 1 }
        return (blanked, end - first)
    }

    /// Whitespace before `<?xml` is an error for XML parsers; moving it after the declaration
    /// keeps every later line and column where it was.
    static func movingDeclarationFirst(_ bytes: [UInt8]) -> [UInt8] {
        var start = 0
        while start < bytes.count, start < 1 << 17,
            bytes[start] == 0x20 || bytes[start] == 0x09 || bytes[start] == 0x0A || bytes[start] == 0x0D
        {
            start += 1
        }
        guard start > 0, bytes[start...].starts(with: Array("<?xml".utf8)) else { return bytes }
        guard let end = bytes[start...].firstRange(of: Array("?>".utf8))?.upperBound else { return bytes }
        return Array(bytes[start..<end]) + Array(bytes[0..<start]) + Array(bytes[end...])
    }
}

/// The state of one pass over a document.
private struct Pass {
    let limit: Int
    let maxDeclarations: Int
    let chunkSize: Int
    let lifted: LiftedContent?
    var subset = InternalSubset()
    var expansions: [String: [UInt8]] = [:]
    var expanding: Set<String> = []
    var expandedBytes = 0

    // What was repaired: counts, the first offset, and a few names.
    var undeclared = Tally()
    var unknown = Tally()
    var bare = Tally()
    var external = Tally()
    var invalidReferences = Tally()
    var controls = Tally()
    var strayLessThan = Tally()

    init(limit: Int, maxDeclarations: Int, chunkSize: Int, lifted: LiftedContent?) {
        self.limit = limit
        self.maxDeclarations = maxDeclarations
        self.chunkSize = chunkSize
        self.lifted = lifted
    }

    /// Rewrites the bytes, handing them on in chunks; unchanged stretches are handed on
    /// straight from the input, changed ones through a reused buffer.
    mutating func rewrite(_ bytes: UnsafeBufferPointer<UInt8>, emit: (UnsafeBufferPointer<UInt8>) -> Bool) throws(FeedParseError) {
        let count = bytes.count
        var output: [UInt8] = []
        var copied = 0
        var emitted = 0
        var index = 0
        var sawElement = false
        // Where the element content after the last markup starts (-1 when that is not known
        // for sure), and where text may be lifted again after a run that was not.
        var contentStart = -1
        var liftableFrom = 0

        func replace(_ range: Range<Int>, with replacement: [UInt8]) {
            output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[copied..<range.lowerBound]))
            output.append(contentsOf: replacement)
            copied = range.upperBound
        }

        /// Hands on everything up to `end`; false when the receiver wants no more.
        func flush(to end: Int) -> Bool {
            emitted = end
            if output.isEmpty {
                defer { copied = end }
                return copied == end || emit(UnsafeBufferPointer(rebasing: bytes[copied..<end]))
            }
            output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[copied..<end]))
            copied = end
            defer { output.removeAll(keepingCapacity: true) }
            return output.withUnsafeBufferPointer { emit($0) }
        }

        while index < count {
            // Plain text and markup without `&`, `<` or controls: eight bytes at a time (while
            // no chunk boundary falls among them, so chunks end where the byte loop ends them).
            if index + 8 <= count, index + 8 - emitted < chunkSize {
                let word = ByteScan.word(bytes, at: index)
                if ByteScan.mask(of: word, below: 0x20) | ByteScan.mask(of: word, equalTo: ampersand)
                    | ByteScan.mask(of: word, equalTo: lessThan) == 0
                {
                    index += 8
                    continue
                }
            }
            let byte = bytes[index]
            if index - emitted >= chunkSize, byte < 0x80 {
                guard flush(to: index) else { return }
            }
            if byte > 0x3C {
                index += 1
                continue
            }
            if byte == ampersand {
                if let lifted, sawElement, contentStart >= 0, index >= liftableFrom, copied <= contentStart {
                    let text = lifted.liftText(from: contentStart, in: bytes)
                    if let (start, placeholder) = text.lifted {
                        replace(start..<text.end, with: Array("<![CDATA[".utf8) + placeholder + Array("]]>".utf8))
                        index = text.end
                        contentStart = -1
                        continue
                    }
                    liftableFrom = text.end
                }
                let (end, replacement) = try reference(at: index, in: bytes, depth: 0, offset: index)
                if let replacement {
                    if end - index > 2, bytes[index + 1] != UInt8(ascii: "#"), subset.entities.count > 0 {
                        expandedBytes += replacement.count
                        if expandedBytes > limit {
                            let position = XMLPrepass.position(of: index, in: bytes)
                            throw FeedParseError(
                                "refused: entity references expand to more than \(limit) bytes (an entity-expansion attack?)",
                                line: position.line, column: position.column)
                        }
                    }
                    replace(index..<end, with: replacement)
                }
                index = end
                continue
            }
            if byte == lessThan {
                guard index + 1 < count else { break }
                let next = bytes[index + 1]
                if next == UInt8(ascii: "!") {
                    if InternalSubset.matches(bytes, index, "<![CDATA[") {
                        let close = InternalSubset.find(bytes, "]]>", from: index + 9)
                        if let close, let lifted, sawElement, Pass.followsTag(index, in: bytes),
                            let placeholder = lifted.lift(index + 9..<close, in: bytes)
                        {
                            replace(index + 9..<close, with: placeholder)
                        }
                        index = close.map { $0 + 3 } ?? count
                        contentStart = close == nil ? -1 : index
                    } else if InternalSubset.matches(bytes, index, "<!--") {
                        let close = InternalSubset.find(bytes, "-->", from: index + 4)
                        index = close.map { $0 + 3 } ?? count
                        contentStart = close == nil ? -1 : index
                    } else if !sawElement, InternalSubset.matches(bytes, index, "<!DOCTYPE") {
                        let (subset, end) = InternalSubset.read(bytes, from: index)
                        if subset.declarationCount > maxDeclarations {
                            let position = XMLPrepass.position(of: index, in: bytes)
                            throw FeedParseError(
                                "refused: the DTD declares \(subset.declarationCount) entities (more than \(maxDeclarations))",
                                line: position.line, column: position.column)
                        }
                        self.subset = subset
                        index = end
                        contentStart = -1
                    } else {
                        index += 2
                        contentStart = -1
                    }
                } else if next == UInt8(ascii: "?") {
                    let close = InternalSubset.find(bytes, "?>", from: index + 2)
                    index = close.map { $0 + 2 } ?? count
                    contentStart = close == nil ? -1 : index
                } else if next == UInt8(ascii: "/") {
                    contentStart = Pass.endTagEnd(at: index, in: bytes) ?? -1
                    index += 2
                } else if Pass.isNameStart(next) {
                    sawElement = true
                    contentStart = Pass.startTagEnd(at: index, in: bytes) ?? -1
                    if let close = Pass.unclosedVoidElement(at: index, in: bytes) {
                        replace(close..<close + 1, with: [UInt8(ascii: "/"), UInt8(ascii: ">")])
                        index = close + 1
                    } else {
                        index += 2
                    }
                } else {
                    contentStart = -1
                    strayLessThan.note(index)
                    replace(index..<index + 1, with: Array("&lt;".utf8))
                    index += 1
                }
                continue
            }
            if byte < 0x20, byte != 0x09, byte != 0x0A, byte != 0x0D {
                controls.note(index)
                replace(index..<index + 1, with: [0x20])
            }
            index += 1
        }
        _ = flush(to: count)
    }

    /// Reads the reference starting with the `&` at `start`; returns where it ends and its
    /// replacement, or nil to keep it as written. `offset` positions notes (body offsets only).
    private mutating func reference(
        at start: Int, in bytes: UnsafeBufferPointer<UInt8>, depth: Int, offset: Int?
    ) throws(FeedParseError) -> (end: Int, replacement: [UInt8]?) {
        let count = bytes.count
        var index = start + 1
        if index < count, bytes[index] == UInt8(ascii: "#") {
            index += 1
            var hex = false
            if index < count, bytes[index] == UInt8(ascii: "x") || bytes[index] == UInt8(ascii: "X") {
                hex = true
                index += 1
            }
            var value: UInt32 = 0
            var digits = 0
            while index < count, digits <= 8, let digit = Pass.digit(bytes[index], hex: hex) {
                value = value &* (hex ? 16 : 10) &+ digit
                digits += 1
                index += 1
            }
            guard digits > 0, digits <= 8, index < count, bytes[index] == semicolon else {
                if let offset { bare.note(offset) }
                return (start + 1, Array("&amp;".utf8))
            }
            let end = index + 1
            if (0x80...0x9F).contains(value) {
                return (end, Pass.characterReference(Windows1252.scalar(forC1: value), length: end - start))
            }
            if !Pass.isXMLCharacter(value) {
                if let offset { invalidReferences.note(offset) }
                return (end, Pass.characterReference(0xFFFD, length: end - start))
            }
            return (end, nil)
        }
        guard index < count, Pass.isNameStart(bytes[index]) else {
            if let offset { bare.note(offset) }
            return (start + 1, Array("&amp;".utf8))
        }
        let nameStart = index
        while index < count, index - nameStart <= 64, Pass.isNameCharacter(bytes[index]) { index += 1 }
        guard index < count, bytes[index] == semicolon, index - nameStart <= 64 else {
            // HTML's legacy references, which browsers read without a semicolon (`&copy 2024`,
            // `Tom &amp Jerry`); not before `=`, so `?a=1&copy=2` in a URL stays as written.
            if index - nameStart <= 6, index == count || bytes[index] != UInt8(ascii: "=") {
                let name = String(decoding: UnsafeBufferPointer(rebasing: bytes[nameStart..<index]), as: UTF8.self)
                if let codePoint = HTMLEntities.legacyCodePoint(named: name) {
                    if let offset { undeclared.note(offset, name: "&\(name)") }
                    return (index, Pass.characterReference(codePoint, length: index - start))
                }
            }
            if let offset { bare.note(offset) }
            return (start + 1, Array("&amp;".utf8))
        }
        let end = index + 1
        let nameBytes = UnsafeBufferPointer(rebasing: bytes[nameStart..<index])
        if XMLPredefinedEntity.value(named: nameBytes) != nil { return (end, nil) }
        let name = String(decoding: nameBytes, as: UTF8.self)
        switch subset.entities[name] {
        case .text?:
            return (end, try expansion(of: name, depth: depth + 1))
        case .external(let system)?:
            if let offset { external.note(offset, name: "'\(name)' (\(system))") }
            return (end, [])
        case nil:
            if let codePoint = HTMLEntities.codePoint(named: name) {
                if let offset { undeclared.note(offset, name: "&\(name);") }
                return (end, Pass.characterReference(codePoint, length: end - start))
            }
            if let offset { unknown.note(offset, name: "&\(name);") }
            return (start + 1, Array("&amp;".utf8))
        }
    }

    /// The replacement text of an internal entity with its own references resolved, bounded by
    /// the expansion budget and a nesting depth of 16.
    private mutating func expansion(of name: String, depth: Int) throws(FeedParseError) -> [UInt8] {
        if let done = expansions[name] { return done }
        guard depth <= 16 else { throw FeedParseError("refused: entities nested more than 16 deep (at '\(name)')") }
        guard !expanding.contains(name) else { throw FeedParseError("refused: entity '\(name)' refers to itself") }
        guard case .text(let value)? = subset.entities[name] else { return [] }
        expanding.insert(name)
        defer { expanding.remove(name) }
        var result: [UInt8] = []
        try value.withUnsafeBufferPointer { (bytes) throws(FeedParseError) in
            var index = 0
            while index < bytes.count {
                guard bytes[index] == ampersand else {
                    result.append(bytes[index])
                    index += 1
                    continue
                }
                let (end, replacement) = try reference(at: index, in: bytes, depth: depth, offset: nil)
                if let replacement {
                    result.append(contentsOf: replacement)
                } else {
                    result.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[index..<end]))
                }
                index = end
                if result.count > limit {
                    throw FeedParseError("refused: entity '\(name)' expands to more than \(limit) bytes (an entity-expansion attack?)")
                }
            }
        }
        expansions[name] = result
        return result
    }

    func problems(in bytes: [UInt8]) -> [Problem] {
        var problems: [Problem] = []
        bytes.withUnsafeBufferPointer { buffer in
            func add(_ tally: Tally, _ message: (Int) -> String) {
                guard tally.count > 0 else { return }
                let position = XMLPrepass.position(of: tally.first, in: buffer)
                var text = message(tally.count)
                if !tally.names.isEmpty {
                    text += " (" + tally.names.joined(separator: ", ") + (tally.count > tally.names.count ? ", …" : "") + ")"
                }
                problems.append(Problem(.warning, text, line: position.line, column: position.column))
            }
            add(undeclared) { "\($0) undeclared entit\($0 == 1 ? "y" : "ies") replaced" }
            add(unknown) { "\($0) unknown entit\($0 == 1 ? "y" : "ies") kept as text" }
            add(bare) { "\($0) bare '&' escaped" }
            add(external) { "\($0) reference\($0 == 1 ? "" : "s") to external entities not loaded" }
            add(invalidReferences) { "\($0) invalid character reference\($0 == 1 ? "" : "s") replaced with U+FFFD" }
            add(controls) { "\($0) control character\($0 == 1 ? "" : "s") replaced with spaces" }
            add(strayLessThan) { "\($0) stray '<' escaped" }
        }
        return problems
    }

    // MARK: Byte classes

    /// The index after the `>` of the start tag at `start` when it is plainly well-formed
    /// (`<name`, attributes `name="value"` or `name='value'` with no `<` in values, optional
    /// `/`, `>`), so that libxml2 ends it where this does; nil otherwise.
    static func startTagEnd(at start: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        let count = bytes.count
        var index = start + 1
        while index < count, isNameCharacter(bytes[index]) { index += 1 }
        while index < count {
            let afterName = index
            while index < count, isBlank(bytes[index]) { index += 1 }
            guard index < count else { return nil }
            if bytes[index] == UInt8(ascii: ">") { return index + 1 }
            if bytes[index] == UInt8(ascii: "/") {
                return index + 1 < count && bytes[index + 1] == UInt8(ascii: ">") ? index + 2 : nil
            }
            // An attribute, after at least one blank.
            guard index > afterName, isNameStart(bytes[index]) else { return nil }
            while index < count, isNameCharacter(bytes[index]) { index += 1 }
            while index < count, isBlank(bytes[index]) { index += 1 }
            guard index < count, bytes[index] == UInt8(ascii: "=") else { return nil }
            index += 1
            while index < count, isBlank(bytes[index]) { index += 1 }
            guard index < count, bytes[index] == UInt8(ascii: "\"") || bytes[index] == UInt8(ascii: "'") else { return nil }
            let quote = bytes[index]
            index += 1
            while index < count, bytes[index] != quote {
                if bytes[index] == lessThan { return nil }
                index += 1
            }
            guard index < count else { return nil }
            index += 1
        }
        return nil
    }

    /// The index after the `>` of the end tag at `start` when it is `</name>`, blanks allowed
    /// before the `>`; nil otherwise.
    static func endTagEnd(at start: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        let count = bytes.count
        var index = start + 2
        guard index < count, isNameStart(bytes[index]) else { return nil }
        while index < count, isNameCharacter(bytes[index]) { index += 1 }
        while index < count, isBlank(bytes[index]) { index += 1 }
        return index < count && bytes[index] == UInt8(ascii: ">") ? index + 1 : nil
    }

    private static func isBlank(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x09 || byte == 0x0D
    }

    /// Whether the markup at `index` comes right after a `>`, whitespace aside: in element
    /// content, not inside a tag's attribute value.
    static func followsTag(_ index: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var before = index - 1
        while before >= 0, bytes[before] == 0x20 || bytes[before] == 0x0A || bytes[before] == 0x09 || bytes[before] == 0x0D {
            before -= 1
        }
        return before >= 0 && bytes[before] == UInt8(ascii: ">")
    }

    /// When the element starting at `start` is an HTML void element (`br`, `img`, …) whose tag
    /// does not end in `/>` and is not followed by its end tag, the index of its closing `>`.
    static func unclosedVoidElement(at start: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        var index = start + 1
        let nameStart = index
        while index < bytes.count, index - nameStart < 9, isNameCharacter(bytes[index]) { index += 1 }
        let length = index - nameStart
        guard (2...8).contains(length), index < bytes.count, !isNameCharacter(bytes[index]) else { return nil }
        let name = UnsafeBufferPointer(rebasing: bytes[nameStart..<index])
        // The name as `equalsLowercased` compares it, packed into a word, first byte lowest.
        var packed: UInt64 = 0
        for offset in 0..<length { packed |= UInt64(name[offset] | 0x20) << (8 * offset) }
        guard voidElementKeys.contains(packed) else { return nil }
        while index < bytes.count, bytes[index] != UInt8(ascii: ">") {
            if bytes[index] == UInt8(ascii: "\"") || bytes[index] == UInt8(ascii: "'") {
                let quote = bytes[index]
                index += 1
                while index < bytes.count, bytes[index] != quote { index += 1 }
            }
            index += 1
        }
        guard index < bytes.count, bytes[index - 1] != UInt8(ascii: "/") else { return nil }
        // `<br></br>` is well-formed already.
        var after = index + 1
        if after + 1 < bytes.count, bytes[after] == lessThan, bytes[after + 1] == UInt8(ascii: "/") {
            after += 2
            let closeStart = after
            while after < bytes.count, isNameCharacter(bytes[after]) { after += 1 }
            if equalsLowercased(
                UnsafeBufferPointer(rebasing: bytes[closeStart..<after]), String(decoding: name, as: UTF8.self).lowercased())
            {
                return nil
            }
        }
        return index
    }

    private static let voidElements = [
        "br", "hr", "img", "wbr", "col", "area", "base", "meta", "embed", "input", "param", "frame", "keygen", "isindex", "basefont",
    ]

    /// `voidElements` packed into words, first byte lowest (all of them 2 to 8 bytes long).
    private static let voidElementKeys: [UInt64] = voidElements.map { name in
        name.utf8.enumerated().reduce(UInt64(0)) { $0 | UInt64($1.element) << (8 * $1.offset) }
    }

    private static func equalsLowercased(_ bytes: UnsafeBufferPointer<UInt8>, _ name: String) -> Bool {
        guard bytes.count == name.utf8.count else { return false }
        for (byte, expected) in zip(bytes, name.utf8) where byte | 0x20 != expected {
            return false
        }
        return true
    }

    static func isNameStart(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "_"), UInt8(ascii: ":"),
            0x80...0xFF:
            true
        default: false
        }
    }

    static func isNameCharacter(_ byte: UInt8) -> Bool {
        isNameStart(byte) || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "-")
            || byte == UInt8(ascii: ".")
    }

    private static func digit(_ byte: UInt8, hex: Bool) -> UInt32? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f") where hex: UInt32(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F") where hex: UInt32(byte - UInt8(ascii: "A") + 10)
        default: nil
        }
    }

    private static func isXMLCharacter(_ value: UInt32) -> Bool {
        switch value {
        case 0x9, 0xA, 0xD, 0x20...0xD7FF, 0xE000...0xFFFD, 0x10000...0x10FFFF: true
        default: false
        }
    }

    /// `&#N;`, zero-padded to `length` bytes when it would be shorter, so columns stay put.
    private static func characterReference(_ value: UInt32, length: Int) -> [UInt8] {
        let digits = Array(String(value).utf8)
        let padding = max(0, length - digits.count - 3)
        return [ampersand, UInt8(ascii: "#")] + Array(repeating: UInt8(ascii: "0"), count: padding) + digits + [semicolon]
    }
}

/// How often one kind of repair happened, where first, and the first few names involved.
private struct Tally {
    var count = 0
    var first = 0
    var names: [String] = []

    mutating func note(_ offset: Int, name: String? = nil) {
        if count == 0 { first = offset }
        count += 1
        if let name, names.count < 5, !names.contains(name) { names.append(name) }
    }
}

private let ampersand = UInt8(ascii: "&")
private let lessThan = UInt8(ascii: "<")
private let semicolon = UInt8(ascii: ";")

extension XMLPrepass {
    /// Line and column (from 1; columns in characters) of a byte offset in UTF-8.
    static func position(of offset: Int, in bytes: UnsafeBufferPointer<UInt8>) -> (line: Int, column: Int) {
        var line = 1
        var column = 1
        for index in 0..<min(offset, bytes.count) {
            let byte = bytes[index]
            if byte == 0x0A {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
        }
        return (line, column)
    }
}
