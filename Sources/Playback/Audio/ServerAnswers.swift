/// The flags the sound server's callbacks set, read and written under the main loop's lock.
struct ServerAnswers {
    /// The server has answered a timing request since the last flush, so latency is known.
    var timingValid = false
    /// The last sample written has been heard.
    var drained = false
    /// A timing report has been asked for and not answered yet.
    var timingAsked = false
}
