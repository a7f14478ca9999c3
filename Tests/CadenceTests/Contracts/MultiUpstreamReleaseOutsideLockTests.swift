import Cadence
import Testing

/// The same check as `DownstreamReleaseOutsideLockTests`, for subjects and for operators with several upstreams: a
/// subscription cancelled from outside releases its downstream, and when that downstream's `deinit` cancels the
/// subscription again, it must not happen under the subscription's lock.
@Suite("Subjects and multi-upstream operators release the downstream outside the lock")
struct MultiUpstreamReleaseOutsideLockTests {
    // `buffer` is not here: as Combine's, its subscription keeps the downstream after a cancel, so there is no release
    // to check.
    @Test(arguments: [
        "PassthroughSubject", "CurrentValueSubject", "Published", "Merge", "MergeMany", "Zip", "CombineLatest",
        "Concatenate", "DropUntilOutput", "PrefixUntilOutput", "FlatMap", "SwitchToLatest", "Catch", "TryCatch",
        "Retry", "Multicast", "Share",
    ])
    func cancelReleasingADownstreamThatCancelsAgainDoesNotDeadlock(operator name: String) {
        let outcome: (returned: Bool, subscriberWentAway: Bool)
        switch name {
        case "PassthroughSubject":
            outcome = cancelReleasingACancellingSubscriber { PassthroughSubject<Int, Never>() }
        case "CurrentValueSubject":
            outcome = cancelReleasingACancellingSubscriber { CurrentValueSubject<Int, Never>(0) }
        case "Published":
            outcome = cancelReleasingACancellingSubscriber {
                var published = Published(initialValue: 0)
                return published.projectedValue
            }
        case "Merge":
            outcome = cancelReleasingACancellingSubscriber {
                TestPublisher<Int, Never>().merge(with: TestPublisher<Int, Never>().map { $0 })
            }
        case "MergeMany":
            outcome = cancelReleasingACancellingSubscriber {
                Publishers.MergeMany(TestPublisher<Int, Never>(), TestPublisher<Int, Never>())
            }
        case "Zip":
            outcome = cancelReleasingACancellingSubscriber {
                TestPublisher<Int, Never>().zip(TestPublisher<Int, Never>())
            }
        case "CombineLatest":
            outcome = cancelReleasingACancellingSubscriber {
                TestPublisher<Int, Never>().combineLatest(TestPublisher<Int, Never>())
            }
        case "Concatenate":
            outcome = cancelReleasingACancellingSubscriber {
                TestPublisher<Int, Never>().append(TestPublisher<Int, Never>())
            }
        case "DropUntilOutput":
            outcome = cancelReleasingACancellingSubscriber {
                TestPublisher<Int, Never>().drop(untilOutputFrom: TestPublisher<Int, Never>())
            }
        case "PrefixUntilOutput":
            outcome = cancelReleasingACancellingSubscriber {
                TestPublisher<Int, Never>().prefix(untilOutputFrom: TestPublisher<Int, Never>())
            }
        case "FlatMap":
            outcome = cancelReleasingACancellingSubscriber {
                TestPublisher<Int, Never>().flatMap { _ in TestPublisher<Int, Never>() }
            }
        case "SwitchToLatest":
            outcome = cancelReleasingACancellingSubscriber {
                TestPublisher<TestPublisher<Int, Never>, Never>().switchToLatest()
            }
        case "Catch":
            outcome = cancelReleasingACancellingSubscriber {
                TestPublisher<Int, TestError>().catch { _ in TestPublisher<Int, TestError>() }
            }
        case "TryCatch":
            outcome = cancelReleasingACancellingSubscriber {
                TestPublisher<Int, TestError>().tryCatch { _ in TestPublisher<Int, TestError>() }
            }
        case "Retry":
            outcome = cancelReleasingACancellingSubscriber { TestPublisher<Int, TestError>().retry(2) }
        case "Multicast":
            outcome = cancelReleasingACancellingSubscriber {
                TestPublisher<Int, Never>().multicast { PassthroughSubject<Int, Never>() }
            }
        default:
            outcome = cancelReleasingACancellingSubscriber { TestPublisher<Int, Never>().share() }
        }
        #expect(outcome.returned)
        // As in Combine, these keep their downstream for as long as their subscription lives: a cancel does not
        // release it, so this subscriber, which holds its subscription, stays.
        let keepsItsDownstream: Set = [
            "DropUntilOutput", "PrefixUntilOutput", "Zip", "CombineLatest", "Concatenate", "SwitchToLatest", "Catch",
            "TryCatch",
        ]
        #expect(outcome.subscriberWentAway != keepsItsDownstream.contains(name))
    }
}
