import Glibc
import Playback

// mediaview-worker: decodes still pictures, animations, videos' containers, pictures and sound, subtitle text, gallery thumbnails, track previews and zoomed JPEGs' tiles for the viewer inside a sandbox, so a crafted
// file that breaks a parser gets a process with no files, no network and no display.
// The channel to the viewer is fd 0 (a SOCK_SEQPACKET socket).
// The viewer names what this worker is for (a worker started by hand gets everything), or
// starts it as the zygote, which returns here only in the workers it forks.
let kind = Zygote.kind()
let testing = getenv("MEDIAVIEW_WORKER_TEST").map { String(cString: $0) == "1" } ?? false
let steps = Confinement.apply(kind)
let channel: Int32 = 0
let previews = PreviewServing(channel: channel)
let regions = RegionServing()
let animations = AnimationServing()
let streams = StreamServing(channel: channel)
let containers = ContainerServing(channel: channel)
let subtitles = SubtitleServing()
let jpegOnly = kind == .jpegs
let decodesAhead = DecodeAhead(jpegOnly: jpegOnly)
guard WorkerMessage(kind: .ready, numbers: [Int64(steps)]).send(on: channel) else { exit(1) }
while let request = WorkerMessage.receive(on: channel) {
    let answer: WorkerMessage
    let decodedAhead = decodesAhead.take(request)
    switch request.kind {
    case let asked where jpegOnly && ![.decode, .decodeSoFar, .glance, .probe].contains(asked):
        // A JPEG worker has no FFmpeg to do anything else with; the viewer asks other kinds.
        if [.subtitleTrack, .subtitleEvents, .streamRelease, .streamFlush].contains(asked) {
            if request.fd >= 0 { close(request.fd) }
            continue
        }
        answer = WorkerMessage(kind: .failure, text: "the decoder was asked for something it does not do")
    case .decode where testing && request.text.hasSuffix("worker-hangs.png"):
        // Tests only: a decode that never ends, to show a quit does not wait for it.
        answer = WorkerMessage(kind: .probed, text: Probe.run("hang"))
    case .thumbnail where testing && request.text.hasSuffix("worker-crashes.png"):
        // Tests only: a file that crashes the decoder, to show a gallery remembers it.
        answer = WorkerMessage(kind: .probed, text: Probe.run("abort"))
    case .previewOpen where testing && request.text.hasSuffix("worker-crashes.mp4"):
        // Tests only: a video that crashes the decoder, to show its previews stop alone.
        answer = WorkerMessage(kind: .probed, text: Probe.run("abort"))
    case .decode, .decodeSoFar:
        answer = decodedAhead ?? Serving.decode(request, jpegOnly: jpegOnly)
    case .decodeLarge:
        answer = Serving.decodeLarge(request, store: regions.takeStore())
    case .glance:
        decodesAhead.start(for: request)
        answer = Serving.glance(request)
    case .thumbnail:
        answer = ThumbnailServing.serve(request)
    case .previewOpen:
        answer = previews.open(request)
    case .previewAt:
        answer = previews.picture(request)
    case .regionsOpen where testing && request.text.hasSuffix("worker-crashes.jpg"):
        // Tests only: a photo that crashes the decoder, to show a zoomed view keeps its picture.
        answer = WorkerMessage(kind: .probed, text: Probe.run("abort"))
    case .animationOpen where testing && request.text.hasSuffix("worker-crashes.gif"):
        // Tests only: an animation that crashes the decoder, to show the item fails alone.
        answer = WorkerMessage(kind: .probed, text: Probe.run("abort"))
    case .animationNext where testing && animations.name.hasSuffix("worker-crashes-later.gif"):
        // Tests only: a decoder that crashes between frames, as a file could make it.
        answer = WorkerMessage(kind: .probed, text: Probe.run("abort"))
    case .streamPacket where testing && streams.name.contains("worker-crashes-later.") && streams.packets > 30:
        // Tests only: a video or sound decoder that crashes mid-play, as a crafted stream could make it.
        answer = WorkerMessage(kind: .probed, text: Probe.run("abort"))
    case .streamPacket where testing && streams.name.contains("worker-hangs-later.") && streams.packets > 30:
        // Tests only: a decoder that stops answering mid-play.
        answer = WorkerMessage(kind: .probed, text: Probe.run("hang"))
    case .containerRead where testing && containers.name.contains("demuxer-crashes-later.") && containers.packets > 120:
        // Tests only: a demuxer that crashes mid-play, as a crafted file could make it. Past
        // what the player reads ahead before its first picture (a queue of 64 packets), so
        // the picture is on screen when it stops, whatever the machine's pace.
        answer = WorkerMessage(kind: .probed, text: Probe.run("abort"))
    case .containerRead where testing && containers.name.contains("demuxer-hangs-later.") && containers.packets > 120:
        // Tests only: a demuxer that stops answering mid-play.
        answer = WorkerMessage(kind: .probed, text: Probe.run("hang"))
    case .containerOpen:
        answer = containers.open(request)
    case .containerRead:
        answer = containers.read(request)
    case .containerSeek:
        answer = containers.seek(request)
    case .subtitleLoad where testing && request.text.hasSuffix("worker-crashes.srt"):
        // Tests only: a subtitle file that crashes its reader, to show the film plays on.
        answer = WorkerMessage(kind: .probed, text: Probe.run("abort"))
    case .subtitleLoad:
        answer = SubtitleWork.load(request)
    case .subtitleTrack:
        subtitles.track(request)
        if request.fd >= 0 { close(request.fd) }
        continue
    case .subtitleEvents:
        subtitles.events(request)
        if request.fd >= 0 { close(request.fd) }
        continue
    case .subtitleDraw where testing && subtitles.header(of: request.numbers.first ?? 0, contains: "mediaview-test: crash"):
        // Tests only: a script that crashes the subtitle renderer, to show the video plays on.
        answer = WorkerMessage(kind: .probed, text: Probe.run("abort"))
    case .subtitleDraw where testing && subtitles.header(of: request.numbers.first ?? 0, contains: "mediaview-test: hang"):
        // Tests only: a script the renderer never finishes drawing.
        answer = WorkerMessage(kind: .probed, text: Probe.run("hang"))
    case .subtitleDraw:
        answer = subtitles.draw(request)
    case .videoOpen, .soundOpen:
        answer = streams.open(request)
    case .streamPacket:
        answer = streams.packet(request)
    case .streamRelease:
        streams.release(request)
        continue
    case .streamFlush:
        streams.flush()
        continue
    case .animationOpen:
        answer = animations.open(request)
    case .animationNext:
        answer = animations.next(request)
    case .regionsStore:
        answer = regions.keepStore(request)
    case .regionsOpen:
        answer = regions.open(request)
    case .regionsBand:
        answer = regions.band(request)
    case .previewCancel:
        // Came after its picture was answered: nothing is under way to stop.
        continue
    case .probe where testing:
        answer = WorkerMessage(kind: .probed, text: Probe.run(request.text))
    default:
        answer = WorkerMessage(kind: .failure, text: "the decoder was asked for something it does not do")
    }
    // An opened video's descriptor is the preview or container session's now.
    if request.fd >= 0 && request.kind != .previewOpen && request.kind != .containerOpen { close(request.fd) }
    let sent = answer.send(on: channel)
    if answer.fd >= 0 { close(answer.fd) }
    if !sent { break }
    // The probe of a container decoded its first frames; from here on the worker only
    // reads packets, so the decoders' code and tables it touched leave its memory (after
    // the answer, which the film's start waits for).
    if request.kind == .containerOpen { ReadOnlyPages.letGo() }
}
// A photo's decode still under way ends before the libraries' destructors run.
decodesAhead.settle()
exit(0)
