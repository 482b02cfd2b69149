import CPulse
import MediaCore
import Synchronization

/// One PulseAudio playback stream through the asynchronous API on a threaded main loop.
///
/// The decode thread writes with `write` into the sound held ahead (`SoundAhead`), waiting
/// while that is full; the server's requests are answered from it on the main loop's own
/// thread, so the sound goes on while the decode thread waits for the processor.
/// The played position (for the master clock) is the timestamp of the last sample sent
/// minus the latency PulseAudio reports.
public final class AudioOutput: @unchecked Sendable {
    // @unchecked: every mutable property is touched only with the threaded main loop's
    // lock held (callbacks run with it held too); `aborted` is atomic.
    private let mainloop: OpaquePointer
    private let context: OpaquePointer
    private var stream: OpaquePointer?
    public let sampleRate: Int
    public let channels: Int
    private let bytesPerSecond: Double
    /// What media time the sound sent since the last flush holds.
    private var timeline = PlayedTimeline()
    /// What the server's answers set, apart from this object: a callback holding a reference
    /// to it could be the last to let go, and the teardown would then run on the sound
    /// server's own thread, which PulseAudio aborts the program for. Freed after the loop stops.
    private let answers: UnsafeMutablePointer<ServerAnswers>
    private var acceptedSerial = 0
    /// A flush put the stream back into prebuffering; see `write`.
    private var restartPending = false
    /// An atomic rather than the main loop's lock: one flag, set by close() while the decode
    /// thread may be waiting inside that lock for room in the server's buffer.
    private let aborted = Atomic<Bool>(false)
    /// What pausing does to the stream.
    private let whenPaused: PausedStream
    /// Paused with the stream kept running: writes wait while the server plays silence.
    private var held = false
    /// Decoded sound the server has not asked for yet.
    private let ahead: SoundAhead

    /// How much sound is decoded ahead of what the server holds: more than the longest
    /// time a busy two-core machine was seen to keep the audio thread from running
    /// (a few tenths of a second). Speed changes do not wait behind it.
    static let aheadSeconds = 0.4

    /// Connects to the PulseAudio server and creates a float32 stream. Throws when no server
    /// is reachable, so the caller can play silently on the system clock.
    public init(sampleRate: Int, channels: Int, properties: Properties,
                speed: PlaybackSpeed = .normal) throws(AVError) {
        self.sampleRate = sampleRate
        self.channels = channels
        bytesPerSecond = Double(sampleRate * channels * 4)
        whenPaused = properties.whenPaused
        ahead = SoundAhead(sampleRate: sampleRate, channels: channels, seconds: Self.aheadSeconds, speed: speed)
        guard let ml = pa_threaded_mainloop_new() else { throw AVError(message: "PulseAudio: cannot create a main loop") }
        mainloop = ml
        let pl = pa_proplist_new()
        defer { pa_proplist_free(pl) }
        pa_proplist_sets(pl, PA_PROP_APPLICATION_NAME, properties.applicationName)
        pa_proplist_sets(pl, PA_PROP_APPLICATION_ID, "org.mediaview.mediaview")
        pa_proplist_sets(pl, PA_PROP_APPLICATION_ICON_NAME, properties.iconName)
        pa_proplist_sets(pl, PA_PROP_MEDIA_ROLE, properties.role)
        pa_proplist_sets(pl, PA_PROP_MEDIA_NAME, properties.mediaName)
        guard let ctx = pa_context_new_with_proplist(pa_threaded_mainloop_get_api(ml), properties.applicationName, pl) else {
            pa_threaded_mainloop_free(ml)
            throw AVError(message: "PulseAudio: cannot create a context")
        }
        context = ctx
        answers = .allocate(capacity: 1)
        answers.initialize(to: ServerAnswers())
        let signal: pa_context_notify_cb_t = { _, userdata in
            pa_threaded_mainloop_signal(OpaquePointer(userdata), 0)
        }
        pa_context_set_state_callback(ctx, signal, UnsafeMutableRawPointer(ml))
        // NOAUTOSPAWN: a viewer must not start a sound server as a side effect.
        if pa_context_connect(ctx, nil, PA_CONTEXT_NOAUTOSPAWN, nil) < 0 {
            // Every stored property is set by now, so deinit releases the context and loop.
            throw AVError(message: "PulseAudio: \(String(cString: pa_strerror(pa_context_errno(ctx))))")
        }
        pa_threaded_mainloop_lock(ml)
        if pa_threaded_mainloop_start(ml) < 0 {
            pa_threaded_mainloop_unlock(ml)
            throw AVError(message: "PulseAudio: cannot start the main loop thread")
        }
        do {
            try waitForContext()
            try createStream(properties: properties)
        } catch {
            pa_threaded_mainloop_unlock(ml)
            throw error
        }
        pa_threaded_mainloop_unlock(ml)
    }

    deinit { teardown() }

    private func teardown() {
        aborted.store(true, ordering: .relaxed)
        // The write callback refers to this object without owning it: unhook it before the
        // object's memory can go, waiting out a callback that is running.
        pa_threaded_mainloop_lock(mainloop)
        if let s = stream { pa_stream_set_write_callback(s, nil, nil) }
        pa_threaded_mainloop_unlock(mainloop)
        pa_threaded_mainloop_stop(mainloop)
        if let s = stream {
            pa_stream_set_state_callback(s, nil, nil)
            pa_stream_disconnect(s)
            pa_stream_unref(s)
            stream = nil
        }
        pa_context_set_state_callback(context, nil, nil)
        pa_context_disconnect(context)
        pa_context_unref(context)
        pa_threaded_mainloop_free(mainloop)
        answers.deinitialize(count: 1)
        answers.deallocate()
    }

    private var timingValid: Bool {
        get { answers.pointee.timingValid }
        set { answers.pointee.timingValid = newValue }
    }

    private var drained: Bool {
        get { answers.pointee.drained }
        set { answers.pointee.drained = newValue }
    }

    private func waitForContext() throws(AVError) {
        while true {
            let st = pa_context_get_state(context)
            if st == PA_CONTEXT_READY { return }
            if cpa_context_is_good(st) == 0 {
                throw AVError(message: "PulseAudio: \(String(cString: pa_strerror(pa_context_errno(context))))")
            }
            pa_threaded_mainloop_wait(mainloop)
        }
    }

    private func createStream(properties: Properties) throws(AVError) {
        var spec = pa_sample_spec(format: PA_SAMPLE_FLOAT32LE, rate: UInt32(sampleRate), channels: UInt8(channels))
        var map = pa_channel_map()
        pa_channel_map_init_auto(&map, UInt32(channels), PA_CHANNEL_MAP_DEFAULT)
        guard let s = pa_stream_new(context, properties.mediaName, &spec, &map) else {
            throw AVError(message: "PulseAudio: cannot create a stream")
        }
        stream = s
        let signal: pa_stream_notify_cb_t = { _, userdata in
            pa_threaded_mainloop_signal(OpaquePointer(userdata), 0)
        }
        // Unretained, and used without retaining: a reference taken here could be the last,
        // and the object would then be torn down on the server's thread (see `answers`).
        let writable: pa_stream_request_cb_t = { _, _, userdata in
            guard let userdata else { return }
            Unmanaged<AudioOutput>.fromOpaque(userdata)._withUnsafeGuaranteedRef { $0.pump() }
        }
        pa_stream_set_state_callback(s, signal, UnsafeMutableRawPointer(mainloop))
        pa_stream_set_write_callback(s, writable, Unmanaged.passUnretained(self).toOpaque())
        // About 120 ms in the server: what it holds is heard before a change of speed (or,
        // for a stream kept running while paused, before the pause), so no more. It asks
        // for 40 ms at a time rather than its own 20 ms: a playing video wakes this thread
        // and PulseAudio's about a third less, which a minimized thumbnail's CPU shows.
        let bytes = { (seconds: Double) in UInt32(self.bytesPerSecond * seconds) }
        var attr = pa_buffer_attr(maxlength: UInt32.max, tlength: bytes(0.12), prebuf: UInt32.max,
                                  minreq: bytes(0.04), fragsize: UInt32.max)
        let flags = pa_stream_flags_t(rawValue: PA_STREAM_INTERPOLATE_TIMING.rawValue
                                      | PA_STREAM_AUTO_TIMING_UPDATE.rawValue
                                      | PA_STREAM_ADJUST_LATENCY.rawValue)
        guard pa_stream_connect_playback(s, nil, &attr, flags, nil, nil) >= 0 else {
            throw AVError(message: "PulseAudio: cannot connect a playback stream")
        }
        while true {
            let st = pa_stream_get_state(s)
            if st == PA_STREAM_READY { return }
            if cpa_stream_is_good(st) == 0 {
                throw AVError(message: "PulseAudio: stream failed: \(String(cString: pa_strerror(pa_context_errno(context))))")
            }
            pa_threaded_mainloop_wait(mainloop)
        }
    }

    /// The result of a write.
    public enum WriteResult { case written, stale, failed }

    /// Queues interleaved float samples that start at `pts`, at the media's own pace,
    /// waiting while the sound held ahead is full (which is how a paused stream holds back
    /// the decoder).
    public func write(_ samples: UnsafeRawPointer, bytes: Int, pts: Double, serial: Int) -> WriteResult {
        pa_threaded_mainloop_lock(mainloop)
        defer { pa_threaded_mainloop_unlock(mainloop) }
        guard let s = stream else { return .failed }
        var done = 0
        while done < bytes {
            if aborted.load(ordering: .relaxed) { return .failed }
            if serial != acceptedSerial { return .stale }
            guard connected(s) else { return .failed }
            let n = ahead.append(samples + done, bytes: bytes - done, pts: pts + Double(done) / bytesPerSecond)
            done += n
            drained = false
            pump()
            if n == 0 { pa_threaded_mainloop_wait(mainloop) }
        }
        return .written
    }

    /// Sends the server as much of the sound held ahead as it has room for, asks it to
    /// play out once the last of it is sent, and wakes a writer waiting for room. Runs on
    /// the server's thread when it asks, and on the writer's; the main loop's lock is held.
    private func pump() {
        guard let s = stream, !held, connected(s) else { return }
        var room = pa_stream_writable_size(s)
        if room > 0, room != Int.max, !ahead.isEmpty {
            ahead.drain(room: room, serial: acceptedSerial) { p, n, at, factor in send(s, p, n, pts: at, speed: factor) }
            room = pa_stream_writable_size(s)
        }
        if ahead.ended, ahead.isEmpty {
            ahead.ended = false
            ahead.finish { p, n, at, factor in send(s, p, n, pts: at, speed: factor) }
            playOut(s)
        }
        if room == 0, restartPending, !timeline.isEmpty, !ahead.isEmpty {
            // After a flush the server asks only for what it dropped, which can be less
            // than its start threshold (prebuf): it then waits for more and we wait for
            // its request, and the sound never restarts. Having sent all it asked for,
            // start it explicitly (Firefox's cubeb met the same state).
            restartPending = false
            if let op = pa_stream_trigger(s, nil, nil) { pa_operation_unref(op) }
        }
        pa_threaded_mainloop_signal(mainloop, 0)
    }

    /// Sends one piece to the server and notes which media it holds; `speed` is how many
    /// seconds of media a second of it holds (the stretcher's factor).
    private func send(_ s: OpaquePointer, _ p: UnsafeRawPointer, _ n: Int, pts: Double, speed: Double) {
        // A failed write means the connection went; the writer sees that and says so.
        guard pa_stream_write(s, p, n, nil, 0, PA_SEEK_RELATIVE) >= 0 else { return }
        timeline.append(seconds: Double(n) / bytesPerSecond, media: pts, speed: speed)
        drained = false
        if !timingValid { requestTiming() }
    }

    /// Asks the server for a timing report, unless one is on its way.
    private func requestTiming() {
        guard let s = stream, !answers.pointee.timingAsked else { return }
        let cb: pa_stream_success_cb_t = { _, success, userdata in
            guard let userdata else { return }
            let a = userdata.assumingMemoryBound(to: ServerAnswers.self)
            a.pointee.timingAsked = false
            if success != 0 { a.pointee.timingValid = true }
        }
        if let op = pa_stream_update_timing_info(s, cb, answers) {
            answers.pointee.timingAsked = true
            pa_operation_unref(op)
        }
    }

    /// Timestamp of the sample being heard now, or nil while that is not known yet.
    public func position() -> Double? {
        pa_threaded_mainloop_lock(mainloop)
        defer { pa_threaded_mainloop_unlock(mainloop) }
        guard timingValid, !timeline.isEmpty, let s = stream, connected(s) else { return nil }
        if let unheard = unheardSeconds(s) { return timeline.media(atOutput: timeline.sentSeconds - unheard) }
        var usec: pa_usec_t = 0
        var negative: Int32 = 0
        guard pa_stream_get_latency(s, &usec, &negative) == 0 else { return nil }
        let latency = Double(usec) / 1e6
        return timeline.media(atOutput: negative != 0 ? timeline.sentSeconds + latency : timeline.sentSeconds - latency)
    }

    /// Seconds of the sound sent that are not heard yet: the server's newest timing report,
    /// carried forward by the time since while the server plays. Nil while the report does
    /// not match what was sent (just after a flush). The main loop's lock is held.
    ///
    /// PulseAudio's own interpolation between reports was seen to stray 20-80 ms from the
    /// sound really heard, for seconds after the server ran dry on a busy machine, and the
    /// pictures followed it. Its automatic reports also thin out to one every 1.5 s, so a
    /// fresh one is asked for whenever the newest is more than 50 ms old.
    private func unheardSeconds(_ s: OpaquePointer) -> Double? {
        guard let info = pa_stream_get_timing_info(s) else { return nil }
        var report = info.pointee
        let age = Double(pa_timeval_age(&report.timestamp)) / 1e6
        if age > 0.05 { requestTiming() }
        guard report.write_index_corrupt == 0, report.read_index_corrupt == 0 else { return nil }
        // What the stream's buffer held then (the library counts writes since into the
        // write index), and what the sound card had yet to play.
        var unheard = Double(report.write_index - report.read_index) / bytesPerSecond
            + Double(report.sink_usec + report.transport_usec) / 1e6
        // `playing` is false while the server has run dry or is corked: nothing moves then.
        if report.playing != 0 { unheard -= age }
        return max(0, unheard)
    }

    /// Drops everything buffered (a seek) and accepts only writes of `serial` from now on.
    public func flush(serial: Int) {
        pa_threaded_mainloop_lock(mainloop)
        defer { pa_threaded_mainloop_unlock(mainloop) }
        acceptedSerial = serial
        ahead.clear()
        timeline.reset()
        timingValid = false
        drained = false
        restartPending = true
        if let s = stream, let op = pa_stream_flush(s, nil, nil) { pa_operation_unref(op) }
        pa_threaded_mainloop_signal(mainloop, 0)
    }

    /// Plays out what is buffered even if it is less than the start threshold; `isDrained`
    /// turns true when the last sample was heard.
    public func drain() {
        pa_threaded_mainloop_lock(mainloop)
        defer { pa_threaded_mainloop_unlock(mainloop) }
        ahead.ended = true
        pump()
    }

    /// Asks the server to play out what it holds; the main loop's lock is held.
    private func playOut(_ s: OpaquePointer) {
        let cb: pa_stream_success_cb_t = { _, _, userdata in
            guard let userdata else { return }
            userdata.assumingMemoryBound(to: ServerAnswers.self).pointee.drained = true
        }
        if timeline.isEmpty { drained = true; return }
        if let op = pa_stream_drain(s, cb, answers) { pa_operation_unref(op) }
    }

    /// Whether the server went away (killed, restarted): a write would fail, and a drain
    /// asked for before it went will never be answered.
    public var isLost: Bool {
        pa_threaded_mainloop_lock(mainloop)
        defer { pa_threaded_mainloop_unlock(mainloop) }
        guard let s = stream else { return true }
        return !connected(s)
    }

    /// Whether the stream and its context still work; the mainloop's lock must be held.
    private func connected(_ s: OpaquePointer) -> Bool {
        cpa_stream_is_good(pa_stream_get_state(s)) != 0 && cpa_context_is_good(pa_context_get_state(context)) != 0
    }

    public var isDrained: Bool {
        pa_threaded_mainloop_lock(mainloop)
        defer { pa_threaded_mainloop_unlock(mainloop) }
        return drained
    }

    /// Pauses or resumes: corks the stream, or holds the writes and lets it run silent.
    public func setPaused(_ paused: Bool) {
        pa_threaded_mainloop_lock(mainloop)
        defer { pa_threaded_mainloop_unlock(mainloop) }
        guard let s = stream else { return }
        switch whenPaused {
        case .corked:
            if let op = pa_stream_cork(s, paused ? 1 : 0, nil, nil) { pa_operation_unref(op) }
        case .running:
            guard paused != held else { return }
            held = paused
            if !paused {
                // The queue ran dry while held: start afresh as after a seek, so the
                // clock follows the samples written from now on.
                timeline.reset()
                timingValid = false
                drained = false
                restartPending = true
                if let op = pa_stream_flush(s, nil, nil) { pa_operation_unref(op) }
                pump()
            }
            pa_threaded_mainloop_signal(mainloop, 0)
        }
    }

    /// Stretches the sound to `speed` from the next piece the server takes on.
    public func setSpeed(_ speed: PlaybackSpeed) {
        pa_threaded_mainloop_lock(mainloop)
        defer { pa_threaded_mainloop_unlock(mainloop) }
        ahead.speed = speed
    }

    /// Sets this stream's own volume (0...1) and mute in the server, where the desktop's
    /// mixer sees them too.
    public func setVolume(_ volume: Double, muted: Bool) {
        pa_threaded_mainloop_lock(mainloop)
        defer { pa_threaded_mainloop_unlock(mainloop) }
        guard let s = stream else { return }
        let index = pa_stream_get_index(s)
        var cv = pa_cvolume()
        pa_cvolume_set(&cv, UInt32(channels), pa_sw_volume_from_linear(max(0, min(1, volume))))
        if let op = pa_context_set_sink_input_volume(context, index, &cv, nil, nil) { pa_operation_unref(op) }
        if let op = pa_context_set_sink_input_mute(context, index, muted ? 1 : 0, nil, nil) { pa_operation_unref(op) }
    }

    /// Wakes a writer waiting for room so that shutdown never hangs.
    public func abort() {
        aborted.store(true, ordering: .relaxed)
        pa_threaded_mainloop_lock(mainloop)
        pa_threaded_mainloop_signal(mainloop, 0)
        pa_threaded_mainloop_unlock(mainloop)
    }
}
