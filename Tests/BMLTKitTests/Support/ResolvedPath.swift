import Foundation

extension URL {
    /// The path with every symbolic link resolved, for comparing two paths of one file (Apple audit A7): on a Mac the
    /// temporary directory is `/var/folders/…`, a link to `/private/var/folders/…`, and a bundle may hand back either
    /// form. Both sides of a comparison go through this (on Apple platforms it also drops a leading `/private` where
    /// the shorter path names the same file, so either form comes out the same).
    /// ```swift
    /// #expect(found.bundleURL.resolvedPath == copy.resolvedPath)
    /// ```
    var resolvedPath: String { standardizedFileURL.resolvingSymlinksInPath().path }
}
