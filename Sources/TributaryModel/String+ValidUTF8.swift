extension String {
    /// A string of `bytes` that are valid UTF-8 by construction (the parser validated its input
    /// once, and what it builds from it is cut only at ASCII bytes), made with one copy instead
    /// of `String(decoding:as:)`'s second validation, which costs as much as a copy ten times
    /// over on CJK text.
    ///
    /// Invalid bytes would break `String`'s invariants, so callers pass only bytes built from
    /// valid UTF-8, and debug builds (the tests) check every call.
    package init(validUTF8 bytes: UnsafeBufferPointer<UInt8>) {
        assert(String(validating: bytes, as: UTF8.self) != nil, "bytes that are not UTF-8")
        guard !bytes.isEmpty else {
            self = ""
            return
        }
        let span = unsafe Span(_unsafeElements: bytes)
        self = String(copying: unsafe UTF8Span(unchecked: span))
    }

    /// `init(validUTF8:)` for an array.
    package init(validUTF8 bytes: [UInt8]) {
        self = bytes.withUnsafeBufferPointer { String(validUTF8: $0) }
    }

    /// `init(validUTF8:)` for an array slice.
    package init(validUTF8 bytes: ArraySlice<UInt8>) {
        self = bytes.withUnsafeBufferPointer { String(validUTF8: $0) }
    }
}
