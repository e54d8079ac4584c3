extension ResolvedLayout {
    /// The tree document of `skeletond tree` and the `tree` command: the layout's name, the
    /// output size and the resolved nodes with frames in output pixels.
    public func treeDocument(layoutName: String) -> JSONValue {
        ["layout": .string(layoutName), "output": [.number(Double(outputSize.width)), .number(Double(outputSize.height))],
         "root": root.json]
    }
}
