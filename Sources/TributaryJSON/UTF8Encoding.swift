/// Writing a Unicode scalar as UTF-8: for the JSON parser's `\u` escapes and for the feed
/// parser's decoders of references and legacy bytes. It lives here, in the lowest module both
/// depend on, and is visible to the package only.
package enum UTF8Encoding {
    /// Appends `scalar` (a valid scalar value) to `bytes` as one to four UTF-8 bytes.
    @inlinable @inline(__always)
    package static func append(_ scalar: UInt32, to bytes: inout [UInt8]) {
        switch scalar {
        case ..<0x80:
            bytes.append(UInt8(scalar))
        case ..<0x800:
            bytes.append(UInt8(0xC0 | scalar >> 6))
            bytes.append(UInt8(0x80 | scalar & 0x3F))
        case ..<0x10000:
            bytes.append(UInt8(0xE0 | scalar >> 12))
            bytes.append(UInt8(0x80 | scalar >> 6 & 0x3F))
            bytes.append(UInt8(0x80 | scalar & 0x3F))
        default:
            bytes.append(UInt8(0xF0 | scalar >> 18))
            bytes.append(UInt8(0x80 | scalar >> 12 & 0x3F))
            bytes.append(UInt8(0x80 | scalar >> 6 & 0x3F))
            bytes.append(UInt8(0x80 | scalar & 0x3F))
        }
    }
}

extension UTF8Encoding {
    /// Writes `scalar` as UTF-8 at `offset` of `output`, which has room for it; returns its length.
    @inlinable @inline(__always)
    package static func write(_ scalar: UInt32, to output: UnsafeMutableBufferPointer<UInt8>, at offset: Int) -> Int {
        switch scalar {
        case ..<0x80:
            output[offset] = UInt8(scalar)
            return 1
        case ..<0x800:
            output[offset] = UInt8(0xC0 | scalar >> 6)
            output[offset + 1] = UInt8(0x80 | scalar & 0x3F)
            return 2
        case ..<0x10000:
            output[offset] = UInt8(0xE0 | scalar >> 12)
            output[offset + 1] = UInt8(0x80 | scalar >> 6 & 0x3F)
            output[offset + 2] = UInt8(0x80 | scalar & 0x3F)
            return 3
        default:
            output[offset] = UInt8(0xF0 | scalar >> 18)
            output[offset + 1] = UInt8(0x80 | scalar >> 12 & 0x3F)
            output[offset + 2] = UInt8(0x80 | scalar >> 6 & 0x3F)
            output[offset + 3] = UInt8(0x80 | scalar & 0x3F)
            return 4
        }
    }
}
