import SkeletonSystem

/// The firmware's boot logo as the kernel shows it in sysfs (drivers/firmware/efi/efi-bgrt.c and
/// drivers/acpi/bgrt.c): `image` (the BMP), `xoffset`, `yoffset` and `status` (bit 0: it was
/// displayed, which firmware does not set reliably; bits 1-2: ACPI 6.2 orientation, a quarter
/// turn each), in one directory. Read through SkeletonSystem's size-bounded regular-file reads.
struct BGRTLogo {
    let picture: Picture
    let xOffset: Int
    let yOffset: Int
    /// Quarter turns clockwise that the firmware says the logo needs (0 to 3).
    let quarterTurns: Int

    /// The logo in `directory`; a file that is missing, unreadable or unparsable is an error
    /// naming it.
    static func read(directory: String, maxPixels: Int) throws(PictureError) -> BGRTLogo {
        let status = try number(directory + "/status")
        let xOffset = try number(directory + "/xoffset"), yOffset = try number(directory + "/yoffset")
        let imagePath = directory + "/image"
        let bytes = try PictureLoader.readFile(imagePath, maxPixels: maxPixels)
        switch BMPDecoder.decode(bytes, maxPixels: maxPixels) {
        case .success(let pixels):
            return BGRTLogo(picture: Picture(pixels: pixels), xOffset: xOffset, yOffset: yOffset, quarterTurns: status >> 1 & 3)
        case .failure(let failure):
            throw PictureError(file: imagePath, reason: failure.reason)
        }
    }

    /// A sysfs attribute holding one non-negative decimal number and a newline. sysfs reports
    /// every attribute as a page (4096 bytes) whatever it holds: that much may be read.
    private static func number(_ path: String) throws(PictureError) -> Int {
        let text: [UInt8]
        switch SystemCalls.readRegularFile(path, limit: 4096) {
        case .success(let bytes): text = bytes
        case .failure(let error): throw PictureError(file: path, reason: "\(error) (the firmware has no boot logo)")
        }
        let words = String(decoding: text, as: UTF8.self).split(whereSeparator: \.isWhitespace)
        guard words.count == 1, let value = Int(words[0]), value >= 0 else {
            throw PictureError(file: path, reason: "not a non-negative number")
        }
        return value
    }
}
