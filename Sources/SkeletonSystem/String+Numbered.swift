extension String {
    /// `head` followed by `number` in decimal, such as "/dev/dri/card0" or "Virtual-1", made in
    /// one buffer. Interpolating an integer runs the standard library's generic integer printing,
    /// which costs the boot path, where every first run of code counts, about 250 instructions.
    package init(_ head: String, number: UInt32) {
        var digits = 1
        var rest = number / 10
        while rest > 0 {
            digits += 1
            rest /= 10
        }
        var head = head
        self = head.withUTF8 { prefix in
            String(unsafeUninitializedCapacity: prefix.count + digits) { buffer in
                for i in 0..<prefix.count { buffer[i] = prefix[i] }
                var value = number
                var i = prefix.count + digits
                repeat {
                    i -= 1
                    buffer[i] = UInt8(ascii: "0") + UInt8(value % 10)
                    value /= 10
                } while i > prefix.count
                return prefix.count + digits
            }
        }
    }
}
