import Dispatch

extension EventLoop {
    /// Runs `turn` on the main queue until it says stop, for an app whose main thread is
    /// libdispatch's (an `async` main, or one that called `dispatchMain()`): the same turns
    /// as the blocking loop, between the same sleeps, woken and ended by the same things.
    @MainActor
    public func runDispatched(_ turn: @escaping @MainActor () -> LoopStep) async {
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            DispatchedLoop(loop: self, turn: turn, done: done).start()
        }
    }
}

/// The blocking loop's sleep, taken off the main thread: each sleep is polled on a serial
/// queue of its own while the main queue runs the app's work, and the turn after it runs
/// on the main queue again.
///
/// One sleep set for both drivers, not a dispatch source per descriptor: sources made at
/// the start missed descriptors the app watched later (a control socket's clients), and
/// one whose descriptor was closed right after being written (a pipe whose writer ends
/// there) left libdispatch's epoll set unheard, so a quit sent that way ended `run()` but
/// never `run() async`.
@MainActor
private final class DispatchedLoop {
    let loop: EventLoop
    let turn: @MainActor () -> LoopStep
    var done: CheckedContinuation<Void, Never>?
    /// Where sleeps are polled, one at a time: a turn asks for the next only after the last.
    let poller = DispatchQueue(label: "mediaview.loop-sleep")
    /// A turn is already queued; more wake-ups before it runs add nothing.
    var stepQueued = false

    init(loop: EventLoop, turn: @escaping @MainActor () -> LoopStep, done: CheckedContinuation<Void, Never>) {
        self.loop = loop
        self.turn = turn
        self.done = done
    }

    func start() { queueStep() }

    private func queueStep() {
        guard !stepQueued else { return }
        stepQueued = true
        DispatchQueue.main.async { MainActor.assumeIsolated { self.stepQueued = false; self.step() } }
    }

    private func step() {
        guard done != nil else { return }
        switch turn() {
        case .stop:
            done?.resume()
            done = nil
        case .wait(let deadline):
            // Events Xlib read while drawing are invisible to poll: another turn at once.
            guard let sleep = loop.sleep(timeout: deadline, servingMainQueue: false) else { queueStep(); return }
            poller.async {
                let slept = sleep.polled()
                DispatchQueue.main.async {
                    MainActor.assumeIsolated {
                        self.loop.handle(slept)
                        self.step()
                    }
                }
            }
        }
    }
}
