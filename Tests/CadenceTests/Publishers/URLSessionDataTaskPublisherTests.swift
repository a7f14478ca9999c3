import Cadence
import Foundation
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `URLSession.DataTaskPublisher`: Foundation's on Apple platforms, Cadence's on Linux (issue 17 item 1), against a
/// server on 127.0.0.1, with the behaviour OpenCombine's test suite records of Apple's. Every wait is bounded; no test
/// asserts how long anything took.
@Suite("URLSession.DataTaskPublisher")
struct URLSessionDataTaskPublisherTests {
    private typealias Output = (data: Data, response: URLResponse)

    // MARK: - Answers

    @Test func anAnswerIsOneValueWithTheBodyAndTheResponseThenFinished() async throws {
        let server = try LoopbackHTTPServer(routes: [
            "/greeting": .answer(status: 200, headers: ["Content-Type": "text/plain"], body: "hello")
        ])
        defer { server.stop() }
        let session = URLSession(configuration: .ephemeral)
        let subscriber = TestSubscriber<Output, URLError>()
        session.dataTaskPublisher(for: server.url("/greeting")).subscribe(subscriber)

        #expect(await eventually { subscriber.completions.count == 1 })
        #expect(subscriber.completions.map(String.init(describing:)) == ["finished"])
        let value = try #require(subscriber.values.first)
        #expect(subscriber.values.count == 1)
        #expect(String(decoding: value.data, as: UTF8.self) == "hello")
        let response = try #require(value.response as? HTTPURLResponse)
        #expect(response.statusCode == 200)
        #expect(response.value(forHTTPHeaderField: "Content-Type") == "text/plain")
        #expect(response.url == server.url("/greeting"))
        #expect(server.requests.map { "\($0.method) \($0.path)" } == ["GET /greeting"])
    }

    @Test func aStatusOf404IsAValueNotAFailure() async throws {
        let server = try LoopbackHTTPServer(routes: [:])
        defer { server.stop() }
        let subscriber = TestSubscriber<Output, URLError>()
        URLSession(configuration: .ephemeral).dataTaskPublisher(for: server.url("/missing")).subscribe(subscriber)

        #expect(await eventually { subscriber.completions.count == 1 })
        #expect(subscriber.completions.map(String.init(describing:)) == ["finished"])
        let value = try #require(subscriber.values.first)
        #expect((value.response as? HTTPURLResponse)?.statusCode == 404)
        #expect(String(decoding: value.data, as: UTF8.self) == "no route for /missing")
    }

    @Test func anEmptyBodyIsEmptyData() async throws {
        let server = try LoopbackHTTPServer(routes: ["/empty": .answer(status: 200)])
        defer { server.stop() }
        let subscriber = TestSubscriber<Output, URLError>()
        URLSession(configuration: .ephemeral).dataTaskPublisher(for: server.url("/empty")).subscribe(subscriber)

        #expect(await eventually { subscriber.completions.count == 1 })
        #expect(subscriber.values.map(\.data) == [Data()])
        #expect(subscriber.completions.map(String.init(describing:)) == ["finished"])
    }

    @Test func theRequestIsSentAsGiven() async throws {
        let server = try LoopbackHTTPServer(routes: ["/items": .answer(status: 201, body: "made")])
        defer { server.stop() }
        var request = URLRequest(url: server.url("/items?draft=1"))
        request.httpMethod = "POST"
        request.httpBody = Data(#"{"name":"pen"}"#.utf8)
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        let publisher = URLSession(configuration: .ephemeral).dataTaskPublisher(for: request)
        #expect(publisher.request == request)
        let subscriber = TestSubscriber<Output, URLError>()
        publisher.subscribe(subscriber)

        #expect(await eventually { subscriber.completions.count == 1 })
        #expect(subscriber.values.map { ($0.response as? HTTPURLResponse)?.statusCode } == [201])
        let received = try #require(server.requests.first)
        #expect(received.method == "POST")
        #expect(received.path == "/items?draft=1")
        #expect(received.headers["content-type"] == "application/json")
        #expect(received.body == #"{"name":"pen"}"#)
    }

    @Test func aPublisherForAURLSendsAGetForThatURLWithTheSession() {
        let url = URL(string: "https://example.com/a")!
        let session = URLSession(configuration: .ephemeral)
        let publisher = session.dataTaskPublisher(for: url)
        #expect(publisher.request == URLRequest(url: url))
        #expect(publisher.session === session)
        let made = URLSession.DataTaskPublisher(request: URLRequest(url: url), session: .shared)
        #expect(made.request.url == url)
        #expect(made.session === URLSession.shared)
    }

    // MARK: - Failures

    @Test func aRefusedConnectionFailsWithCannotConnectToHost() async throws {
        let refusing = try RefusingPort()
        let subscriber = TestSubscriber<Output, URLError>()
        URLSession(configuration: .ephemeral).dataTaskPublisher(for: refusing.url("/")).subscribe(subscriber)

        #expect(await eventually { subscriber.completions.count == 1 })
        #expect(subscriber.values.isEmpty)
        #expect(failureCodes(subscriber) == [.cannotConnectToHost])
    }

    @Test func aConnectionClosedWithoutAnAnswerFails() async throws {
        let server = try LoopbackHTTPServer(routes: ["/hang-up": .close])
        defer { server.stop() }
        let subscriber = TestSubscriber<Output, URLError>()
        URLSession(configuration: .ephemeral).dataTaskPublisher(for: server.url("/hang-up")).subscribe(subscriber)

        #expect(await eventually { subscriber.completions.count == 1 })
        #expect(subscriber.values.isEmpty)
        #expect(failureCodes(subscriber) == [Self.codeForAClosedConnection])
    }

    /// What a connection closed before any answer fails with: FoundationNetworking's (libcurl's "empty reply") or
    /// Apple's code.
    #if canImport(FoundationNetworking)
    private static let codeForAClosedConnection = URLError.Code.badServerResponse
    #else
    private static let codeForAClosedConnection = URLError.Code.networkConnectionLost
    #endif

    // MARK: - Demand and cancellation

    @Test func nothingIsSentBeforeTheFirstRequestAndOneRequestIsSentOnce() async throws {
        let server = try LoopbackHTTPServer(routes: ["/once": .answer(status: 200, body: "once")])
        defer { server.stop() }
        let session = URLSession(configuration: .ephemeral)
        let subscriber = TestSubscriber<Output, URLError>(initialDemand: .none)
        let publisher = session.dataTaskPublisher(for: server.url("/once"))
        publisher.subscribe(subscriber)
        // A demanded request made after the undemanded one is the only one the server sees.
        let control = TestSubscriber<Output, URLError>()
        publisher.subscribe(control)
        #expect(await eventually { control.completions.count == 1 })
        #expect(server.connectionCount == 1)
        #expect(subscriber.events.map(\.description) == ["subscription"])

        subscriber.request(.max(1))
        subscriber.request(.max(3)) // resumes the same task: still one request
        #expect(await eventually { subscriber.completions.count == 1 })
        #expect(subscriber.values.map { String(decoding: $0.data, as: UTF8.self) } == ["once"])
        #expect(subscriber.completions.map(String.init(describing:)) == ["finished"])
        #expect(server.connectionCount == 2)
        subscriber.request(.max(1)) // after the answer: nothing more is sent
        subscriber.cancel()
        #expect(server.requests.count == 2)
    }

    @Test func cancellingBeforeTheAnswerClosesTheConnectionAndDeliversNothing() async throws {
        let server = try LoopbackHTTPServer(routes: ["/slow": .held(status: 200, body: "late")])
        defer { server.stop() }
        let subscriber = TestSubscriber<Output, URLError>()
        URLSession(configuration: .ephemeral).dataTaskPublisher(for: server.url("/slow")).subscribe(subscriber)
        #expect(server.waitForRequests(1))

        subscriber.cancel()
        #expect(server.waitForClientsClosing(1)) // the data task was cancelled: the client hung up
        server.release()
        subscriber.cancel() // a second cancel does nothing
        #expect(subscriber.events.map(\.description) == ["subscription"])
    }

    @Test func theAnswerArrivesOnTheSessionsDelegateQueue() async throws {
        let server = try LoopbackHTTPServer(routes: ["/where": .answer(status: 200)])
        defer { server.stop() }
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        queue.name = "Cadence.URLSessionDataTaskPublisherTests.delegateQueue"
        let session = URLSession(configuration: .ephemeral, delegate: nil, delegateQueue: queue)
        let seen = LockedBox<[Bool]>([])
        let subscriber = TestSubscriber<Output, URLError>(onValue: { _ in
            seen.append(OperationQueue.current === queue)
            return .none
        })
        session.dataTaskPublisher(for: server.url("/where")).subscribe(subscriber)

        #expect(await eventually { subscriber.completions.count == 1 })
        #expect(seen.value == [true])
    }

    // MARK: - Helpers

    private func failureCodes(_ subscriber: TestSubscriber<Output, URLError>) -> [URLError.Code] {
        subscriber.completions.compactMap { completion in
            if case .failure(let error) = completion { return error.code }
            return nil
        }
    }
}

/// Waits, at most `timeout` seconds, until `condition` holds; returns whether it does.
private func eventually(timeout: TimeInterval = 30, _ condition: @Sendable () -> Bool) async -> Bool {
    let deadline = Date(timeIntervalSinceNow: timeout)
    while !condition(), Date() < deadline {
        try? await Task.sleep(nanoseconds: 2_000_000)
    }
    return condition()
}

#if !canImport(Combine) // Cadence's implementation against a scripted session; on Apple platforms it is Foundation's
/// The publisher against a session whose data tasks never touch the network, answered as the test says: the table of
/// answers OpenCombine's test suite records of Apple's publisher.
@Suite("URLSession.DataTaskPublisher, scripted")
struct URLSessionDataTaskPublisherScriptedTests {
    private typealias Output = (data: Data, response: URLResponse)

    private static let url = URL(string: "https://example.com/scripted")!
    private static let body = Data("body".utf8)
    private static let response: URLResponse = HTTPURLResponse(
        url: url, statusCode: 418, httpVersion: "HTTP/1.1", headerFields: nil)!
    private static let urlError = URLError(.cannotParseResponse, userInfo: ["detail": "scripted"])

    /// What the data task completes with, and the events the subscriber then receives.
    private static let answers: [(data: Data?, response: URLResponse?, error: (any Error)?, events: [String])] = [
        (nil, nil, nil, ["subscription", "failure(-1)"]),
        (body, nil, nil, ["subscription", "failure(-1)"]),
        (body, response, nil, ["subscription", "value(body, 418)", "finished"]),
        (nil, response, nil, ["subscription", "value(, 418)", "finished"]),
        (body, nil, urlError, ["subscription", "failure(-1017)"]),
        (nil, response, urlError, ["subscription", "failure(-1017)"]),
        (nil, nil, urlError, ["subscription", "failure(-1017)"]),
        (body, nil, TestError.oops, ["subscription", "failure(-1)"]),
        (nil, response, TestError.oops, ["subscription", "failure(-1)"]),
        (nil, nil, TestError.oops, ["subscription", "failure(-1)"]),
    ]

    @Test(arguments: answers.indices)
    func theFirstAnswerIsDeliveredAsApplesIs(index: Int) {
        let answer = Self.answers[index]
        let session = ScriptedSession(configuration: .ephemeral)
        let subscriber = TestSubscriber<Output, URLError>(initialDemand: .max(1))
        session.dataTaskPublisher(for: Self.url).subscribe(subscriber)
        #expect(session.log.value == ["dataTask GET https://example.com/scripted", "resume"])

        for _ in 0..<3 {
            session.complete(answer.data, answer.response, answer.error)
        }
        #expect(describe(subscriber.events) == answer.events)
        #expect(session.log.value == ["dataTask GET https://example.com/scripted", "resume"])
    }

    @Test func aURLErrorIsDeliveredAsItIsAndAnotherErrorAsUnknownWithNoUserInfo() {
        for (error, expected) in [(Self.urlError as any Error, Self.urlError), (TestError.oops, URLError(.unknown))] {
            let session = ScriptedSession(configuration: .ephemeral)
            let subscriber = TestSubscriber<Output, URLError>()
            session.dataTaskPublisher(for: Self.url).subscribe(subscriber)
            session.complete(nil, nil, error)
            guard case .failure(let failure) = subscriber.completions.first else {
                Issue.record("no failure: \(subscriber.events)")
                continue
            }
            #expect(failure == expected)
            #expect(failure.userInfo.keys.sorted() == expected.userInfo.keys.sorted())
        }
    }

    @Test func theTaskIsMadeOnTheFirstRequestResumedOnEachAndCancelledOnce() throws {
        let session = ScriptedSession(configuration: .ephemeral)
        var request = URLRequest(url: Self.url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: 42)
        request.httpMethod = "PUT"
        let subscriber = TestSubscriber<Output, URLError>(initialDemand: .none)
        session.dataTaskPublisher(for: request).subscribe(subscriber)
        #expect(session.log.value.isEmpty)
        #expect(session.requests.isEmpty)

        subscriber.request(.max(2))
        subscriber.request(.max(1))
        #expect(session.log.value == ["dataTask PUT https://example.com/scripted", "resume", "resume"])
        #expect(session.requests == [request])

        subscriber.cancel()
        session.complete(Self.body, Self.response, nil) // too late: the subscription is over
        subscriber.request(.max(1))
        subscriber.cancel()
        #expect(session.log.value == ["dataTask PUT https://example.com/scripted", "resume", "resume", "cancel"])
        #expect(describe(subscriber.events) == ["subscription"])
    }

    @Test func aCancelledSubscriptionMakesNoTask() {
        let session = ScriptedSession(configuration: .ephemeral)
        let subscriber = TestSubscriber<Output, URLError>(initialDemand: .none)
        session.dataTaskPublisher(for: Self.url).subscribe(subscriber)
        subscriber.cancel()
        subscriber.request(.max(1))
        #expect(session.log.value.isEmpty)
        #expect(describe(subscriber.events) == ["subscription"])
    }

    @Test func theSubscriptionDescribesItselfAsApplesDoes() throws {
        let session = ScriptedSession(configuration: .ephemeral)
        let subscriber = TestSubscriber<Output, URLError>(initialDemand: .none)
        session.dataTaskPublisher(for: Self.url).subscribe(subscriber)
        let subscription = try #require(subscriber.subscription)
        #expect(String(describing: subscription) == "DataTaskPublisher")
        #expect(
            (subscription as? any CustomPlaygroundDisplayConvertible)?.playgroundDescription as? String
                == "DataTaskPublisher")
        let children = Mirror(reflecting: subscription).children
        #expect(children.map(\.label) == ["task", "downstream", "parent", "demand"])
        #expect(children.map { String(describing: $0.value) }.last == "max(0)")
        subscriber.request(.max(2))
        #expect(Mirror(reflecting: subscription).children.map { String(describing: $0.value) }.last == "max(2)")
    }

    @Test func requestingNoneTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let subscriber = TestSubscriber<(data: Data, response: URLResponse), URLError>(initialDemand: .none)
            let session = URLSession(configuration: .ephemeral)
            session.dataTaskPublisher(for: URL(string: "https://example.com")!).subscribe(subscriber)
            subscriber.request(.none)
        }
        expectZeroDemandTrap(result, in: "DataTaskPublisher")
    }

    /// The events as the table writes them: a value as its body and status, a failure as its code.
    private func describe(_ events: [Event<Output, URLError>]) -> [String] {
        events.map { event in
            switch event {
            case .subscription: "subscription"
            case .value(let value):
                "value(\(String(decoding: value.data, as: UTF8.self)), "
                    + "\((value.response as? HTTPURLResponse)?.statusCode ?? 0))"
            case .completion(.finished): "finished"
            case .completion(.failure(let error)): "failure(\(error.code.rawValue))"
            }
        }
    }
}

/// A session whose data tasks never touch the network: it logs what is asked of it and of its tasks, keeps each
/// completion handler, and calls them when the test answers.
private final class ScriptedSession: URLSession, @unchecked Sendable { // the boxes guard what they hold
    typealias Handler = @Sendable (Data?, URLResponse?, (any Error)?) -> Void

    /// `dataTask <method> <url>`, `resume` and `cancel`, in order.
    let log = LockedBox<[String]>([])
    private let sent = LockedBox<[URLRequest]>([])
    private let handlers = LockedBox<[Handler]>([])

    /// Every request a data task was made for.
    var requests: [URLRequest] { sent.value }

    override func dataTask(
        with request: URLRequest, completionHandler: @escaping Handler
    ) -> URLSessionDataTask {
        log.append("dataTask \(request.httpMethod ?? "GET") \(request.url?.absoluteString ?? "")")
        sent.append(request)
        handlers.append(completionHandler)
        return ScriptedDataTask(log: log)
    }

    /// Calls every data task's completion handler with this answer.
    func complete(_ data: Data?, _ response: URLResponse?, _ error: (any Error)?) {
        for handler in handlers.value {
            handler(data, response, error)
        }
    }
}

/// A data task that only logs being resumed and cancelled.
private final class ScriptedDataTask: URLSessionDataTask, @unchecked Sendable { // `log` guards itself
    private let log: LockedBox<[String]>

    init(log: LockedBox<[String]>) {
        self.log = log
        super.init()
    }

    override func resume() { log.append("resume") }

    override func cancel() { log.append("cancel") }
}
#endif

/// The Examples package keeps a copy of the loopback server (its tests cannot reach this package's test support): the
/// two stay the same but for their first line, which names the other.
@Test func theExamplesCopyOfTheLoopbackServerIsThisOne() throws {
    let testTarget = URL(fileURLWithPath: "\(#filePath)").deletingLastPathComponent().deletingLastPathComponent()
    let repository = testTarget.deletingLastPathComponent().deletingLastPathComponent()
    let lines = { (url: URL) throws -> ArraySlice<Substring> in
        try String(contentsOf: url, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
            .dropFirst()
    }
    let original = try lines(testTarget.appendingPathComponent("Support/LoopbackHTTPServer.swift"))
    let copy = try lines(
        repository.appendingPathComponent(
            "Examples/Tests/ExampleAppTests/Networking/LoopbackHTTPServer.swift"
        ))
    #expect(original.count > 100)
    #expect(copy == original)
}
