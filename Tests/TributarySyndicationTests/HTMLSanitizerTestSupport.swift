import TestSupport

/// Checks on sanitizer output that hold whatever the input was.
enum HTMLSanitizerOutputShape {
    static let voidElements: Set<Substring> = ["br", "hr", "img", "source", "track", "col"]

    /// Nil when `html` is a balanced fragment: every tag lower-case, every non-void element
    /// closed in order, attribute values double-quoted, no raw `<` or `>` in text. Otherwise
    /// a description of the first problem.
    static func problem(in html: String) -> String? {
        var open: [Substring] = []
        var rest = Substring(html)
        while let index = rest.firstIndex(where: { $0 == "<" || $0 == ">" }) {
            guard rest[index] == "<" else { return "raw > in text at \(rest[index...].prefix(40))" }
            guard let close = rest[index...].firstIndex(of: ">") else { return "unterminated tag at \(rest[index...].prefix(40))" }
            let tag = rest[rest.index(after: index)..<close]
            rest = rest[rest.index(after: close)...]
            if tag.contains("<") { return "< inside tag \(tag)" }
            if tag.filter({ $0 == "\"" }).count % 2 != 0 { return "unbalanced quotes in \(tag)" }
            if tag.hasPrefix("/") {
                let name = tag.dropFirst()
                guard open.popLast() == name else { return "</\(name)> does not close the innermost element" }
                continue
            }
            let name = tag.prefix(while: { $0 != " " })
            guard !name.isEmpty, name.allSatisfy({ $0.isASCII && ($0.isLowercase || $0.isNumber) }) else {
                return "bad tag name in <\(tag)>"
            }
            if !voidElements.contains(name) { open.append(name) }
        }
        return open.isEmpty ? nil : "unclosed: \(open)"
    }

    /// How deeply elements nest in a balanced fragment.
    static func depth(of html: String) -> Int {
        var depth = 0
        var deepest = 0
        var rest = Substring(html)
        while let index = rest.firstIndex(of: "<"), let close = rest[index...].firstIndex(of: ">") {
            let tag = rest[rest.index(after: index)..<close]
            rest = rest[rest.index(after: close)...]
            if tag.hasPrefix("/") {
                depth -= 1
            } else if !voidElements.contains(tag.prefix(while: { $0 != " " })) {
                depth += 1
                deepest = max(deepest, depth)
            }
        }
        return deepest
    }
}

/// A small deterministic generator for junk input (SplitMix64).
struct HTMLSanitizerJunkGenerator: RandomNumberGenerator {
    private var random: SeededGenerator

    init(seed: UInt64) {
        random = SeededGenerator(seed: seed)
    }

    mutating func next() -> UInt64 { random.next() }

    /// `count` bytes biased towards markup: brackets, quotes, ampersands, names, high bytes, NUL.
    mutating func markupBytes(count: Int) -> [UInt8] {
        let alphabet = Array("<<<>>/=\"'&#;!-?[] \n\tabcdiprstvxyz0123456789".utf8)
        let words = [
            "<script>", "</script>", "<svg>", "<a href=", "javascript:", "<!--", "-->", "<![CDATA[", "<div>", "</div>", "&#x", "<p>",
            "<style>", "<img src=x onerror=", "<table>", "<body>", "</html>",
        ].map { Array($0.utf8) }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(count + 32)
        while bytes.count < count {
            switch next() % 10 {
            case 0: bytes.append(contentsOf: words[Int(next() % UInt64(words.count))])
            case 1: bytes.append(UInt8(truncatingIfNeeded: next()))
            case 2: bytes.append(0)
            default: bytes.append(alphabet[Int(next() % UInt64(alphabet.count))])
            }
        }
        return bytes
    }
}
