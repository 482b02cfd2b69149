import Dispatch

/// Runs `body` on the main actor after `seconds`, as main-queue work the queue's loop runs
/// between turns: how the IPC looks at observed properties and retries writes without a
/// thread or a timer descriptor of its own.
func onMainActor(after seconds: Double, _ body: @escaping @MainActor () -> Void) {
    DispatchQueue.main.asyncAfter(deadline: .now() + seconds) { MainActor.assumeIsolated { body() } }
}
