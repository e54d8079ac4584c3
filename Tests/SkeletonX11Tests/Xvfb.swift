import CXCB
import Foundation
import SkeletonRender

/// A real X server (Debian's Xvfb: Xorg's code without a card) on a display number it picks
/// itself (`-displayfd`), and a second client of it: what the tests read the screen with and the
/// "app" whose windows map beside the skeleton's.
final class Xvfb: @unchecked Sendable {
    let process = Process()
    let display: String
    let client: OpaquePointer
    let root: xcb_window_t

    init(width: Int = 640, height: Int = 400) throws {
        let number = Pipe()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/Xvfb")
        process.arguments = ["-displayfd", "1", "-screen", "0", "\(width)x\(height)x24", "-nolisten", "tcp", "-background", "none"]
        process.standardOutput = number
        process.standardError = FileHandle.nullDevice
        try process.run()
        // Xvfb writes its display's number once it takes clients.
        var text = ""
        while !text.hasSuffix("\n") {
            let chunk = number.fileHandleForReading.availableData
            guard !chunk.isEmpty else { throw XvfbError("Xvfb ended before it said its display (status \(process.terminationStatus))") }
            text += String(decoding: chunk, as: UTF8.self)
        }
        display = ":" + text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard let c = xcb_connect(display, nil), xcb_connection_has_error(c) == 0,
              let screen = xcb_setup_roots_iterator(xcb_get_setup(c)).data else {
            throw XvfbError("cannot connect to \(display)")
        }
        client = c
        root = screen.pointee.root
    }

    deinit {
        xcb_disconnect(client)
        stop()
    }

    /// SIGKILL: the test process may block SIGTERM (signalfd), and its children inherit that.
    func stop() {
        guard process.isRunning else { return }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    /// The screen as the server has it now (xcb_get_image of the root), as XRGB8888.
    func screenshot(width: Int = 640, height: Int = 400) throws -> PixelBuffer {
        let cookie = xcb_get_image(client, UInt8(XCB_IMAGE_FORMAT_Z_PIXMAP.rawValue), root, 0, 0, UInt16(width), UInt16(height), ~0)
        guard let reply = xcb_get_image_reply(client, cookie, nil) else { throw XvfbError("GetImage failed") }
        defer { free(reply) }
        let picture = PixelBuffer(size: .init(width: width, height: height))
        let data = UnsafeRawPointer(xcb_get_image_data(reply)!).assumingMemoryBound(to: UInt32.self)
        for y in 0..<height {
            picture.canvas.row(y).update(from: data + y * width, count: width)
        }
        return picture
    }

    /// A window of the "app": `pixel` as its background, at `x`,`y` in `size`, watching its
    /// visibility and its geometry, mapped.
    func mapWindow(pixel: UInt32, x: Int16 = 10, y: Int16 = 10, width: UInt16 = 100, height: UInt16 = 80) -> xcb_window_t {
        let id = xcb_generate_id(client)
        let values: [UInt32] = [pixel, XCB_EVENT_MASK_VISIBILITY_CHANGE.rawValue | XCB_EVENT_MASK_STRUCTURE_NOTIFY.rawValue]
        xcb_create_window(client, UInt8(XCB_COPY_FROM_PARENT), id, root, x, y, width, height, 0, UInt16(XCB_WINDOW_CLASS_INPUT_OUTPUT.rawValue),
                          0, XCB_CW_BACK_PIXEL.rawValue | XCB_CW_EVENT_MASK.rawValue, values)
        xcb_map_window(client, id)
        xcb_flush(client)
        return id
    }

    /// The window's geometry now (a round trip).
    func geometry(_ window: xcb_window_t) -> (x: Int, y: Int, width: Int, height: Int)? {
        guard let reply = xcb_get_geometry_reply(client, xcb_get_geometry(client, window), nil) else { return nil }
        defer { free(reply) }
        return (Int(reply.pointee.x), Int(reply.pointee.y), Int(reply.pointee.width), Int(reply.pointee.height))
    }

    /// The root's children, bottom to top.
    func stacking() -> [xcb_window_t] {
        guard let reply = xcb_query_tree_reply(client, xcb_query_tree(client, root), nil) else { return [] }
        defer { free(reply) }
        let count = Int(xcb_query_tree_children_length(reply))
        return Array(UnsafeBufferPointer(start: xcb_query_tree_children(reply), count: count))
    }

    /// The visibility states (VisibilityNotify) the app's windows got so far: 0 unobscured,
    /// 1 partially obscured, 2 fully obscured.
    func visibilities() -> [UInt8] {
        var states: [UInt8] = []
        while let event = xcb_poll_for_event(client) {
            if Int32(event.pointee.response_type & 0x7F) == XCB_VISIBILITY_NOTIFY {
                states.append(UnsafeMutableRawPointer(event).assumingMemoryBound(to: xcb_visibility_notify_event_t.self).pointee.state)
            }
            free(event)
        }
        return states
    }
}

struct XvfbError: Error, CustomStringConvertible {
    var description: String
    init(_ d: String) { description = d }
}
