import Testing

/// Every suite that uses the embedded demo server, which keeps one data set and one token table for the whole
/// process (some tests reset it): they run one after the other, never beside each other.
@Suite("Suites sharing the embedded demo server", .serialized)
enum DemoServerSuites {}
