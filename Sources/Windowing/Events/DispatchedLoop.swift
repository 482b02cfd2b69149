import Dispatch
import Glibc

extension EventLoop {
    /// Runs `turn` from dispatch sources on the main queue until it says stop, for an app
    /// whose main thread is libdispatch's (an `async` main, or one that called
    /// `dispatchMain()`): the same turns as the blocking loop, woken by the same things.
    @MainActor
    public func runDispatched(_ turn: @escaping @MainActor () -> LoopStep) async {
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            DispatchedLoop(loop: self, turn: turn, done: done).start()
        }
    }
}

/// The sources that stand in for `poll` when libdispatch owns the main thread.
@MainActor
private final class DispatchedLoop {
    let loop: EventLoop
    let turn: @MainActor () -> LoopStep
    var done: CheckedContinuation<Void, Never>?
    var sources: [DispatchSourceProtocol] = []
    let timer = DispatchSource.makeTimerSource(queue: .main)
    /// A turn is already queued; more wake-ups before it runs add nothing.
    var stepQueued = false

    init(loop: EventLoop, turn: @escaping @MainActor () -> LoopStep, done: CheckedContinuation<Void, Never>) {
        self.loop = loop
        self.turn = turn
        self.done = done
    }

    func start() {
        let fds = loop.coreDescriptors
        addSource(fds.x) {}
        addSource(fds.wake) { [loop] in loop.drainWakePipe() }
        for (fd, handler) in loop.watched { addSource(fd, handler) }
        // The sources hold this object until `finish` cancels them.
        timer.setEventHandler { MainActor.assumeIsolated { self.step() } }
        timer.resume()
        queueStep()
    }

    private func addSource(_ fd: Int32, _ handler: @escaping () -> Void) {
        let s = DispatchSource.makeReadSource(fileDescriptor: fd, queue: .main)
        s.setEventHandler {
            MainActor.assumeIsolated {
                handler()
                self.step()
            }
        }
        s.resume()
        sources.append(s)
    }

    private func queueStep() {
        guard !stepQueued else { return }
        stepQueued = true
        DispatchQueue.main.async { MainActor.assumeIsolated { self.stepQueued = false; self.step() } }
    }

    private func step() {
        guard done != nil else { return }
        switch turn() {
        case .stop:
            finish()
        case .wait(let deadline):
            // Events Xlib read while drawing are invisible to the descriptor's source.
            if loop.hasQueuedEvents { queueStep(); return }
            let ns = deadline.map { Int(max(0, min(3600, $0)) * 1e9) } ?? 3_600_000_000_000
            timer.schedule(deadline: .now() + .nanoseconds(ns))
        }
    }

    private func finish() {
        for s in sources { s.cancel() }
        sources.removeAll()
        timer.cancel()
        done?.resume()
        done = nil
    }
}
