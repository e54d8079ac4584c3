/// Opening faces and honouring weights.
extension TextEngine {
    /// The face for `key`, opened on first use.
    func face(_ key: FaceKey) throws(TextError) -> FontFace {
        if let face = faces[key] { return face }
        let face = try FontFace(key: key, library: library)
        faces[key] = face
        return face
    }

    /// The face a style's font file and weight come to: a variable font set on its `wght` axis
    /// (clamped to the axis), a bold face file beside the regular one for 600 and above
    /// (`NAME-Bold.ttf` beside `NAME.ttf` or `NAME-Regular.ttf`), or the file as it is, with a
    /// note of the weight it could not give.
    func choice(for style: TextStyle) throws(TextError) -> FontChoice {
        let base = try face(FaceKey(path: style.fontPath))
        guard let weight = style.weight else { return FontChoice(face: base.key) }
        let request = WeightRequest(path: style.fontPath, weight: weight)
        if let known = choices[request] { return known }
        let chosen: FontChoice
        if let axis = base.weightAxis {
            let value = min(max(Double(weight), axis.lowerBound), axis.upperBound)
            let instance = try face(FaceKey(path: style.fontPath, variableWeight: value))
            chosen = FontChoice(face: instance.key, note: value == Double(weight) ? nil
                                : "\(style.fontPath) has weights \(axis.lowerBound) to \(axis.upperBound): weight \(weight) drawn at \(value)")
        } else if weight >= 600 && !base.isBold {
            let sibling = Self.boldSibling(of: style.fontPath)
            if let bold = try? face(FaceKey(path: sibling)), bold.isBold {
                chosen = FontChoice(face: bold.key)
            } else {
                chosen = FontChoice(face: base.key, note: "\(style.fontPath) has no bold face beside it (\(sibling)): weight \(weight) drawn regular")
            }
        } else if weight < 600 && base.isBold {
            chosen = FontChoice(face: base.key, note: "\(style.fontPath) is a bold face: weight \(weight) drawn bold")
        } else {
            chosen = FontChoice(face: base.key)
        }
        choices[request] = chosen
        return chosen
    }

    /// `DIR/NAME-Bold.EXT` for `DIR/NAME.EXT` or `DIR/NAME-Regular.EXT`.
    static func boldSibling(of path: String) -> String {
        let slash = path.lastIndex(of: "/").map { path.index(after: $0) } ?? path.startIndex
        let file = path[slash...]
        let dot = file.lastIndex(of: ".") ?? file.endIndex
        var stem = file[..<dot]
        if stem.hasSuffix("-Regular") { stem = stem.dropLast("-Regular".count) }
        return String(path[..<slash]) + stem + "-Bold" + file[dot...]
    }
}
