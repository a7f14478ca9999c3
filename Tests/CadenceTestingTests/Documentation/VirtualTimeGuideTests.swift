// swift-format-ignore-file
// (The samples keep the layout their guide shows: a block of the guide appears here line for line.)
// Every sample of Guides/VirtualTime.md, compiled and run as the guide shows it, and a check that the guide shows no
// other. Change one, change the other.
import CadenceTesting
import Foundation
import Testing

// MARK: Production code

struct Forecast: Equatable {
    var city: String
    var celsius: Int
}

enum WeatherError: Error, Equatable {
    case timedOut
    case cityNotFound
}

struct WeatherClient {
    let fetch: (_ city: String) -> AnyPublisher<Forecast, WeatherError>
    let background: AnySchedulerOf<DispatchQueue>
    let main: AnySchedulerOf<DispatchQueue>

    /// The forecast for `city`, fetched on the background queue, given up on after 10 seconds, delivered on main.
    func forecast(for city: String) -> AnyPublisher<Forecast, WeatherError> {
        fetch(city)
            .subscribe(on: background)
            .timeout(.seconds(10), scheduler: background, customError: { .timedOut })
            .receive(on: main)
            .eraseToAnyPublisher()
    }
}

struct VerificationCodeModel {
    let scheduler: AnySchedulerOf<DispatchQueue>

    /// Seconds left before "Resend code" is enabled: `seconds` at once, then one less every second, down to 0.
    func resendCountdown(from seconds: Int) -> AnyPublisher<Int, Never> {
        scheduler.timerPublisher(every: .seconds(1))
            .autoconnect()
            .scan(seconds) { remaining, _ in remaining - 1 }
            .prepend(seconds)
            .prefix(seconds + 1)
            .eraseToAnyPublisher()
    }
}

@Suite("Guides/VirtualTime.md")
struct VirtualTimeGuideTests {
    @Test func theClock() {
        let clock = VirtualClock()
        var log: [String] = []
        clock.schedule(after: .milliseconds(300)) { log.append("search at \(clock.now)") }
        clock.schedule(after: .ticks(5)) { log.append("first at \(clock.now)") }
        clock.schedule(after: .ticks(5)) {
            log.append("second at \(clock.now)")
            clock.schedule(after: .ticks(10)) { log.append("scheduled by second, at \(clock.now)") }
        }
        #expect(clock.pendingCount == 3)

        clock.advance(by: .ticks(15))
        #expect(log == ["first at tick 5", "second at tick 5", "scheduled by second, at tick 15"])
        #expect(clock.now == VirtualClock.Instant(ticks: 15))

        clock.run()
        #expect(log.last == "search at tick 300")
        #expect(clock.pendingCount == 0)
    }

    @Test func misuseIsReportedAtTheWithVirtualTimeCall() {
        let reports = """
            VirtualClock.advance(by:) was given a negative duration (-5 ticks); time never goes backwards, so the clock stays at tick 0.
            VirtualClock.advance(to:) was given tick 500, which is before now (tick 1000); time never goes backwards, so the clock stays at tick 1000.
            VirtualClock.schedule(at:every:) was given a repeat interval of 0.0 seconds; an interval must be positive, so the action repeats every tick (1 ms) instead.
            VirtualClock.run() stopped after running 100 actions at tick 1099, with 1 still pending: an endless repeating timer or an action that keeps rescheduling itself never lets the clock go idle. Advance by a bounded duration, cancel the timer, or pass a larger limit.
            VirtualClock.schedule(after:) was called after the clock's test ended (at tick 1099); the action will never run.
            """
        expectFailures(reports.components(separatedBy: "\n")) {
            withVirtualTime { clock in
                clock.advance(by: .ticks(-5))
                clock.advance(by: .seconds(1))
                clock.advance(to: VirtualClock.Instant(ticks: 500))
                let heartbeat = clock.schedule(at: clock.now, every: .zero) {}
                clock.run(limit: 100)
                heartbeat.cancel()
                clock.end()
                clock.schedule(after: .seconds(1)) {}
            }
        }
    }

    @Test(.virtualTime)
    func everySchedulerOfATestSharesItsClock() {
        let main = DispatchQueue.test
        let background = DispatchQueue.test
        let runLoop = RunLoop.test
        #expect(main.clock === background.clock)
        #expect(runLoop.clock === VirtualClock.current)

        background.advance(by: .seconds(1))
        #expect(main.now == DispatchQueue.SchedulerTimeType(virtualTick: 1000))
        #expect(runLoop.now.date == Date(timeIntervalSinceReferenceDate: 1))
    }

    @Test func withNoClockBoundEachTestSchedulerHasItsOwn() {
        let main = DispatchQueue.test
        let background = DispatchQueue.test
        #expect(main.clock !== background.clock)

        let sharingMain = TestSchedulerOf<DispatchQueue>(clock: main.clock)
        #expect(sharingMain.clock === main.clock)
    }

    @Test(.virtualTime)
    func aSilentServerTimesOutAfterTenSeconds() {
        let client = WeatherClient(
            fetch: { _ in Empty(completeImmediately: false).eraseToAnyPublisher() },
            background: DispatchQueue.test.eraseToAnyScheduler(),
            main: DispatchQueue.test.eraseToAnyScheduler()
        )

        expect(client.forecast(for: "Lisbon")).toFail(with: WeatherError.timedOut, within: .seconds(10))
        #expect(VirtualClock.current?.now == VirtualClock.Instant(ticks: 10_000))
    }

    @Test(.virtualTime)
    func aSlowServerAnswersWithinTheTimeout() {
        let background = DispatchQueue.test
        let lisbon = Forecast(city: "Lisbon", celsius: 21)
        let client = WeatherClient(
            fetch: { _ in
                Just(lisbon).setFailureType(to: WeatherError.self)
                    .delay(for: .seconds(4), scheduler: background).eraseToAnyPublisher()
            },
            background: background.eraseToAnyScheduler(),
            main: DispatchQueue.test.eraseToAnyScheduler()
        )

        expect(client.forecast(for: "Lisbon")).toEmit(lisbon, within: .seconds(10)).thenFinish(within: .ticks(0))
        #expect(background.now == DispatchQueue.SchedulerTimeType(virtualTick: 4000))
    }

    @Test func aServerSlowerThanTheTimeoutFailsTheStep() {
        expectFailures(["""
            toEmit(Forecast(city: "Lisbon", celsius: 21), within: .seconds(10)) failed: expected the value (Forecast(city: "Lisbon", celsius: 21)), received failure(WeatherError.timedOut) at tick 10000.

                expect(AnyPublisher<Forecast, WeatherError>)
              ✗   .toEmit(Forecast(city: "Lisbon", celsius: 21), within: .seconds(10))
                  .thenFinish(within: .ticks(0))  (not checked)

                  tick  received                        expected
                     0  subscription
              →  10000  failure(WeatherError.timedOut)  Forecast(city: "Lisbon", celsius: 21)  toEmit(Forecast(city: "Lisbon", celsius: 21), within: .seconds(10))
            """]) {
            // A test of a failed step: the late answer is left on the clock on purpose.
            withVirtualTime(leftovers: .allowed) { _ in
                let background = DispatchQueue.test
                let lisbon = Forecast(city: "Lisbon", celsius: 21)
                let client = WeatherClient(
                    fetch: { _ in
                        Just(lisbon).setFailureType(to: WeatherError.self)
                            .delay(for: .seconds(12), scheduler: background).eraseToAnyPublisher()
                    },
                    background: background.eraseToAnyScheduler(),
                    main: DispatchQueue.test.eraseToAnyScheduler()
                )

                expect(client.forecast(for: "Lisbon")).toEmit(lisbon, within: .seconds(10)).thenFinish(within: .ticks(0))
            }
        }
    }

    @Test(.virtualTime)
    func theResendCountdownTicksOncePerSecond() {
        let model = VerificationCodeModel(scheduler: DispatchQueue.test.eraseToAnyScheduler())

        expect(model.resendCountdown(from: 3)).toEmit([3, 2, 1, 0], within: .seconds(3)).thenFinish(within: .seconds(1))
        #expect(VirtualClock.current?.now == VirtualClock.Instant(ticks: 4000))
        #expect(VirtualClock.current?.pendingCount == 0)
    }

    @available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *)
    @Test func sleepingOnTheClock() async throws {
        let clock = VirtualClock()
        let sleeper = Task.immediate { try await Task.sleep(for: .seconds(30), clock: clock) }
        #expect(clock.pendingCount == 1)
        await clock.advance(by: .seconds(30))
        try await sleeper.value
    }

    @Test func theGuideShowsOnlyTestedCode() throws {
        try expectDocumentedSamples(in: "Guides/VirtualTime.md", appearIn: [#filePath], atLeast: 9)
    }
}
