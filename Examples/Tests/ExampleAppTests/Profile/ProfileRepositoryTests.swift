import CadenceTesting
import ExampleApp
import Testing

@Suite(.virtualTime)
struct ProfileRepositoryTests {
    let clock = VirtualClock.current! // bound by .virtualTime, which makes the suite inside its scope

    func makeRepository(answering result: Result<Profile, APIError>) -> ProfileRepository {
        ProfileRepository(userID: 42, service: .preview(answering: result, after: .milliseconds(300), on: clock))
    }

    @available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *)
    @Test func aLoadGoesFromIdleThroughLoadingToTheProfile() async {
        let repository = makeRepository(answering: .success(.blob))
        let states = expect(repository.state)

        let load = repository.startLoading()
        states.toEmit([.idle, .loading]).thenEmitNothing(for: .milliseconds(299))
        await clock.advance(by: .milliseconds(1))
        await load.value

        states.thenEmit(.success(.blob))
    }

    @available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *)
    @Test func aFetchThatThrowsAnAPIErrorEndsInFailure() async {
        let repository = makeRepository(answering: .failure(.badStatus(500)))
        let states = expect(repository.state.dropFirst())

        let load = repository.startLoading()
        await clock.advance(by: .milliseconds(300))
        await load.value

        states.toEmit([.loading, .failure(.api(.badStatus(500)))])
    }

    @available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *)
    @Test func anyOtherErrorKeepsItsDescription() async {
        struct KeychainLocked: Error {}
        let clock = clock
        let repository = ProfileRepository(
            userID: 42,
            service: ProfileService { _ in
                try await clock.sleep(for: .seconds(1))
                throw KeychainLocked()
            })

        let load = repository.startLoading()
        await clock.advance(by: .seconds(1))
        await load.value

        expect(repository.state).toEmit(.failure(.other("KeychainLocked()")))
    }

    @available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *)
    @Test func theStatesCanBeReadAsAnAsyncSequence() async {
        let repository = makeRepository(answering: .success(.blob))
        let states = expect(repository.state.values)
        await states.toEmit(.idle, timeout: .seconds(5))

        let load = repository.startLoading()
        await clock.advance(by: .milliseconds(300))
        await load.value

        // `.values` asks for one state at a time: one sent between two requests is skipped, the latest never is.
        await states.thenEventuallyEmit(.success(.blob), timeout: .seconds(5))
    }

    @available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *)
    @Test func theValuesStartFromTheCurrentState() async {
        let repository = makeRepository(answering: .failure(.offline))
        let load = repository.startLoading()
        await clock.advance(by: .milliseconds(300))
        await load.value

        var states = repository.state.values.makeAsyncIterator()
        #expect(await states.next() == .failure(.api(.offline)))
    }
}
