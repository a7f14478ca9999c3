#ifndef CADENCE_RUNTIME_HOOKS_H
#define CADENCE_RUNTIME_HOOKS_H

#include <stdbool.h>

/// Decides where a job the Swift runtime is about to enqueue goes: returns true when it took the job (a virtual-time
/// session queued it), false to let the runtime enqueue it as it would have. `isMainActorJob` tells a job for the
/// main actor's executor from one for the global concurrent executor.
typedef bool (*CadenceJobRouter)(void *_Nonnull job, bool isMainActorJob);

/// Installs the router behind the runtime's global and main-executor enqueue hooks, once per process; later calls do
/// nothing. Hooks installed before are kept: a job the router declines goes to them, else to the runtime.
void cadence_install_enqueue_router(CadenceJobRouter _Nonnull router);

/// The virtual-time session whose job this thread is running right now, or NULL.
void *_Nullable cadence_thread_session(void);

/// Marks this thread as running a job of `session` (NULL: of none); returns the previous mark.
void *_Nullable cadence_set_thread_session(void *_Nullable session);

#endif
