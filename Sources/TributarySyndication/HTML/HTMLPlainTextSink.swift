import TributaryModel

/// The text extractor's side of the parse: keeps the text the sanitizer would keep, with
/// whitespace collapsed to single spaces and block boundaries read as whitespace.
final class HTMLPlainTextSink: HTMLSAXSink {
    /// All mutable state in one struct, accessed without a dynamic exclusivity check: only the
    /// event methods touch it, one access each, and nothing they call comes back to the sink.
    @exclusivity(unchecked) private var state: State

    init(inputSize: Int) {
        state = State(inputSize: inputSize)
    }

    /// The collected text, with no whitespace at either end.
    func finish() -> String {
        String(validUTF8: state.bytes)
    }

    /// `finish()` as UTF-8 bytes.
    var bytes: [UInt8] { state.bytes }

    func startElement(name: UnsafePointer<UInt8>, attributes: UnsafeMutablePointer<UnsafePointer<UInt8>?>?) {
        state.startElement { HTMLElementRule.named(name) }
    }

    func startElement(name: UnsafePointer<UInt8>, attributes: UnsafeMutablePointer<UnsafePointer<UInt8>?>?, rule: HTMLElementRule) {
        state.startElement { rule }
    }

    func endElement() {
        state.endElement()
    }

    func characters(_ text: UnsafeBufferPointer<UInt8>) {
        state.characters(text)
    }

    private struct State {
        var bytes: [UInt8] = []
        /// Whitespace or a block boundary came after the last byte written; it becomes one space
        /// before the next visible character.
        var pendingSpace = false
        /// For each open element outside dropped ones, whether it is a block.
        var openIsBlock: [Bool] = []
        /// How deep inside a dropped element (`script`, `style`, …) the parse is; 0 outside.
        var droppedDepth = 0

        init(inputSize: Int) {
            bytes.reserveCapacity(inputSize / 2)
        }

        /// An element opens; `rule` is looked up only outside dropped elements.
        mutating func startElement(rule: () -> HTMLElementRule) {
            if droppedDepth > 0 {
                droppedDepth += 1
                return
            }
            let rule = rule()
            if rule.action == .drop {
                droppedDepth = 1
                return
            }
            openIsBlock.append(rule.isBlock)
            if rule.isBlock { pendingSpace = true }
        }

        mutating func endElement() {
            if droppedDepth > 0 {
                droppedDepth -= 1
            } else if openIsBlock.popLast() == true {
                pendingSpace = true
            }
        }

        mutating func characters(_ text: UnsafeBufferPointer<UInt8>) {
            guard droppedDepth == 0 else { return }
            var index = 0
            let count = text.count
            while index < count {
                let byte = text[index]
                if Self.isPlain(byte) {
                    // A single space between plain bytes stays as it is, so a sentence is one run.
                    var end = index + 1
                    while end < count {
                        if Self.isPlain(text[end]) {
                            end += 1
                        } else if text[end] == 0x20, end + 1 < count, Self.isPlain(text[end + 1]) {
                            end += 2
                        } else {
                            break
                        }
                    }
                    appendVisible(UnsafeBufferPointer(rebasing: text[index..<end]))
                    index = end
                } else if byte <= 0x20 {
                    // ASCII whitespace collapses; other C0 controls are not allowed in XML 1.0.
                    if byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D || byte == 0x0C { pendingSpace = true }
                    index += 1
                } else if byte == 0xC2, index + 1 < count, text[index + 1] == 0xA0 {
                    pendingSpace = true  // U+00A0 NO-BREAK SPACE reads as a plain space
                    index += 2
                } else if byte == 0xEF, ByteScan.isNonCharacter(text, at: index) {
                    index += 3  // U+FFFE and U+FFFF are not allowed in XML 1.0
                } else {
                    appendVisible(UnsafeBufferPointer(rebasing: text[index..<index + 1]))
                    index += 1
                }
            }
        }

        /// Bytes that are neither whitespace, controls, nor the lead byte of a character with a
        /// special meaning here.
        private static func isPlain(_ byte: UInt8) -> Bool {
            byte > 0x20 && byte != 0xC2 && byte != 0xEF
        }

        private mutating func appendVisible(_ run: UnsafeBufferPointer<UInt8>) {
            if pendingSpace {
                if !bytes.isEmpty { bytes.append(0x20) }
                pendingSpace = false
            }
            bytes.append(contentsOf: run)
        }
    }
}
