import CSandbox
import Glibc

/// One message on the channel between the viewer and a decode worker: sixteen numbers, a
/// line of text, and perhaps one fd (the picture's bytes going out, its pixels coming back).
///
/// The channel is a SOCK_SEQPACKET pair, so a message arrives whole or not at all, and the
/// big parts (file bytes, pixels) never travel through it, only their memfds.
public struct WorkerMessage {
    /// What a message is.
    public enum Kind: Int64, Sendable {
        /// Viewer to worker: decode the picture in the fd.
        case decode = 1
        /// Viewer to worker (tests only): try a forbidden thing, named in `text`.
        case probe = 2
        /// Viewer to worker: decode what has arrived of a JPEG still still downloading,
        /// as `decode` (same numbers and fd), the rows not yet arrived blacked out.
        case decodeSoFar = 7
        /// Worker to viewer: the picture, described by `numbers`, its pixels in the fd.
        case picture = 3
        /// Worker to viewer: the one line saying why not.
        case failure = 4
        /// Worker to viewer, once at start: the confinement steps applied, in `numbers[0]`.
        case ready = 5
        /// Worker to viewer: what a probe came to, in `text`.
        case probed = 6
        /// Viewer to worker: the photo's first look (`StillWork.glance`), laid out as `decode`;
        /// answered with a `picture`, or a `failure` without text when it has none.
        case glance = 8
        /// Viewer to worker: a gallery thumbnail of the file, or of the cached PNG, in the fd
        /// (see `ThumbnailRequest`).
        case thumbnail = 9
        /// Viewer to worker: open the video in the fd (the file, read with `pread`) for track
        /// previews; the worker keeps it until the next `previewOpen` (see `PreviewRequest`).
        case previewOpen = 10
        /// Viewer to worker: the preview picture at a time of the open video.
        case previewAt = 11
        /// Viewer to worker: the `previewAt` under way is no longer wanted (the pointer moved
        /// on); never answered, and ignored when nothing is under way.
        case previewCancel = 12
        /// Worker to viewer: the opened video's keyframe times, in a sealed memfd.
        case previewIndex = 22
        /// Viewer to worker: read the JPEG in the fd (the file, read whole with `pread`) for
        /// the detail tiles of a zoomed view; kept until the next `regionsOpen`.
        case regionsOpen = 13
        /// Viewer to worker: decode a piece of the opened JPEG (see `RegionRequest`).
        case regionsBand = 14
        /// Worker to viewer: the opened JPEG's stored width and height.
        case regionsSize = 23
        /// Viewer to worker: play the animation in the fd (laid out as `decode`); the worker
        /// keeps it until the next `animationOpen`, and answers its first frame as a
        /// `picture` (see `AnimationWork`).
        case animationOpen = 15
        /// Viewer to worker: the opened animation's next frame, from its start again when
        /// `numbers[0]` is 1; answered with a `picture` or `animationEnd`.
        case animationNext = 16
        /// Worker to viewer: the opened animation has no more frames.
        case animationEnd = 24
        /// Worker to viewer: the file is an animation (AVIF or JPEG XL with frames), to be
        /// opened again with `animationOpen`.
        case moving = 20
        /// Worker to viewer: the file holds no picture (sound without cover art).
        case nothing = 21
        /// Viewer to worker: decode a video stream's pictures, described by `numbers`, its
        /// codec's extra data in the fd (see `StreamOpening`); answered `streamOpened` or
        /// `failure`. The worker keeps the decoder until the next open.
        case videoOpen = 25
        /// Worker to viewer: the stream's decoder is open.
        case streamOpened = 26
        /// Viewer to worker: decode the packet whose bytes are at the start of the packet
        /// memfd (sent with the first packet and again whenever a larger one is needed);
        /// answered with a `videoFrame` or `soundFrame` per frame and then `streamDone`.
        case streamPacket = 27
        /// Worker to viewer: a decoded picture, in a slot memfd (sent with the slot's first
        /// picture), described by `numbers` (see `VideoFrameMessage`).
        case videoFrame = 28
        /// Worker to viewer: the packet is decoded; `numbers[0]` is what the decoder said to
        /// it, `numbers[1]` and `[2]` what it said when asked for more.
        case streamDone = 29
        /// Viewer to worker: a seek; forget the frames buffered. Never answered.
        case streamFlush = 30
        /// Viewer to worker: decode a sound stream, described by `numbers`, its codec's
        /// extra data in the fd (see `StreamOpening+Sound`); answered as `videoOpen` is.
        case soundOpen = 32
        /// Worker to viewer: decoded sound, in a slot memfd as a picture is, described by
        /// `numbers` (see `SoundFrameMessage`).
        case soundFrame = 33
        /// Viewer to worker: the viewer no longer holds the frames numbered in `numbers`
        /// (0: none); their slots may be decoded into again. Never answered.
        case streamRelease = 31
        /// Viewer to worker: a PNG or TIFF too large to read whole, shown fitted (`LargeStill`);
        /// its fd the file, read with pread; numbers: target width and height (0: none), pixel
        /// budget. Answered as a still.
        case decodeLarge = 34
        /// Viewer to worker: the file the next PNG or TIFF opened for zoom detail
        /// (`regionsOpen`) has its tiles written to and read from (`PyramidRegions`).
        case regionsStore = 35
        /// Worker to viewer, only while it serves a request on a source it reads through the
        /// channel (web media): send the bytes at offset `numbers[0]`, at most `numbers[1]`
        /// of them, of source `numbers[2]` (0: the one the request is about; else one
        /// `openURL` opened). Answered with `bytes`.
        case readAt = 36
        /// Viewer to worker: the answer to `readAt`. `numbers[0]` is the count, in the fd (a
        /// sealed memfd); 0 at the end of the source; negative, FFmpeg's error code, when
        /// the read failed (the one line why is the text).
        case bytes = 37
        /// Viewer to worker: open the container of a video or song, in the fd (a local file,
        /// read with pread); the text names it. Answered with `containerOpened`.
        case containerOpen = 38
        /// Worker to viewer: what the container holds (`ContainerDescription`), its JSON in
        /// a sealed memfd, `numbers[0]` bytes long.
        case containerOpened = 39
        /// Viewer to worker: the next packet of a stream whose bit is set in `numbers`
        /// (stream i is bit i % 64 of number i / 64). Answered with `containerPacket` or
        /// `containerEnd`.
        case containerRead = 40
        /// Worker to viewer: a packet (see `ContainerPackets`), its bytes in the worker's
        /// packet memfd, which comes with the first packet and whenever it is replaced.
        case containerPacket = 41
        /// Worker to viewer: no packet: `numbers[0]` 0 at the end, 1 to ask again, 2 when the
        /// read failed with FFmpeg's error `numbers[1]`, said in the text.
        case containerEnd = 42
        /// Viewer to worker: seek so the next packets start at or before the second in
        /// `numbers[0]` (a Double's bits). Answered with `containerSeeked`, `numbers[0]` 1
        /// when it moved.
        case containerSeek = 43
        case containerSeeked = 44
        /// Worker to viewer, answering `containerRead`: the events of a text subtitle packet,
        /// decoded in the worker; `numbers[0]` is the stream, `numbers[1]` the length of their
        /// JSON in the fd, a sealed memfd (see `SubtitleWork`).
        case containerCues = 45
        /// Viewer to worker: read the subtitle file in the fd (SubRip, ASS/SSA, WebVTT); the
        /// text names it. Answered with `subtitleScript` or `failure`.
        case subtitleLoad = 46
        /// Worker to viewer: the subtitle file's header and events, their JSON in a sealed
        /// memfd `numbers[0]` bytes long.
        case subtitleScript = 47
        /// Viewer to worker: subtitle track `numbers[0]` is drawn from now on; its script
        /// header (UTF-8, `numbers[1]` bytes) is in the fd, a sealed memfd. Never answered.
        case subtitleTrack = 48
        /// Viewer to worker: more events of track `numbers[0]`, their JSON (`numbers[1]`
        /// bytes) in a sealed memfd. Never answered.
        case subtitleEvents = 49
        /// Viewer to worker: draw track `numbers[0]` at millisecond `numbers[1]` for a video
        /// `numbers[2]` x `numbers[3]` pixels large, text `numbers[4]` (a Double's bits)
        /// times its size. Answered with `subtitleImages`.
        case subtitleDraw = 50
        /// Worker to viewer: the frame's subtitle images (see `SubtitleImages`): `numbers[0]`
        /// 1 when they changed since the last, their count, the bytes used; the fd, the
        /// worker's image memfd, when it is new.
        case subtitleImages = 51
        /// Worker to viewer, only while it reads a web playlist's container: open the address
        /// whose bytes (`numbers[0]` of them) are in the fd, a sealed memfd, a part the
        /// playlist names. Answered with `urlOpened`.
        case openURL = 52
        /// Viewer to worker: `numbers[0]` the opened source's number for `readAt` and
        /// `numbers[1]` its size (negative: not known); or `numbers[0]` FFmpeg's negative
        /// error, said in the text. Also the answer to `closeURL`, with `numbers[0]` 0.
        case urlOpened = 53
        /// Worker to viewer: the source `numbers[0]` is no longer read.
        case closeURL = 54
        /// Viewer to zygote: fork a worker of the kind named in `text`, its channel the fd,
        /// taking the tests' requests when `numbers[0]` is 1; answered `forked`, or
        /// `failure` with the one line.
        case fork = 55
        /// Zygote to viewer: the forked worker's pid, in `numbers[0]`; it is the viewer's child.
        case forked = 56
    }

    /// The largest message: the numbers and a line of text.
    static let capacity = headSize + 1024
    /// Sixteen numbers: the kind and fifteen by kind.
    static let headSize = 128

    public var kind: Kind
    /// Meaning by kind; see `DecodeRequest` and `DecodeAnswer`.
    public var numbers: [Int64]
    public var text: String
    /// The fd carried with the message, owned by whoever holds the message; -1 for none.
    public var fd: Int32

    /// A message of `kind`.
    public init(kind: Kind, numbers: [Int64] = [], text: String = "", fd: Int32 = -1) {
        self.kind = kind
        self.numbers = numbers
        self.text = text
        self.fd = fd
    }

    /// Sends it on `socket`; false when the other side is gone.
    public func send(on socket: Int32) -> Bool {
        var head = [Int64](repeating: 0, count: 16)
        head[0] = kind.rawValue
        for (i, n) in numbers.prefix(15).enumerated() { head[i + 1] = n }
        var bytes = head.withUnsafeBytes { Array($0) }
        bytes.append(contentsOf: Array(text.utf8.prefix(WorkerMessage.capacity - WorkerMessage.headSize)))
        return bytes.withUnsafeBytes { sbx_send(socket, $0.baseAddress, $0.count, fd) } == bytes.count
    }

    /// The next message on `socket`; nil at the end of the channel or on a malformed one.
    public static func receive(on socket: Int32) -> WorkerMessage? {
        var bytes = [UInt8](repeating: 0, count: capacity)
        var fd: Int32 = -1
        let n = bytes.withUnsafeMutableBytes { sbx_recv(socket, $0.baseAddress, $0.count, &fd) }
        guard n >= headSize else {
            if fd >= 0 { close(fd) }
            return nil
        }
        let head = bytes.withUnsafeBytes { raw in (0..<16).map { raw.load(fromByteOffset: $0 * 8, as: Int64.self) } }
        guard let kind = Kind(rawValue: head[0]) else {
            if fd >= 0 { close(fd) }
            return nil
        }
        let text = String(decoding: bytes[headSize..<n], as: UTF8.self)
        return WorkerMessage(kind: kind, numbers: Array(head[1...]), text: text, fd: fd)
    }
}
