/// BMLTKit's own version: the one place it is written. The default `User-Agent` and `bmlt-observer --version`
/// read it from here.
///
/// ```swift
/// print("BMLTKit \(BMLTKitVersion.current)")   // BMLTKit 1.0.0
/// ```
public enum BMLTKitVersion {
    /// The version of this BMLTKit, `MAJOR.MINOR.PATCH`.
    ///
    /// ```swift
    /// let agent = "MyApp/2.0 BMLTKit/\(BMLTKitVersion.current)"
    /// ```
    public static let current = "1.0.0"
}
