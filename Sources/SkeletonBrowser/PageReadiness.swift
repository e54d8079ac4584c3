import SkeletonLayout

/// Whether the kiosk's page is ready to be shown, as a value with pure transitions: navigation
/// results, looks at the page, a crashed renderer and the clock go in; what to do next comes out
/// (`Effect`). Ready means the load event, the root element without `data-skeleton-hold`, and a
/// frame drawn after both. A page that does not load is tried again every `retryInterval`
/// seconds; whatever the page does, it is shown `timeout` seconds after the start, and the
/// journal says why once.
public struct PageReadiness: Sendable, Equatable {
    public struct Settings: Sendable, Equatable {
        /// Seconds after the start at which the page is shown, ready or not.
        public var timeout: Double = 30
        /// Seconds between navigations while the page does not load.
        public var retryInterval: Double = 2
        /// Seconds between looks at the page.
        public var pollInterval: Double = 0.05

        public init(timeout: Double = 30, retryInterval: Double = 2, pollInterval: Double = 0.05) {
            self.timeout = timeout
            self.retryInterval = retryInterval
            self.pollInterval = pollInterval
        }
    }

    public enum Input: Sendable, Equatable {
        /// A navigation to the URL ended; `error` is the browser's name for why it failed.
        case navigated(error: String?)
        case observed(PageObservation)
        /// The page's renderer crashed (`Inspector.targetCrashed`).
        case rendererCrashed
        /// Time passed: `nextDeadline` was reached.
        case tick
    }

    public enum Effect: Sendable, Equatable {
        /// Navigate to the URL (again).
        case navigate
        /// Look at the page (`PageObservation.script`).
        case look
        /// Show the page: the skeleton may go.
        case reveal
        /// A line for the journal.
        case log(String)
    }

    public enum Phase: Sendable, Equatable {
        case waiting
        /// Shown: ready, or at the timeout.
        case revealed(ready: Bool)
    }

    public let url: String?
    public let settings: Settings
    public private(set) var phase: Phase = .waiting
    private let startedAt: Double
    private var loadError: String?
    private var nextNavigation: Double?
    private var nextLook: Double
    private var crashed = false
    private var held = false

    /// Starts at `now`: the first navigation (when there is a URL) and the first look.
    public init(url: String?, settings: Settings, now: Double) {
        self.url = url
        self.settings = settings
        startedAt = now
        nextNavigation = url == nil ? nil : now
        nextLook = now
    }

    /// Seconds until the page is shown whatever it does (at least 0.1, for a call's timeout).
    public func secondsLeft(at now: Double) -> Double { max(0.1, startedAt + settings.timeout - now) }

    /// When the next `tick` is due.
    public var nextDeadline: Double? {
        guard phase == .waiting else { return nil }
        return [startedAt + settings.timeout, nextLook, nextNavigation].compactMap { $0 }.min()
    }

    public mutating func handle(_ input: Input, at now: Double) -> [Effect] {
        guard phase == .waiting else { return [] }
        switch input {
        case .navigated(nil):
            loadError = nil
            nextNavigation = nil
            return []
        case .navigated(let error?):
            defer { loadError = error; nextNavigation = now + settings.retryInterval }
            guard error != loadError else { return [] }
            return [.log("\(url ?? "the page") did not load: \(error); trying again every \(seconds(settings.retryInterval)), "
                         + "the skeleton stays until it has loaded or \(seconds(settings.timeout)) have passed")]
        case .rendererCrashed:
            guard !crashed else { return [] }
            crashed = true
            return [.log("the page's renderer crashed: not ready, the skeleton stays until \(seconds(settings.timeout)) have passed")]
        case .observed(let observation):
            return observe(observation, at: now)
        case .tick:
            return tick(at: now)
        }
    }

    private mutating func observe(_ observation: PageObservation, at now: Double) -> [Effect] {
        nextLook = now + settings.pollInterval
        switch observation {
        case .drawn where !crashed && loadError == nil:
            phase = .revealed(ready: true)
            return [.reveal, .log("the page is ready after \(seconds(now - startedAt)): the skeleton goes")]
        case .holding:
            held = true
            return []
        case .errorPage where loadError == nil && nextNavigation == nil:
            // The page itself went to the browser's error page (a reload that failed).
            nextNavigation = now + settings.retryInterval
            loadError = "the browser's error page"
            return [.log("\(url ?? "the page") shows the browser's error page; trying again every \(seconds(settings.retryInterval))")]
        default:
            return []
        }
    }

    private mutating func tick(at now: Double) -> [Effect] {
        if now >= startedAt + settings.timeout {
            phase = .revealed(ready: false)
            return [.reveal, .log("not ready after \(seconds(settings.timeout)) (\(whyNotReady)): the page is shown as it is")]
        }
        var effects: [Effect] = []
        if let due = nextNavigation, now >= due {
            nextNavigation = nil
            effects.append(.navigate)
        }
        if now >= nextLook {
            nextLook = .infinity
            effects.append(.look)
        }
        return effects
    }

    private var whyNotReady: String {
        if let loadError { return "it did not load: \(loadError); the browser's error page" }
        if crashed { return "its renderer crashed" }
        if held { return "the page still holds the skeleton with \(PageObservation.holdAttribute)" }
        return "no load event and frame after it"
    }

    private func seconds(_ value: Double) -> String { "\(JSONValue.formatNumber((value * 10).rounded() / 10)) s" }
}
