import Testing
import TributaryJSON

@Suite("Byte writer")
struct ByteWriterTests {
    @Test("writing a value member by member gives JSONWriter's bytes", arguments: [JSONWriter.Style.compact, .pretty])
    func sameAsJSONWriter(style: JSONWriter.Style) {
        for seed: UInt64 in [1, 2, 3, 0x5EED] {
            let document = DocumentGenerator.document(seed: seed, members: 120)
            var writer = JSONByteWriter(style: style)
            writer.value(document)
            #expect(writer.finish() == JSONWriter.bytes(from: document, style: style))
        }
        for value: JSONValue in [[], [:], .null, "text", [[:], [[]]], ["a": [:], "b": []]] {
            var writer = JSONByteWriter(style: style)
            writer.value(value)
            #expect(writer.finish() == JSONWriter.bytes(from: value, style: style))
        }
    }

    @Test("the calls for containers, keys and scalars lay out like JSONWriter")
    func calls() {
        var writer = JSONByteWriter(style: .pretty)
        writer.beginObject()
        writer.key("n")
        writer.number(42)
        writer.key("list")
        writer.beginArray()
        writer.bool(true)
        writer.null()
        Array("é\"".utf8).withUnsafeBufferPointer { writer.string(utf8: $0) }
        writer.endArray()
        writer.key("empty")
        writer.beginObject()
        writer.endObject()
        writer.endObject()
        let expected: JSONValue = ["n": 42, "list": [true, .null, "é\""], "empty": [:]]
        #expect(writer.finish() == JSONWriter.bytes(from: expected, style: .pretty))
    }

    /// Long strings put every special byte at every offset of the sixteen- and eight-byte runs
    /// the escaper skips; the result must equal a scalar-by-scalar escape.
    @Test("the word-at-a-time escaper equals a character-by-character one on generated strings")
    func escaperMatchesReference() throws {
        var rng = SplitMix64(state: 0xE5CA_9E)
        for length in [0, 1, 7, 8, 9, 15, 16, 17, 31, 64, 200, 1000] {
            for _ in 0..<40 {
                var text = ""
                for _ in 0..<length {
                    // Mostly plain text, so specials land inside long safe runs.
                    text +=
                        rng.below(4) == 0
                        ? DocumentGenerator.scalarPool[rng.below(DocumentGenerator.scalarPool.count)]
                        : ["a", "b", "中", "é", " "][rng.below(5)]
                }
                let written = JSONWriter.bytes(from: .string(text), style: .compact)
                #expect(written == Array(Self.referenceEscape(text).utf8), "\(text.debugDescription)")
                #expect(try JSON.parse(String(decoding: written, as: UTF8.self)) == .string(text))
            }
        }
    }

    /// The escaping JSONWriter documents, one scalar at a time.
    static func referenceEscape(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\u{8}": out += "\\b"
            case "\u{C}": out += "\\f"
            case "\u{2028}": out += "\\u2028"
            case "\u{2029}": out += "\\u2029"
            case let control where control.value < 0x20:
                let hex = String(control.value, radix: 16)
                out += "\\u00" + (hex.count == 1 ? "0" : "") + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
