import Cadence

/// The names of the lanes of one run's choices, for a report: a task by its name, else by where it first slept, else
/// by the order it first appears in the run's choices; a test scheduler by the order the run made those of its kind.
struct LaneNames {
    private var tasks: [UInt64: Int] = [:]
    private let taskNames: [UInt64: String]
    private let schedulerNames: [UInt32: String]

    init(log: [ScheduleChoice], chooser: ScheduleChooser) {
        taskNames = chooser.taskNames
        schedulerNames = chooser.schedulerNames
        for choice in log {
            for lane in choice.candidates {
                switch lane {
                case .wakeUp(let task), .task(let task):
                    if taskNames[task] == nil, tasks[task] == nil { tasks[task] = tasks.count + 1 }
                default:
                    break
                }
            }
        }
    }

    func name(_ lane: ScheduleLane) -> String {
        switch lane {
        case .clock:
            "an action scheduled on the clock itself"
        case .scheduler(let number):
            "the action of \(schedulerNames[number] ?? "test scheduler \(number)")"
        case .wakeUp(let task):
            "the wake-up of \(taskName(task))"
        case .task(let task):
            taskName(task)
        case .mainActor:
            "the main actor's next job"
        case .job:
            "an actor's job"
        }
    }

    private func taskName(_ task: UInt64) -> String {
        taskNames[task] ?? "task \(tasks[task] ?? 0)"
    }
}
