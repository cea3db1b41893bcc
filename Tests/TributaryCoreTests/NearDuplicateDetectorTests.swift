import Testing

@testable import TributaryCore

@Suite("Near-duplicate detector")
struct NearDuplicateDetectorTests {
    /// Five variants of one story among unrelated headlines.
    static let variants = [
        "Apple unveils iPhone 16 with new camera button",
        "BREAKING: Apple unveils iPhone 16 with new camera button",
        "Apple Unveils iPhone 16 With New Camera Button - The Verge",
        "Apple unveils the iPhone 16, with a new camera button",
        "[Update] Apple unveils iPhone 16 with new camera button (video)",
    ]

    /// Unrelated headlines, some with the same subject.
    static let others = [
        "Apple unveils iPhone 15 with USB-C port", "Apple delays Vision Pro launch in China", "Samsung unveils Galaxy S24 with AI features",
        "苹果发布iPhone 16系列", "华为发布Mate 70系列", "Fed holds interest rates steady", nil, "",
    ]

    @Test("a cluster of five variants, and nothing else")
    func fiveVariants() {
        let titles: [String?] = Self.others[0..<3] + Self.variants.map { $0 } + Self.others[3...]
        let clusters = NearDuplicateDetector().clusters(titles)
        #expect(clusters == [[3, 4, 5, 6, 7]])
    }

    @Test("nil, empty and punctuation-only titles never match, not even each other")
    func emptyTitles() {
        let detector = NearDuplicateDetector()
        #expect(detector.clusters([]).isEmpty)
        #expect(detector.clusters(["Only one"]).isEmpty)
        #expect(detector.clusters([nil, nil, "", "", "  ", "!!!", "???"]).isEmpty)
        #expect(detector.clusters([nil, "Same headline", "", "Same headline"]) == [[1, 3]])
        #expect(detector.similarity("", "") == 0)
        #expect(detector.similarity("!!!", "!!!") == 0)
    }

    @Test("clusters are sorted, start with their smallest index, and have at least two members")
    func shape() {
        let titles: [String?] = ["b story one", "a story two", "b story one", "a story two", "c story three", "a story two"]
        #expect(NearDuplicateDetector().clusters(titles) == [[0, 2], [1, 3, 5]])
    }

    @Test("the same input gives the same clusters, run after run and in any order")
    func determinism() throws {
        let pairs = try LabelledHeadlinePair.load()
        let titles = pairs.flatMap { [$0.first, $0.second] }
        let detector = NearDuplicateDetector()
        let first = detector.clusters(titles)
        #expect(detector.clusters(titles) == first)
        let asSets = Set(first.map { Set($0.map { titles[$0] }) })
        var generator = SplitMix(state: 2024)
        for _ in 0..<3 {
            var order = Array(titles.indices)
            for index in order.indices.reversed() where index > 0 {
                order.swapAt(index, Int(generator.next() % UInt64(index + 1)))
            }
            let shuffled = order.map { titles[$0] }
            let clusters = detector.clusters(shuffled)
            #expect(Set(clusters.map { Set($0.map { shuffled[$0] }) }) == asSets)
        }
    }

    @Test("very long titles are handled in linear time and still match their variants")
    func longTitles() {
        let words = (0..<5000).map { "word\($0 % 977)x\($0 / 977)" }
        let long = words.joined(separator: " ")
        let edited = "BREAKING: " + words.dropLast().joined(separator: " ")
        let chinese = String(repeating: "国务院常务会议研究部署稳就业工作", count: 1000)
        let titles: [String?] = [long, chinese, edited, chinese + "！", "Short headline"]
        #expect(NearDuplicateDetector().clusters(titles) == [[0, 2], [1, 3]])
    }

    @Test("the threshold is configurable and clamped")
    func threshold() {
        let a = "Apple unveils iPhone 16 with new camera button"
        let b = "Apple shows off iPhone 16 with new camera button"
        let similarity = NearDuplicateDetector().similarity(a, b)
        #expect(similarity >= NearDuplicateDetector.defaultThreshold && similarity < 0.8)
        #expect(NearDuplicateDetector().clusters([a, b]) == [[0, 1]])
        #expect(NearDuplicateDetector(threshold: 0.8).clusters([a, b]).isEmpty)
        var detector = NearDuplicateDetector()
        detector.threshold = 0.8
        #expect(detector.clusters([a, b]).isEmpty)
        #expect(detector.banding.bands == MinHashBanding.forThreshold(0.8).bands)
        #expect(NearDuplicateDetector(threshold: 1.5).threshold == 1)
        #expect(NearDuplicateDetector(threshold: -1).threshold == 0)
        #expect(NearDuplicateDetector(threshold: 1).clusters([a, a, b]) == [[0, 1]])
    }

    @Test("similarity is symmetric")
    func symmetric() throws {
        let detector = NearDuplicateDetector()
        for pair in try LabelledHeadlinePair.load() {
            #expect(detector.similarity(pair.first, pair.second) == detector.similarity(pair.second, pair.first))
        }
    }

    @Test("many copies of a story and many headlines sharing common words stay cheap and correct")
    func heavyBuckets() {
        var titles: [String?] = Array(repeating: "Trump wins Iowa caucuses", count: 300)
        titles += (0..<300).map { "Trump wins Iowa caucuses, AP projects \($0 % 2 == 0 ? "" : "(video)")" }
        titles += (0..<2000).map { "Trump news item \($0) about Iowa" }
        let clusters = NearDuplicateDetector().clusters(titles)
        #expect(clusters.count == 1)
        #expect(clusters.first?.count == 600)
    }
}
