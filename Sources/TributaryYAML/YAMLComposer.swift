/// Builds a ``YAMLNode`` tree from ``YAMLEvent``s: resolves aliases and merge keys, rejects duplicate keys,
/// extra documents, alias bombs and excessive nesting.
struct YAMLComposer {
    /// A finished node together with its expanded node count and nesting height.
    private struct Built {
        var node: YAMLNode
        /// Number of nodes in the subtree, counting alias copies in full.
        var size: Int
        /// Nesting height of the subtree (a scalar is 1).
        var height: Int
    }

    /// An open collection waiting for its end event.
    private struct Frame {
        enum Kind { case sequence, mapping }
        var kind: Kind
        var mark: Mark
        var tag: String?
        var anchor: String?
        var children: [Built] = []
    }

    /// The file name used in errors.
    let file: String
    /// The document's root node once its events have been handled.
    private(set) var root: YAMLNode?

    private var stack: [Frame] = []
    private var anchors: [String: Built] = [:]
    /// Anchors on collections that are still open (an alias to one of them would be recursive).
    private var openAnchors: Set<String> = []
    private var documents = 0
    /// Total nodes produced so far by alias expansion.
    private var expandedByAliases = 0

    /// Creates a composer that reports errors against `file`.
    init(file: String) {
        self.file = file
    }

    /// Handles one event; returns true once the stream has ended.
    mutating func handle(_ event: YAMLEvent) throws(YAMLError) -> Bool {
        switch event {
        case .streamStart, .documentEnd:
            break
        case .streamEnd:
            return true
        case .documentStart(let mark):
            documents += 1
            if documents > 1 {
                throw YAMLError(file: file, mark: mark, message: "expected a single document in the stream")
            }
        case .alias(let name, let mark):
            if openAnchors.contains(name) {
                throw YAMLError(file: file, mark: mark, message: "recursive alias '\(name)' is not supported")
            }
            guard let anchored = anchors[name] else {
                throw YAMLError(file: file, mark: mark, message: "undefined alias '\(name)'")
            }
            expandedByAliases += anchored.size
            if expandedByAliases > YAML.aliasExpansionLimit {
                throw YAMLError(file: file, mark: mark, message: "document too large after expanding aliases")
            }
            try attach(anchored, anchor: nil)
        case .scalar(let value, let style, let tag, let anchor, let mark):
            let node = YAMLNode(.scalar(value, style), mark: mark, tag: tag)
            try attach(Built(node: node, size: 1, height: 1), anchor: anchor)
        case .sequenceStart(let tag, let anchor, let mark):
            try open(Frame(kind: .sequence, mark: mark, tag: tag, anchor: anchor))
        case .mappingStart(let tag, let anchor, let mark):
            try open(Frame(kind: .mapping, mark: mark, tag: tag, anchor: anchor))
        case .sequenceEnd, .mappingEnd:
            try close()
        }
        return false
    }

    private mutating func open(_ frame: Frame) throws(YAMLError) {
        if stack.count >= YAML.nestingLimit {
            throw YAMLError(
                file: file, mark: frame.mark, message: "nesting too deep (more than \(YAML.nestingLimit) levels)")
        }
        if let anchor = frame.anchor { openAnchors.insert(anchor) }
        stack.append(frame)
    }

    private mutating func close() throws(YAMLError) {
        guard let frame = stack.popLast() else {
            throw YAMLError(file: file, mark: Mark(line: 1, column: 1), message: "unbalanced collection end event")
        }
        if let anchor = frame.anchor { openAnchors.remove(anchor) }
        let size = frame.children.reduce(1) { $0 + $1.size }
        let height = 1 + (frame.children.map(\.height).max() ?? 0)
        let content: YAMLNode.Content
        switch frame.kind {
        case .sequence:
            content = .sequence(frame.children.map(\.node))
        case .mapping:
            var pairs: [YAMLPair] = []
            pairs.reserveCapacity(frame.children.count / 2)
            var index = 0
            while index + 1 < frame.children.count {
                pairs.append(YAMLPair(key: frame.children[index].node, value: frame.children[index + 1].node))
                index += 2
            }
            try checkDuplicateKeys(pairs)
            content = .mapping(try resolveMerges(pairs))
        }
        let node = YAMLNode(content, mark: frame.mark, tag: frame.tag)
        try attach(Built(node: node, size: size, height: height), anchor: frame.anchor)
    }

    /// Registers the anchor (if any) and adds a finished node to its parent, or makes it the root.
    private mutating func attach(_ built: Built, anchor: String?) throws(YAMLError) {
        // Alias copies can stack nesting beyond what the open-frame check sees.
        if built.height + stack.count > YAML.nestingLimit {
            throw YAMLError(
                file: file, mark: built.node.mark, message: "nesting too deep (more than \(YAML.nestingLimit) levels)")
        }
        if let anchor { anchors[anchor] = built }
        if stack.isEmpty {
            root = built.node
        } else {
            stack[stack.count - 1].children.append(built)
        }
    }

    /// Rejects two explicit scalar keys with the same text in one mapping.
    private func checkDuplicateKeys(_ pairs: [YAMLPair]) throws(YAMLError) {
        // Most mappings have a few keys (a source has three to ten): comparing each with those before it costs less
        // than hashing them into a dictionary (a configuration of 500 sources spent 6% of its reading on that).
        if pairs.count <= 16 {
            for index in pairs.indices.dropFirst() {
                guard let text = keyText(pairs[index]) else { continue }
                if let first = pairs[..<index].first(where: { keyText($0) == text }) {
                    throw duplicate(text, at: pairs[index].key.mark, first: first.key.mark)
                }
            }
            return
        }
        var seen: [String: Mark] = [:]
        for pair in pairs {
            guard let text = pair.key.scalar else { continue }
            if let first = seen[text] { throw duplicate(text, at: pair.key.mark, first: first) }
            seen[text] = pair.key.mark
        }
    }

    private func keyText(_ pair: YAMLPair) -> String? { pair.key.scalar }

    private func duplicate(_ text: String, at mark: Mark, first: Mark) -> YAMLError {
        YAMLError(file: file, mark: mark, message: "duplicate key '\(text)' (first defined at \(first))")
    }

    /// True for a plain `<<` key that is untagged or tagged `!!merge`.
    private static func isMergeKey(_ key: YAMLNode) -> Bool {
        guard case .scalar("<<", .plain) = key.content else { return false }
        return key.tag == nil || key.tag == "tag:yaml.org,2002:merge"
    }

    /// Replaces each `<<` entry by the pairs of the mapping(s) it refers to.
    ///
    /// Explicit keys of this mapping win over merged ones, and an earlier merged mapping wins over a later one.
    /// Merged pairs are inserted where the `<<` entry was and keep their own marks.
    private func resolveMerges(_ pairs: [YAMLPair]) throws(YAMLError) -> [YAMLPair] {
        guard pairs.contains(where: { Self.isMergeKey($0.key) }) else { return pairs }
        var explicitKeys: Set<String> = []
        for pair in pairs where !Self.isMergeKey(pair.key) {
            if let text = pair.key.scalar { explicitKeys.insert(text) }
        }
        var mergedKeys: Set<String> = []
        var result: [YAMLPair] = []
        for pair in pairs {
            guard Self.isMergeKey(pair.key) else {
                result.append(pair)
                continue
            }
            let sources: [[YAMLPair]]
            switch pair.value.content {
            case .mapping(let mapping):
                sources = [mapping]
            case .sequence(let items):
                var mappings: [[YAMLPair]] = []
                for item in items {
                    guard let mapping = item.mapping else {
                        throw YAMLError(
                            file: file, mark: item.mark,
                            message:
                                "merge key '<<' expects a mapping or a sequence of mappings, found a \(Self.kind(item)) in the sequence"
                        )
                    }
                    mappings.append(mapping)
                }
                sources = mappings
            case .scalar:
                throw YAMLError(
                    file: file, mark: pair.value.mark,
                    message: "merge key '<<' expects a mapping or a sequence of mappings, found a scalar")
            }
            for mapping in sources {
                for merged in mapping {
                    if let text = merged.key.scalar {
                        if explicitKeys.contains(text) || !mergedKeys.insert(text).inserted { continue }
                    }
                    result.append(merged)
                }
            }
        }
        return result
    }

    private static func kind(_ node: YAMLNode) -> String {
        switch node.content {
        case .scalar: "scalar"
        case .sequence: "sequence"
        case .mapping: "mapping"
        }
    }
}
