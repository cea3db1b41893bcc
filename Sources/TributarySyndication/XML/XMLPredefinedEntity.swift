/// XML's five predefined entities, which every document may use without declaring them.
enum XMLPredefinedEntity {
    /// The character `&name;` stands for, when `name` is `lt`, `gt`, `amp`, `quot` or `apos`.
    static func value(named name: UnsafeBufferPointer<UInt8>) -> UInt32? {
        switch name.count {
        case 2 where name[1] == UInt8(ascii: "t") && name[0] == UInt8(ascii: "l"): 0x3C
        case 2 where name[1] == UInt8(ascii: "t") && name[0] == UInt8(ascii: "g"): 0x3E
        case 3 where name[0] == UInt8(ascii: "a") && name[1] == UInt8(ascii: "m") && name[2] == UInt8(ascii: "p"): 0x26
        case 4
        where name[0] == UInt8(ascii: "q") && name[1] == UInt8(ascii: "u") && name[2] == UInt8(ascii: "o") && name[3] == UInt8(ascii: "t"):
            0x22
        case 4
        where name[0] == UInt8(ascii: "a") && name[1] == UInt8(ascii: "p") && name[2] == UInt8(ascii: "o") && name[3] == UInt8(ascii: "s"):
            0x27
        default: nil
        }
    }
}
