import SkeletonLayout

/// The script `PageCapture` runs in the page: it walks the visible DOM from `body` and returns, as
/// one JSON text, the page (its size, background and direction) and a tree of what a skeleton
/// is made from. Each entry has `kind` (`text`, `image`, `control`, `bar`, `content` for
/// `data-skeleton="false"`, `shape` for an element or pseudo-element that paints only a box of
/// its own: a background, border, outline or shadow, or `box` for an element that only holds
/// others), `rect` in viewport pixels, `signature` (tag and classes) and, where it applies,
/// `id`, `radius`, `background`, `lines` (a text's line boxes, from `getClientRects` of its
/// text), `align`, `linesAttribute` (`data-skeleton-lines`), `hidden` (`data-skeleton="hide"`,
/// on it or an element above it) and `children`. Invisible elements (display none, visibility
/// hidden, opacity 0, empty and unpainted, or outside the viewport) are left out.
enum PageScanScript {
    /// The script, given the boxes of the page's `::before` and `::after` (`PseudoElementBoxes`).
    static func source(pseudoElementBoxes: JSONValue) -> String {
        "(() => { const pseudoBoxes = \(pseudoElementBoxes.jsonText); return \(scan); })()"
    }

    private static let scan = #"""
    (() => {
      const W = window.innerWidth, H = window.innerHeight;
      const hex = (c) => {
        const m = /rgba?\(([\d.]+),\s*([\d.]+),\s*([\d.]+)(?:,\s*([\d.]+))?\)/.exec(c || "");
        if (!m || (m[4] !== undefined && parseFloat(m[4]) < 0.99)) return null;
        return "#" + [m[1], m[2], m[3]].map(v => Math.round(+v).toString(16).padStart(2, "0")).join("").toUpperCase();
      };
      const opaque = (c) => { const m = /rgba\([^)]*,\s*([\d.]+)\)/.exec(c || ""); return c && c !== "transparent" && (!m || parseFloat(m[1]) > 0.05); };
      // What an element paints of its own, on a block of colour `under`: a background of
      // another colour, a border or an outline, or a shadow.
      const paints = (s, under) => {
        const bg = hex(s.backgroundColor);
        if (bg ? bg !== under : opaque(s.backgroundColor)) return true;
        if (s.backgroundImage && s.backgroundImage !== "none") return true;
        const line = (width, style, colour) => parseFloat(width) > 0 && style !== "none" && style !== "hidden" && opaque(colour);
        if (["Top", "Right", "Bottom", "Left"].some(side => line(s["border" + side + "Width"], s["border" + side + "Style"], s["border" + side + "Color"]))) return true;
        return line(s.outlineWidth, s.outlineStyle, s.outlineColor) || (s.boxShadow && s.boxShadow !== "none");
      };
      const clip = (r) => {
        const x0 = Math.max(0, r.left), y0 = Math.max(0, r.top), x1 = Math.min(W, r.right), y1 = Math.min(H, r.bottom);
        return x1 > x0 && y1 > y0 ? [x0, y0, x1 - x0, y1 - y0] : null;
      };
      const media = new Set(["IMG", "SVG", "PICTURE", "VIDEO", "CANVAS"]);
      const controls = new Set(["BUTTON", "INPUT", "SELECT", "TEXTAREA"]);
      const radius = (s, r) => {
        const v = parseFloat(s.borderTopLeftRadius) || 0;
        return s.borderTopLeftRadius.endsWith("%") ? v / 100 * Math.min(r.width, r.height) : v;
      };
      const signature = (e) => e.tagName + "." + [...e.classList].sort().join(".");
      const textLines = (e) => {
        const rects = [];
        for (const n of e.childNodes) {
          if (n.nodeType !== 3 || !n.textContent.trim()) continue;
          const range = document.createRange();
          range.selectNodeContents(n);
          for (const r of range.getClientRects()) if (r.width > 0 && r.height > 0) rects.push(r);
        }
        const lines = [];
        for (const r of rects.sort((a, b) => a.top - b.top || a.left - b.left)) {
          const last = lines[lines.length - 1];
          if (last && Math.abs(last.top - r.top) < Math.max(2, r.height / 2)) {
            const right = Math.max(last.right, r.right), bottom = Math.max(last.bottom, r.bottom);
            last.left = Math.min(last.left, r.left); last.top = Math.min(last.top, r.top); last.right = right; last.bottom = bottom;
          } else {
            lines.push({left: r.left, top: r.top, right: r.right, bottom: r.bottom});
          }
        }
        // Lines cut off by the element's own overflow (a clamped excerpt) are not shown.
        const s = getComputedStyle(e), box = e.getBoundingClientRect();
        const cuts = s.overflowX !== "visible" || s.overflowY !== "visible";
        const shown = lines.map(l => {
          if (!cuts) return l;
          const c = {left: Math.max(l.left, box.left), top: Math.max(l.top, box.top),
                     right: Math.min(l.right, box.right), bottom: Math.min(l.bottom, box.bottom)};
          // A line more than half hidden is not shown.
          return c.right > c.left && (c.bottom - c.top) * 2 > l.bottom - l.top ? c : null;
        });
        return shown.filter(l => l).map(l => clip(l)).filter(l => l);
      };
      // A `::before` or `::after` that draws: a box that paints (a bullet, a rule, a badge's dot)
      // or a text of its own (an icon font's glyph, a counter). Its box is the browser's own
      // (`pseudoBoxes`, by the element's path), since no script API gives a pseudo-element's box.
      const pseudo = (e, path, which, under, hidden) => {
        const box = (pseudoBoxes[path] || {})[which];
        if (!box) return null;
        const s = getComputedStyle(e, "::" + which);
        if (s.content === "none" || s.content === "normal" || s.display === "none" || s.visibility === "hidden" || parseFloat(s.opacity) === 0) return null;
        const rect = clip({left: box[0], top: box[1], right: box[0] + box[2], bottom: box[1] + box[3]});
        if (!rect) return null;
        const text = /^["'].*\S.*["']$/.test(s.content) || /counter|attr\(/.test(s.content);
        const painted = paints(s, under);
        if (!painted && !text) return null;
        const entry = {kind: painted ? "shape" : "text", signature: "::" + which, rect, radius: radius(s, {width: box[2], height: box[3]})};
        if (!painted) entry.lines = [rect];
        if (hidden) entry.hidden = true;
        return entry;
      };
      const visit = (e, path, under, hiddenAbove) => {
        const s = getComputedStyle(e);
        if (s.display === "none" || s.visibility === "hidden" || parseFloat(s.opacity) === 0) return null;
        const box = e.getBoundingClientRect();
        const rect = clip(box);
        const flag = e.getAttribute("data-skeleton");
        const entry = {signature: signature(e)};
        if (e.id) entry.id = e.id;
        if (flag === "hide" || hiddenAbove) entry.hidden = true;
        const background = hex(s.backgroundColor);
        if (flag === "false") {
          if (!rect) return null;
          return Object.assign(entry, {kind: "content", rect, background, radius: radius(s, box)});
        }
        const fixed = s.position === "fixed" || s.position === "sticky";
        if (fixed && background && rect) {
          return Object.assign(entry, {kind: "bar", rect, background, radius: radius(s, box)});
        }
        if (media.has(e.tagName.toUpperCase()) || (s.backgroundImage && s.backgroundImage !== "none" && !e.children.length)) {
          if (!rect) return null;
          return Object.assign(entry, {kind: "image", rect, radius: radius(s, box)});
        }
        if (controls.has(e.tagName)) {
          if (!rect || (e.tagName === "INPUT" && e.type === "hidden")) return null;
          return Object.assign(entry, {kind: "control", rect, radius: radius(s, box)});
        }
        const lines = textLines(e);
        const inside = background || under;
        const children = [];
        const before = pseudo(e, path, "before", inside, !!entry.hidden);
        if (before) children.push(before);
        [...e.children].forEach((c, i) => {
          const v = visit(c, path + "/" + i, inside, !!entry.hidden);
          if (v) children.push(v);
        });
        const after = pseudo(e, path, "after", inside, !!entry.hidden);
        if (after) children.push(after);
        if (lines.length && !children.length) {
          if (!rect) return null;
          const attribute = parseInt(e.getAttribute("data-skeleton-lines") || "", 10);
          Object.assign(entry, {kind: "text", rect, lines, align: s.textAlign, background, radius: radius(s, box)});
          if (attribute > 0) entry.linesAttribute = attribute;
          return entry;
        }
        if (lines.length) {
          // Text beside elements (a line of text with a link in it): the text's own lines are a
          // leaf of their own, before the elements.
          const r = lines.reduce((a, l) => [Math.min(a[0], l[0]), Math.min(a[1], l[1]), Math.max(a[2], l[0] + l[2]), Math.max(a[3], l[1] + l[3])],
                                 [Infinity, Infinity, -Infinity, -Infinity]);
          const own = {kind: "text", signature: "#text", rect: [r[0], r[1], r[2] - r[0], r[3] - r[1]], lines, align: s.textAlign};
          if (entry.hidden) own.hidden = true;
          children.unshift(own);
        }
        if (!children.length) {
          if (!rect || !paints(s, under)) return null;
          return Object.assign(entry, {kind: "shape", rect, radius: radius(s, box)});
        }
        return Object.assign(entry, {kind: "box", rect: rect || [0, 0, 0, 0], children, background, radius: radius(s, box)});
      };
      const page = getComputedStyle(document.body || document.documentElement);
      const html = getComputedStyle(document.documentElement);
      const pageBackground = hex(page.backgroundColor) || hex(html.backgroundColor) || "#FFFFFF";
      const root = document.body ? visit(document.body, String([...document.documentElement.children].indexOf(document.body)), hex(html.backgroundColor) || "#FFFFFF", false) : null;
      return JSON.stringify({
        width: W, height: H,
        background: pageBackground,
        direction: (document.documentElement.dir || (document.body && document.body.dir) || page.direction) === "rtl" ? "rtl" : "ltr",
        nodes: root ? (root.kind === "box" ? root.children : [root]) : []
      });
    })()
    """#
}
