/// One `--text ID=TEXT` or `--progress [ID=]VALUE` of skeletonctl update.
public struct ContentEntry<Value: Sendable>: Sendable {
    /// nil: the layout's node of that role (`--progress 0.5`).
    public var id: String?
    public var value: Value

    public init(id: String?, value: Value) {
        self.id = id
        self.value = value
    }
}
