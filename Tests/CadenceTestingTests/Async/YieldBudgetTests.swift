import CadenceTesting
import Testing

/// The budget a wait gives the test's tasks counts jobs; a `Task.yield()` is one job.
@Suite struct YieldBudgetTests {
    @Test func aLoopOfThirtyThousandYieldsFinishesWithinOneAdvance() async {
        await expectFailures([]) {
            let (finished, now) = await withVirtualTime { clock in
                let loop = Task { () -> Int in
                    var turns = 0
                    for _ in 0..<30_000 {
                        turns += 1
                        await Task.yield()
                    }
                    return turns
                }
                await clock.advance(by: .seconds(1))
                let finished = await loop.value
                return (finished, clock.now.ticks)
            }
            #expect(finished == 30_000)
            #expect(now == 1000)
        }
    }

    /// A task that only hops between the main actor and the rest, never suspending on the clock, is still charged:
    /// the advance reports it rather than waiting forever.
    @Test func aTaskThatOnlyHopsToTheMainActorIsStillReported() async {
        let messages = await recordingFailures {
            await withVirtualTime { clock in
                let hopping = Task.detached { while !Task.isCancelled { await MainActor.run {} } }
                await clock.advance(by: .seconds(1))
                hopping.cancel()
            }
        }.map(\.message)
        #expect(messages == [AsyncVirtualTimeTests.advanceGaveUp])
    }
}
