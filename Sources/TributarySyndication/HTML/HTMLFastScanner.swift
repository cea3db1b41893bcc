internal import CLibXML2
import TributaryJSON

/// Reads HTML that is already simple with a byte scan, producing exactly the events libxml2's
/// HTML parser produces for it (see `HTMLSAXParser`), and gives up at anything else.
///
/// Most item HTML in real feeds is a run of paragraphs, links, emphasis and images, properly
/// nested; parsing that with libxml2 costs several times more than reading it. The scanner
/// accepts only a subset whose libxml2 reading is fixed and simple:
/// - text without C0 controls (tab and line feed aside), carriage returns or U+FFFE/U+FFFF;
/// - character references `&#N;` / `&#xH;` to characters XML allows, and named references with
///   a semicolon that libxml2 knows (`htmlEntityLookup`), in text and attribute values;
/// - start tags of the elements in `HTMLFastScanner.names`, with ASCII attribute names,
///   double- or single-quoted values or plain unquoted ones, no duplicate attribute, and no
///   element that libxml2 would close implicitly (`<p>` inside `<p>`, `<div>` inside `<p>` …:
///   libxml2's own table decides, through `htmlAutoCloseTag`);
/// - end tags that close the innermost open element.
/// Void elements (libxml2's `empty` ones, and any start tag written `<x/>`) are ended at once;
/// what is open at the end is ended innermost first, as libxml2 does. Everything else —
/// comments, declarations, `<` not starting a tag, other elements, stray or misnested end
/// tags, a tag cut off by the end of the input, nesting deeper than `maximumDepth` — returns
/// false, and the caller parses the input with libxml2 instead. `HTMLFastScannerTests`
/// compares the two event streams on generated and real inputs.
enum HTMLFastScanner {
    /// The elements the scanner reads; any other stops it.
    static let names =
        "a abbr acronym address article aside b big blockquote br center cite code dd del dfn div dl dt em figcaption figure "
        + "font footer h1 h2 h3 h4 h5 h6 header hr i img ins kbd li main nav ol p pre q s samp section small span strike "
        + "strong sub sup tt u ul var"

    /// Open elements beyond this stop the scan (libxml2's own limit is handled by the fallback).
    static let maximumDepth = 100

    /// Scans `input` (UTF-8) into `sink`; false when the input is outside the subset, in which
    /// case the sink has seen part of the events and must be discarded.
    static func scan(_ input: UnsafeBufferPointer<UInt8>, into sink: some HTMLSAXSink) -> Bool {
        guard HTMLSAXParser.libraryInitialized else { return false }
        var scanner = Scanner(input: input, table: table)
        return scanner.run(sink)
    }

    /// One element of the subset: plain values only, so the open-element stack costs no
    /// reference counting.
    struct Element: Sendable {
        /// Its row and column in `Table.closes`.
        let index: Int
        /// libxml2 ends it right after its start tag (`br`, `img`, `hr`).
        let isEmpty: Bool
        /// The lower-case name.
        let key: HTMLNameKey
        /// Where its lower-case, NUL-terminated name starts in `Table.names`.
        let nameOffset: Int
        /// `HTMLElementRule.named(name)`, for the sinks.
        let rule: HTMLElementRule
    }

    /// The elements' names, NUL-terminated, one after the other, in memory that never moves.
    final class Names: @unchecked Sendable {
        // Sendable: written once in `init`, only read afterwards.
        let base: UnsafeMutablePointer<UInt8>

        init(_ bytes: [UInt8]) {
            base = UnsafeMutablePointer<UInt8>.allocate(capacity: bytes.count)
            base.initialize(from: bytes, count: bytes.count)
        }

        deinit {
            base.deallocate()
        }
    }

    /// The elements and, for each pair, whether libxml2 closes an open one when another starts.
    struct Table: Sendable {
        let elements: HTMLNameTable<Element>
        let names: Names
        /// `closes[new * stride + old]`: a start tag `new` implicitly ends an open `old`. The last
        /// column is `body`, the element the fragment is parsed in.
        let closes: [Bool]
        let stride: Int
        /// The NUL-terminated `body`.
        let body: [UInt8]
    }

    static let table: Table = {
        _ = HTMLSAXParser.libraryInitialized
        let list = names.split(separator: " ").map(String.init)
        var elements: [(String, Element)] = []
        var nameBytes: [UInt8] = []
        for (index, name) in list.enumerated() {
            let isEmpty = name.withCString { htmlTagLookup(UnsafeRawPointer($0).assumingMemoryBound(to: xmlChar.self))?.pointee.empty ?? 0 }
            let bytes = Array(name.utf8) + [0]
            let rule = bytes.withUnsafeBufferPointer { HTMLElementRule.named($0.baseAddress!) }
            elements.append(
                (name, Element(index: index, isEmpty: isEmpty != 0, key: HTMLNameKey(name), nameOffset: nameBytes.count, rule: rule)))
            nameBytes += bytes
        }
        let stride = list.count + 1
        var closes = [Bool](repeating: true, count: list.count * stride)
        for (new, newName) in list.enumerated() {
            for (old, oldName) in (list + ["body"]).enumerated() where old != new {
                closes[new * stride + old] = autoCloses(newName, oldName)
            }
        }
        return Table(
            elements: HTMLNameTable(elements), names: Names(nameBytes), closes: closes, stride: stride, body: Array("body".utf8) + [0])
    }()

    /// Whether libxml2 ends an open `old` element when a `new` one starts. `htmlAutoCloseTag`
    /// asks this of a node and its children; a lone node named `new` asks exactly the question.
    private static func autoCloses(_ new: String, _ old: String) -> Bool {
        var newName = Array(new.utf8) + [0]
        var oldName = Array(old.utf8) + [0]
        return newName.withUnsafeMutableBufferPointer { newBytes in
            oldName.withUnsafeMutableBufferPointer { oldBytes in
                var node = xmlNode()
                node.type = XML_ELEMENT_NODE
                node.name = UnsafePointer(newBytes.baseAddress)
                return htmlAutoCloseTag(nil, oldBytes.baseAddress, &node) != 0
            }
        }
    }

    /// The state of one scan.
    private struct Scanner {
        let input: UnsafeBufferPointer<UInt8>
        let table: Table
        var index = 0
        /// The open elements, innermost last.
        var open: [Element] = []
        /// The current tag's attribute names and values, NUL-terminated, one after the other.
        var scratch: [UInt8] = []
        /// Where each attribute's name and value start in `scratch` (-1 for a missing value).
        var offsets: [Int] = []
        /// Decoded text between markup.
        var text: [UInt8] = []

        init(input: UnsafeBufferPointer<UInt8>, table: Table) {
            self.input = input
            self.table = table
        }

        mutating func run(_ sink: some HTMLSAXSink) -> Bool {
            table.body.withUnsafeBufferPointer { sink.startElement(name: $0.baseAddress!, attributes: nil) }
            let count = input.count
            while index < count {
                let byte = input[index]
                if byte == UInt8(ascii: "<") {
                    guard index + 1 < count else { return false }
                    let next = input[index + 1]
                    if ByteScan.isASCIILetter(next) {
                        guard startTag(sink) else { return false }
                    } else if next == UInt8(ascii: "/") {
                        guard endTag(sink) else { return false }
                    } else {
                        return false
                    }
                } else {
                    guard textRun(sink) else { return false }
                }
            }
            while !open.isEmpty {
                open.removeLast()
                sink.endElement()
            }
            sink.endElement()  // body
            return true
        }

        // MARK: Text

        /// Text up to the next tag, references decoded, as one event.
        private mutating func textRun(_ sink: some HTMLSAXSink) -> Bool {
            let count = input.count
            let start = index
            var greaterThan = false
            index = Self.plainTextEnd(input, from: index, greaterThan: &greaterThan)
            if index == count || input[index] == UInt8(ascii: "<") {
                let run = UnsafeBufferPointer(rebasing: input[start..<index])
                if greaterThan { sink.plainCharacters(run) } else { sink.verbatimCharacters(run) }
                return true
            }
            // References, or bytes to check more closely: decode into `text`.
            text.removeAll(keepingCapacity: true)
            text.append(contentsOf: UnsafeBufferPointer(rebasing: input[start..<index]))
            while index < count {
                let byte = input[index]
                if Self.isPlainText(byte) {
                    let run = index
                    index = Self.plainTextEnd(input, from: index, greaterThan: &greaterThan)
                    text.append(contentsOf: UnsafeBufferPointer(rebasing: input[run..<index]))
                } else if byte == UInt8(ascii: "<") {
                    break
                } else if byte == UInt8(ascii: "&") {
                    guard let scalar = reference() else { return false }
                    UTF8Encoding.append(scalar, to: &text)
                } else if byte == 0xEF {
                    guard !ByteScan.isNonCharacter(input, at: index) else { return false }
                    text.append(byte)
                    index += 1
                } else {
                    return false  // a control character
                }
            }
            text.withUnsafeBufferPointer { sink.characters($0) }
            return true
        }

        /// The index of the first byte at or after `start` that is not plain text (see
        /// `isPlainText`), sixteen bytes at a time where it can; `greaterThan` is set when the
        /// text before it has a `>`. A tab, line feed or `>` (plain, but flagged) is stepped over
        /// and the scan goes on sixteen at a time.
        private static func plainTextEnd(_ input: UnsafeBufferPointer<UInt8>, from start: Int, greaterThan: inout Bool) -> Int {
            var index = start
            let count = input.count
            var sawGreaterThan = false
            while index < count {
                if index + 16 <= count {
                    let pair = ByteScan.pair(input, at: index)
                    // `>`, rare in text, is flagged too and noted below.
                    // `<` (0x3C) and `>` (0x3E) are the bytes that read 0x3E with 0x02 set.
                    let special =
                        ByteScan.mask(of: pair, below: 0x20)
                        | ByteScan.mask(of: pair | ByteScan.Pair(repeating: 0x0202_0202_0202_0202), equalTo: 0x3E)
                        | ByteScan.mask(of: pair, equalTo: UInt8(ascii: "&")) | ByteScan.mask(of: pair, equalTo: 0xEF)
                    guard ByteScan.any(special) else {
                        index += 16
                        continue
                    }
                    index += ByteScan.firstFlag(special)
                }
                let byte = input[index]
                guard isPlainText(byte) else { break }
                if byte == UInt8(ascii: ">") { sawGreaterThan = true }
                index += 1
            }
            if sawGreaterThan { greaterThan = true }
            return index
        }

        /// Bytes that stand for themselves in text: not `<`, `&`, a C0 control other than tab
        /// and line feed, or 0xEF (which may start U+FFFE or U+FFFF).
        private static func isPlainText(_ byte: UInt8) -> Bool {
            byte >= 0x20 ? byte != UInt8(ascii: "<") && byte != UInt8(ascii: "&") && byte != 0xEF : byte == 0x09 || byte == 0x0A
        }

        /// Bytes of a quoted attribute value that stand for themselves: not the quote, `&`, `<`,
        /// a C0 control or 0xEF (the checks of the value loop, which sees those).
        private static func isPlainValue(_ byte: UInt8, quote: UInt8) -> Bool {
            byte >= 0x20 && byte != quote && byte != UInt8(ascii: "&") && byte != UInt8(ascii: "<") && byte != 0xEF
        }

        /// The character of the reference at `index` (at `&`), moving past it; nil when it is not
        /// one the subset allows.
        private mutating func reference() -> UInt32? {
            let count = input.count
            var cursor = index + 1
            guard cursor < count else { return nil }
            var value: UInt32 = 0
            if input[cursor] == UInt8(ascii: "#") {
                cursor += 1
                let hex = cursor < count && input[cursor] | 0x20 == UInt8(ascii: "x")
                if hex { cursor += 1 }
                let digitsStart = cursor
                while cursor < count, cursor - digitsStart < 7 {
                    let byte = input[cursor]
                    if byte &- 0x30 < 10 {
                        value = value * (hex ? 16 : 10) + UInt32(byte &- 0x30)
                    } else if hex, byte | 0x20 &- 0x61 < 6 {
                        value = value * 16 + UInt32((byte | 0x20) &- 0x61 + 10)
                    } else {
                        break
                    }
                    cursor += 1
                }
                guard cursor > digitsStart, cursor < count, input[cursor] == UInt8(ascii: ";") else { return nil }
                guard
                    value == 0x09 || value == 0x0A || (0x20...0xD7FF).contains(value) || (0xE000...0xFFFD).contains(value)
                        || (0x10000...0x10FFFF).contains(value)
                else { return nil }
            } else {
                let nameStart = cursor
                guard ByteScan.isASCIILetter(input[cursor]) else { return nil }
                while cursor < count, cursor - nameStart < 32, ByteScan.isASCIIAlphanumeric(input[cursor]) { cursor += 1 }
                guard cursor < count, input[cursor] == UInt8(ascii: ";") else { return nil }
                guard let found = HTMLSAXParser.entity(named: UnsafeBufferPointer(rebasing: input[nameStart..<cursor])) else { return nil }
                value = found
            }
            index = cursor + 1
            return value
        }

        // MARK: Tags

        /// A start tag at `index` (`<` then a letter).
        private mutating func startTag(_ sink: some HTMLSAXSink) -> Bool {
            let count = input.count
            var cursor = index + 1
            let nameStart = cursor
            while cursor < count, ByteScan.isASCIIAlphanumeric(input[cursor]) { cursor += 1 }
            guard cursor < count, Self.endsName(input[cursor]), cursor - nameStart <= HTMLNameKey.maximumLength,
                let element = lookUp(nameStart..<cursor)
            else { return false }
            scratch.removeAll(keepingCapacity: true)
            offsets.removeAll(keepingCapacity: true)
            var selfClosing = false
            while true {
                while cursor < count, Self.isBlank(input[cursor]) { cursor += 1 }
                guard cursor < count else { return false }
                let byte = input[cursor]
                if byte == UInt8(ascii: ">") {
                    cursor += 1
                    break
                }
                if byte == UInt8(ascii: "/") {
                    guard cursor + 1 < count, input[cursor + 1] == UInt8(ascii: ">") else { return false }
                    cursor += 2
                    selfClosing = true
                    break
                }
                guard let next = attribute(at: cursor) else { return false }
                cursor = next
            }
            let top = open.last?.index ?? table.stride - 1
            guard !table.closes[element.index * table.stride + top], open.count < HTMLFastScanner.maximumDepth else { return false }
            index = cursor
            emitStart(element, sink)
            if selfClosing || element.isEmpty {
                sink.endElement()
            } else {
                open.append(element)
            }
            return true
        }

        /// One attribute starting at `start`, added to `scratch`; the index after it, or nil.
        private mutating func attribute(at start: Int) -> Int? {
            let count = input.count
            var cursor = start
            guard ByteScan.isASCIILetter(input[cursor]) else { return nil }
            while cursor < count,
                ByteScan.isASCIIAlphanumeric(input[cursor]) || input[cursor] == UInt8(ascii: "-")
                    || input[cursor] == UInt8(ascii: "_")
            {
                cursor += 1
            }
            guard cursor < count, cursor - start <= 64, Self.isBlank(input[cursor]) || Self.endsAttributeName(input[cursor]) else {
                return nil
            }
            // A duplicate name: libxml2 drops the later one.
            let nameOffset = scratch.count
            for byte in UnsafeBufferPointer(rebasing: input[start..<cursor]) { scratch.append(ByteScan.lowercasedASCII(byte)) }
            scratch.append(0)
            var pair = 0
            while pair < offsets.count {
                if Self.equalNames(scratch, offsets[pair], nameOffset) { return nil }
                pair += 2
            }
            offsets.append(nameOffset)
            while cursor < count, Self.isBlank(input[cursor]) { cursor += 1 }
            guard cursor < count else { return nil }
            guard input[cursor] == UInt8(ascii: "=") else {
                offsets.append(-1)
                return cursor
            }
            cursor += 1
            while cursor < count, Self.isBlank(input[cursor]) { cursor += 1 }
            guard cursor < count else { return nil }
            offsets.append(scratch.count)
            let quote = input[cursor]
            if quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") {
                cursor += 1
                while cursor < count, input[cursor] != quote {
                    let byte = input[cursor]
                    if byte == UInt8(ascii: "&") {
                        index = cursor
                        guard let scalar = reference() else { return nil }
                        UTF8Encoding.append(scalar, to: &scratch)
                        cursor = index
                        continue
                    }
                    guard byte >= 0x20 || byte == 0x09 || byte == 0x0A, byte != UInt8(ascii: "<"),
                        byte != 0xEF || !ByteScan.isNonCharacter(input, at: cursor)
                    else { return nil }
                    // The bytes up to the next one to look at closely, appended at once.
                    let run = cursor
                    cursor += 1
                    while cursor < count, Self.isPlainValue(input[cursor], quote: quote) { cursor += 1 }
                    scratch.append(contentsOf: UnsafeBufferPointer(rebasing: input[run..<cursor]))
                }
                guard cursor < count else { return nil }
                cursor += 1
            } else {
                let valueStart = cursor
                while cursor < count, Self.isUnquotedValue(input[cursor]) {
                    scratch.append(input[cursor])
                    cursor += 1
                }
                guard cursor > valueStart, cursor < count, Self.isBlank(input[cursor]) || input[cursor] == UInt8(ascii: ">") else {
                    return nil
                }
            }
            scratch.append(0)
            return cursor
        }

        private mutating func emitStart(_ element: Element, _ sink: some HTMLSAXSink) {
            let name = UnsafePointer(table.names.base + element.nameOffset)
            guard !offsets.isEmpty else {
                sink.startElement(name: name, attributes: nil, rule: element.rule)
                return
            }
            offsets.withUnsafeBufferPointer { offsets in
                scratch.withUnsafeBufferPointer { bytes in
                    withUnsafeTemporaryAllocation(of: UnsafePointer<UInt8>?.self, capacity: offsets.count + 2) { pointers in
                        for (position, offset) in offsets.enumerated() {
                            pointers[position] = offset < 0 ? nil : bytes.baseAddress! + offset
                        }
                        pointers[offsets.count] = nil
                        pointers[offsets.count + 1] = nil
                        sink.startElement(name: name, attributes: pointers.baseAddress!, rule: element.rule)
                    }
                }
            }
        }

        /// An end tag at `index` (`</`); only one closing the innermost open element is read.
        private mutating func endTag(_ sink: some HTMLSAXSink) -> Bool {
            let count = input.count
            var cursor = index + 2
            let nameStart = cursor
            guard cursor < count, ByteScan.isASCIILetter(input[cursor]) else { return false }
            while cursor < count, ByteScan.isASCIIAlphanumeric(input[cursor]) { cursor += 1 }
            let nameEnd = cursor
            while cursor < count, Self.isBlank(input[cursor]) { cursor += 1 }
            guard cursor < count, input[cursor] == UInt8(ascii: ">"), let top = open.last,
                HTMLNameKey(UnsafeBufferPointer(rebasing: input[nameStart..<nameEnd])) == top.key
            else { return false }
            index = cursor + 1
            open.removeLast()
            sink.endElement()
            return true
        }

        /// The element named by `range` of the input (any case).
        private func lookUp(_ range: Range<Int>) -> Element? {
            HTMLNameKey(UnsafeBufferPointer(rebasing: input[range])).flatMap { table.elements.value(for: $0) }
        }

        private static func equalNames(_ bytes: [UInt8], _ first: Int, _ second: Int) -> Bool {
            var offset = 0
            while bytes[first + offset] == bytes[second + offset] {
                if bytes[first + offset] == 0 { return true }
                offset += 1
            }
            return false
        }

        /// Space, tab or line feed (a carriage return stops the scan elsewhere).
        private static func isBlank(_ byte: UInt8) -> Bool {
            byte == 0x20 || byte == 0x09 || byte == 0x0A
        }

        private static func endsName(_ byte: UInt8) -> Bool {
            isBlank(byte) || byte == UInt8(ascii: ">") || byte == UInt8(ascii: "/")
        }

        private static func endsAttributeName(_ byte: UInt8) -> Bool {
            byte == UInt8(ascii: "=") || byte == UInt8(ascii: ">") || byte == UInt8(ascii: "/")
        }

        /// Bytes of an unquoted attribute value the subset allows: printable ASCII other than
        /// quotes, `<`, `=`, `>`, `&` and the backtick.
        private static func isUnquotedValue(_ byte: UInt8) -> Bool {
            byte > 0x20 && byte < 0x7F && byte != UInt8(ascii: "\"") && byte != UInt8(ascii: "'") && byte != UInt8(ascii: "<")
                && byte != UInt8(ascii: "=") && byte != UInt8(ascii: ">") && byte != UInt8(ascii: "&") && byte != UInt8(ascii: "`")
        }
    }
}
