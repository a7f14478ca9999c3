// swift-format-ignore-file
// (The samples keep the layout their guide shows: a block of the guide appears here line for line.)
import CadenceTesting
import Dispatch
import Foundation
import Testing
import XCTest

// Every example of the DocC catalogs (Sources/Cadence/Cadence.docc and Sources/CadenceTesting/CadenceTesting.docc),
// as the pages show it: the same code, and the exact text it reports. Change one, change the other.

private struct Profile: Equatable {
    var name: String
}

private enum APIError: Error, Equatable {
    case offline
    case timeout
}

// `ToastModel`, which the pages show, is GettingStarted.md's (GettingStartedGuideTests.swift).

@Suite("DocC catalogs")
struct DocCSamplesTests {
    @Test(arguments: [
        ("Sources/Cadence/Cadence.docc/Cadence.md", 1),
        ("Sources/Cadence/Cadence.docc/VirtualClock.md", 2),
        ("Sources/Cadence/Cadence.docc/TestScheduler.md", 1),
        ("Sources/Cadence/Cadence.docc/AnyScheduler.md", 2),
        ("Sources/Cadence/Cadence.docc/CombineOnLinux.md", 1),
        ("Sources/CadenceTesting/CadenceTesting.docc/CadenceTesting.md", 1),
        ("Sources/CadenceTesting/CadenceTesting.docc/PublisherExpectation.md", 1),
        ("Sources/CadenceTesting/CadenceTesting.docc/VirtualTimeTrait.md", 1),
        ("Sources/CadenceTesting/CadenceTesting.docc/withVirtualTime.md", 1),
        ("Sources/CadenceTesting/CadenceTesting.docc/XCTestShims.md", 1),
        ("Sources/CadenceTesting/CadenceTesting.docc/FailureReporter.md", 2),
    ])
    func thePageShowsOnlyTestedCode(page: String, blocks: Int) throws {
        try expectDocumentedSamples(
            in: page,
            appearIn: [
                #filePath,
                "Tests/CadenceTestingTests/Documentation/GettingStartedGuideTests.swift",
                "Tests/CadenceTests/Documentation/ReadmeTests.swift",
            ],
            atLeast: blocks
        )
    }

    @Test func everyPageOfTheCatalogsIsChecked() throws {
        let checked: Set<String> = [
            "Cadence.md", "VirtualClock.md", "TestScheduler.md", "AnyScheduler.md", "CombineOnLinux.md",
            "CadenceTesting.md", "PublisherExpectation.md", "VirtualTimeTrait.md", "withVirtualTime.md",
            "XCTestShims.md", "FailureReporter.md",
        ]
        var pages: Set<String> = []
        for catalog in ["Sources/Cadence/Cadence.docc", "Sources/CadenceTesting/CadenceTesting.docc"] {
            let names = try FileManager.default.contentsOfDirectory(atPath: repositoryFile(catalog).path)
            pages.formUnion(names.filter { $0.hasSuffix(".md") })
        }
        #expect(pages == checked)
    }

    // Cadence.md shows the README's debounce sample, run by Tests/CadenceTests/Documentation/ReadmeTests.swift.

    // VirtualClock.md

    @Test func nothingRunsUntilTheClockIsDriven() {
        let clock = VirtualClock()
        var fired: [Int64] = []
        clock.schedule(after: .ticks(300)) { fired.append(clock.now.ticks) }
        clock.advance(by: .ticks(299))   // fired == []
        clock.advance(by: .ticks(1))     // fired == [300]

        #expect(fired == [300])
    }

    @Test func nothingRunsBeforeItsTick() {
        let clock = VirtualClock()
        var fired: [Int64] = []
        clock.schedule(after: .ticks(300)) { fired.append(clock.now.ticks) }
        clock.advance(by: .ticks(299))
        #expect(fired == [])
        #expect(clock.pendingCount == 1)
    }

    @Test func aSleepingTaskResumesWhenTheClockPassesItsDeadline() async throws {
        let clock = VirtualClock()
        let reminder = Task {
            try await clock.sleep(for: .seconds(30))
            return "Your session expires in one minute"
        }
        while clock.pendingCount == 0 { await Task.yield() }
        await clock.advance(by: .seconds(30))
        let text = try await reminder.value   // "Your session expires in one minute"

        #expect(text == "Your session expires in one minute")
        #expect(clock.now.ticks == 30_000)
    }

    // TestScheduler.md

    @Test func aPollerRefreshesEveryThirtySeconds() {
        let scheduler = DispatchQueue.test
        var refreshes: [Int] = []
        let polling = scheduler.timerPublisher(every: .seconds(30))
            .autoconnect()
            .scan(0) { count, _ in count + 1 }
            .sink { refreshes.append($0) }

        scheduler.advance(by: .seconds(90))   // refreshes == [1, 2, 3]

        #expect(refreshes == [1, 2, 3])
        polling.cancel()
        scheduler.advance(by: .seconds(30))
        #expect(refreshes == [1, 2, 3])
    }

    // AnyScheduler.md

    @Test func theToastHidesOnTheInjectedScheduler() {
        let scheduler = DispatchQueue.test
        let toast = ToastModel(scheduler: scheduler.eraseToAnyScheduler())
        toast.show("Saved")
        scheduler.advance(by: .milliseconds(2_999))   // toast.message == "Saved"
        scheduler.advance(by: .milliseconds(1))       // toast.message == nil

        #expect(toast.message == nil)
    }

    @Test func theToastStaysUpForThreeSeconds() {
        let scheduler = DispatchQueue.test
        let toast = ToastModel(scheduler: scheduler.eraseToAnyScheduler())
        toast.show("Saved")
        scheduler.advance(by: .milliseconds(2_999))
        #expect(toast.message == "Saved")
        scheduler.advance(by: .milliseconds(1))
        #expect(toast.message == nil)
    }

    // CombineOnLinux.md

    @Test func formValidationRunsUnchanged() {
        let email = CurrentValueSubject<String, Never>("")
        let password = CurrentValueSubject<String, Never>("")
        var canSignIn: [Bool] = []
        let validation = email.combineLatest(password)
            .map { email, password in email.contains("@") && password.count >= 8 }
            .removeDuplicates()
            .sink { canSignIn.append($0) }

        email.send("ada@example.com")
        password.send("correct horse")
        // canSignIn == [false, true]

        #expect(canSignIn == [false, true])
        validation.cancel()
    }

    // CadenceTesting.md

    @Test(.virtualTime)
    func savingShowsAToastForThreeSeconds() {
        let toast = ToastModel(scheduler: DispatchQueue.test.eraseToAnyScheduler())
        toast.show("Saved")

        expect(toast.$message)
            .toEmit("Saved")
            .thenEmit(nil, within: .seconds(3))
    }

    // PublisherExpectation.md

    @Test func aRequestGivesUpAfterFiveSeconds() {
        expectNoFailures {
            let scheduler = DispatchQueue.test
            let response = PassthroughSubject<Profile, APIError>()
            let profile = response.timeout(.seconds(5), scheduler: scheduler, customError: { .timeout })

            expect(profile, on: scheduler).toFail(with: APIError.timeout, within: .seconds(5))
        }
    }

    @Test func aRequestThatTimesOutLaterFailsTheBudget() {
        let failures = recordingFailures {
            let scheduler = DispatchQueue.test
            let response = PassthroughSubject<Profile, APIError>()
            let profile = response.timeout(.seconds(6), scheduler: scheduler, customError: { .timeout })

            expect(profile, on: scheduler).toFail(with: APIError.timeout, within: .seconds(5))
        }
        #expect(failures.count == 1)
    }

    // FailureReporter.md

    @Test func recordingFailuresReturnsWhatTheExpectationSays() {
        let scheduler = DispatchQueue.test
        let toast = ToastModel(scheduler: scheduler.eraseToAnyScheduler())
        toast.show("Saved")

        let failures = recordingFailures {
            expect(toast.$message, on: scheduler).toEmit("Saved").thenEmit(nil, within: .seconds(2))
        }

        #expect(failures.map(\.message) == [
            """
            thenEmit(nil, within: .seconds(2)) failed: the value (nil) did not arrive within 2000 ticks (by tick 2000); it arrived at tick 3000, 1000 ticks late.

                expect(Published<Optional<String>>.Publisher)
              ✓   .toEmit("Saved")
              ✗   .thenEmit(nil, within: .seconds(2))

                 tick  received      expected
                    0  subscription
                    0  "Saved"       "Saved"   toEmit("Saved")
              →  2000  (nothing)     nil       thenEmit(nil, within: .seconds(2))
                 3000  nil
            """,
        ])
    }
}

// VirtualTimeTrait.md

@Suite(.virtualTime)
struct ToastTraitTests {
    @Test func theToastHidesAfterThreeSeconds() {
        let toast = ToastModel(scheduler: DispatchQueue.test.eraseToAnyScheduler())
        toast.show("Saved")

        expect(toast.$message).toEmit(["Saved", nil], within: .seconds(3))
    }
}

// withVirtualTime.md

final class ToastVirtualTimeTests: XCTestCase {
    func testTheToastHidesAfterThreeSeconds() {
        withVirtualTime { clock in
            let toast = ToastModel(scheduler: DispatchQueue.test.eraseToAnyScheduler())
            toast.show("Saved")

            clock.advance(by: .seconds(3))
            XCTAssertNil(toast.message)
        }
    }
}

// XCTestShims.md

final class ToastShimTests: XCTestCase {
    func testTheToastHidesAfterThreeSeconds() {
        let scheduler = DispatchQueue.test
        let toast = ToastModel(scheduler: scheduler.eraseToAnyScheduler())
        toast.show("Saved")
        let hidden = PublisherValueExpectation(toast.$message, expectedValue: nil)

        wait(for: [hidden], advancing: scheduler.clock, by: .seconds(3))
    }
}
