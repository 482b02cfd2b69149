import Glibc
import MediaCore
import Web

/// A photo's first look: the small picture offered to the viewer the moment it is made,
/// while the photo itself still decodes, so stepping onto a photo changes the screen at once.
extension DemuxStage {
    /// Offers the first frame of `picture` (a worker's first look) as the photo's.
    func offer(_ picture: PictureSource) {
        guard let first = try? picture.next() else { return }
        offer(first.frame, rotation: picture.info.rotation, upright: (picture.info.width, picture.info.height))
    }

    /// `offerInProcessFirstLook` on a thread of its own, for a local JPEG: the photo's decode
    /// follows at once and would otherwise wait for the look (a 24 MP JPEG's eighth takes
    /// 50 ms, its quarter 65 ms; side by side, each has a core). The thread holds the stage
    /// until the look is made, offers nothing once the stage is closed, and the program's
    /// exit waits for it as for the stage's own threads.
    func startInProcessFirstLook() {
        guard options.firstLook != .none, url.hasPrefix("file:"),
              Self.head(of: String(url.dropFirst(5)), count: 3)?.starts(with: StillFile.jpeg) == true else { return }
        NamedThread.start(name: "mv-first-look") { [self] in offerInProcessFirstLook() }
    }

    /// With the sandbox off (or no worker to be had), a local JPEG's first look is made here,
    /// as its decode will be. The camera's thumbnail alone needs only the file's first bytes.
    func offerInProcessFirstLook() {
        guard options.firstLook != .none, url.hasPrefix("file:") else { return }
        let path = String(url.dropFirst(5)), name = SourceOptions.displayName(path)
        let headBytes = options.firstLook == .cameraThumbnail ? ThumbnailMaker.headBytes : 3
        guard let head = Self.head(of: path, count: headBytes), head.starts(with: StillFile.jpeg),
              let bytes = options.firstLook == .cameraThumbnail ? head : try? StillFile.read(path, name: name),
              let look = StillWork.glance(bytes, name: name, target: options.targetSize, maxPixels: options.source.maxPixels,
                                          displayProfile: options.displayProfile, allowed: options.firstLook)
        else { return }
        let turned = look.rotation % 180 != 0
        offer(look.frame, rotation: look.rotation,
              upright: turned ? (look.stored.height, look.stored.width) : (look.stored.width, look.stored.height))
    }

    private func offer(_ frame: Frame, rotation: Int, upright: (width: Int, height: Int)) {
        guard !isClosed else { return }
        let look = FirstLook(frame: VideoFrame(frame: frame, pts: 0, duration: 0, serial: serial.current, rotation: rotation),
                             width: upright.width, height: upright.height)
        state.withLock { $0.firstLook = look }
        wake()
    }

    /// The first `count` bytes of the file at `path` (fewer for a shorter file); nil when
    /// it cannot be read.
    private static func head(of path: String, count: Int) -> [UInt8]? {
        let fd = Glibc.open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { Glibc.close(fd) }
        var head = [UInt8](repeating: 0, count: count)
        let got = head.withUnsafeMutableBytes { pread(fd, $0.baseAddress, count, 0) }
        guard got > 0 else { return nil }
        return Array(head[0..<got])
    }
}
