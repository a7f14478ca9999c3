import Foundation
import Testing

@testable import CadenceTesting

private struct Hidden<Value> {}

private final class LocalClass {}

private enum Outer {
    struct Inner {}
}

@Suite("TypeName")
struct TypeNameTests {
    @Test func modulesAreDropped() {
        #expect(TypeName.describe(Int.self) == "Int")
        #expect(TypeName.describe([String: [Int]].self) == "Dictionary<String, Array<Int>>")
        #expect(TypeName.describe(Subscribers.Completion<Never>.self) == "Subscribers.Completion<Never>")
        #expect(TypeName.describe(Outer.Inner.self) == "Outer.Inner")
        #expect(TypeName.describe(Published<Int>.Publisher.self) == "Published<Int>.Publisher")
    }

    @Test func privateAndLocalScopesAreDropped() {
        struct Local {}
        #expect(TypeName.describe(Hidden<Int>.self) == "Hidden<Int>")
        #expect(TypeName.describe(Hidden<Hidden<Local>>.self) == "Hidden<Hidden<Local>>")
    }

    @Test func withoutModulesKeepsNestingAndPunctuation() {
        #expect(TypeName.withoutModules("Cadence.Publishers.Map<Swift.Int>") == "Publishers.Map<Int>")
        #expect(TypeName.withoutModules("(Swift.Int, Swift.String) -> Swift.Bool") == "(Int, String) -> Bool")
        #expect(TypeName.withoutModules("Swift.Optional<Tests.A.B>") == "Optional<A.B>")
        #expect(TypeName.withoutModules("Cadence.Published<Swift.Int>.Publisher") == "Published<Int>.Publisher")
        #expect(
            TypeName.withoutModules("Swift.Result<Swift.Int, Swift.Never>.Publisher")
                == "Result<Int, Never>.Publisher"
        )
    }

    /// On Apple platforms the runtime names a member of a Foundation or Dispatch class by the Objective-C class, in
    /// the module `__C`; messages use the Swift name.
    @Test func objectiveCNamesOfFoundationAndDispatchClassesBecomeTheirSwiftNames() {
        #expect(TypeName.withoutModules("__C.NSTimer.TimerPublisher") == "Timer.TimerPublisher")
        #expect(
            TypeName.withoutModules("(extension in Combine):__C.OS_dispatch_queue.SchedulerTimeType")
                == "DispatchQueue.SchedulerTimeType"
        )
        #expect(
            TypeName.withoutModules("Combine.Publishers.Map<__C.NSURLSession.DataTaskPublisher, Swift.Int>")
                == "Publishers.Map<URLSession.DataTaskPublisher, Int>"
        )
        #expect(
            TypeName.withoutModules("(extension in Foundation):__C.NSNotificationCenter.Publisher")
                == "NotificationCenter.Publisher"
        )
        #expect(TypeName.withoutModules("__C.NSRunLoop.SchedulerTimeType.Stride") == "RunLoop.SchedulerTimeType.Stride")
        // Only a name in `__C` is renamed, and only its first component.
        #expect(TypeName.withoutModules("App.NSTimer.Inner") == "NSTimer.Inner")
        #expect(TypeName.withoutModules("__C.MyLegacyThing.NSTimer") == "MyLegacyThing.NSTimer")
        #expect(TypeName.withoutModules("__C.NSError") == "NSError")

        #expect(TypeName.isSystem(named: "__C.NSTimer.TimerPublisher", isClass: true))
        #expect(
            TypeName.isSystem(named: "(extension in Combine):__C.OS_dispatch_queue.SchedulerTimeType", isClass: false))
        #expect(!TypeName.isSystem(named: "__C.MyLegacyThing.Inner", isClass: false))
    }

    /// The same names on Linux and on Apple platforms.
    @Test func foundationAndDispatchMembersAreNamedAsInSwift() {
        #expect(TypeName.describe(Timer.TimerPublisher.self) == "Timer.TimerPublisher")
        #expect(TypeName.describe(DispatchQueue.SchedulerTimeType.self) == "DispatchQueue.SchedulerTimeType")
        #expect(TypeName.describe(RunLoop.SchedulerTimeType.Stride.self) == "RunLoop.SchedulerTimeType.Stride")
        #expect(TypeName.isSystem(DispatchQueue.SchedulerTimeType.self))
        #expect(TypeName.isSystem(Timer.TimerPublisher.self))
    }

    @Test func withoutContextsDropsTheRuntimesNotes() {
        #expect(TypeName.withoutContexts("M.(unknown context at $1234abcd).P") == "M.P")
        #expect(TypeName.withoutContexts("M.G<M.(unknown context at $10).(unknown context at $20).L>") == "M.G<M.L>")
        #expect(TypeName.withoutContexts("M.Suite.(unknown context at $10).Local.Inner") == "M.Local.Inner")
        #expect(TypeName.withoutContexts("(extension in M):Cadence.Publishers.X") == "Cadence.Publishers.X")
        #expect(TypeName.withoutContexts("(Swift.Int, Swift.String)") == "(Swift.Int, Swift.String)")
    }

    @Test func genericArgumentsCanBeLeftOut() {
        #expect(TypeName.withoutGenericArguments(Result<Int, Never>.self) == "Result")
        #expect(TypeName.withoutGenericArguments(Subscribers.Completion<Never>.self) == "Subscribers.Completion")
        #expect(TypeName.withoutGenericArguments(Outer.self) == "Outer")
    }

    @Test func theModuleOfATypeIsItsFirstComponent() {
        #expect(TypeName.module(of: Int.self) == "Swift")
        #expect(TypeName.module(of: [Hidden<Int>].self) == "Swift")
        #expect(TypeName.module(of: Hidden<Int>.self) == "CadenceTestingTests")
        #expect(TypeName.module(of: VirtualClock.self) == "Cadence")
    }

    @Test func systemTypesAreThoseOfTheStandardLibraryFoundationAndCadence() {
        #expect(TypeName.isSystem(Duration.self))
        #expect(TypeName.isSystem(Subscribers.Demand.self))
        #expect(!TypeName.isSystem(Outer.Inner.self))
        #expect(!TypeName.isSystem(Hidden<Int>.self))
        #expect(!TypeName.isSystem(LocalClass.self))
    }
}
