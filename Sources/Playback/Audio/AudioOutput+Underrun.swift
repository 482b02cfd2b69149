import CPulse

/// How much sound the server holds, and why it holds more once the stream ran dry.
///
/// 120 ms is enough on an idle machine, and no more is wanted: what the server holds is
/// heard before a change of speed takes effect (and, for a stream kept running while paused,
/// before the pause). On a machine busy with other work (a build on every core), the decode
/// thread and the worker decoding the sound each wait for a turn, and a refill could come
/// after the server had played all it held: it found the stream empty, stopped it until it
/// was full again, and the sound broke off for up to 0.4 s, once or twice in most 10 s clips.
/// PulseAudio's timing reports around such a stop were off for seconds, and the pictures,
/// which follow them, came up to 30 ms before or after their sound.
///
/// So the first time the stream runs dry while it plays, it asks the server to hold 200 ms
/// from then on, as PulseAudio raises a sound card's own buffer after an underrun. 300 ms
/// kept the sound going better still, but then a change of speed under load was heard a
/// quarter second late. Running dry on purpose (the end of the sound, a pause that keeps the
/// stream running, a seek's flush) does not count.
extension AudioOutput {
    /// What the server holds at first.
    static let bufferSeconds = 0.12
    /// What it asks to hold once the sound ran dry while playing.
    static let grownBufferSeconds = 0.2
    /// How much the server asks for at a time: 40 ms rather than its own 20 ms, so a playing
    /// video wakes the decode thread and PulseAudio's about a third less (a minimized
    /// thumbnail's CPU shows it).
    static let requestSeconds = 0.04

    /// The stream's buffer attributes for holding `seconds`; the start threshold is the
    /// whole of it, the server's default.
    func bufferAttributes(holding seconds: Double) -> pa_buffer_attr {
        let bytes = { (seconds: Double) in UInt32(self.bytesPerSecond * seconds) }
        return pa_buffer_attr(maxlength: UInt32.max, tlength: bytes(seconds), prebuf: UInt32.max,
                              minreq: bytes(Self.requestSeconds), fragsize: UInt32.max)
    }

    /// Called by the writer with the main loop's lock held, before it writes: a write after
    /// an underrun means the sound ran dry while it played.
    func growAfterUnderrun(_ s: OpaquePointer) {
        let underruns = answers.pointee.underruns
        guard underruns != underrunsSeen else { return }
        underrunsSeen = underruns
        guard !grown else { return }
        grown = true
        var attr = bufferAttributes(holding: Self.grownBufferSeconds)
        if let op = pa_stream_set_buffer_attr(s, &attr, nil, nil) { pa_operation_unref(op) }
    }

    /// How many times the server has found the stream empty while playing it.
    var underrunCount: Int {
        pa_threaded_mainloop_lock(mainloop)
        defer { pa_threaded_mainloop_unlock(mainloop) }
        return answers.pointee.underruns
    }

    /// How many seconds of sound the server holds for this stream, as it last said; nil
    /// without a stream.
    var serverBufferSeconds: Double? {
        pa_threaded_mainloop_lock(mainloop)
        defer { pa_threaded_mainloop_unlock(mainloop) }
        guard let s = stream, let attr = pa_stream_get_buffer_attr(s) else { return nil }
        return Double(attr.pointee.tlength) / bytesPerSecond
    }
}
