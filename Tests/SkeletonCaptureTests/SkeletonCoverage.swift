import Foundation
import SkeletonLayout

/// How a captured skeleton stands for its page: how many of the page's visible leaf boxes its
/// shapes cover at least half of, how much of the shapes lies on content (where the page's
/// screenshot differs from its background, or inside a leaf box), and the IoU of the shapes'
/// union with the leaves' union.
struct SkeletonCoverage: CustomStringConvertible {
    var boxes = 0
    var halfCovered: [Rect] = []
    var lessThanHalfCovered: [Rect] = []
    var shapePixels = 0
    var shapePixelsOnContent = 0
    var iou = 0.0

    /// `screenshot`: the page's pixels (xrgb, `width` x `height`); `background`: its colour.
    init(shapes: [Rect], leaves: [Rect], screenshot: [UInt32], background: UInt32, width: Int, height: Int) {
        var shapeMask = PixelMask(width: width, height: height), leafMask = shapeMask
        shapes.forEach { shapeMask.fill($0) }
        leaves.forEach { leafMask.fill($0) }
        for box in leaves {
            let pixels = leafMask.indices(of: box)
            guard !pixels.isEmpty else { continue }
            boxes += 1
            let covered = pixels.count { shapeMask.bits[$0] }
            if covered * 2 >= pixels.count { halfCovered.append(box) } else { lessThanHalfCovered.append(box) }
        }
        var both = 0, either = 0
        for i in 0..<width * height {
            let shape = shapeMask.bits[i], leaf = leafMask.bits[i]
            if shape && leaf { both += 1 }
            if shape || leaf { either += 1 }
            if shape {
                shapePixels += 1
                if leaf || screenshot[i] & 0xFFFFFF != background & 0xFFFFFF { shapePixelsOnContent += 1 }
            }
        }
        iou = either == 0 ? 0 : Double(both) / Double(either)
    }

    var halfCoveredShare: Double { boxes == 0 ? 0 : Double(halfCovered.count) / Double(boxes) }
    var onContentShare: Double { shapePixels == 0 ? 0 : Double(shapePixelsOnContent) / Double(shapePixels) }

    var description: String {
        "boxes at least half covered \(percent(halfCoveredShare)) (\(halfCovered.count) of \(boxes)), "
            + "skeleton pixels on content \(percent(onContentShare)), IoU \(String(format: "%.3f", iou))"
            + (lessThanHalfCovered.isEmpty ? "" : "; less than half covered: \(lessThanHalfCovered)")
    }

    private func percent(_ share: Double) -> String { String(format: "%.1f %%", share * 100) }
}
