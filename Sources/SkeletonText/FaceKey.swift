/// A face in the caches: a font file, and for a variable font the `wght` value it is set to.
struct FaceKey: Hashable {
    var path: String
    var variableWeight: Double?
}
