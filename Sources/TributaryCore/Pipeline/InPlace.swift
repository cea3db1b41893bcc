import CLinux

/// Moving array elements without copying them. An `Item` holds a dozen references, so every copy of one costs a
/// dozen reference-count updates (and as many when the copy dies); swapping through a buffer pointer moves the bytes.
enum InPlace {
    /// Removes the elements whose flag in `keep` is false, keeping the order of the others.
    static func compact<Element>(_ array: inout [Element], keep: [Bool]) {
        var kept = 0
        array.withUnsafeMutableBufferPointer { buffer in
            for index in buffer.indices where keep[index] {
                if kept != index { buffer.swapAt(kept, index) }
                kept += 1
            }
        }
        array.removeLast(array.count - kept)
    }

    /// Puts `array[order[i]]` at position `i`, for a permutation `order` of the array's indices.
    ///
    /// The permutation's cycles are walked first, reading only `order` and the marks of what is placed; the elements
    /// are then swapped along that walk, each asked into the cache a few steps before its swap. With a million items
    /// the array is far larger than the cache and the far element of every swap was a wait for memory (several: an
    /// item spans four cache lines), each found only once the swap before it was done.
    static func permute<Element>(_ array: inout [Element], by order: [Int]) {
        precondition(order.count == array.count && order.count < Int(Int32.max), "a permutation of the indices")
        // Each cycle of two or more positions, its positions in the order they are visited, then −1.
        var walk: [Int32] = []
        walk.reserveCapacity(order.count + order.count / 2)
        var placed = [Bool](repeating: false, count: order.count)
        for start in order.indices where !placed[start] && order[start] != start {
            var current = start
            repeat {
                placed[current] = true
                walk.append(Int32(truncatingIfNeeded: current))
                current = order[current]
            } while current != start
            walk.append(-1)
        }
        guard !walk.isEmpty else { return }
        let lines = (MemoryLayout<Element>.stride + 63) / 64
        array.withUnsafeMutableBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            walk.withUnsafeBufferPointer { walk in
                for step in 0..<walk.count - 1 {
                    if step + Self.stepsAhead < walk.count, walk[step + Self.stepsAhead] >= 0 {
                        let ahead = UnsafeRawPointer(base + Int(walk[step + Self.stepsAhead]))
                        for line in 0..<lines { tributary_prefetch(ahead + line * 64) }
                    }
                    let current = walk[step]
                    let next = walk[step + 1]
                    if current >= 0 && next >= 0 { buffer.swapAt(Int(current), Int(next)) }
                }
            }
        }
    }

    /// How many steps of the walk ahead ``permute(_:by:)`` asks for an element.
    private static let stepsAhead = 8
}
