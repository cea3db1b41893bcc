/// An error found while reading YAML, located by file name and a 1-based line and column (columns in Unicode scalars).
public struct YAMLError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file name exactly as the caller passed it to ``YAML/parse(_:file:)``.
    public var file: String
    /// Where the problem is: line and column from 1, columns in Unicode scalars.
    public var mark: Mark
    /// What went wrong, e.g. `did not find expected key (while parsing a block mapping that started at 2:3)`.
    public var message: String

    /// Creates an error for `file` at `mark` with a human-readable `message`.
    public init(file: String, mark: Mark, message: String) {
        self.file = file
        self.mark = mark
        self.message = message
    }

    /// The error in compiler style: `feeds.yaml:3:5: error: message`.
    public var description: String { "\(file):\(mark.line):\(mark.column): error: \(message)" }

    /// The description, then the offending source line and a caret under the error's column.
    ///
    /// Pass the same text that was parsed. The caret is indented by display width: tabs are kept,
    /// East Asian wide characters and emoji take two cells, combining marks none. If the line does
    /// not exist in `source`, this is just ``description``.
    public func rendered(source: String) -> String {
        guard let line = Self.line(mark.line, of: source) else { return description }
        var caret = ""
        var scalars = line.unicodeScalars.makeIterator()
        for _ in 1..<max(mark.column, 1) {
            guard let scalar = scalars.next() else {
                caret += " "
                continue
            }
            caret += scalar == "\t" ? "\t" : String(repeating: " ", count: Self.displayWidth(of: scalar))
        }
        return "\(description)\n\(line)\n\(caret)^"
    }

    /// The text of 1-based line `number`, splitting on LF, CRLF and lone CR and ignoring a leading BOM.
    private static func line(_ number: Int, of source: String) -> String? {
        var current = 1
        var text = String.UnicodeScalarView()
        var previousWasCR = false
        for (index, scalar) in source.unicodeScalars.enumerated() {
            if index == 0 && scalar == "\u{FEFF}" { continue }
            if scalar == "\n" && previousWasCR {
                previousWasCR = false
                continue
            }
            previousWasCR = scalar == "\r"
            if scalar == "\n" || scalar == "\r" {
                if current == number { return String(text) }
                current += 1
                continue
            }
            if current == number { text.append(scalar) }
        }
        return current == number ? String(text) : nil
    }

    /// Terminal cells a scalar usually occupies: 0 for combining marks, 2 for wide CJK and emoji, else 1.
    private static func displayWidth(of scalar: Unicode.Scalar) -> Int {
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format: return 0
        default: break
        }
        if scalar.properties.isEmojiPresentation { return 2 }
        switch scalar.value {
        case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF,
            0xA000...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60,
            0xFFE0...0xFFE6, 0x20000...0x3FFFD:
            return 2
        default:
            return 1
        }
    }
}
