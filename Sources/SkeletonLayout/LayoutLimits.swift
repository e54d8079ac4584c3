/// What one layout may resolve to. The largest canvas is 16384 pixels a side and a real screen
/// shows a few hundred shapes, so these sit far above any real layout while keeping a resolved
/// layout, its debug tree and its renderer's coverage masks within a few tens of megabytes.
/// A layout beyond them is refused at load; the resolver clamps to them for any other input.
public enum LayoutLimits {
    /// Text bars of one text node: a 16384-high node of 1-pixel lines 3 pixels apart.
    public static let textLinesPerNode = 4096
    /// Rows of one list, section headers and footers included: 1-pixel rows down a whole canvas.
    public static let rowsPerList = 16384
    /// Items of one grid: a 128 x 128 grid.
    public static let itemsPerGrid = 16384
    /// Nodes of the resolved tree, template instances included.
    public static let nodes = 65536
    /// Draw items: skeleton shapes (each text bar counts) and content backgrounds.
    public static let shapes = 65536
}
