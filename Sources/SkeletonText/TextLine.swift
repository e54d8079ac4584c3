/// One line to draw: characters `range` of paragraph `paragraph`, with an ellipsis after them
/// when the text was cut there.
struct TextLine {
    var paragraph: Int
    var range: Range<Int>
    var ellipsis = false
}
