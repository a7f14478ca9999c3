/// A subscriber kept on the heap, for a subscription that holds its downstream for long and reads it on every value
/// (flatMap's, zip's, combineLatest's).
///
/// Such a subscription's methods run unspecialised when a publisher reaches them through `Subscriber`, and its
/// `deinit` always does. There a stored `Downstream?` costs a look-up of the metadata of `Optional<Downstream>` at run
/// time (a few hundred instructions) and the optional's value witnesses on every use — even in a function that only
/// might return one. An optional of a class needs no metadata: checking for the downstream and reading it cost a
/// load. Letting go of the box lets go of the subscriber.
final class SubscriberBox<Downstream: Subscriber> {
    let subscriber: Downstream

    init(_ subscriber: Downstream) {
        self.subscriber = subscriber
    }
}
