import Cadence
import Foundation

/// Search-as-you-type: searches once the user has stopped typing (for 300 ms by default), never twice in a row for
/// the same query, and shows only the answer to the latest query.
///
/// ```swift
/// let search = SearchViewModel(service: api, scheduler: DispatchQueue.main.eraseToAnyScheduler())
/// search.query = "swift"   // 300 ms later: .searching("swift"), then .results([...])
/// ```
///
/// The scheduler is injected so that tests run the debounce and the service's latency on virtual time. For the same
/// reason it is not `@MainActor`: in the app, pass the main queue as `scheduler` and a service that answers on it.
public final class SearchViewModel: ObservableObject {
    /// The text in the search field.
    @Published public var query = ""
    /// What the screen shows; starts `.idle`.
    @Published public private(set) var state: SearchState = .idle

    private let service: any SearchService
    private let scheduler: AnySchedulerOf<DispatchQueue>
    private let debounce: DispatchQueue.SchedulerTimeType.Stride

    /// A view model that searches `service` once the user has stopped typing for `debounce`, timed on `scheduler`
    /// (the main queue in the app).
    public init(
        service: any SearchService,
        scheduler: AnySchedulerOf<DispatchQueue>,
        debounce: DispatchQueue.SchedulerTimeType.Stride = .milliseconds(300)
    ) {
        self.service = service
        self.scheduler = scheduler
        self.debounce = debounce
        states.assign(to: &$state)
    }

    /// The screen's states for every query typed after now.
    private var states: AnyPublisher<SearchState, Never> {
        let service = service
        return
            $query
            .dropFirst() // the empty field the screen opens with is not something the user typed
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .debounce(for: debounce, scheduler: scheduler)
            .removeDuplicates()
            .map { query -> AnyPublisher<SearchState, Never> in
                guard !query.isEmpty else { return Just(.idle).eraseToAnyPublisher() }
                return service.search(query)
                    .map(SearchState.results)
                    // Per request, so that one failure does not end the stream: the next query searches again.
                    .catch { Just(SearchState.failed($0)) }
                    .prepend(.searching(query))
                    .eraseToAnyPublisher()
            }
            // A newer query cancels the request still running for an older one: its answer is never shown.
            .switchToLatest()
            .eraseToAnyPublisher()
    }
}
