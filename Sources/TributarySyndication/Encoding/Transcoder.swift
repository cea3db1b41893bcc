import Glibc

/// Converts bytes in some encoding to UTF-8 with glibc's iconv, replacing what cannot be
/// decoded with U+FFFD and counting the replacements.
///
/// Owns one `iconv_t` for its lifetime; not thread-safe (create one per conversion).
final class Transcoder {
    /// The result of a conversion.
    struct Output {
        /// The UTF-8 bytes.
        var bytes: [UInt8]
        /// How many invalid or truncated sequences were replaced with U+FFFD.
        var errors: Int
    }

    private let descriptor: iconv_t
    private let unitSize: Int

    /// A converter from `charset`, or nil when iconv does not know it.
    init?(from charset: Charset) {
        guard let descriptor = iconv_open("UTF-8", charset.name), descriptor != iconv_t(bitPattern: -1) else { return nil }
        self.descriptor = descriptor
        unitSize = charset.name.hasPrefix("UTF-32") ? 4 : charset.name.hasPrefix("UTF-16") ? 2 : 1
    }

    deinit {
        iconv_close(descriptor)
    }

    /// Converts `input`; stops early (returning nil) once more than `maxErrors` replacements were needed.
    func convert(_ input: ArraySlice<UInt8>, maxErrors: Int = .max) -> Output? {
        var output = [UInt8](repeating: 0, count: input.count + input.count / 2 + 64)
        var written = 0
        var errors = 0
        let replacement: [UInt8] = [0xEF, 0xBF, 0xBD]
        let ok = input.withUnsafeBufferPointer { source -> Bool in
            guard let base = source.baseAddress else { return true }
            var inPointer: UnsafeMutablePointer<CChar>? = UnsafeMutableRawPointer(mutating: base).assumingMemoryBound(to: CChar.self)
            var inLeft = source.count
            while inLeft > 0 {
                if output.count - written < 16 { output.append(contentsOf: repeatElement(0, count: output.count)) }
                let status = output.withUnsafeMutableBufferPointer { target -> (result: Int, error: Int32) in
                    var outPointer: UnsafeMutablePointer<CChar>? = UnsafeMutableRawPointer(target.baseAddress.map { $0 + written })?
                        .assumingMemoryBound(to: CChar.self)
                    var outLeft = target.count - written
                    let before = outLeft
                    let result = iconv(descriptor, &inPointer, &inLeft, &outPointer, &outLeft)
                    let failure = result == -1 ? errno : 0
                    written += before - outLeft
                    return (result, failure)
                }
                if status.result != -1 { break }
                switch status.error {
                case E2BIG:
                    output.append(contentsOf: repeatElement(0, count: output.count))
                case EILSEQ, EINVAL:
                    errors += 1
                    if errors > maxErrors { return false }
                    if output.count - written < 3 { output.append(contentsOf: repeatElement(0, count: output.count)) }
                    output.replaceSubrange(written..<written + 3, with: replacement)
                    written += 3
                    let skip = min(unitSize, inLeft)
                    inPointer = inPointer.map { $0 + skip }
                    inLeft -= skip
                default:
                    return false
                }
            }
            return true
        }
        guard ok else { return nil }
        output.removeSubrange(written...)
        return Output(bytes: output, errors: errors)
    }
}
