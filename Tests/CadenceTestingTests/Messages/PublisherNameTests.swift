import Testing

@testable import CadenceTesting

private struct PrivatePublisher: Publisher {
    typealias Output = Int
    typealias Failure = Never
    func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == Never {}
}

@Suite("PublisherName")
struct PublisherNameTests {
    @Test func namesDropModules() {
        #expect(PublisherName.describe(PassthroughSubject<Int, Never>.self) == "PassthroughSubject<Int, Never>")
        #expect(PublisherName.describe(Publishers.Map<Just<Int>, String>.self) == "Publishers.Map<Just<Int>, String>")
    }

    @Test func privatePublishersNameNoAddress() {
        #expect(PublisherName.describe(PrivatePublisher.self) == "PrivatePublisher")
    }

    @Test func namesOverSixtyCharactersAreCutToTheirOutermostType() {
        typealias Long = Publishers.Map<Publishers.Filter<PassthroughSubject<Int, Never>>, String>
        #expect(TypeName.describe(Long.self).count > 60)
        #expect(PublisherName.describe(Long.self) == "Publishers.Map<…>")
    }

    @Test func aNameOfSixtyCharactersIsKept() {
        typealias Sixty = Publishers.Map<Just<Int>, [String: [Double]]>
        #expect(PublisherName.describe(Sixty.self) == "Publishers.Map<Just<Int>, Dictionary<String, Array<Double>>>")
    }
}
