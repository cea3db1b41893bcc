public import TributaryModel

/// A response in the charset its HTTP `Content-Type` names, as UTF-8, for documents that declare no encoding of their
/// own (a JSON API's response). The feed parser's decoder reads it, with the feed parser's rules: bytes that are valid
/// UTF-8 are read as UTF-8 whatever the charset says (with a warning), and a few undecodable bytes become U+FFFD.
public enum DeclaredCharset {
    /// Why a response could not be read.
    public struct Failure: Error, Sendable {
        /// What went wrong, e.g. `the HTTP charset 'x-klingon' is not an encoding this system can decode`.
        public var message: String
    }

    /// `bytes` as UTF-8, with the decoder's warnings. Throws when `label` names no encoding this system can decode
    /// and the bytes are not UTF-8 either, so that they cannot be read.
    public static func utf8(_ bytes: [UInt8], charset label: String) throws(Failure) -> (bytes: [UInt8], problems: [Problem]) {
        let charset = Charset(label: label)
        let decodable = charset.map { $0 == .utf8 || $0 == .windows1252 || Transcoder(from: $0) != nil } ?? false
        guard decodable else {
            let unknown = "the HTTP charset '\(label)' is not an encoding this system can decode"
            let scan = UTF8Validation.scan(bytes[...])
            guard scan.isValid else { throw Failure(message: "\(unknown), and the bytes are not UTF-8") }
            return (bytes, scan.hasNonASCII ? [Problem(.warning, "\(unknown); the bytes are valid UTF-8, read as UTF-8")] : [])
        }
        let decoded = DocumentDecoder(httpCharset: label).decode(bytes)
        return (decoded.bytes, decoded.problems)
    }
}
