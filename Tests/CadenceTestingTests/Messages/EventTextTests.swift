import Testing

@testable import CadenceTesting

private enum APIError: Error {
    case offline
}

@Suite("EventText")
struct EventTextTests {
    @Test func receivedEventsPrintAsTheTimelineShowsThem() {
        #expect(EventText.received(PublisherEvent<Int, APIError>.subscription) == "subscription")
        #expect(EventText.received(PublisherEvent<Int, APIError>.value(3)) == "3")
        #expect(EventText.received(PublisherEvent<String, APIError>.value("a")) == #""a""#)
        #expect(EventText.received(PublisherEvent<Int, APIError>.completion(.finished)) == "finished")
        #expect(
            EventText.received(PublisherEvent<Int, APIError>.completion(.failure(.offline)))
                == "failure(APIError.offline)"
        )
    }

    @Test func completionsPrintTheirError() {
        #expect(EventText.completion(Subscribers.Completion<APIError>.finished) == "finished")
        #expect(EventText.completion(Subscribers.Completion<APIError>.failure(.offline)) == "failure(APIError.offline)")
    }

    @Test func demandPrintsAsALiteral() {
        #expect(EventText.demand(.unlimited) == ".unlimited")
        #expect(EventText.demand(.none) == ".none")
        #expect(EventText.demand(.max(3)) == ".max(3)")
    }
}
