/// The face a style's font and weight come to, and what could not be honoured, if anything.
struct FontChoice {
    var face: FaceKey
    var note: String?
}
