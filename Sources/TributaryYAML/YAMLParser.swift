internal import CYAML

/// Drives libyaml's event parser over one byte buffer and feeds the events to a ``YAMLComposer``.
///
/// All libyaml resources live inside ``parse()``: the `yaml_parser_t` is heap-allocated (libyaml
/// keeps a pointer to the parser itself as the string reader's context, so it must not move),
/// initialised and deleted there, and every event is deleted right after it is copied.
struct YAMLParser: Sendable {
    /// The raw input, UTF-8 (optionally with a byte order mark).
    let bytes: [UInt8]
    /// The file name used in errors, as given by the caller.
    let file: String

    /// Parses the single document in `bytes`; returns nil for an empty stream.
    func parse() throws(YAMLError) -> YAMLNode? {
        // An empty array may have no base address; it is an empty stream either way.
        guard !bytes.isEmpty else { return nil }
        return try bytes.withUnsafeBufferPointer { (input) throws(YAMLError) -> YAMLNode? in
            let parser = UnsafeMutablePointer<yaml_parser_t>.allocate(capacity: 1)
            defer { parser.deallocate() }
            guard yaml_parser_initialize(parser) != 0 else {
                throw YAMLError(
                    file: file, mark: Mark(line: 1, column: 1), message: "out of memory while creating the YAML parser")
            }
            defer { yaml_parser_delete(parser) }
            yaml_parser_set_input_string(parser, input.baseAddress, input.count)

            var composer = YAMLComposer(file: file)
            while true {
                let event = try nextEvent(parser)
                if try composer.handle(event) { break }
            }
            return composer.root
        }
    }

    /// Reads one event from libyaml, copies it into Swift values and frees the C event.
    private func nextEvent(_ parser: UnsafeMutablePointer<yaml_parser_t>) throws(YAMLError) -> YAMLEvent {
        var event = yaml_event_t()
        guard yaml_parser_parse(parser, &event) != 0 else {
            throw error(from: parser.pointee)
        }
        defer { yaml_event_delete(&event) }
        let mark = Self.mark(event.start_mark)

        switch event.type {
        case YAML_STREAM_START_EVENT:
            return .streamStart
        case YAML_STREAM_END_EVENT:
            return .streamEnd
        case YAML_DOCUMENT_START_EVENT:
            return .documentStart(mark: mark)
        case YAML_DOCUMENT_END_EVENT:
            return .documentEnd
        case YAML_ALIAS_EVENT:
            return .alias(anchor: Self.string(event.data.alias.anchor) ?? "", mark: mark)
        case YAML_SCALAR_EVENT:
            let scalar = event.data.scalar
            // The value may contain NUL (from a "\0" escape), so use the explicit length.
            let value: String
            if let pointer = scalar.value, scalar.length > 0 {
                value = String(decoding: UnsafeBufferPointer(start: pointer, count: Int(scalar.length)), as: UTF8.self)
            } else {
                value = ""
            }
            return .scalar(
                value: value, style: Self.style(scalar.style), tag: Self.string(scalar.tag),
                anchor: Self.string(scalar.anchor), mark: mark)
        case YAML_SEQUENCE_START_EVENT:
            let start = event.data.sequence_start
            return .sequenceStart(tag: Self.string(start.tag), anchor: Self.string(start.anchor), mark: mark)
        case YAML_SEQUENCE_END_EVENT:
            return .sequenceEnd
        case YAML_MAPPING_START_EVENT:
            let start = event.data.mapping_start
            return .mappingStart(tag: Self.string(start.tag), anchor: Self.string(start.anchor), mark: mark)
        case YAML_MAPPING_END_EVENT:
            return .mappingEnd
        default:
            throw YAMLError(file: file, mark: mark, message: "unexpected libyaml event \(event.type.rawValue)")
        }
    }

    /// Builds a ``YAMLError`` from the parser's error fields, phrased like libyaml's own messages.
    private func error(from parser: yaml_parser_t) -> YAMLError {
        let problem = Self.string(parser.problem) ?? "unknown error"
        switch parser.error {
        case YAML_READER_ERROR:
            // Reader errors carry a byte offset into the raw input instead of a mark.
            var message = problem
            if parser.problem_value != -1 {
                message += " (#x\(String(parser.problem_value, radix: 16, uppercase: true)))"
            }
            return YAMLError(
                file: file, mark: Self.mark(atByteOffset: Int(parser.problem_offset), in: bytes), message: message)
        case YAML_SCANNER_ERROR, YAML_PARSER_ERROR:
            let problemMark = Self.mark(parser.problem_mark)
            var message = problem
            if let context = Self.string(parser.context) {
                let contextMark = Self.mark(parser.context_mark)
                if contextMark == problemMark {
                    message += " (\(context))"
                } else {
                    message += " (\(context) that started at \(contextMark))"
                }
            }
            return YAMLError(file: file, mark: problemMark, message: message)
        case YAML_MEMORY_ERROR:
            return YAMLError(file: file, mark: Self.mark(parser.mark), message: "out of memory while parsing YAML")
        default:
            return YAMLError(file: file, mark: Self.mark(parser.problem_mark), message: problem)
        }
    }

    /// Converts a 0-based libyaml mark to a 1-based ``Mark``.
    ///
    /// libyaml's column already counts characters (Unicode scalars), not bytes, and skips a BOM.
    static func mark(_ mark: yaml_mark_t) -> Mark {
        Mark(line: Int(mark.line) + 1, column: Int(mark.column) + 1)
    }

    /// Computes the 1-based mark of a raw byte offset (used for reader errors, which have no mark).
    static func mark(atByteOffset offset: Int, in bytes: [UInt8]) -> Mark {
        var line = 1
        var column = 1
        var index = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        let end = min(offset, bytes.count)
        while index < end {
            let byte = bytes[index]
            if byte == 0x0A || (byte == 0x0D && (index + 1 >= bytes.count || bytes[index + 1] != 0x0A)) {
                line += 1
                column = 1
            } else if byte != 0x0D && byte & 0xC0 != 0x80 {
                column += 1  // count lead bytes only, i.e. Unicode scalars
            }
            index += 1
        }
        return Mark(line: line, column: column)
    }

    /// Copies a NUL-terminated C string (tags, anchors, messages), or returns nil for NULL.
    static func string(_ pointer: UnsafePointer<CChar>?) -> String? {
        guard let pointer else { return nil }
        return String(cString: pointer)
    }

    /// Copies a NUL-terminated libyaml character string, or returns nil for NULL.
    static func string(_ pointer: UnsafeMutablePointer<yaml_char_t>?) -> String? {
        guard let pointer else { return nil }
        return String(cString: pointer)
    }

    /// Maps libyaml's scalar style to ``ScalarStyle``.
    static func style(_ style: yaml_scalar_style_t) -> ScalarStyle {
        switch style {
        case YAML_SINGLE_QUOTED_SCALAR_STYLE: .singleQuoted
        case YAML_DOUBLE_QUOTED_SCALAR_STYLE: .doubleQuoted
        case YAML_LITERAL_SCALAR_STYLE: .literal
        case YAML_FOLDED_SCALAR_STYLE: .folded
        default: .plain
        }
    }
}
