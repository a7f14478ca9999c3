// swift-format-ignore-file
// (The samples keep the layout their guide shows: a block of the guide appears here line for line.)
// Every sample of Guides/GettingStarted.md, compiled and run as the guide shows it, and a check that the guide shows
// no other. Change one, change the other.
import CadenceTesting
import Foundation
import Testing

// MARK: Production code

final class ToastModel: ObservableObject {
    @Published private(set) var message: String?
    private let scheduler: AnySchedulerOf<DispatchQueue>
    private var hiding: AnyCancellable?

    init(scheduler: AnySchedulerOf<DispatchQueue> = DispatchQueue.main.eraseToAnyScheduler()) {
        self.scheduler = scheduler
    }

    /// Shows `text`, then hides it three seconds later; a newer message restarts the three seconds.
    func show(_ text: String) {
        message = text
        hiding = Just(())
            .delay(for: .seconds(3), scheduler: scheduler)
            .sink { [weak self] in self?.message = nil }
    }
}

@Suite("Guides/GettingStarted.md")
struct GettingStartedGuideTests {
    @Test(.virtualTime)
    func aToastHidesAfterThreeSeconds() {
        let toast = ToastModel(scheduler: DispatchQueue.test.eraseToAnyScheduler())
        toast.show("Saved")

        expect(toast.$message).toEmit("Saved").thenEmit(nil, within: .seconds(3))
    }

    @Test func aToastThatHidesTooLateFailsWithTheTimeline() {
        expectFailures(["""
            thenEmit(nil, within: .seconds(2)) failed: the value (nil) did not arrive within 2000 ticks (by tick 2000); it arrived at tick 3000, 1000 ticks late.

                expect(Published<Optional<String>>.Publisher)
              ✓   .toEmit("Saved")
              ✗   .thenEmit(nil, within: .seconds(2))

                 tick  received      expected
                    0  subscription
                    0  "Saved"       "Saved"   toEmit("Saved")
              →  2000  (nothing)     nil       thenEmit(nil, within: .seconds(2))
                 3000  nil
            """]) {
            withVirtualTime { _ in
                let toast = ToastModel(scheduler: DispatchQueue.test.eraseToAnyScheduler())
                toast.show("Saved")

                expect(toast.$message).toEmit("Saved").thenEmit(nil, within: .seconds(2))
            }
        }
    }

    @Test func theManifestSnippetNamesTheRealProducts() throws {
        let guide = try String(contentsOf: repositoryFile("Guides/GettingStarted.md"), encoding: .utf8)
        let manifest = try String(contentsOf: repositoryFile("Package.swift"), encoding: .utf8)
        let snippet = try #require(guide.components(separatedBy: "```swift manifest\n").dropFirst().first)
            .components(separatedBy: "```")[0]

        let products = Set(manifest.matches(of: /\.library\(name: "(\w+)"/).map { String($0.output.1) })
        let packageName = try #require(manifest.firstMatch(of: /name: "(\w+)"/)).output.1
        #expect(products == ["Cadence", "CadenceTesting"])

        let packages = snippet.matches(of: /\.package\(url: "([^"]+)", branch: "([^"]+)"\)/)
        #expect(packages.map { String($0.output.1) } == ["https://github.com/cadence-swift/Cadence.git"])
        #expect(packages.map { String($0.output.2) } == ["main"])
        // SwiftPM names a URL dependency after the URL's last path component, without `.git`.
        let identity = packages.first.map { URL(string: String($0.output.1))!.deletingPathExtension().lastPathComponent }
        #expect(identity == String(packageName))

        let used = snippet.matches(of: /\.product\(name: "(\w+)", package: "(\w+)"\)/)
        #expect(used.map { String($0.output.1) } == ["Cadence", "CadenceTesting"])
        for product in used {
            #expect(products.contains(String(product.output.1)))
            #expect(product.output.2 == packageName)
        }
        // Every line that names a package or a product was matched above.
        let lines = snippet.split(separator: "\n").filter { $0.contains(".package(") || $0.contains(".product(") }
        #expect(lines.count == 3)
    }

    @Test func theGuideShowsOnlyTestedCode() throws {
        try expectDocumentedSamples(in: "Guides/GettingStarted.md", appearIn: [#filePath], atLeast: 5)
    }
}

#if canImport(XCTest)
import XCTest

final class ToastModelTests: XCTestCase {
    func testASecondToastRestartsTheThreeSeconds() {
        withVirtualTime { clock in
            let toast = ToastModel(scheduler: DispatchQueue.test.eraseToAnyScheduler())
            toast.show("Saved")
            clock.advance(by: .seconds(2))
            toast.show("Sent")

            expect(toast.$message).toEmit("Sent").thenEmitNothing(for: .ticks(2999)).thenEmit(nil)
        }
    }
}
#endif
