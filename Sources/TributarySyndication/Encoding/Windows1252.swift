import TributaryJSON

/// Decodes windows-1252 (and so ISO-8859-1 and US-ASCII, which browsers read as windows-1252)
/// without iconv; every byte decodes, the five unassigned ones to the C1 control of the same value.
enum Windows1252 {
    /// UTF-8 for the bytes.
    static func decode(_ input: ArraySlice<UInt8>) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(input.count + input.count / 4)
        for byte in input {
            if byte < 0x80 {
                output.append(byte)
                continue
            }
            let scalar = byte < 0xA0 ? high[Int(byte - 0x80)] : UInt32(byte)
            UTF8Encoding.append(scalar, to: &output)
        }
        return output
    }

    /// The code point windows-1252 gives a byte in 0x80...0x9F (also used for `&#128;`…`&#159;`).
    static func scalar(forC1 byte: UInt32) -> UInt32 {
        (0x80...0x9F).contains(byte) ? high[Int(byte - 0x80)] : byte
    }

    private static let high: [UInt32] = [
        0x20AC, 0x81, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0x8D, 0x017D, 0x8F,
        0x90, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014, 0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0x9D, 0x017E, 0x0178,
    ]
}
