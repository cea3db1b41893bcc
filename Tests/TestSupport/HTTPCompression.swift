/// Minimal, dependency-free encoders for the HTTP content codings `gzip` and `deflate`.
///
/// The encoders emit DEFLATE "stored" (uncompressed) blocks, so the output is slightly larger than the
/// input, but it is a fully valid stream that every decoder (zlib, libcurl, Python, browsers) accepts.
public enum HTTPCompression {
    /// The largest payload of one stored DEFLATE block.
    private static let maxStoredBlock = 65_535

    /// Encodes `data` as a gzip member (RFC 1952): header, stored DEFLATE blocks, CRC-32 and size trailer.
    public static func gzip(_ data: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [
            0x1F, 0x8B,  // magic
            0x08,  // CM = deflate
            0x00,  // FLG: no name, comment, extra or header CRC
            0x00, 0x00, 0x00, 0x00,  // MTIME unknown
            0x00,  // XFL
            0x03,  // OS = Unix
        ]
        out.reserveCapacity(data.count + data.count / maxStoredBlock * 5 + 32)
        appendStoredBlocks(data, to: &out)
        appendLittleEndian(crc32(data), to: &out)
        appendLittleEndian(UInt32(truncatingIfNeeded: data.count), to: &out)
        return out
    }

    /// Encodes `data` as a zlib stream (RFC 1950), which is what HTTP calls `deflate`:
    /// a two-byte header, stored DEFLATE blocks and a big-endian Adler-32 trailer.
    public static func zlib(_ data: [UInt8]) -> [UInt8] {
        // CMF 0x78: deflate with a 32 KiB window; FLG 0x01: no dictionary, fastest level, and
        // (0x78 * 256 + 0x01) is a multiple of 31 as the format requires.
        var out: [UInt8] = [0x78, 0x01]
        out.reserveCapacity(data.count + data.count / maxStoredBlock * 5 + 16)
        appendStoredBlocks(data, to: &out)
        let checksum = adler32(data)
        out.append(UInt8(truncatingIfNeeded: checksum >> 24))
        out.append(UInt8(truncatingIfNeeded: checksum >> 16))
        out.append(UInt8(truncatingIfNeeded: checksum >> 8))
        out.append(UInt8(truncatingIfNeeded: checksum))
        return out
    }

    /// The CRC-32 (IEEE 802.3, reflected, as used by gzip and zip) of `data`.
    public static func crc32(_ data: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in data {
            crc = crcTable[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8)
        }
        return crc ^ 0xFFFF_FFFF
    }

    /// The Adler-32 checksum (as used by zlib) of `data`.
    public static func adler32(_ data: [UInt8]) -> UInt32 {
        let modulus: UInt32 = 65_521
        var a: UInt32 = 1
        var b: UInt32 = 0
        // 5552 is the largest run that cannot overflow 32 bits before reducing (the zlib NMAX).
        var index = 0
        while index < data.count {
            let end = min(index + 5_552, data.count)
            while index < end {
                a &+= UInt32(data[index])
                b &+= a
                index += 1
            }
            a %= modulus
            b %= modulus
        }
        return (b << 16) | a
    }

    private static let crcTable: [UInt32] = (0..<256).map { (n: Int) -> UInt32 in
        var c = UInt32(n)
        for _ in 0..<8 {
            c = (c & 1) != 0 ? (0xEDB8_8320 ^ (c >> 1)) : (c >> 1)
        }
        return c
    }

    /// Appends `data` as a series of stored DEFLATE blocks, the last one flagged final. Every block
    /// starts byte-aligned, so its 3-bit header occupies a whole byte (BFINAL in bit 0, BTYPE 00).
    private static func appendStoredBlocks(_ data: [UInt8], to out: inout [UInt8]) {
        var offset = 0
        repeat {
            let length = min(maxStoredBlock, data.count - offset)
            let isFinal = offset + length == data.count
            out.append(isFinal ? 0x01 : 0x00)
            let len = UInt16(length)
            out.append(UInt8(truncatingIfNeeded: len))
            out.append(UInt8(truncatingIfNeeded: len >> 8))
            out.append(UInt8(truncatingIfNeeded: ~len))
            out.append(UInt8(truncatingIfNeeded: ~len >> 8))
            out.append(contentsOf: data[offset..<(offset + length)])
            offset += length
        } while offset < data.count
    }

    private static func appendLittleEndian(_ value: UInt32, to out: inout [UInt8]) {
        out.append(UInt8(truncatingIfNeeded: value))
        out.append(UInt8(truncatingIfNeeded: value >> 8))
        out.append(UInt8(truncatingIfNeeded: value >> 16))
        out.append(UInt8(truncatingIfNeeded: value >> 24))
    }
}
