// Internal machinery, reached with @testable, which only debug builds allow.
#if DEBUG && !canImport(Combine)
@testable import CadenceCombine
import Cadence
import Testing

@Suite("DeliveryToken")
struct DeliveryTokenTests {
    @Test func theTokenIsGivenBackWithoutTheLockOnlyWhenNothingWasLeftToTheHolder() {
        let token = DeliveryToken()
        #expect(token.isHeld == false)
        let leftWhileFree = token.leaveWorkIfHeld()
        #expect(leftWhileFree == false)
        let took = token.take()
        #expect(took)
        #expect(token.isHeld)
        let releasedUntouched = token.releaseIfNothingLeft()
        #expect(releasedUntouched)
        #expect(token.isHeld == false)

        _ = token.take()
        let tookWhileHeld = token.take() // another thread's attempt leaves work to the holder
        #expect(tookWhileHeld == false)
        let releasedWithWork = token.releaseIfNothingLeft()
        #expect(releasedWithWork == false)
        #expect(token.isHeld)
        token.clearWork()
        let leftWhileHeld = token.leaveWorkIfHeld()
        #expect(leftWhileHeld)
        let releasedAfterLeaving = token.releaseIfNothingLeft()
        #expect(releasedAfterLeaving == false)
        token.clearWork()
        let releasedAfterClearing = token.releaseIfNothingLeft()
        #expect(releasedAfterClearing)
        _ = token.take()
        token.release()
        #expect(token.isHeld == false)

        let heldFromTheStart = DeliveryToken(held: true)
        #expect(heldFromTheStart.isHeld)
        let tookHeldFromTheStart = heldFromTheStart.take()
        #expect(tookHeldFromTheStart == false)
    }
}

#endif
