import Testing
import TributaryModel

@testable import TributarySyndication

@Suite("JSON Feed writer: in pieces")
struct JSONFeedWriterPiecesTests {
    @Test("a document written in pieces is the whole document", arguments: [1, 500, 1 << 20])
    func pieces(_ pieceSize: Int) {
        var rng = JSONFeedWriterBytesTests.Generator(state: 0x5EED)
        let items = JSONFeedTests.roundTripItems + (0..<40).map { _ in rng.item() }
        for pretty in [true, false] {
            let writer = JSONFeedWriter(includeExtensions: true, pretty: pretty)
            var pieces: [[UInt8]] = []
            writer.write(feed: JSONFeedTests.feedInfo, items: items, pieceSize: pieceSize) { pieces.append(Array($0)) }
            #expect(Array(pieces.joined()) == writer.documentBytes(feed: JSONFeedTests.feedInfo, items: items))
            // Small pieces end after each item; the document's end comes last, on its own.
            if pieceSize == 1 {
                #expect(pieces.count == items.count + 1)
            } else if pieceSize == 1 << 20 {
                #expect(pieces.count == 1)
            }
        }
    }
}
