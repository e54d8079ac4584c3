import SkeletonDevTools
import SkeletonLayout

/// The border boxes of the page's `::before` and `::after`, as the browser laid them out, for
/// `PageScanScript`: `{"<path>": {"before": [x, y, width, height], "after": [...]}}`, where a
/// path is the element's indices among its parents' element children from `<html>` ("1/0/3").
///
/// No script API gives a pseudo-element's box: `getBoundingClientRect` is the element's, and
/// working it out from the pseudo-element's computed style only works for the absolutely
/// positioned ones (an inline bullet's place depends on the line it is on); a probe element put
/// in its place would restyle its siblings (`:first-child`, `+`) and reflow the page. The
/// DevTools protocol has the pseudo-elements in its DOM tree and gives their boxes
/// (`DOM.getBoxModel`), measured by the layout itself, without touching the page.
enum PseudoElementBoxes {
    static func measure(in chrome: DevToolsPipe, timeout: Double) throws -> JSONValue {
        let document = try chrome.call("DOM.getDocument", ["depth": -1], timeout: timeout)
        guard case .array(let top)? = document["root"]?["children"],
              let html = top.first(where: { $0["nodeType"]?.numberValue == 1 }) else { return .object([:]) }
        var boxes: [String: JSONValue] = [:]
        try collect(html, path: nil, into: &boxes, chrome: chrome, timeout: timeout)
        return .object(boxes)
    }

    private static func collect(_ node: JSONValue, path: String?, into boxes: inout [String: JSONValue], chrome: DevToolsPipe,
                                timeout: Double) throws {
        if let path, case .array(let pseudos)? = node["pseudoElements"] {
            var own: [String: JSONValue] = [:]
            for pseudo in pseudos {
                guard let which = pseudo["pseudoType"]?.stringValue, which == "before" || which == "after",
                      let id = pseudo["nodeId"]?.numberValue else { continue }
                // A pseudo-element without a layout box (in an element not rendered) has no box model.
                guard let model = try? chrome.call("DOM.getBoxModel", ["nodeId": .number(id)], timeout: timeout),
                      let box = bounds(model["model"]?["border"]) else { continue }
                own[which] = box
            }
            if !own.isEmpty { boxes[path] = .object(own) }
        }
        guard case .array(let children)? = node["children"] else { return }
        let elements = children.filter { $0["nodeType"]?.numberValue == 1 }
        for (index, child) in elements.enumerated() {
            try collect(child, path: path.map { "\($0)/\(index)" } ?? "\(index)", into: &boxes, chrome: chrome, timeout: timeout)
        }
    }

    /// `[x, y, width, height]` around a quad (four corners, x then y).
    private static func bounds(_ quad: JSONValue?) -> JSONValue? {
        guard case .array(let values)? = quad, values.count == 8 else { return nil }
        let numbers = values.compactMap(\.numberValue)
        guard numbers.count == 8 else { return nil }
        let xs = stride(from: 0, to: 8, by: 2).map { numbers[$0] }, ys = stride(from: 1, to: 8, by: 2).map { numbers[$0] }
        let x = xs.min()!, y = ys.min()!
        return [.number(x), .number(y), .number(xs.max()! - x), .number(ys.max()! - y)]
    }
}
