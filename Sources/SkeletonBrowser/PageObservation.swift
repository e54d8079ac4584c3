import SkeletonLayout

/// What one look at the page found (`PageObservation.script`, run in the page).
public enum PageObservation: Sendable, Equatable {
    /// The load event has not fired yet.
    case loading
    /// Loaded, and the root element still has `data-skeleton-hold`: the page's data is not drawn.
    case holding
    /// Loaded, not held, and a frame has been drawn since (two animation frames).
    case drawn
    /// The browser shows its own error page (`chrome-error:`): the page did not load.
    case errorPage
    /// The page could not be asked (its renderer crashed, or it is navigating).
    case unavailable

    /// The expression that answers with one of `loading`, `holding`, `drawn` or `error`. A frame
    /// is waited for with two `requestAnimationFrame`s; a window the compositor does not draw
    /// gets no frames (the browser's own throttling), so half a second without one counts as drawn.
    public static let script = """
        (() => {
          if (location.protocol === "chrome-error:") return "error";
          if (document.readyState !== "complete") return "loading";
          if (document.documentElement.hasAttribute("\(holdAttribute)")) return "holding";
          return new Promise(done => {
            requestAnimationFrame(() => requestAnimationFrame(() => done("drawn")));
            setTimeout(() => done("drawn"), 500);
          });
        })()
        """

    /// The root element's attribute that holds the skeleton while it is there.
    public static let holdAttribute = "data-skeleton-hold"

    /// The script's answer as an observation.
    public init(answer: JSONValue) {
        switch answer.stringValue {
        case "loading": self = .loading
        case "holding": self = .holding
        case "drawn": self = .drawn
        case "error": self = .errorPage
        default: self = .unavailable
        }
    }
}
