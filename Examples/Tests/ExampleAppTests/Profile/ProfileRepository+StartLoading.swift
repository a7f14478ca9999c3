import CadenceTesting
import ExampleApp

extension ProfileRepository {
    /// Starts ``load()`` in a task and returns once the task is suspended — asleep on `clock`, where the service's
    /// latency puts it — so that advancing the clock is what wakes it.
    ///
    /// Without this, the task might not have reached its `sleep` yet when the test advances the clock, and the
    /// advance would pass it by.
    func startLoading(on clock: VirtualClock) async -> Task<Void, Never> {
        if #available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *) {
            // Runs the task synchronously up to its first suspension: the sleep is on the timeline on return.
            return Task.immediate { await self.load() }
        }
        let pending = clock.pendingCount
        let task = Task { await self.load() }
        while clock.pendingCount == pending { await Task.yield() }
        return task
    }
}
