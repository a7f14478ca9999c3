import CadenceSupport

/// A publisher that allows for recording a series of inputs and a completion, for later playback to each subscriber.
///
/// Every subscriber gets the whole recording: the outputs as it requests them, then the recorded completion right
/// after the last output. A recording with no outputs completes at once, without waiting for demand.
public struct Record<Output, Failure: Error>: Publisher {
    /// The recorded output and completion.
    public let recording: Recording

    /// Creates a publisher to interactively record a series of outputs and a completion.
    ///
    /// ```swift
    /// let record = Record<Int, Never> { recording in
    ///     recording.receive(1)
    ///     recording.receive(2)
    ///     recording.receive(completion: .finished)
    /// }
    /// ```
    public init(record: (inout Recording) -> Void) {
        var recording = Recording()
        record(&recording)
        self.init(recording: recording)
    }

    /// Creates a record publisher from an existing recording.
    public init(recording: Recording) {
        self.recording = recording
    }

    /// Creates a record publisher to publish the provided outputs, followed by the provided completion.
    public init(output: [Output], completion: Subscribers.Completion<Failure>) {
        self.init(recording: Recording(output: output, completion: completion))
    }

    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        let output = recording.output
        var iterator = output.makeIterator()
        guard let first = iterator.next() else {
            subscriber.receive(subscription: Subscriptions.empty)
            subscriber.receive(completion: recording.completion)
            return
        }
        subscriber.receive(
            subscription: SequenceSubscription(
                sequence: output, iterator: iterator, advance: { $0.next() }, first: first, downstream: subscriber,
                completion: recording.completion, isRecord: true))
    }

    /// A recorded sequence of outputs, followed by a completion value.
    public struct Recording {
        public typealias Input = Output

        /// Whether `receive(completion:)` has sealed the recording.
        private var isComplete: Bool

        /// The output which will be sent to a subscriber.
        public private(set) var output: [Output]

        /// The completion which will be sent to a subscriber.
        public private(set) var completion: Subscribers.Completion<Failure>

        /// Sets up a recording in a state ready to receive output.
        public init() {
            isComplete = false
            output = []
            completion = .finished
        }

        /// Sets up a complete recording with the specified output and completion.
        public init(output: [Output], completion: Subscribers.Completion<Failure> = .finished) {
            isComplete = true
            self.output = output
            self.completion = completion
        }

        /// Adds an output to the recording; traps when the recording already has its completion.
        public mutating func receive(_ input: Input) {
            require(
                !isComplete, "Record.Recording: receive(_:) was called after the recording received its completion")
            output.append(input)
        }

        /// Adds a completion to the recording; traps when the recording already has one.
        public mutating func receive(completion: Subscribers.Completion<Failure>) {
            require(
                !isComplete,
                "Record.Recording: receive(completion:) was called on a recording that is already complete")
            self.completion = completion
            isComplete = true
        }
    }
}

private enum RecordingCodingKeys: String, CodingKey {
    case output
    case completion
}

extension Record.Recording: Codable where Output: Codable, Failure: Codable {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: RecordingCodingKeys.self)
        self.init(
            output: try container.decode([Output].self, forKey: .output),
            completion: try container.decode(Subscribers.Completion<Failure>.self, forKey: .completion))
    }

    /// Encodes the recording into the given encoder (the same as `encode(to:)`).
    public func encode(into encoder: any Encoder) throws {
        try encode(to: encoder)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: RecordingCodingKeys.self)
        try container.encode(output, forKey: .output)
        try container.encode(completion, forKey: .completion)
    }
}

private enum RecordCodingKeys: String, CodingKey {
    case recording
}

extension Record: Codable where Output: Codable, Failure: Codable {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: RecordCodingKeys.self)
        self.init(recording: try container.decode(Recording.self, forKey: .recording))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: RecordCodingKeys.self)
        try container.encode(recording, forKey: .recording)
    }
}
