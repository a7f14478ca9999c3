import Cadence
import Testing

/// How `expectTheSubscriberStaysUntilTheSubscriptionGoes` ends the subscription.
enum SubscriptionEnding: Sendable {
    /// The subscriber cancels.
    case cancel
    /// The upstream finishes, and the completion reaches the subscriber.
    case finish
    /// The upstream fails with `TestError.oops`, and the failure reaches the subscriber.
    case fail
}

/// As in Combine, an ended subscription — cancelled or completed — keeps its subscriber for as long as it lives: the
/// subscriber goes only when the upstream and the subscriber both let go of the subscription.
///
/// `drive` runs after the subscribe and again after the end (to run a scheduler's actions, for an operator that
/// subscribes or delivers on one).
func expectTheSubscriberStaysUntilTheSubscriptionGoes<Operator: Publisher>(
    ending: SubscriptionEnding,
    drive: () -> Void = {},
    sourceLocation: SourceLocation = #_sourceLocation,
    _ makeOperator: (DrivenPublisher<Int, TestError>) -> Operator
) {
    var upstream: DrivenPublisher<Int, TestError>? = DrivenPublisher<Int, TestError>()
    weak var released: TestSubscriber<Operator.Output, Operator.Failure>?
    do {
        let subscriber = TestSubscriber<Operator.Output, Operator.Failure>()
        released = subscriber
        if let upstream { makeOperator(upstream).subscribe(subscriber) }
        drive()
        switch ending {
        case .cancel:
            subscriber.cancel()
        case .finish:
            upstream?.send(completion: .finished)
        case .fail:
            upstream?.send(completion: .failure(.oops))
        }
        drive()
        if ending == .cancel {
            #expect(upstream?.subscription.cancelCount == 1, sourceLocation: sourceLocation)
        }
        let expected =
            switch ending {
            case .cancel: "subscription"
            case .finish: "finished"
            case .fail: "failure(oops)"
            }
        #expect(subscriber.events.last?.description == expected, sourceLocation: sourceLocation)
        subscriber.releaseSubscription()
    }
    #expect(released != nil, sourceLocation: sourceLocation)
    upstream = nil
    #expect(released == nil, sourceLocation: sourceLocation)
}
