/// Entry points for parsing JSON documents.
///
/// Parsing is strict RFC 8259 except for documented leniencies: a leading BOM is skipped,
/// raw control characters inside strings are accepted, and invalid UTF-8 or lone surrogates
/// inside strings become U+FFFD. Nesting is limited to 512 levels.
public enum JSON {
    /// Parses a UTF-8 JSON document from any byte collection (`[UInt8]`, `Data`, `ArraySlice`, …).
    ///
    /// Collections with contiguous storage (including `Data` and arrays) are parsed in place without copying.
    public static func parse(_ bytes: some Collection<UInt8>) throws(JSONParseError) -> JSONValue {
        let result = bytes.withContiguousStorageIfAvailable { buffer in
            Result { () throws(JSONParseError) -> JSONValue in try JSONParser.parse(buffer) }
        }
        if let result {
            return try result.get()
        }
        return try parse(bytes: Array(bytes))
    }

    /// Parses a JSON document from a string.
    public static func parse(_ text: String) throws(JSONParseError) -> JSONValue {
        let result = text.utf8.withContiguousStorageIfAvailable { buffer in
            Result { () throws(JSONParseError) -> JSONValue in try JSONParser.parse(buffer) }
        }
        if let result {
            return try result.get()
        }
        return try parse(bytes: Array(text.utf8))
    }

    /// Parses a UTF-8 JSON document from raw memory without copying it.
    public static func parse(_ buffer: UnsafeRawBufferPointer) throws(JSONParseError) -> JSONValue {
        try JSONParser.parse(buffer.assumingMemoryBound(to: UInt8.self))
    }

    /// Parses a UTF-8 JSON document from a typed buffer without copying it.
    public static func parse(_ buffer: UnsafeBufferPointer<UInt8>) throws(JSONParseError) -> JSONValue {
        try JSONParser.parse(buffer)
    }

    private static func parse(bytes: [UInt8]) throws(JSONParseError) -> JSONValue {
        let result = bytes.withUnsafeBufferPointer { buffer in
            Result { () throws(JSONParseError) -> JSONValue in try JSONParser.parse(buffer) }
        }
        return try result.get()
    }
}
