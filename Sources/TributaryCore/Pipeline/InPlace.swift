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
    static func permute<Element>(_ array: inout [Element], by order: [Int]) {
        var placed = [Bool](repeating: false, count: order.count)
        array.withUnsafeMutableBufferPointer { buffer in
            for start in order.indices where !placed[start] {
                var current = start
                while true {
                    placed[current] = true
                    let next = order[current]
                    if next == start { break }
                    buffer.swapAt(current, next)
                    current = next
                }
            }
        }
    }
}
