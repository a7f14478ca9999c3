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
                DrivenPublisher<Int, Never>().merge(with: DrivenPublisher<Int, Never>().map { $0 })
            }
        case "MergeMany":
            outcome = cancelReleasingACancellingSubscriber {
                Publishers.MergeMany(DrivenPublisher<Int, Never>(), DrivenPublisher<Int, Never>())
            }
        case "Zip":
            outcome = cancelReleasingACancellingSubscriber {
                DrivenPublisher<Int, Never>().zip(DrivenPublisher<Int, Never>())
            }
        case "CombineLatest":
            outcome = cancelReleasingACancellingSubscriber {
                DrivenPublisher<Int, Never>().combineLatest(DrivenPublisher<Int, Never>())
            }
        case "Concatenate":
            outcome = cancelReleasingACancellingSubscriber {
                DrivenPublisher<Int, Never>().append(DrivenPublisher<Int, Never>())
            }
        case "DropUntilOutput":
            outcome = cancelReleasingACancellingSubscriber {
                DrivenPublisher<Int, Never>().drop(untilOutputFrom: DrivenPublisher<Int, Never>())
            }
        case "PrefixUntilOutput":
            outcome = cancelReleasingACancellingSubscriber {
                DrivenPublisher<Int, Never>().prefix(untilOutputFrom: DrivenPublisher<Int, Never>())
            }
        case "FlatMap":
            outcome = cancelReleasingACancellingSubscriber {
                DrivenPublisher<Int, Never>().flatMap { _ in DrivenPublisher<Int, Never>() }
            }
        case "SwitchToLatest":
            outcome = cancelReleasingACancellingSubscriber {
                DrivenPublisher<DrivenPublisher<Int, Never>, Never>().switchToLatest()
            }
        case "Catch":
            outcome = cancelReleasingACancellingSubscriber {
                DrivenPublisher<Int, TestError>().catch { _ in DrivenPublisher<Int, TestError>() }
            }
        case "TryCatch":
            outcome = cancelReleasingACancellingSubscriber {
                DrivenPublisher<Int, TestError>().tryCatch { _ in DrivenPublisher<Int, TestError>() }
            }
        case "Retry":
            outcome = cancelReleasingACancellingSubscriber { DrivenPublisher<Int, TestError>().retry(2) }
        case "Multicast":
            outcome = cancelReleasingACancellingSubscriber {
                DrivenPublisher<Int, Never>().multicast { PassthroughSubject<Int, Never>() }
            }
        default:
            outcome = cancelReleasingACancellingSubscriber { DrivenPublisher<Int, Never>().share() }
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
