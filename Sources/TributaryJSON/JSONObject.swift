/// A JSON object that keeps its keys in document order with O(1) lookups for large objects.
///
/// Keys are unique: assigning an existing key replaces its value in place, so with duplicate
/// keys in input the last value wins while the key keeps the position of its first occurrence.
/// Equality and hashing ignore key order (JSON objects are unordered); compare ``keys`` when
/// order matters.
public struct JSONObject: Sendable, Hashable, Sequence {
    /// A key/value pair of the object.
    public typealias Element = (key: String, value: JSONValue)

    /// Objects with more members than this get a hash index; smaller ones are searched linearly.
    private static let indexThreshold = 8

    private var orderedKeys: [String]
    private var orderedValues: [JSONValue]
    /// Position of each key; empty while `count <= indexThreshold`.
    private var positions: [String: Int]

    /// Creates an empty object.
    public init() {
        orderedKeys = []
        orderedValues = []
        positions = [:]
    }

    /// Creates an object from key/value pairs in order; for repeated keys the last value wins at the first position.
    public init(_ pairs: [(String, JSONValue)]) {
        self.init()
        orderedKeys.reserveCapacity(pairs.count)
        orderedValues.reserveCapacity(pairs.count)
        for (key, value) in pairs {
            updateValue(value, forKey: key)
        }
    }

    private init(keys: [String], values: [JSONValue], positions: [String: Int]) {
        orderedKeys = keys
        orderedValues = values
        self.positions = positions
    }

    /// Creates an object from parsed members in document order, resolving duplicate keys.
    init(parsedKeys keys: [String], values: [JSONValue]) {
        var hasDuplicate = false
        var index: [String: Int] = [:]
        if keys.count <= Self.indexThreshold {
            search: for later in keys.indices.dropFirst() {
                for earlier in 0..<later where keys[earlier] == keys[later] {
                    hasDuplicate = true
                    break search
                }
            }
        } else {
            index.reserveCapacity(keys.count)
            for (position, key) in keys.enumerated() where index.updateValue(position, forKey: key) != nil {
                hasDuplicate = true
                break
            }
        }
        if !hasDuplicate {
            self.init(keys: keys, values: values, positions: index)
            return
        }
        self.init()
        for (key, value) in zip(keys, values) {
            updateValue(value, forKey: key)
        }
    }

    /// The keys in document (insertion) order.
    public var keys: [String] { orderedKeys }

    /// The values in the same order as ``keys``.
    public var values: [JSONValue] { orderedValues }

    /// The number of members.
    public var count: Int { orderedKeys.count }

    /// Whether the object has no members.
    public var isEmpty: Bool { orderedKeys.isEmpty }

    /// The value for `key`, or `nil`; assigning `nil` removes the member, assigning a value
    /// replaces it in place or appends it at the end.
    public subscript(key: String) -> JSONValue? {
        get {
            guard let position = position(of: key) else { return nil }
            return orderedValues[position]
        }
        set {
            if let newValue {
                updateValue(newValue, forKey: key)
            } else {
                removeValue(forKey: key)
            }
        }
    }

    /// Whether the object has a member named `key`.
    public func contains(key: String) -> Bool {
        position(of: key) != nil
    }

    /// Sets the value for `key` (in place if present, else appended) and returns the old value.
    @discardableResult
    public mutating func updateValue(_ value: JSONValue, forKey key: String) -> JSONValue? {
        if let position = position(of: key) {
            let old = orderedValues[position]
            orderedValues[position] = value
            return old
        }
        orderedKeys.append(key)
        orderedValues.append(value)
        if !positions.isEmpty {
            positions[key] = orderedKeys.count - 1
        } else if orderedKeys.count > Self.indexThreshold {
            rebuildPositions()
        }
        return nil
    }

    /// Removes the member named `key`, keeping the order of the others, and returns its value.
    @discardableResult
    public mutating func removeValue(forKey key: String) -> JSONValue? {
        guard let position = position(of: key) else { return nil }
        orderedKeys.remove(at: position)
        let old = orderedValues.remove(at: position)
        if orderedKeys.count > Self.indexThreshold {
            rebuildPositions()
        } else {
            positions = [:]
        }
        return old
    }

    /// Returns an iterator over the members in order.
    public func makeIterator() -> Iterator {
        Iterator(object: self)
    }

    /// The number of members.
    public var underestimatedCount: Int { count }

    /// An iterator over an object's members in order.
    public struct Iterator: IteratorProtocol {
        private let object: JSONObject
        private var position = 0

        fileprivate init(object: JSONObject) {
            self.object = object
        }

        /// Returns the next key/value pair, or `nil` at the end.
        public mutating func next() -> Element? {
            guard position < object.orderedKeys.count else { return nil }
            defer { position += 1 }
            return (key: object.orderedKeys[position], value: object.orderedValues[position])
        }
    }

    /// Whether both objects have the same key/value pairs, regardless of key order.
    public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
        guard lhs.count == rhs.count else { return false }
        if lhs.orderedKeys == rhs.orderedKeys {
            return lhs.orderedValues == rhs.orderedValues
        }
        for (index, key) in lhs.orderedKeys.enumerated() {
            guard let other = rhs[key], other == lhs.orderedValues[index] else { return false }
        }
        return true
    }

    /// Hashes the key/value pairs independently of key order.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(count)
        var combined: UInt = 0
        for index in orderedKeys.indices {
            var memberHasher = Hasher()
            memberHasher.combine(orderedKeys[index])
            memberHasher.combine(orderedValues[index])
            combined ^= UInt(bitPattern: memberHasher.finalize())
        }
        hasher.combine(combined)
    }

    private func position(of key: String) -> Int? {
        if positions.isEmpty {
            return orderedKeys.firstIndex(of: key)
        }
        return positions[key]
    }

    private mutating func rebuildPositions() {
        var rebuilt: [String: Int] = [:]
        rebuilt.reserveCapacity(orderedKeys.count)
        for (index, key) in orderedKeys.enumerated() {
            rebuilt[key] = index
        }
        positions = rebuilt
    }
}

extension JSONObject: ExpressibleByDictionaryLiteral {
    /// Creates an object from a dictionary literal, keeping the literal's key order.
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self.init(elements)
    }
}

extension JSONObject: CustomStringConvertible {
    /// The object written as compact JSON.
    public var description: String {
        JSONWriter.string(from: .object(self), style: .compact)
    }
}
