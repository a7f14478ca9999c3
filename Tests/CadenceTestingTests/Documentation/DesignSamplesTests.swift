// swift-format-ignore-file
// (The samples keep the layout their guide shows: a block of the guide appears here line for line.)
import CadenceTesting
import Foundation
import Testing

/// The examples of DESIGN.md §3, each written exactly as there, against small production-style types, on virtual time.
@Suite struct DesignSamplesTests {
    enum APIError: Error, Equatable {
        case offline
    }

    struct Profile: Equatable {
        var name: String
    }

    /// Loads a profile on appear: starts at once on its scheduler, takes 100 ms.
    final class ProfileViewModel: ObservableObject {
        @Published private(set) var isLoading = false

        init(scheduler: AnySchedulerOf<DispatchQueue>) {
            scheduler.schedule { [weak self] in
                self?.isLoading = true
                scheduler.schedule(after: scheduler.now.advanced(by: .milliseconds(100))) { [weak self] in
                    self?.isLoading = false
                }
            }
        }
    }

    /// Searches a catalogue 300 ms after the query last changed.
    final class SearchModel: ObservableObject {
        @Published var query = ""
        let catalog: [String]
        let scheduler: AnySchedulerOf<DispatchQueue>

        init(catalog: [String], scheduler: AnySchedulerOf<DispatchQueue>) {
            self.catalog = catalog
            self.scheduler = scheduler
        }

        var results: AnyPublisher<[String], Never> {
            let catalog = catalog
            return $query
                .debounce(for: .milliseconds(300), scheduler: scheduler)
                .filter { !$0.isEmpty }
                .map { query in catalog.filter { $0.hasPrefix(query) } }
                .eraseToAnyPublisher()
        }
    }

    /// A repository whose network is down: a load fails after 1.5 s.
    struct ProfileRepository {
        let scheduler: AnySchedulerOf<DispatchQueue>

        func load() -> AnyPublisher<Profile, APIError> {
            Just(())
                .delay(for: .milliseconds(1500), scheduler: scheduler)
                .setFailureType(to: APIError.self)
                .flatMap { Fail<Profile, APIError>(error: .offline) }
                .eraseToAnyPublisher()
        }
    }

    /// Counts to three, one value every other millisecond from 1 ms on, then finishes.
    func makeTicker(scheduler: AnySchedulerOf<DispatchQueue>) -> AnyPublisher<Int, Never> {
        [1, 2, 3].publisher
            .flatMap { value in Just(value).delay(for: .milliseconds(2 * value - 1), scheduler: scheduler) }
            .eraseToAnyPublisher()
    }

    @Test func valuesThenFinishWithinABudget() {
        VirtualClock.$current.withValue(VirtualClock()) {
            let publisher = [1, 2, 3].publisher.receive(on: DispatchQueue.test)
            expectNoFailures {
                expect(publisher).toEmit([1, 2, 3]).thenFinish(within: .ticks(5))
            }
        }
    }

    @Test func publishedLoadingFlag() {
        VirtualClock.$current.withValue(VirtualClock()) {
            let viewModel = ProfileViewModel(scheduler: DispatchQueue.test.eraseToAnyScheduler())
            expectNoFailures {
                expect(viewModel.$isLoading).toEmit([false, true, false])
            }
            #expect(VirtualClock.current?.now.ticks == 100)
        }
    }

    @Test func debouncedSearch() {
        VirtualClock.$current.withValue(VirtualClock()) {
            let search = SearchModel(
                catalog: ["swift", "combine", "rust"], scheduler: DispatchQueue.test.eraseToAnyScheduler()
            )
            search.query = "swift"
            expectNoFailures {
                expect(search.results).toEmitNothing(for: .ticks(299)).thenEmit(["swift"])
            }
            #expect(VirtualClock.current?.now.ticks == 300)
        }
    }

    @Test func repositoryFailsWithinTwoSeconds() {
        VirtualClock.$current.withValue(VirtualClock()) {
            let repository = ProfileRepository(scheduler: DispatchQueue.test.eraseToAnyScheduler())
            expectNoFailures {
                expect(repository.load()).toFail(with: APIError.offline, within: .seconds(2))
            }
            #expect(VirtualClock.current?.now.ticks == 1500)
        }
    }

    @Test func tickerMatchesItsMarbleDiagram() {
        VirtualClock.$current.withValue(VirtualClock()) {
            let ticker = makeTicker(scheduler: DispatchQueue.test.eraseToAnyScheduler())
            expectNoFailures {
                expect(ticker).toMatch("-a-b-(c|)", values: ["a": 1, "b": 2, "c": 3])
            }
            #expect(VirtualClock.current?.now.ticks == 5)
        }
    }

    @Test func theSamplesFailWhenTheCodeIsWrong() {
        VirtualClock.$current.withValue(VirtualClock()) {
            let search = SearchModel(catalog: ["swift"], scheduler: DispatchQueue.test.eraseToAnyScheduler())
            search.query = "swift"
            let failures = recordingFailures {
                expect(search.results).toEmitNothing(for: .ticks(300)).thenEmit(["swift"])
            }
            #expect(failures.count == 1)
            #expect(failures.map(\.message).first?.hasPrefix(
                "toEmitNothing(for: .ticks(300)) failed: expected nothing through tick 300, received [\"swift\"] at "
                    + "tick 300, 1 tick early.\n"
            ) == true)
        }
    }
}
