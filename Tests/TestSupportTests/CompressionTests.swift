import TestSupport
import Testing

@Suite("HTTPCompression")
struct CompressionTests {
    @Test("CRC-32 and Adler-32 match the standard check values")
    func checksums() {
        #expect(HTTPCompression.crc32(Array("123456789".utf8)) == 0xCBF4_3926)
        #expect(HTTPCompression.crc32([]) == 0)
        #expect(HTTPCompression.adler32(Array("Wikipedia".utf8)) == 0x11E6_0398)
        #expect(HTTPCompression.adler32([]) == 1)
        // Long input exercises the modulo reduction.
        let long = [UInt8](repeating: 0xFF, count: 100_000)
        #expect(HTTPCompression.adler32(long) == 0x149A_302C)
    }

    @Test("gzip and zlib framing: headers, block layout, trailers")
    func framing() {
        let gzip = HTTPCompression.gzip(Array("abc".utf8))
        #expect(
            gzip == [
                0x1F, 0x8B, 0x08, 0, 0, 0, 0, 0, 0, 0x03,  // header
                0x01, 0x03, 0x00, 0xFC, 0xFF, 0x61, 0x62, 0x63,  // final stored block, LEN 3, NLEN
                0xC2, 0x41, 0x24, 0x35,  // CRC-32 of "abc" (0x352441C2), little-endian
                0x03, 0, 0, 0,  // ISIZE
            ]
        )
        #expect(HTTPCompression.zlib([]) == [0x78, 0x01, 0x01, 0x00, 0x00, 0xFF, 0xFF, 0x00, 0x00, 0x00, 0x01])
        // 65 536 bytes need two stored blocks: 65 535 + 1.
        let twoBlocks = HTTPCompression.zlib([UInt8](repeating: 0, count: 65_536))
        #expect(twoBlocks.count == 2 + (5 + 65_535) + (5 + 1) + 4)
        #expect(twoBlocks[2] == 0x00)
        #expect(twoBlocks[2 + 5 + 65_535] == 0x01)
    }

    @Test(
        "Python's zlib decodes every size, including block boundaries",
        arguments: [0, 1, 65_534, 65_535, 65_536, 131_071, 131_072, 300_001])
    func pythonDecodes(size: Int) async throws {
        let data = (0..<size).map { UInt8(truncatingIfNeeded: ($0 &* 2_654_435_761) >> 13) }
        let script = """
            import gzip, sys, zlib
            raw = sys.stdin.buffer.read()
            n = int.from_bytes(raw[:4], "big")
            gz, zl = raw[4:4 + n], raw[4 + n:]
            a = gzip.decompress(gz)
            b = zlib.decompress(zl)
            c = zlib.decompress(gz, 16 + zlib.MAX_WBITS)
            assert a == b == c, "mismatch"
            sys.stdout.buffer.write(a)
            """
        let gzip = HTTPCompression.gzip(data)
        let zlib = HTTPCompression.zlib(data)
        let count = UInt32(gzip.count)
        let header = [UInt8(count >> 24), UInt8((count >> 16) & 0xFF), UInt8((count >> 8) & 0xFF), UInt8(count & 0xFF)]
        let output = try await Python.run(script, stdin: header + gzip + zlib)
        #expect(output.exitCode == 0, "\(output.stderr)")
        #expect(output.stdout == data)
    }
}
