/// What one layout may resolve to. A real screen shows a few hundred shapes; these limits sit
/// well above any real layout and where a layout at them still animates at the frame rate: an
/// animated frame of 4096 shapes with its present takes 4.7 ms at 1920x1080 and 2.9 ms at
/// 640x400 on the project's 2-core machine (`skeletond bench benchmarks/limits-1080p.json`),
/// against 16.7 ms between frames at 60 fps. At 16384 shapes it took 17.8 ms at 640x400: too
/// slow. A layout beyond them is refused at load; the resolver clamps to them for any other input.
public enum LayoutLimits {
    /// Text bars of one text node.
    public static let textLinesPerNode = 4096
    /// Rows of one list, section headers and footers included.
    public static let rowsPerList = 4096
    /// Items of one grid: a 64 x 64 grid.
    public static let itemsPerGrid = 4096
    /// Nodes of the resolved tree, template instances included (containers draw nothing).
    public static let nodes = 16384
    /// Draw items: skeleton shapes (each text bar counts) and content backgrounds.
    public static let shapes = 4096
    /// Bytes of one layout file: real layouts are a few KB, and lists and grids reach the node
    /// limit from a small file. (The daemon reads a layout off its loop: 80 to 90 ms for 16,384
    /// nodes written out one by one, about 1 MiB; a 3.3 MB file of them was read whole before.)
    public static let fileBytes = 1 << 20
}
