import SkeletonLayout

/// The preview's page: the frames drawn into a canvas as they come over the WebSocket, the
/// problems in place of the picture, and the resolved node under the pointer. `window.preview`
/// holds what the page shows (the version, the frames drawn, the problems, a pixel), for tests.
enum PreviewPage {
    static func html(file: String, beside: Bool) -> String {
        let name = JSONValue.string(file).jsonText
        return #"""
        <!doctype html>
        <html lang="en"><head><meta charset="utf-8"><title>skeletond preview</title>
        <style>
          body { margin: 0; font: 14px sans-serif; background: #2c3e50; color: #ecf0f1; }
          header { padding: 8px 12px; background: #1b2631; }
          main { display: flex; gap: 16px; padding: 12px; align-items: flex-start; }
          #stage { position: relative; }
          canvas, img { display: block; max-width: 100%; background: #fff; }
          #pointer { position: absolute; pointer-events: none; border: 1px solid #e74c3c; display: none; }
          #node { margin-top: 6px; min-height: 1.2em; font-family: monospace; }
          #problems { padding: 12px; font-family: monospace; white-space: pre-wrap; color: #fff; background: #922b21; }
          [hidden] { display: none !important; }
        </style></head>
        <body>
          <header><span id="file"></span> <span id="status"></span></header>
          <section id="problems" hidden></section>
          <main>
            <div id="stage"><canvas id="frame" width="1" height="1"></canvas><div id="pointer"></div><div id="node"></div></div>
            \#(beside ? #"<img id="beside" src="/beside.png" alt="the page">"# : "")
          </main>
        <script>
          const file = \#(name);
          const preview = { version: 0, frames: 0, frameVersion: 0, problems: [], tree: null };
          window.preview = preview;
          document.getElementById("file").textContent = file;
          const canvas = document.getElementById("frame"), g = canvas.getContext("2d", { willReadFrequently: true });
          const problems = document.getElementById("problems"), status = document.getElementById("status");
          preview.pixel = (x, y) => { const d = g.getImageData(x, y, 1, 1).data; return (d[0] << 16) | (d[1] << 8) | d[2]; };
          const connect = () => {
            const ws = new WebSocket(`ws://${location.host}/live`);
            ws.binaryType = "blob";
            ws.onmessage = async (m) => {
              if (typeof m.data === "string") {
                const message = JSON.parse(m.data);
                preview.version = message.version;
                if (message.type === "layout") {
                  preview.tree = message.tree; preview.problems = [];
                  canvas.width = message.size[0]; canvas.height = message.size[1];
                  problems.hidden = true; canvas.hidden = false;
                  status.textContent = `${message.tree.layout}, ${message.size[0]}x${message.size[1]}`;
                } else {
                  preview.problems = message.problems; preview.tree = null;
                  problems.textContent = message.problems.map(p => `${p.file}:${p.line}: ${p.path ? p.path + ": " : ""}${p.message}`).join("\n");
                  problems.hidden = false; canvas.hidden = true;
                  status.textContent = `${message.problems.length} problem(s)`;
                }
                return;
              }
              const version = preview.version, bitmap = await createImageBitmap(m.data);
              g.drawImage(bitmap, 0, 0);
              preview.frames += 1; preview.frameVersion = version;
            };
            ws.onclose = () => { status.textContent = "disconnected; retrying"; setTimeout(connect, 500); };
          };
          connect();
          const deepest = (node, x, y) => {
            const [fx, fy, fw, fh] = node.frame || [0, 0, 0, 0];
            if (x < fx || y < fy || x >= fx + fw || y >= fy + fh) return null;
            for (const child of [...(node.children || [])].reverse()) { const hit = deepest(child, x, y); if (hit) return hit; }
            return node;
          };
          canvas.addEventListener("mousemove", (e) => {
            if (!preview.tree) return;
            const r = canvas.getBoundingClientRect(), sx = canvas.width / r.width, sy = canvas.height / r.height;
            const node = deepest(preview.tree.root, (e.clientX - r.left) * sx, (e.clientY - r.top) * sy);
            const box = document.getElementById("pointer"), label = document.getElementById("node");
            if (!node) { box.style.display = "none"; label.textContent = ""; return; }
            const [x, y, w, h] = node.frame;
            Object.assign(box.style, { display: "block", left: `${x / sx}px`, top: `${y / sy}px`, width: `${w / sx}px`, height: `${h / sy}px` });
            label.textContent = `${node.kind}${node.id ? " #" + node.id : ""} [${node.frame.join(", ")}]`;
          });
        </script>
        </body></html>
        """#
    }
}
