// swift-format-ignore-file
// (The samples keep the layout their guide shows: a block of the guide appears here line for line.)
// Every sample of Guides/Expectations.md, compiled and run as the guide shows it — passing ones inside
// `expectNoFailures`, failing ones inside `expectFailures` with the exact text the guide prints — and a check that the
// guide shows no other. Change one, change the other.
import CadenceTesting
import Foundation
import Testing

// MARK: The app code the samples test

struct Account: Equatable {
    var id: Int
    var name: String

    static let blob = Account(id: 1, name: "Blob")
}

enum BackendError: Error, Equatable {
    case offline
    case unauthorized
}

/// The account endpoint: replies after `latency`, on `scheduler`.
struct AccountService {
    var scheduler: AnySchedulerOf<DispatchQueue>
    var latency: DispatchQueue.SchedulerTimeType.Stride = .milliseconds(120)
    var reply: Result<Account, BackendError> = .success(.blob)

    func account(id: Int) -> AnyPublisher<Account, BackendError> {
        reply.publisher
            .delay(for: latency, scheduler: scheduler)
            .eraseToAnyPublisher()
    }
}

enum LoadingState: Equatable {
    case idle
    case loading
    case loaded(Account)
    case failed(BackendError)
}

final class AccountViewModel {
    @Published private(set) var state = LoadingState.idle
    private let service: AccountService
    private var request: AnyCancellable?

    init(service: AccountService) {
        self.service = service
    }

    func load(id: Int) {
        state = .loading
        request = service.account(id: id)
            .map(LoadingState.loaded)
            .catch { Just(LoadingState.failed($0)) }
            .sink { [weak self] in self?.state = $0 }
    }
}

/// City search: looks the query up once the user has stopped typing for `debounce`.
final class CityLookup {
    @Published var query = ""
    private let scheduler: AnySchedulerOf<DispatchQueue>
    private let debounce: DispatchQueue.SchedulerTimeType.Stride
    private let cities = ["Berlin", "Bern", "Boston"]

    init(
        scheduler: AnySchedulerOf<DispatchQueue>,
        debounce: DispatchQueue.SchedulerTimeType.Stride = .milliseconds(300)
    ) {
        self.scheduler = scheduler
        self.debounce = debounce
    }

    var results: AnyPublisher<[String], Never> {
        let cities = cities
        return $query
            .debounce(for: debounce, scheduler: scheduler)
            .filter { !$0.isEmpty }
            .map { query in cities.filter { $0.hasPrefix(query) } }
            .eraseToAnyPublisher()
    }
}

/// An upload's progress, as the uploader reports it: fractions from 0 to 1, then the end — or an error.
func uploadProgress(failingWith error: BackendError? = nil) -> AsyncThrowingStream<Double, any Error> {
    AsyncThrowingStream { continuation in
        Task {
            for fraction in [0.25, 0.5, 1.0] { continuation.yield(fraction) }
            continuation.finish(throwing: error)
        }
    }
}

@Suite("Expectations guide")
struct ExpectationsGuideTests {
    // MARK: How a chain reads

    @Test(.virtualTime) func aChainReadsLeftToRight() {
        expectNoFailures {
            let model = AccountViewModel(service: AccountService(scheduler: DispatchQueue.test.eraseToAnyScheduler()))

            let states = expect(model.$state)
            model.load(id: 1)
            states.toEmit([.idle, .loading]).thenEmit(.loaded(.blob), within: .milliseconds(120))
        }
    }

    @Test(.virtualTime) func aLateValue() {
        expectFailures([
            """
            thenEmit(LoadingState.loaded(Account(id: 1, name: "Blob")), within: .milliseconds(100)) failed: the value (LoadingState.loaded(Account(id: 1, name: "Blob"))) did not arrive within 100 ticks (by tick 100); it arrived at tick 120, 20 ticks late.

                expect(Published<LoadingState>.Publisher)
              ✓   .toEmit([LoadingState.idle, LoadingState.loading])
              ✗   .thenEmit(LoadingState.loaded(Account(id: 1, name: "Blob")), within: .milliseconds(100))

                 tick  received                                  expected
                    0  subscription
                    0  LoadingState.idle                         LoadingState.idle                         toEmit([LoadingState.idle, LoadingState.loading])
                    0  LoadingState.loading                      LoadingState.loading                      toEmit([LoadingState.idle, LoadingState.loading])
              →   100  (nothing)                                 LoadingState.loaded(Account(id: 1, name…  thenEmit(LoadingState.loaded(Account(id: 1, name: "Blob")), within: .milliseconds(100))
                  120  LoadingState.loaded(Account(id: 1, name…
            """,
        ]) {
            let model = AccountViewModel(service: AccountService(scheduler: DispatchQueue.test.eraseToAnyScheduler()))

            let states = expect(model.$state)
            model.load(id: 1)
            states.toEmit([.idle, .loading]).thenEmit(.loaded(.blob), within: .milliseconds(100))
        }
    }

    @Test func budgets() {
        expectNoFailures {
            let scheduler = DispatchQueue.test
            let model = AccountViewModel(service: AccountService(scheduler: scheduler.eraseToAnyScheduler()))

            let states = expect(model.$state, on: scheduler).toEmit(.idle, within: .ticks(0))
            model.load(id: 1)
            states.thenEmit(.loading, within: .ticks(0)).thenEmit(.loaded(.blob), within: .seconds(1))
        }
    }

    @Test func noBudgetRunsTheClockUntilIdle() {
        expectFailures([
            """
            thenEmit(LoadingState.idle) failed: the value (LoadingState.idle) never arrived: the clock went idle at tick 120 with nothing scheduled — work on a real DispatchQueue, RunLoop or URLSession never runs on virtual time.

                expect(Published<LoadingState>.Publisher)
              ✓   .toEmit([LoadingState.idle, LoadingState.loading, LoadingState.loaded(Account(id: 1, name: "Blob"))])
              ✗   .thenEmit(LoadingState.idle)

                 tick  received                                  expected
                    0  subscription
                    0  LoadingState.idle                         LoadingState.idle                         toEmit([LoadingState.idle, LoadingState.loading, LoadingState.loaded(Account(id: 1, name: "Blob"))])
                    0  LoadingState.loading                      LoadingState.loading                      toEmit([LoadingState.idle, LoadingState.loading, LoadingState.loaded(Account(id: 1, name: "Blob"))])
                  120  LoadingState.loaded(Account(id: 1, name…  LoadingState.loaded(Account(id: 1, name…  toEmit([LoadingState.idle, LoadingState.loading, LoadingState.loaded(Account(id: 1, name: "Blob"))])
              →   120  (nothing)                                 LoadingState.idle                         thenEmit(LoadingState.idle)
            """,
        ]) {
            let scheduler = DispatchQueue.test
            let model = AccountViewModel(service: AccountService(scheduler: scheduler.eraseToAnyScheduler()))

            let states = expect(model.$state, on: scheduler)
            model.load(id: 1)
            states.toEmit([.idle, .loading, .loaded(.blob)]).thenEmit(.idle)
        }
    }

    @Test func noClock() {
        expectFailures([
            """
            thenEmit(LoadingState.loaded(Account(id: 1, name: "Blob"))) failed: the value (LoadingState.loaded(Account(id: 1, name: "Blob"))) never arrived: nothing more was delivered synchronously, and there is no virtual clock to advance (pass one with on:, or bind VirtualClock.current).

                expect(Published<LoadingState>.Publisher)
              ✓   .toEmit([LoadingState.idle, LoadingState.loading])
              ✗   .thenEmit(LoadingState.loaded(Account(id: 1, name: "Blob")))

                 received              expected
                 subscription
                 LoadingState.idle     LoadingState.idle                         toEmit([LoadingState.idle, LoadingState.loading])
                 LoadingState.loading  LoadingState.loading                      toEmit([LoadingState.idle, LoadingState.loading])
              →  (nothing)             LoadingState.loaded(Account(id: 1, name…  thenEmit(LoadingState.loaded(Account(id: 1, name: "Blob")))
            """,
        ]) {
            let scheduler = DispatchQueue.test
            let model = AccountViewModel(service: AccountService(scheduler: scheduler.eraseToAnyScheduler()))

            let states = expect(model.$state)
            model.load(id: 1)
            states.toEmit([.idle, .loading]).thenEmit(.loaded(.blob))
        }
    }

    @Test func onAClock() {
        expectNoFailures {
            let clock = VirtualClock()
            let service = AccountService(scheduler: TestSchedulerOf<DispatchQueue>(clock: clock).eraseToAnyScheduler())

            expect(service.account(id: 1), on: clock).toEmit(.blob).thenFinish()
        }
    }

    // MARK: The chain's end

    @Test func oneFailurePerChain() {
        expectFailures([
            """
            thenEmit(LoadingState.loaded(Account(id: 1, name: "Blob"))) failed: the value differs: expected LoadingState.loaded(Account(id: 1, name: "Blob")), received LoadingState.failed(.offline) at tick 120.

                expect(Published<LoadingState>.Publisher)
              ✓   .toEmit([LoadingState.idle, LoadingState.loading])
              ✗   .thenEmit(LoadingState.loaded(Account(id: 1, name: "Blob")))
                  .thenEmitNothing(for: .seconds(1))  (not checked)

                 tick  received                       expected
                    0  subscription
                    0  LoadingState.idle              LoadingState.idle                         toEmit([LoadingState.idle, LoadingState.loading])
                    0  LoadingState.loading           LoadingState.loading                      toEmit([LoadingState.idle, LoadingState.loading])
              →   120  LoadingState.failed(.offline)  LoadingState.loaded(Account(id: 1, name…  thenEmit(LoadingState.loaded(Account(id: 1, name: "Blob")))

            Difference (- expected, + received):
            - LoadingState.loaded(Account(id: 1, name: "Blob"))
            + LoadingState.failed(.offline)
            """,
        ]) {
            let scheduler = DispatchQueue.test
            let service = AccountService(scheduler: scheduler.eraseToAnyScheduler(), reply: .failure(.offline))
            let model = AccountViewModel(service: service)

            let states = expect(model.$state, on: scheduler)
            model.load(id: 1)
            states.toEmit([.idle, .loading]).thenEmit(.loaded(.blob)).thenEmitNothing(for: .seconds(1))
        }
    }

    @Test func overFulfilment() {
        expectFailures([
            """
            expect(Published<LoadingState>.Publisher) received 1 event no step expected: LoadingState.loaded(Account(id: 1, name: "Blob")) at tick 120.

                expect(Published<LoadingState>.Publisher)
              ✓   .toEmit([LoadingState.idle, LoadingState.loading])

                 tick  received                                  expected
                    0  subscription
                    0  LoadingState.idle                         LoadingState.idle     toEmit([LoadingState.idle, LoadingState.loading])
                    0  LoadingState.loading                      LoadingState.loading  toEmit([LoadingState.idle, LoadingState.loading])
              →   120  LoadingState.loaded(Account(id: 1, name…  (no step)
            """,
        ]) {
            let scheduler = DispatchQueue.test
            let model = AccountViewModel(service: AccountService(scheduler: scheduler.eraseToAnyScheduler()))
            let states = expect(model.$state, on: scheduler)

            model.load(id: 1)
            scheduler.advance(by: .seconds(1))
            states.toEmit([.idle, .loading])
        }
    }

    @Test func ignoringTheRest() {
        expectNoFailures {
            let scheduler = DispatchQueue.test
            let model = AccountViewModel(service: AccountService(scheduler: scheduler.eraseToAnyScheduler()))
            let states = expect(model.$state, on: scheduler)

            model.load(id: 1)
            scheduler.advance(by: .seconds(1))
            states.toEmit([.idle, .loading]).thenIgnoreRest()
        }
    }

    // MARK: toEmit

    @Test func toEmitValues() {
        expectNoFailures {
            let scheduler = DispatchQueue.test
            let service = AccountService(scheduler: scheduler.eraseToAnyScheduler())

            expect(service.account(id: 1), on: scheduler).toEmit(.blob).thenFinish()
            expect(service.account(id: 1).map(\.name), on: scheduler).toEmit(["Blob"]).thenFinish()
        }
    }

    @Test func toEmitADifferentValue() {
        expectFailures([
            """
            toEmit(Account(id: 1, name: "Blob")) failed: the value differs: expected Account(id: 1, name: "Blob"), received Account(id: 1, name: "Blobby") at tick 120.

                expect(AnyPublisher<Account, BackendError>)
              ✗   .toEmit(Account(id: 1, name: "Blob"))
                  .thenFinish()  (not checked)

                 tick  received                        expected
                    0  subscription
              →   120  Account(id: 1, name: "Blobby")  Account(id: 1, name: "Blob")  toEmit(Account(id: 1, name: "Blob"))
                  120  finished

            Difference (- expected, + received):
              Account(
                id: 1
            -   name: "Blob"
            +   name: "Blobby"
              )
            """,
        ]) {
            let scheduler = DispatchQueue.test
            let renamed = Account(id: 1, name: "Blobby")
            let service = AccountService(scheduler: scheduler.eraseToAnyScheduler(), reply: .success(renamed))

            expect(service.account(id: 1), on: scheduler).toEmit(.blob).thenFinish()
        }
    }

    @Test func toEmitCompletedFirst() {
        expectFailures([
            """
            toEmit(Account(id: 1, name: "Blob")) failed: expected the value (Account(id: 1, name: "Blob")), received failure(BackendError.unauthorized) at tick 120.

                expect(AnyPublisher<Account, BackendError>)
              ✗   .toEmit(Account(id: 1, name: "Blob"))
                  .thenFinish()  (not checked)

                 tick  received                            expected
                    0  subscription
              →   120  failure(BackendError.unauthorized)  Account(id: 1, name: "Blob")  toEmit(Account(id: 1, name: "Blob"))
            """,
        ]) {
            let scheduler = DispatchQueue.test
            let service = AccountService(scheduler: scheduler.eraseToAnyScheduler(), reply: .failure(.unauthorized))

            expect(service.account(id: 1), on: scheduler).toEmit(.blob).thenFinish()
        }
    }

    // MARK: toEmit(count:)

    @Test func toEmitCount() {
        expectNoFailures {
            let scheduler = DispatchQueue.test
            let heartbeat = scheduler.timerPublisher(every: .seconds(30)).autoconnect()

            expect(heartbeat, on: scheduler).toEmit(count: 3, within: .seconds(90)).thenCancel()
        }
    }

    @Test func toEmitCountTooFew() {
        expectFailures([
            """
            toEmit(count: 3, within: .seconds(60)) failed: value 3 of 3 did not arrive within 60000 ticks (by tick 60000); it arrived at tick 90000, 30000 ticks late.

                expect(Publishers.Autoconnect<…>)
              ✗   .toEmit(count: 3, within: .seconds(60))
                  .thenCancel()  (not checked)

                  tick  received                                  expected
                     0  subscription
                 30000  DispatchQueue.SchedulerTimeType(dispatc…  (any value)  toEmit(count: 3, within: .seconds(60))
                 60000  DispatchQueue.SchedulerTimeType(dispatc…  (any value)  toEmit(count: 3, within: .seconds(60))
              →  60000  (nothing)                                 (any value)  toEmit(count: 3, within: .seconds(60))
                 90000  DispatchQueue.SchedulerTimeType(dispatc…
            """,
        ]) {
            let scheduler = DispatchQueue.test
            let heartbeat = scheduler.timerPublisher(every: .seconds(30)).autoconnect()

            expect(heartbeat, on: scheduler).toEmit(count: 3, within: .seconds(60)).thenCancel()
        }
    }

    // MARK: toEmit(where:)

    @Test func toEmitWhere() {
        expectNoFailures {
            let scheduler = DispatchQueue.test
            let service = AccountService(scheduler: scheduler.eraseToAnyScheduler())

            expect(service.account(id: 1), on: scheduler).toEmit(where: { $0.id == 1 }).thenFinish()
        }
    }

    @Test func toEmitWhereNoMatch() {
        expectFailures([
            """
            toEmit(where: { … }) failed: expected a value matching the predicate, received Account(id: 2, name: "Blob Jr.") at tick 120.

                expect(AnyPublisher<Account, BackendError>)
              ✗   .toEmit(where: { … })
                  .thenFinish()  (not checked)

                 tick  received                          expected
                    0  subscription
              →   120  Account(id: 2, name: "Blob Jr.")  (a match)  toEmit(where: { … })
                  120  finished
            """,
        ]) {
            let scheduler = DispatchQueue.test
            let other = Account(id: 2, name: "Blob Jr.")
            let service = AccountService(scheduler: scheduler.eraseToAnyScheduler(), reply: .success(other))

            expect(service.account(id: 1), on: scheduler).toEmit(where: { $0.id == 1 }).thenFinish()
        }
    }

    // MARK: toEventuallyEmit

    @Test(.virtualTime) func toEventuallyEmit() {
        expectNoFailures {
            let service = AccountService(scheduler: DispatchQueue.test.eraseToAnyScheduler(), reply: .failure(.offline))
            let model = AccountViewModel(service: service)

            let states = expect(model.$state)
            model.load(id: 1)
            states.toEventuallyEmit(.failed(.offline))
        }
    }

    @Test(.virtualTime) func toEventuallyEmitWhere() {
        expectNoFailures {
            let service = AccountService(scheduler: DispatchQueue.test.eraseToAnyScheduler(), reply: .failure(.offline))
            let model = AccountViewModel(service: service)

            let states = expect(model.$state)
            model.load(id: 1)
            states.toEventuallyEmit(where: { if case .failed = $0 { true } else { false } })
        }
    }

    @Test(.virtualTime) func toEventuallyEmitNever() {
        expectFailures([
            """
            toEventuallyEmit(LoadingState.loaded(Account(id: 1, name: "Blob"))) failed: the value (LoadingState.loaded(Account(id: 1, name: "Blob"))), after 3 skipped values, never arrived: the clock went idle at tick 120 with nothing scheduled — work on a real DispatchQueue, RunLoop or URLSession never runs on virtual time.

                expect(Published<LoadingState>.Publisher)
              ✗   .toEventuallyEmit(LoadingState.loaded(Account(id: 1, name: "Blob")))

                 tick  received                       expected
                    0  subscription
                    0  LoadingState.idle              (skipped)                                 toEventuallyEmit(LoadingState.loaded(Account(id: 1, name: "Blob")))
                    0  LoadingState.loading           (skipped)                                 toEventuallyEmit(LoadingState.loaded(Account(id: 1, name: "Blob")))
                  120  LoadingState.failed(.offline)  (skipped)                                 toEventuallyEmit(LoadingState.loaded(Account(id: 1, name: "Blob")))
              →   120  (nothing)                      LoadingState.loaded(Account(id: 1, name…  toEventuallyEmit(LoadingState.loaded(Account(id: 1, name: "Blob")))
            """,
        ]) {
            let service = AccountService(scheduler: DispatchQueue.test.eraseToAnyScheduler(), reply: .failure(.offline))
            let model = AccountViewModel(service: service)

            let states = expect(model.$state)
            model.load(id: 1)
            states.toEventuallyEmit(.loaded(.blob))
        }
    }

    // MARK: toEmitNothing

    @Test func toEmitNothing() {
        expectNoFailures {
            let scheduler = DispatchQueue.test
            let search = CityLookup(scheduler: scheduler.eraseToAnyScheduler())
            search.query = "Ber"

            expect(search.results, on: scheduler)
                .toEmitNothing(for: .ticks(299))
                .thenEmit(["Berlin", "Bern"])
        }
    }

    @Test func toEmitNothingEarly() {
        expectFailures([
            """
            toEmitNothing(for: .ticks(299)) failed: expected nothing through tick 299, received ["Berlin", "Bern"] at tick 150, 150 ticks early.

                expect(AnyPublisher<Array<String>, Never>)
              ✗   .toEmitNothing(for: .ticks(299))
                  .thenEmit(["Berlin", "Bern"])  (not checked)

                 tick  received            expected
                    0  subscription
              →   150  ["Berlin", "Bern"]  nothing through tick 299  toEmitNothing(for: .ticks(299))
            """,
        ]) {
            let scheduler = DispatchQueue.test
            let search = CityLookup(scheduler: scheduler.eraseToAnyScheduler(), debounce: .milliseconds(150))
            search.query = "Ber"

            expect(search.results, on: scheduler)
                .toEmitNothing(for: .ticks(299))
                .thenEmit(["Berlin", "Bern"])
        }
    }

    // MARK: toFinish

    @Test func toFinish() {
        expectNoFailures {
            let scheduler = DispatchQueue.test
            let service = AccountService(scheduler: scheduler.eraseToAnyScheduler())

            expect(service.account(id: 1).ignoreOutput(), on: scheduler).toFinish(within: .seconds(1))
        }
    }

    @Test func toFinishFailed() {
        expectFailures([
            """
            toFinish(within: .seconds(1)) failed: expected finished, received failure(BackendError.offline) at tick 120.

                expect(Publishers.IgnoreOutput<AnyPublisher<Account, BackendError>>)
              ✗   .toFinish(within: .seconds(1))

                 tick  received                       expected
                    0  subscription
              →   120  failure(BackendError.offline)  finished  toFinish(within: .seconds(1))
            """,
        ]) {
            let scheduler = DispatchQueue.test
            let service = AccountService(scheduler: scheduler.eraseToAnyScheduler(), reply: .failure(.offline))

            expect(service.account(id: 1).ignoreOutput(), on: scheduler).toFinish(within: .seconds(1))
        }
    }

    // MARK: toFail

    @Test func toFail() {
        expectNoFailures {
            let scheduler = DispatchQueue.test
            let service = AccountService(scheduler: scheduler.eraseToAnyScheduler(), reply: .failure(.unauthorized))

            expect(service.account(id: 1), on: scheduler).toFail()
            expect(service.account(id: 1), on: scheduler).toFail(with: .unauthorized)
            expect(service.account(id: 1), on: scheduler).toFail(with: BackendError.unauthorized)
            expect(service.account(id: 1), on: scheduler).toFail(where: { $0 != .offline }, within: .seconds(1))
        }
    }

    @Test func toFailWithAnotherError() {
        expectFailures([
            """
            toFail(with: BackendError.unauthorized) failed: expected failure(BackendError.unauthorized), received failure(BackendError.offline) at tick 120.

                expect(AnyPublisher<Account, BackendError>)
              ✗   .toFail(with: BackendError.unauthorized)

                 tick  received                       expected
                    0  subscription
              →   120  failure(BackendError.offline)  failure(BackendError.unauthorized)  toFail(with: BackendError.unauthorized)
            """,
        ]) {
            let scheduler = DispatchQueue.test
            let service = AccountService(scheduler: scheduler.eraseToAnyScheduler(), reply: .failure(.offline))

            expect(service.account(id: 1), on: scheduler).toFail(with: BackendError.unauthorized)
        }
    }

    @Test func toFailReceivedAValue() {
        expectFailures([
            """
            toFail(where: { … }) failed: expected a failure matching the predicate, received Account(id: 1, name: "Blob") at tick 120.

                expect(AnyPublisher<Account, BackendError>)
              ✗   .toFail(where: { … })

                 tick  received                      expected
                    0  subscription
              →   120  Account(id: 1, name: "Blob")  failure(where: …)  toFail(where: { … })
                  120  finished
            """,
        ]) {
            let scheduler = DispatchQueue.test
            let service = AccountService(scheduler: scheduler.eraseToAnyScheduler())

            expect(service.account(id: 1), on: scheduler).toFail(where: { $0 == .unauthorized })
        }
    }

    // MARK: toMatch

    @Test func toMatch() {
        expectNoFailures {
            let scheduler = DispatchQueue.test
            let service = AccountService(scheduler: scheduler.eraseToAnyScheduler(), latency: .milliseconds(3))
            let offline = AccountService(scheduler: scheduler.eraseToAnyScheduler(), latency: .milliseconds(3),
                                         reply: .failure(.offline))

            expect(service.account(id: 1), on: scheduler).toMatch("---(a|)", values: ["a": .blob])
            expect(offline.account(id: 1), on: scheduler).toMatch("---#", error: .offline)
        }
    }

    @Test func toMatchEarly() {
        expectFailures([
            """
            toMatch("-----(a|)", values: ["a": Account(id: 1, name: "Blob")]) failed: a (Account(id: 1, name: "Blob")) was expected at tick 5 but arrived 2 ticks early at tick 3.

                expect(AnyPublisher<Account, BackendError>)
              ✗   .toMatch("-----(a|)", values: ["a": Account(id: 1, name: "Blob")])

                 tick  received                      expected
                    0  subscription
              →     3  Account(id: 1, name: "Blob")  a (Account(id: 1, name: "Blob")) at tic…  toMatch("-----(a|)", values: ["a": Account(id: 1, name: "Blob")])
                    3  finished

                expected  -----(a|)
                received  ---a
                             ^ tick 3
            """,
        ]) {
            let scheduler = DispatchQueue.test
            let service = AccountService(scheduler: scheduler.eraseToAnyScheduler(), latency: .milliseconds(3))

            expect(service.account(id: 1), on: scheduler).toMatch("-----(a|)", values: ["a": .blob])
        }
    }

    // MARK: thenRequest

    @Test func thenRequest() {
        expectNoFailures {
            let headlines = ["Swift 6.3 released", "Cadence on Linux", "Combine tips"].publisher

            expect(headlines, demand: .max(1))
                .toEmit("Swift 6.3 released")
                .thenRequest(.max(2))
                .thenEmit(["Cadence on Linux", "Combine tips"])
                .thenFinish()
        }
    }

    @Test func withoutThenRequest() {
        expectFailures([
            """
            thenEmit("Cadence on Linux") failed: the value ("Cadence on Linux") never arrived: the subscriber had no demand left (.max(1) requested in all) — request more with thenRequest(_:).

                expect(Publishers.Sequence<Array<String>, Never>)
              ✓   .toEmit("Swift 6.3 released")
              ✗   .thenEmit("Cadence on Linux")

                 received              expected
                 subscription
                 "Swift 6.3 released"  "Swift 6.3 released"  toEmit("Swift 6.3 released")
              →  (nothing)             "Cadence on Linux"    thenEmit("Cadence on Linux")
            """,
        ]) {
            let headlines = ["Swift 6.3 released", "Cadence on Linux", "Combine tips"].publisher

            expect(headlines, demand: .max(1))
                .toEmit("Swift 6.3 released")
                .thenEmit("Cadence on Linux")
        }
    }

    // MARK: thenCancel

    @Test func thenCancel() {
        expectNoFailures {
            let scheduler = DispatchQueue.test
            let heartbeat = scheduler.timerPublisher(every: .seconds(30)).autoconnect()

            expect(heartbeat, on: scheduler)
                .toEmit(count: 2, within: .seconds(60))
                .thenCancel()
                .thenEmitNothing(for: .seconds(120))
        }
    }

    @Test func thenCancelAfterTheEnd() {
        expectFailures([
            """
            thenCancel() failed: the publisher had already finished at tick 120, so there was nothing to cancel.

                expect(AnyPublisher<Account, BackendError>)
              ✓   .toEmit(Account(id: 1, name: "Blob"))
              ✓   .thenFinish()
              ✗   .thenCancel()

                 tick  received                      expected
                    0  subscription
                  120  Account(id: 1, name: "Blob")  Account(id: 1, name: "Blob")  toEmit(Account(id: 1, name: "Blob"))
                  120  finished                      finished                      thenFinish()
              →   120  (nothing)                     a live subscription           thenCancel()
            """,
        ]) {
            let scheduler = DispatchQueue.test
            let service = AccountService(scheduler: scheduler.eraseToAnyScheduler())

            expect(service.account(id: 1), on: scheduler).toEmit(.blob).thenFinish().thenCancel()
        }
    }

    // MARK: Wall-clock steps

    @Test(.hangGuard) func wallClock() async {
        await expectFailures([]) {
            let service = AccountService(scheduler: DispatchQueue.global().eraseToAnyScheduler(),
                                         latency: .milliseconds(20))

            await expect(service.account(id: 1)).toEmit(.blob, timeout: .seconds(60)).thenFinish(timeout: .seconds(60))
        }
    }

    @Test(.hangGuard) func wallClockTimeout() async {
        await expectWallClockFailures([maskingTimes(Self.timeoutRun)]) {
            let service = AccountService(scheduler: DispatchQueue.global().eraseToAnyScheduler(),
                                         latency: .seconds(60))

            await expect(service.account(id: 1)).toEmit(.blob, timeout: .milliseconds(100))
        }
    }

    @Test(.hangGuard) func asyncSequence() async {
        await expectFailures([]) {
            await expect(uploadProgress())
                .toEmit([0.25, 0.5, 1.0], timeout: .seconds(60))
                .thenFinish(timeout: .seconds(60))
        }
    }

    @Test(.hangGuard) func asyncSequenceThrows() async {
        await expectWallClockFailures([maskingTimes(Self.failingUploadRun)]) {
            await expect(uploadProgress(failingWith: .offline))
                .toEmit([0.25, 0.5, 1.0], timeout: .seconds(60))
                .thenFinish(timeout: .seconds(60))
        }
    }

    // MARK: Reading the results

    @Test func readingTheResults() {
        expectNoFailures {
            let scheduler = DispatchQueue.test
            let service = AccountService(scheduler: scheduler.eraseToAnyScheduler())

            let request = expect(service.account(id: 1), on: scheduler).toEmit(.blob).thenFinish()

            #expect(request.values == [.blob])
            #expect(request.completion == .finished)
            #expect(request.events.map(\.time) == [.tick(0), .tick(120), .tick(120)])
            #expect(!request.hasFailed)
        }
    }

    // MARK: Wall-clock messages as the guide shows them

    /// One real run of each wall-clock failure, as the guide shows it. Times vary from run to run: the tests compare
    /// the messages with every time masked by `maskingTimes(_:)`.
    static let timeoutRun = """
        toEmit(Account(id: 1, name: "Blob"), timeout: .milliseconds(100)) failed: the value (Account(id: 1, name: "Blob")) did not arrive within the 100 ms timeout.

            expect(AnyPublisher<Account, BackendError>)
          ✗   .toEmit(Account(id: 1, name: "Blob"), timeout: .milliseconds(100))

                  time  received      expected
                 +0 ms  subscription
          →  +100.5 ms  (nothing)     Account(id: 1, name: "Blob")  toEmit(Account(id: 1, name: "Blob"), timeout: .milliseconds(100))
        """

    static let failingUploadRun = """
        thenFinish(timeout: .seconds(60)) failed: expected finished, received failure(BackendError.offline) at +0.9 ms.

            expect(AsyncThrowingStream<Double, Error>)
          ✓   .toEmit([0.25, 0.5, 1.0], timeout: .seconds(60))
          ✗   .thenFinish(timeout: .seconds(60))

                time  received                       expected
               +0 ms  subscription
             +0.8 ms  0.25                           0.25      toEmit([0.25, 0.5, 1.0], timeout: .seconds(60))
             +0.8 ms  0.5                            0.5       toEmit([0.25, 0.5, 1.0], timeout: .seconds(60))
             +0.8 ms  1.0                            1.0       toEmit([0.25, 0.5, 1.0], timeout: .seconds(60))
          →  +0.9 ms  failure(BackendError.offline)  finished  thenFinish(timeout: .seconds(60))
        """

    // MARK: The guide itself

    @Test func theGuideShowsOnlyTestedCode() throws {
        try expectDocumentedSamples(in: "Guides/Expectations.md", appearIn: [#filePath], atLeast: 64)
    }
}

@Suite("Guides/Expectations.md: naming a chain")
struct ExpectationsGuideNamingTests {
    @Test func theNamedChainIsTheOneThatFailed() {
        let clock = VirtualClock()
        let requests = PassthroughSubject<String, Never>()
        let results = PassthroughSubject<[String], Never>()
        let failures = recordingFailures {
            let sent = expect(requests, "requests", on: clock)
            let received = expect(results, "results", on: clock)
            requests.send("swift")
            sent.toEmit("swift")
            received.toEmit(["swift"], within: .ticks(5))
        }
        let message = failures.first?.message ?? ""
        #expect(failures.count == 1)
        #expect(message.hasPrefix("""
            [results] toEmit(["swift"], within: .ticks(5)) failed: the value (["swift"]) did not arrive within 5 ticks (by tick 5).

                expect(PassthroughSubject<Array<String>, Never>, "results")
              ✗   .toEmit(["swift"], within: .ticks(5))
            """))
    }

    @Test func aRecordingRoundTrip() {
        let failures = recordingFailures {
            let clock = VirtualClock()
            let feed: TestPublisher<Int, Never> = clock.hot([(0, .value(1)), (5, .value(2)), (5, .value(3)), (400, .finished)])
            expect(feed, on: clock).record()
        }
        #expect(failures.count == 1)
        #expect(failures.first?.message.hasSuffix("""
            Recorded as steps:
                .toEmit(1, within: .ticks(0))
                .thenEmit([2, 3], within: .ticks(5))
                .thenFinish(within: .ticks(395))

            Recorded as a marble diagram:
                .toMatch("a----(bc) 394ms |", values: ["a": 1, "b": 2, "c": 3])
            """) == true)
        #expect(failures.first?.attachments.map(\.name) == [
            "expect line \(#line - 12) timeline.txt", "expect line \(#line - 12) steps.txt",
        ])
        #expect(failures.first?.attachments.last?.text == """
            .toEmit(1, within: .ticks(0))
            .thenEmit([2, 3], within: .ticks(5))
            .thenFinish(within: .ticks(395))

            """)

        let clock = VirtualClock()
        let feed: TestPublisher<Int, Never> = clock.hot([(0, .value(1)), (5, .value(2)), (5, .value(3)), (400, .finished)])
        expect(feed, on: clock)
            .toEmit(1, within: .ticks(0))
            .thenEmit([2, 3], within: .ticks(5))
            .thenFinish(within: .ticks(395))
    }

    @Test(.quietKnownIssues) func checksOnValuesThatAreNotEquatable() {
        let clock = VirtualClock()
        let loader = FetchingLoader()
        clock.schedule(at: VirtualClock.Instant(ticks: 3)) { loader.state = .loaded(["a"]) }
        let failures = recordingFailures {
            expect(loader.$state, on: clock)
                .toEmit(satisfying: { state in #expect(state.items == nil, "nothing loaded yet") })
                .thenEmit(satisfying: { state in
                    let items = try #require(state.items, "items")
                    #expect(items.count == 2, "two items")
                }, within: .ticks(3))
        }
        #expect(failures.map { String($0.message.prefix { $0 != "\n" }) } == [
            """
            thenEmit(satisfying: { … }, within: .ticks(3)) failed: the value FetchingState.loaded(["a"]) did not pass the check: two items at tick 3.
            """,
        ])
    }
}

/// The state of the `toEmit(satisfying:)` sample: it holds an `Error`, so it is not `Equatable`.
enum FetchingState {
    case idle
    case loaded([String])
    case failed(any Error)

    var items: [String]? {
        if case let .loaded(items) = self { return items }
        return nil
    }
}

/// The loader of the `toEmit(satisfying:)` sample.
final class FetchingLoader {
    @Published var state = FetchingState.idle
}

@Suite("Guides/Expectations.md: several chains in order")
struct ExpectationsGuideInOrderTests {
    @Test func theResultsComeAfterTheLastKeystroke() {
        expectNoFailures {
            let scheduler = DispatchQueue.test
            let lookup = CityLookup(scheduler: scheduler.eraseToAnyScheduler())
            let typed = expect(lookup.$query, "query", on: scheduler)
            let shown = expect(lookup.results, "results", on: scheduler)
            lookup.query = "B"
            scheduler.advance(by: .milliseconds(100))
            lookup.query = "Be"
            expectInOrder(typed.emits("Be"), shown.emits(["Berlin", "Bern"]), within: .seconds(1))
            typed.thenIgnoreRest()
            shown.thenIgnoreRest()
        }
    }

    @Test func resultsThatNeverCome() {
        expectFailures([
            """
            expectInOrder(within: .seconds(1)) failed: [results] emits ["Berlin", "Bern", "Boston"] never came, within 1000 ticks (by tick 1100).

                expectInOrder(
              ✗   [results] emits ["Berlin", "Bern", "Boston"]
                  [query] emits "Be"
                within: .seconds(1))

                 tick  chain      event
                    0  [query]    subscription
                    0  [query]    ""
                    0  [results]  subscription
                    0  [query]    "B"
                  100  [query]    "Be"
                  400  [results]  ["Berlin", "Bern"]
            """,
        ]) {
            let scheduler = DispatchQueue.test
            let lookup = CityLookup(scheduler: scheduler.eraseToAnyScheduler())
            let typed = expect(lookup.$query, "query", on: scheduler)
            let shown = expect(lookup.results, "results", on: scheduler)
            lookup.query = "B"
            scheduler.advance(by: .milliseconds(100))
            lookup.query = "Be"
            expectInOrder(shown.emits(["Berlin", "Bern", "Boston"]), typed.emits("Be"), within: .seconds(1))
            typed.thenIgnoreRest()
            shown.thenIgnoreRest()
        }
    }
}
