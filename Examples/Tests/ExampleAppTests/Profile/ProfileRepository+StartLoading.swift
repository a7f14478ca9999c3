import CadenceTesting
import ExampleApp

extension ProfileRepository {
    /// Starts ``load()`` in a task and returns once the task is suspended — asleep on the clock the service's latency
    /// is on — so that advancing the clock is what wakes it.
    ///
    /// `Task.immediate` runs the task on the spot, up to its first suspension, so the sleep is on the timeline when
    /// this returns. A plain `Task` might not have reached its `sleep` yet when the test advances the clock, and the
    /// advance would pass it by. Call it from a test that is not isolated to an actor (see Guides/AsyncAwait.md).
    @available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *)
    func startLoading() -> Task<Void, Never> {
        Task.immediate { await self.load() }
    }
}
