import Foundation
import NIOCore

/// The page's files, read once when the pages are made: the two HTML templates, and the scripts
/// and styles served under `assets/`.
///
/// They are files of the package (`Sources/JourneySharing/Assets`), copied by the package manager
/// into a resource bundle beside the executable. They are looked for, in order, in the folder the
/// options name, in that bundle, and in the package's own source folder (a build run from its
/// checkout), so a missing bundle is a typed error when the pages are made, not a crash.
struct PageAssets: Sendable {
    /// A file served as it is.
    struct File: Sendable {
        var contentType: String
        var bytes: ByteBuffer
    }

    /// Served files by name (`trip.js`).
    var files: [String: File]
    var tripTemplate: String
    var listTemplate: String
    /// The folder they were read from.
    var directory: String

    /// The name SwiftPM gives this module's resource bundle.
    private static let bundleName = "swift-fleet-engine_JourneySharing.resources"
    /// Files larger than this are not assets of ours.
    private static let largestFile = 4 << 20
    private static let contentTypes = [
        "js": "text/javascript; charset=utf-8", "css": "text/css; charset=utf-8",
        "html": "text/html; charset=utf-8", "svg": "image/svg+xml", "png": "image/png", "ico": "image/x-icon",
    ]

    static func load(from directory: String?) throws(JourneySharingError) -> PageAssets {
        let candidates: [String]
        if let directory {
            candidates = [directory]
        } else {
            let beside = Bundle.main.bundleURL.appendingPathComponent(bundleName).appendingPathComponent("Assets")
            let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .appendingPathComponent("Assets")
            candidates = [beside.path, source.path]
        }
        guard let found = candidates.first(where: { isAssetsFolder($0) }) else {
            throw JourneySharingError(
                .assetsNotFound,
                "the trip pages' files (trip.html, list.html and their scripts) are in none of "
                    + candidates.joined(separator: ", ")
                    + (directory == nil
                        ? "; keep \(bundleName) beside the executable, or name the folder in TripPagesOptions.assetsDirectory"
                        : ""))
        }
        var files: [String: File] = [:]
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: found)
        } catch {
            throw JourneySharingError(.assetsNotFound, "the folder \(found) cannot be listed", cause: error)
        }
        for name in names {
            let fileExtension = (name as NSString).pathExtension
            guard let contentType = contentTypes[fileExtension], fileExtension != "html" else { continue }
            files[name] = File(contentType: contentType, bytes: ByteBuffer(bytes: try read(found, name)))
        }
        return PageAssets(
            files: files, tripTemplate: String(decoding: try read(found, "trip.html"), as: UTF8.self),
            listTemplate: String(decoding: try read(found, "list.html"), as: UTF8.self), directory: found)
    }

    private static func isAssetsFolder(_ path: String) -> Bool {
        FileManager.default.fileExists(atPath: (path as NSString).appendingPathComponent("trip.html"))
    }

    private static func read(_ directory: String, _ name: String) throws(JourneySharingError) -> [UInt8] {
        let path = (directory as NSString).appendingPathComponent(name)
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw JourneySharingError(.assetsNotFound, "the trip pages' file \(path) cannot be read", cause: error)
        }
        guard data.count <= largestFile else {
            throw JourneySharingError(.assetsNotFound, "\(path) has \(data.count) bytes, more than a page's file may")
        }
        return Array(data)
    }
}
