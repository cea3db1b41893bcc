import Foundation
import Testing

@testable import TributaryCore

/// One row of `Fixtures/headline-pairs.tsv`.
struct LabelledHeadlinePair: Sendable {
    /// Whether a person says the two headlines tell the same story.
    var isDuplicate: Bool
    /// The first headline.
    var first: String
    /// The second headline.
    var second: String
    /// What the pair tests.
    var note: String
    /// The line in the file (for messages).
    var line: Int

    /// The pairs in the fixture `name`: the set the detector was tuned on, or the held-out set.
    static func load(_ name: String = "headline-pairs") throws -> [LabelledHeadlinePair] {
        let url = try #require(Bundle.module.url(forResource: name, withExtension: "tsv", subdirectory: "Fixtures"))
        let text = try String(contentsOf: url, encoding: .utf8)
        var pairs: [LabelledHeadlinePair] = []
        for (offset, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() where offset > 0 {
            guard !line.isEmpty else { continue }
            let columns = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            try #require(columns.count == 4, "line \(offset + 1) has \(columns.count) columns")
            try #require(columns[0] == "dup" || columns[0] == "diff", "line \(offset + 1): label \(columns[0])")
            pairs.append(
                LabelledHeadlinePair(
                    isDuplicate: columns[0] == "dup", first: columns[1], second: columns[2], note: columns[3], line: offset + 1))
        }
        return pairs
    }
}

/// Precision and recall of a set of decisions against the labels.
struct DetectionScore: CustomStringConvertible {
    /// Duplicates detected as duplicates.
    var truePositives = 0
    /// Non-duplicates detected as duplicates.
    var falsePositives = 0
    /// Duplicates missed.
    var falseNegatives = 0
    /// Non-duplicates kept apart.
    var trueNegatives = 0

    /// Counts one decision.
    mutating func add(label: Bool, detected: Bool) {
        switch (label, detected) {
        case (true, true): truePositives += 1
        case (false, true): falsePositives += 1
        case (true, false): falseNegatives += 1
        case (false, false): trueNegatives += 1
        }
    }

    /// Detected duplicates that are duplicates.
    var precision: Double { Double(truePositives) / Double(max(1, truePositives + falsePositives)) }
    /// Duplicates that were detected.
    var recall: Double { Double(truePositives) / Double(max(1, truePositives + falseNegatives)) }

    var description: String {
        "precision \(String(format: "%.3f", precision)) recall \(String(format: "%.3f", recall)) "
            + "(TP \(truePositives) FP \(falsePositives) FN \(falseNegatives) TN \(trueNegatives))"
    }
}

@Suite("Near-duplicate labelled set")
struct NearDuplicateLabelledSetTests {
    @Test("the labelled set has at least 200 pairs, roughly half duplicates, in Chinese and English")
    func shape() throws {
        let pairs = try LabelledHeadlinePair.load()
        #expect(pairs.count >= 200)
        let duplicates = pairs.filter(\.isDuplicate).count
        #expect(duplicates * 10 >= pairs.count * 4 && duplicates * 10 <= pairs.count * 6)
        let chinese = pairs.filter { $0.first.unicodeScalars.contains { HeadlineFolding.isCJK($0.value) } }.count
        #expect(chinese * 10 >= pairs.count * 4 && chinese * 10 <= pairs.count * 6)
    }

    /// The sets and the scores each must keep: the set the threshold was tuned on, and three sets written later
    /// without looking at the detector, whose non-duplicates mostly differ in a word or two; each was measured blind,
    /// then the first two were tuned on, the last one only measures (see `Fixtures/README-headline-pairs.md`).
    static let sets: [(name: String, precision: Double, recall: Double)] = [
        ("headline-pairs", 0.95, 0.80), ("headline-pairs-heldout", 0.75, 0.12), ("headline-pairs-blind", 0.90, 0.55),
        ("headline-pairs-blind2", 0.90, 0.55), ("headline-pairs-blind3", 0.70, 0.50),
    ]

    @Test("precision and recall when each pair is clustered on its own", arguments: sets)
    func pairwise(set: String, minimumPrecision: Double, minimumRecall: Double) throws {
        let pairs = try LabelledHeadlinePair.load(set)
        let detector = NearDuplicateDetector()
        var score = DetectionScore()
        for pair in pairs {
            let detected = detector.clusters([pair.first, pair.second]) == [[0, 1]]
            score.add(label: pair.isDuplicate, detected: detected)
            // The LSH finds every pair the exact comparison accepts.
            #expect(detected == (detector.similarity(pair.first, pair.second) >= detector.threshold), "line \(pair.line)")
            if detected != pair.isDuplicate {
                let comparison = detector.compare(pair.first, pair.second)
                let similarity = String(format: "%.2f", comparison.jaccard)
                print(
                    "miss, \(set) line \(pair.line) (\(pair.isDuplicate ? "dup" : "diff"), J \(similarity), \(comparison.veto?.rawValue ?? "no veto")): \(pair.first) | \(pair.second)"
                )
            }
        }
        print("pairwise \(set) at threshold \(detector.threshold): \(score)")
        #expect(score.precision >= minimumPrecision)
        #expect(score.recall >= minimumRecall)
    }

    @Test("threshold sweep (how the default was tuned; prints the table)")
    func sweep() throws {
        let pairs = try LabelledHeadlinePair.load()
        let detector = NearDuplicateDetector()
        let comparisons = pairs.map { detector.compare($0.first, $0.second) }
        var best: (threshold: Double, f1: Double) = (0, 0)
        for threshold in stride(from: 0.30, through: 0.701, by: 0.05) {
            var score = DetectionScore()
            for (pair, comparison) in zip(pairs, comparisons) {
                score.add(label: pair.isDuplicate, detected: comparison.veto == nil && comparison.jaccard >= threshold)
            }
            let f1 = 2 * score.precision * score.recall / max(score.precision + score.recall, 1e-9)
            print("threshold \(String(format: "%.2f", threshold)): \(score) F1 \(String(format: "%.3f", f1))")
            if score.precision >= 0.95 && f1 > best.f1 { best = (threshold, f1) }
        }
        // Lower thresholds score a little higher on this set but merge short headlines that differ in one word;
        // see Fixtures/README-headline-pairs.md. The default must stay within 0.02 of the best F1.
        var atDefault = DetectionScore()
        for (pair, comparison) in zip(pairs, comparisons) {
            atDefault.add(label: pair.isDuplicate, detected: comparison.veto == nil && comparison.jaccard >= detector.threshold)
        }
        let f1 = 2 * atDefault.precision * atDefault.recall / (atDefault.precision + atDefault.recall)
        #expect(f1 >= best.f1 - 0.02)
    }

    @Test("all titles of a set clustered together: the labels still hold and no cluster blows up", arguments: sets)
    func mixed(set: String, minimumPrecision: Double, minimumRecall: Double) throws {
        let pairs = try LabelledHeadlinePair.load(set)
        let titles = pairs.flatMap { [$0.first, $0.second] }
        let clusters = NearDuplicateDetector().clusters(titles)
        var clusterOf = [Int](repeating: -1, count: titles.count)
        for (number, cluster) in clusters.enumerated() {
            for index in cluster { clusterOf[index] = number }
        }
        var score = DetectionScore()
        for (number, pair) in pairs.enumerated() {
            let a = clusterOf[2 * number]
            let b = clusterOf[2 * number + 1]
            score.add(label: pair.isDuplicate, detected: a >= 0 && a == b)
        }
        print("mixed \(set): \(score); \(clusters.count) clusters, largest \(clusters.map(\.count).max() ?? 0)")
        for cluster in clusters where Set(cluster.map { $0 / 2 }).count > 1 {
            print("CROSS " + cluster.map { titles[$0] }.joined(separator: " | "))
        }
        #expect(score.precision >= minimumPrecision)
        #expect(score.recall >= minimumRecall)
        #expect((clusters.map(\.count).max() ?? 0) <= 6)
    }
}
