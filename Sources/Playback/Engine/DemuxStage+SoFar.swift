import MediaCore
import Web

/// A web JPEG shown while it downloads, as browsers show one: now and then the bytes so
/// far are decoded at the shown size and put on screen (a progressive file whole and
/// blurry, a baseline one down to where the bytes end), sharper each time, until the whole
/// file is in and decoded as any still. A web GIF shows its first frame once that is in,
/// and plays when the whole file is.
extension DemuxStage {
    /// The download's progress, for deciding when to decode it again.
    struct SoFar {
        var schedule: PartialPictureSchedule
        /// Where the download stands in a progressive file's first scan.
        var firstScan = JPEGFirstScan()
        /// Where the download stands in a GIF's first frame.
        var firstFrame = GIFFirstFrame()
        /// Whether a picture of the download is on its way to the screen or on it: from
        /// then on, a failure leaves it there and says its line instead of failing the item.
        var shown = false
    }

    /// Decodes and shows `bytes` of `total` if a picture is due and the last one was taken
    /// off the queue: never faster than the pictures are shown, and the download waits
    /// only for the decode itself (a fraction of the time between two).
    func showSoFarIfDue(_ bytes: [UInt8], total: Int, _ soFar: inout SoFar) {
        let now = MonotonicClock.seconds()
        let firstScanIn: Bool
        if bytes.starts(with: StillFile.jpeg) {
            firstScanIn = soFar.firstScan.isComplete(in: bytes)
        } else if GIFFirstFrame.isGIF(bytes) {
            // One picture, the whole first frame: later ones would be the same frame again.
            guard !soFar.shown, soFar.firstFrame.isComplete(in: bytes) else { return }
            firstScanIn = true
        } else {
            return
        }
        guard soFar.schedule.isDue(bytes: bytes.count, total: total, now: now, firstScanIn: firstScanIn),
              pictureFrames.count == 0, !isClosed else { return }
        let picture = pictureSoFar(bytes)
        soFar.schedule.decoded(bytes: bytes.count, at: MonotonicClock.seconds())
        guard let picture, let f = try? picture.next() else { return }
        var info = picture.info
        // The frame stands for an animation still arriving, and the item is told as one.
        if GIFFirstFrame.isGIF(bytes) { info.kind = .animated }
        state.withLock {
            $0.phase = .ready(info)
            $0.decodes = (true, false)
        }
        let vf = VideoFrame(frame: f.frame, pts: 0, duration: 0, serial: serial.current, rotation: info.rotation)
        guard pictureFrames.push(.frame(vf)) else { return }
        soFar.shown = true
        wake()
    }

    /// The picture of `bytes`, the start of a JPEG, by a worker (or here when the sandbox is
    /// off or no worker can be had and the mode allows it); nil when nothing of it can be
    /// shown yet. Its failures are not the user's concern: the whole file decides.
    private func pictureSoFar(_ bytes: [UInt8]) -> WorkerPicture? {
        let name = SourceOptions.displayName(url)
        if options.sandbox != .off {
            switch try? DecodeWorkers.shared.still(bytes, name: name, options: options, soFar: true,
                                                    cancelled: { self.isClosed }) {
            case .picture(let p)?: return p
            case nil, .moving?: return nil
            case .inProcess?: break
            }
        }
        guard let result = try? StillWork.decodeSoFar(bytes, name: name, target: options.targetSize, maxPixels: options.source.maxPixels,
                                                      displayProfile: options.displayProfile),
              let message = result.answer() else { return nil }
        return WorkerPicture(message)
    }

    /// A download or decode that failed after part of the picture was shown: the part stays
    /// on screen and the user hears the one line, as for a video whose download breaks.
    func keepSoFar(_ error: AVError) {
        state.withLock { $0.readError = error }
        bufferedPermille.store(1000, ordering: .relaxed)
        pictureFrames.pushForced(.end(serial: serial.current))
        wake()
    }
}
