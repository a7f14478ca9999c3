#ifndef CADENCE_RUNTIME_HOOKS_H
#define CADENCE_RUNTIME_HOOKS_H

#include <stdbool.h>
#include <stdint.h>

/// Decides where a job the Swift runtime is about to enqueue goes: returns true when it took the job (a virtual-time
/// session queued it), false to let the runtime enqueue it as it would have. `isMainActorJob` tells a job for the
/// main actor's executor from one for the global concurrent executor.
typedef bool (*CadenceJobRouter)(void *_Nonnull job, bool isMainActorJob);

/// Installs the router behind the runtime's main-executor enqueue hook, once per process (later calls do nothing), and
/// readies it for the global enqueue hook, which Cadence holds only while a session runs (see
/// `cadence_acquire_global_hook`). Hooks installed before are kept: a job the router declines goes to them, else to
/// the runtime.
///
/// Returns false when this runtime has no such hooks (nothing is installed, and no job is ever routed).
bool cadence_install_enqueue_router(CadenceJobRouter _Nonnull router);

/// Puts Cadence's global enqueue hook in place for one more holder (a session when `bySession`, else a clock made
/// outside one), chaining the hook it finds there. Returns that hook when a session asks, a session already held
/// Cadence's, and another library had replaced it meanwhile; NULL otherwise.
void *_Nullable cadence_acquire_global_hook(bool bySession);

/// One holder fewer holds the global enqueue hook: the last puts back the hook Cadence chained, if Cadence's is still
/// in place. Returns, to the last session to end, the hook found in Cadence's place if another library replaced it
/// meanwhile; NULL otherwise.
void *_Nullable cadence_release_global_hook(bool bySession);

/// Whether Cadence's global enqueue hook passes the jobs it declines to another library's hook rather than to the
/// runtime.
bool cadence_global_hook_chains_another(void);

/// The name of the symbol at `address` (a mangled Swift name, say), or NULL when the loader does not know it.
const char *_Nullable cadence_symbol_name(const void *_Nonnull address);

/// Enqueues `job` on the global concurrent executor through the runtime (and so through its hooks, which decline a job
/// of a session that has ended): how a session hands back a job it took and did not run.
void cadence_enqueue_global(void *_Nonnull job);

/// The virtual-time session whose job this thread is running right now, or NULL.
void *_Nullable cadence_thread_session(void);

/// Marks this thread as running a job of `session` (NULL: of none); returns the previous mark.
void *_Nullable cadence_set_thread_session(void *_Nullable session);

/// The identifier of the task `job` runs (every task has one, unique in the process), or 0 for a job that is not a
/// task (an actor's processing job, say) or when the runtime cannot tell.
uint64_t cadence_job_task_id(void *_Nonnull job);

/// The identifier of the task running on this thread, or 0 when none is (or when the runtime cannot tell).
uint64_t cadence_current_task_id(void);

/// The task that running `job` goes on with, asked on the thread that enqueues it: the job itself when it is a task;
/// the running task when `job` is a continuation that task enqueued for itself (what `Task.yield()` enqueues on Swift
/// 6.2 and later, to resume the task once it runs); NULL for any other job (an actor's processing job, say).
///
/// The task is not retained: it cannot finish while the job it waits for is still to run.
void *_Nullable cadence_job_resumed_task(void *_Nonnull job);

/// Cancels `task` (a task `cadence_job_resumed_task` or `cadence_retain_current_task` gave).
void cadence_cancel_task(void *_Nonnull task);

/// The running task, retained so that it stays valid after it finishes (until `cadence_release_task`); NULL outside
/// a task or on a runtime without the functions this needs.
void *_Nullable cadence_retain_current_task(void);

/// Releases a task `cadence_retain_current_task` gave.
void cadence_release_task(void *_Nonnull task);

/// An executor reference as the runtime passes it: the executor object and its witness table with kind bits.
typedef struct {
    const void *_Nullable identity;
    uintptr_t implementation;
} CadenceExecutorRef;

/// The serial executor whose job runs on this thread: a null identity when none does, or the job runs on no actor (the
/// generic executor); a zero implementation for a default actor; else a custom `SerialExecutor` (the main actor's
/// among them).
CadenceExecutorRef cadence_current_executor(void);

/// Whether `executor` is the main actor's, as the runtime answers: Cadence's own while it holds the main-executor hook,
/// else the one the runtime made (the main dispatch queue's, in a program that runs it). True when the runtime cannot
/// say.
bool cadence_is_main_executor(CadenceExecutorRef executor);

/// Runs `job` synchronously on this thread as the global concurrent executor would: on no actor (the generic
/// executor), with no task executor.
void cadence_run_job_on_generic_executor(void *_Nonnull job);

/// Whether this runtime has everything Cadence needs to identify, run and cancel a session's jobs.
bool cadence_can_run_jobs(void);

/// Whether this runtime can run a session's jobs nested inside one of its running jobs, and gives the outer job's task
/// back as the current task after each (Swift 6.2 and later, the runtime of `Task.immediate`).
bool cadence_can_run_jobs_nested(void);

/// Makes `executor` the main actor's executor for the rest of the process, through the runtime's main-executor hooks,
/// once: the runtime's own main executor (the main dispatch queue) stays the main executor too. Returns false when
/// this runtime has no such hooks (nothing is installed).
bool cadence_install_main_executor(CadenceExecutorRef executor);

/// Whether this thread is one of the threads that run sessions' jobs off the main actor.
bool cadence_is_session_thread(void);

/// Marks this thread, for the rest of its life, as one that runs sessions' jobs off the main actor.
void cadence_mark_session_thread(void);

/// Reads a word that two threads hand each other (sequentially consistent, as are the two below).
intptr_t cadence_atomic_load(const intptr_t *_Nonnull word);

/// Writes `value` into `word` if it holds `expected`; returns whether it did.
bool cadence_atomic_compare_exchange(intptr_t *_Nonnull word, intptr_t expected, intptr_t value);

/// Lets another thread run while this one spins waiting for it (`sched_yield`): on a busy machine, the one it waits for.
void cadence_spin_pause(void);

#endif
