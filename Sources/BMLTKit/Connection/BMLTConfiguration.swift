import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// How a `BMLTConnection` talks to its server and delivers what it learns.
///
/// The defaults suit a mobile app: 30 s per call (retries included), notifications on the main thread, no spinner delays.
/// ```swift
/// var configuration = BMLTConfiguration()
/// configuration.progressStartDelay = 0.5
/// let connection = BMLTConnection(rootServerURL: url, configuration: configuration)
/// ```
public struct BMLTConfiguration: Sendable {
    /// Where notifications are posted (default `.default`).
    public var notificationCenter: NotificationCenter
    /// Where notifications and event monitors are delivered (default `.main`: on the main actor, in order — at
    /// once on the main thread, else in one main-queue operation, never waiting for the main queue). Typed
    /// messages and `connection.events` are always delivered on the main actor. On Apple platforms from OS 26 on,
    /// Foundation calls typed observers inside the classic post and requires the main actor there, so
    /// notifications are posted on the main actor whatever this says; only event monitors use the queue.
    public var deliveryQueue: DispatchQueue
    /// Where BMLTKit also posts its typed messages (`BMLTMeetingSearchResultsMessage`, …), for observers
    /// registered with `addObserver(of:for:)` on that center (default `nil`: none posted).
    ///
    /// On Apple platforms (OS 26) this is not needed: Foundation delivers each classic notification of
    /// `notificationCenter` to its typed observers too, once. On Linux, Foundation hands a typed message to every
    /// `forName: nil` observer of the same center, which stops the process, so BMLTKit never posts messages to
    /// `notificationCenter` there. Name a center that has **no `forName: nil` observers** — best one of its own:
    /// ```swift
    /// let typedCenter = NotificationCenter()
    /// var configuration = BMLTConfiguration()
    /// configuration.typedMessageCenter = typedCenter   // then: typedCenter.addObserver(of: connection, for: …)
    /// ```
    public var typedMessageCenter: NotificationCenter?
    /// Extra observers of every event, beside the notification center (e.g. a logger or a test recorder).
    public var eventMonitors: [any BMLTEventMonitor]
    /// Seconds one call may take in all before it fails with `.timeout` (default 30): every request the call sends
    /// (`validate()` sends up to three at once; a search with a time window may ask again), every attempt of each, the
    /// waits between retries and a write's read-back, together, from the call's start to its outcome. When it passes,
    /// the attempt in flight ends and no other starts. Delivering the outcome (notifications, stores) is not counted.
    ///
    /// How late the outcome may come after the deadline:
    /// - **Reads** (validation, searches, formats, service bodies, changes, field values, coverage area, NAWS export):
    ///   `.timeout` at the deadline plus one hop to the main actor, whatever the cancelled work still does behind it;
    ///   nothing of that work reaches the cache, the stores or the notifications.
    /// - **Login, logout, permissions, messages and server administration**: when the cancelled work has returned. It
    ///   has nothing left to wait for (no request, no retry wait, no shared token refresh outlives the deadline), only
    ///   its own winding down, so that it never reports a login as timed out that then opens.
    /// - **Meeting writes**: the write within `timeout`, then, if its answer was lost, the look-up of what the server
    ///   holds within one more `timeout` of its own: at most about two `timeout`s (see "When the answer is lost" in the
    ///   Administration article).
    ///
    /// `.infinity` (or anything from about 31 years, `1e9`, on) means no deadline: a server that accepts a request and
    /// never answers then holds the call until it is cancelled (`request.cancel()`, the calling task's cancellation,
    /// `cancelAllRequests()`), and the connection logs a warning when it is made. Prefer a finite timeout. The HTTP
    /// stack never gets an infinite or overflowing timeout of its own (it gets one that long instead).
    ///
    /// A timeout that is not a number of seconds above 0 — `0`, a negative number, `.nan` — is refused: every call of
    /// the connection fails with `BMLTError.invalidArgument(.invalidTimeout(_:))` and nothing is sent. No value crashes.
    /// ```swift
    /// var configuration = BMLTConfiguration()
    /// configuration.timeout = 10      // a validate() on a dead server fails with .timeout after about 10 s, retries included
    /// ```
    public var timeout: TimeInterval
    /// The `User-Agent` header.
    public var userAgent: String
    /// A busy period shorter than this never posts `.bmltProgressDidStart` (default 0: post at once).
    public var progressStartDelay: TimeInterval
    /// `.bmltProgressDidStop` waits this long for another request before it is posted (default 0).
    public var progressStopDelay: TimeInterval
    /// Allows `http://` to hosts other than loopback (default `false`). Loopback is always allowed. On Apple
    /// platforms App Transport Security decides too: an app needs an exception in its Info.plist
    /// (`NSAllowsLocalNetworking`, or `NSExceptionDomains`) or the load fails with code -1022.
    public var allowsInsecureHTTP: Bool
    /// The session configuration the connection copies for its own `URLSession` (tests install `URLProtocol`
    /// stubs here). The connection always uses its own cookie jar, never the shared one.
    public var urlSessionConfiguration: URLSessionConfiguration
    /// An HTTP transport of the app's own, used instead of `URLSession` (default `nil`). See `BMLTHTTPTransport`.
    public var httpTransport: (any BMLTHTTPTransport)?
    /// The largest answer accepted, in bytes (default 64 MiB; worldwide aggregator searches are ~20 MB). The
    /// body is refused as soon as it passes the limit, so memory stays bounded.
    public var maximumResponseSize: Int
    /// How reads are retried on transient failures (default: twice, with backoff). Writes never are.
    public var retryPolicy: BMLTRetryPolicy
    /// How much is logged through `logHandler` (default `.off`): `.off`, `.errors` (failed requests, warnings about
    /// the server), `.requests` (every request's outcome too), `.debug` (each attempt as it starts too).
    /// ```swift
    /// var configuration = BMLTConfiguration()
    /// configuration.logLevel = .requests
    /// ```
    public var logLevel: BMLTLogLevel
    /// Receives log lines (default: none): `(@Sendable (BMLTLogLevel, String) -> Void)?`, the line's level and its
    /// text, called on the thread that made the line. Lines never contain passwords, tokens, cookies or bodies.
    /// ```swift
    /// var configuration = BMLTConfiguration()
    /// configuration.logLevel = .errors
    /// configuration.logHandler = { (level: BMLTLogLevel, line: String) in print("[BMLTKit \(level)]", line) }
    /// ```
    public var logHandler: (@Sendable (BMLTLogLevel, String) -> Void)?
    /// A persistent cache of read replies (default `nil`: none). See `BMLTResponseCache`.
    public var cache: BMLTResponseCache?
    /// When reads are answered from `cache` (default `.networkOnly`).
    public var cachePolicy: BMLTCachePolicy
    /// The language of the sentences the connection words (draft problems, `connection.localizedDescription(of:)`):
    /// `nil` (the default) is ``BMLTLocalization/defaultLocale`` — the app's language, or on Linux `LANGUAGE`/`LANG`.
    /// A server or a CLI serving someone else names it:
    /// ```swift
    /// var configuration = BMLTConfiguration()
    /// configuration.locale = Locale(identifier: "fa")   // Farsi sentences, Persian digits
    /// ```
    public var locale: Locale?

    /// A configuration with the defaults.
    public init(notificationCenter: NotificationCenter = .default,
                deliveryQueue: DispatchQueue = .main,
                eventMonitors: [any BMLTEventMonitor] = [],
                timeout: TimeInterval = 30,
                userAgent: String = "BMLTKit/\(BMLTKitVersion.current)",
                progressStartDelay: TimeInterval = 0,
                progressStopDelay: TimeInterval = 0,
                allowsInsecureHTTP: Bool = false,
                urlSessionConfiguration: URLSessionConfiguration = .ephemeral,
                maximumResponseSize: Int = 64 * 1024 * 1024,
                retryPolicy: BMLTRetryPolicy = BMLTRetryPolicy(),
                logLevel: BMLTLogLevel = .off,
                logHandler: (@Sendable (BMLTLogLevel, String) -> Void)? = nil,
                cache: BMLTResponseCache? = nil,
                cachePolicy: BMLTCachePolicy = .networkOnly,
                httpTransport: (any BMLTHTTPTransport)? = nil,
                typedMessageCenter: NotificationCenter? = nil) {
        self.notificationCenter = notificationCenter
        self.deliveryQueue = deliveryQueue
        self.typedMessageCenter = typedMessageCenter
        self.eventMonitors = eventMonitors
        self.timeout = timeout
        self.userAgent = userAgent
        self.progressStartDelay = progressStartDelay
        self.progressStopDelay = progressStopDelay
        self.allowsInsecureHTTP = allowsInsecureHTTP
        self.urlSessionConfiguration = urlSessionConfiguration
        self.maximumResponseSize = maximumResponseSize
        self.retryPolicy = retryPolicy
        self.logLevel = logLevel
        self.logHandler = logHandler
        self.cache = cache
        self.cachePolicy = cachePolicy
        self.httpTransport = httpTransport
        self.locale = nil
    }
}
