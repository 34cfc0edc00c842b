/// BMLTKit's own version: the one place it is written in code. The default `User-Agent`, the iCalendar export's
/// `PRODID` and `bmlt-observer --version` read it from here; the README's Install line and CHANGELOG.md's newest
/// release say the same (`ReleaseMetadataTests` fails when they do not).
///
/// ```swift
/// print("BMLTKit \(BMLTKitVersion.current)")   // BMLTKit 2.0.0
/// ```
public enum BMLTKitVersion {
    /// The version of this BMLTKit, `MAJOR.MINOR.PATCH`.
    ///
    /// ```swift
    /// let agent = "MyApp/2.0 BMLTKit/\(BMLTKitVersion.current)"
    /// ```
    public static let current = "2.0.0"
}
