/// How ``TripPages`` serves: who may look, what the map draws under the trip, how far a viewer
/// may fall behind.
public struct TripPagesOptions: Sendable {
    /// A tile URL template with `{z}`, `{x}` and `{y}` (web mercator, 256-pixel tiles), drawn
    /// under the trip where the browser can reach it; nil (the default) draws the trip alone, and
    /// the page then loads nothing but its own files and its event stream. The pages' content
    /// security policy lets images come from the template's origin alone, so write its host out
    /// (no `{s}`).
    public var tileURLTemplate: String?

    /// Whether the list, the trip pages by id and their event streams are served to any address;
    /// false (the default) serves them to loopback peers only (127.0.0.0/8, ::1), and others get
    /// 403. Share links and the pages' files are served to anyone either way: a share link's
    /// token is its own permission. Behind a proxy on the same machine every peer is loopback:
    /// keep such a proxy from forwarding these paths.
    public var servesRemoteViewers: Bool

    /// Signs and checks share links; nil (the default) for no share links (their paths answer 404).
    public var shareLinks: ShareLinkSigner?

    /// State messages a viewer may have waiting (its connection not taking them) before it is
    /// dropped; its page reconnects and starts from the latest state. 64 by default.
    public var viewerBufferLimit: Int

    /// The folder of the page's files, when they are not in the resource bundle beside the
    /// executable (as after copying the executable alone); nil to look there.
    public var assetsDirectory: String?

    /// Options: nothing under the trip, loopback viewers only, no share links, 64 messages per
    /// viewer, the files from the resource bundle.
    public init(
        tileURLTemplate: String? = nil, servesRemoteViewers: Bool = false, shareLinks: ShareLinkSigner? = nil,
        viewerBufferLimit: Int = 64, assetsDirectory: String? = nil
    ) {
        self.tileURLTemplate = tileURLTemplate
        self.servesRemoteViewers = servesRemoteViewers
        self.shareLinks = shareLinks
        self.viewerBufferLimit = viewerBufferLimit
        self.assetsDirectory = assetsDirectory
    }
}
