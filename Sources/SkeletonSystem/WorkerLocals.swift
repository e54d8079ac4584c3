/// What one worker thread keeps between jobs (a font library, a picture cache): made on that
/// thread at first use, used only there, gone with it.
public final class WorkerLocals {
    private var values: [ObjectIdentifier: AnyObject] = [:]

    public init() {}

    /// This thread's `T`, made by `make` the first time.
    public func value<T: AnyObject>(_ make: () -> T) -> T {
        if let known = values[ObjectIdentifier(T.self)] as? T { return known }
        let made = make()
        values[ObjectIdentifier(T.self)] = made
        return made
    }
}
