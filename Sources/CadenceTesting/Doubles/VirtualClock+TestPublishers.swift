import CadenceSupport

extension VirtualClock {
    /// A hot ``TestPublisher`` that plays `marbles` once on this clock, the diagram's tick 0 being the clock's tick
    /// now, to whoever is subscribed when each event is due.
    ///
    /// The diagram is written as `toMatch`'s (Guides/MarbleDiagrams.md): `-` a tick with no event, a character a
    /// value from `values`, `|` finished, `( … )` several events on one tick. A diagram that cannot be played — bad
    /// syntax, a character `values` does not map, a `#` on a publisher that cannot fail — is reported at this call,
    /// naming the character, and the publisher plays nothing.
    ///
    /// ```swift
    /// let taps = clock.hot("--t----t", values: ["t": ()])
    /// ```
    public func hot<Output>(
        _ marbles: String,
        values: [Character: Output] = [:],
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) -> TestPublisher<Output, Never> {
        publisher(
            .hot, marbles, values: values, error: nil,
            at: SourceCodeLocation(
                fileID: fileID, filePath: filePath, line: line, column: column
            ))
    }

    /// A hot ``TestPublisher`` that can fail: `#` in `marbles` fails it with `error`.
    ///
    /// ```swift
    /// let feed = clock.hot("-a-b-#", values: ["a": 1, "b": 2], error: FeedError.dropped)
    /// ```
    public func hot<Output, Failure: Error>(
        _ marbles: String,
        values: [Character: Output] = [:],
        error: Failure,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) -> TestPublisher<Output, Failure> {
        publisher(
            .hot, marbles, values: values, error: error,
            at: SourceCodeLocation(
                fileID: fileID, filePath: filePath, line: line, column: column
            ))
    }

    /// A hot ``TestPublisher`` whose `Failure` is the one its context asks for, playing a diagram with no `#`: an
    /// input of a type that can fail, which this test does not fail, needs no `error:`.
    ///
    /// ```swift
    /// let input: TestPublisher<Int, APIError> = clock.hot("-a-|", values: ["a": 1])
    /// ```
    ///
    /// A `#` in the diagram has no error to fail with: it is reported at this call, and the publisher plays nothing.
    /// Without a `Failure` from the context, `hot(_:values:)` makes one that cannot fail.
    @_disfavoredOverload
    public func hot<Output, Failure: Error>(
        _ marbles: String,
        values: [Character: Output] = [:],
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) -> TestPublisher<Output, Failure> {
        publisher(
            .hot, marbles, values: values, error: nil,
            at: SourceCodeLocation(fileID: fileID, filePath: filePath, line: line, column: column))
    }

    /// A cold ``TestPublisher`` that plays `marbles` to each subscriber on its own, the diagram's tick 0 being the
    /// tick it subscribed on; see `hot(_:values:)` for the diagram.
    ///
    /// ```swift
    /// let response = clock.cold("---(r|)", values: ["r": Response.accepted])
    /// ```
    public func cold<Output>(
        _ marbles: String,
        values: [Character: Output] = [:],
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) -> TestPublisher<Output, Never> {
        publisher(
            .cold, marbles, values: values, error: nil,
            at: SourceCodeLocation(
                fileID: fileID, filePath: filePath, line: line, column: column
            ))
    }

    /// A cold ``TestPublisher`` that can fail: `#` in `marbles` fails it with `error`.
    public func cold<Output, Failure: Error>(
        _ marbles: String,
        values: [Character: Output] = [:],
        error: Failure,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) -> TestPublisher<Output, Failure> {
        publisher(
            .cold, marbles, values: values, error: error,
            at: SourceCodeLocation(
                fileID: fileID, filePath: filePath, line: line, column: column
            ))
    }

    /// A cold ``TestPublisher`` whose `Failure` is the one its context asks for, playing a diagram with no `#`; see
    /// the `hot(_:values:)` of this form.
    ///
    /// ```swift
    /// let response: TestPublisher<Response, APIError> = clock.cold("--(r|)", values: ["r": .accepted])
    /// ```
    @_disfavoredOverload
    public func cold<Output, Failure: Error>(
        _ marbles: String,
        values: [Character: Output] = [:],
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) -> TestPublisher<Output, Failure> {
        publisher(
            .cold, marbles, values: values, error: nil,
            at: SourceCodeLocation(fileID: fileID, filePath: filePath, line: line, column: column))
    }

    /// A hot ``TestPublisher`` playing `events`, each at its tick counted from now. Ticks must not go backwards, and
    /// nothing may follow a completion; a script that does is reported at this call and plays nothing.
    ///
    /// ```swift
    /// let prices = clock.hot([(1, .value(101)), (4, .value(99)), (6, .finished)])
    /// ```
    public func hot<Output, Failure: Error>(
        _ events: [(tick: Int64, event: TestPublisher<Output, Failure>.Event)],
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) -> TestPublisher<Output, Failure> {
        publisher(.hot, events, at: SourceCodeLocation(fileID: fileID, filePath: filePath, line: line, column: column))
    }

    /// A cold ``TestPublisher`` playing `events` to each subscriber, each at its tick counted from the subscription;
    /// see `hot(_:)`.
    public func cold<Output, Failure: Error>(
        _ events: [(tick: Int64, event: TestPublisher<Output, Failure>.Event)],
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) -> TestPublisher<Output, Failure> {
        publisher(.cold, events, at: SourceCodeLocation(fileID: fileID, filePath: filePath, line: line, column: column))
    }

    /// A publisher of `temperature` playing `marbles`, or nothing after reporting why they cannot be played.
    private func publisher<Output, Failure: Error>(
        _ temperature: TestPublisher<Output, Failure>.Temperature,
        _ marbles: String,
        values: [Character: Output],
        error: Failure?,
        at location: SourceCodeLocation
    ) -> TestPublisher<Output, Failure> {
        let call = temperature == .hot ? "hot" : "cold"
        let script = script(marbles, values: values, error: error, call: call, at: location)
        return TestPublisher(temperature, script: script, clock: self, honoursDemand: true)
    }

    /// A publisher of `temperature` playing `events`, or nothing after reporting why they cannot be played.
    private func publisher<Output, Failure: Error>(
        _ temperature: TestPublisher<Output, Failure>.Temperature,
        _ events: [(tick: Int64, event: TestPublisher<Output, Failure>.Event)],
        at location: SourceCodeLocation
    ) -> TestPublisher<Output, Failure> {
        let call = temperature == .hot ? "hot" : "cold"
        return TestPublisher(
            temperature, script: checked(events, call: call, at: location), clock: self, honoursDemand: true)
    }

    /// The script `marbles` describes, or an empty one after reporting why it cannot be played.
    private func script<Output, Failure: Error>(
        _ marbles: String,
        values: [Character: Output],
        error: Failure?,
        call: String,
        at location: SourceCodeLocation
    ) -> [(tick: Int64, event: TestPublisher<Output, Failure>.Event)] {
        let reportBad = { (reason: String) in
            FailureReporter.resolved.report(
                ExpectationFailure(
                    message: TestDoubleText.unplayable(call, marbles: marbles, reason),
                    location: location
                ))
        }
        let diagram: MarbleDiagram
        do {
            diagram = try MarbleDiagram(parsing: marbles)
        } catch {
            reportBad(error.description)
            return []
        }
        var script: [(tick: Int64, event: TestPublisher<Output, Failure>.Event)] = []
        for (tick, event) in diagram.events {
            switch event {
            case let .value(key):
                guard let value = values[key] else {
                    let position = diagram.keyPositions.first { $0.key == key }?.position ?? 0
                    reportBad(TestDoubleText.unknownKey(key, at: position, known: values.keys.sorted()))
                    return []
                }
                script.append((Int64(tick), .value(value)))
            case .finished:
                script.append((Int64(tick), .finished))
            case .failure:
                guard let error else {
                    let position = Array(marbles).firstIndex(of: "#").map { $0 + 1 } ?? 0
                    reportBad(
                        Failure.self == Never.self
                            ? TestDoubleText.cannotFail(at: position)
                            : TestDoubleText.noError(at: position, failure: TypeName.describe(Failure.self)))
                    return []
                }
                script.append((Int64(tick), .failure(error)))
            }
        }
        return script
    }

    /// `events` if ticks never go backwards or below zero and nothing follows a completion; else nothing, reported.
    private func checked<Output, Failure: Error>(
        _ events: [(tick: Int64, event: TestPublisher<Output, Failure>.Event)],
        call: String,
        at location: SourceCodeLocation
    ) -> [(tick: Int64, event: TestPublisher<Output, Failure>.Event)] {
        var previous: Int64 = 0
        for (offset, entry) in events.enumerated() {
            let problem: String? =
                if entry.tick < previous {
                    offset == 0
                        ? TestDoubleText.beforeTickZero(tick: entry.tick)
                        : TestDoubleText.beforePrevious(event: offset + 1, tick: entry.tick, previous: previous)
                } else if offset > 0, events[offset - 1].event.completion != nil {
                    TestDoubleText.afterCompletion(event: offset + 1)
                } else {
                    nil
                }
            if let problem {
                FailureReporter.resolved.report(
                    ExpectationFailure(
                        message: TestDoubleText.unplayableEvents(call, problem), location: location
                    ))
                return []
            }
            previous = entry.tick
        }
        return events
    }
}

extension TestScheduler {
    /// `VirtualClock.hot(_:values:)` on the scheduler's clock.
    public func hot<Output>(
        _ marbles: String,
        values: [Character: Output] = [:],
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) -> TestPublisher<Output, Never> {
        clock.hot(marbles, values: values, fileID: fileID, filePath: filePath, line: line, column: column)
    }

    /// `VirtualClock.cold(_:values:)` on the scheduler's clock.
    public func cold<Output>(
        _ marbles: String,
        values: [Character: Output] = [:],
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) -> TestPublisher<Output, Never> {
        clock.cold(marbles, values: values, fileID: fileID, filePath: filePath, line: line, column: column)
    }

    /// `VirtualClock.hot(_:values:error:)` on the scheduler's clock: `#` fails the publisher with `error`.
    public func hot<Output, Failure: Error>(
        _ marbles: String,
        values: [Character: Output] = [:],
        error: Failure,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) -> TestPublisher<Output, Failure> {
        clock.hot(marbles, values: values, error: error, fileID: fileID, filePath: filePath, line: line, column: column)
    }

    /// `VirtualClock.cold(_:values:error:)` on the scheduler's clock: `#` fails the publisher with `error`.
    public func cold<Output, Failure: Error>(
        _ marbles: String,
        values: [Character: Output] = [:],
        error: Failure,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) -> TestPublisher<Output, Failure> {
        clock.cold(
            marbles, values: values, error: error, fileID: fileID, filePath: filePath, line: line, column: column)
    }

    /// `VirtualClock.hot(_:values:)` on the scheduler's clock, for a `Failure` its context asks for: a diagram with
    /// no `#` needs no `error:`.
    @_disfavoredOverload
    public func hot<Output, Failure: Error>(
        _ marbles: String,
        values: [Character: Output] = [:],
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) -> TestPublisher<Output, Failure> {
        clock.hot(marbles, values: values, fileID: fileID, filePath: filePath, line: line, column: column)
    }

    /// `VirtualClock.cold(_:values:)` on the scheduler's clock, for a `Failure` its context asks for: a diagram with
    /// no `#` needs no `error:`.
    @_disfavoredOverload
    public func cold<Output, Failure: Error>(
        _ marbles: String,
        values: [Character: Output] = [:],
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) -> TestPublisher<Output, Failure> {
        clock.cold(marbles, values: values, fileID: fileID, filePath: filePath, line: line, column: column)
    }

    /// `VirtualClock.hot(_:)` on the scheduler's clock: `events`, each at its tick counted from now.
    public func hot<Output, Failure: Error>(
        _ events: [(tick: Int64, event: TestPublisher<Output, Failure>.Event)],
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) -> TestPublisher<Output, Failure> {
        clock.hot(events, fileID: fileID, filePath: filePath, line: line, column: column)
    }

    /// `VirtualClock.cold(_:)` on the scheduler's clock: `events`, each at its tick counted from the subscription.
    public func cold<Output, Failure: Error>(
        _ events: [(tick: Int64, event: TestPublisher<Output, Failure>.Event)],
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) -> TestPublisher<Output, Failure> {
        clock.cold(events, fileID: fileID, filePath: filePath, line: line, column: column)
    }
}
