/* launch_time: the GPU duration of one kernel launch of the recorded program in a run without any
 * instrumentation of its code: the start and end timestamps of CUPTI's kernel activity record
 * (CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL, which keeps kernels concurrent and patches nothing).
 * Runs inside the recorded program (injection library). launch_time_start before the program's
 * first launch; launch_time_note with the correlation id of each API callback of the chosen launch
 * (the runtime's and the driver's: the activity record carries one of them); launch_time_end after
 * that launch returned. Ownership: process-wide state, one chosen launch per process. */
#ifndef BANKSCOPE_RECORD_LAUNCH_TIME_H
#define BANKSCOPE_RECORD_LAUNCH_TIME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cuda.h>

/* Registers the activity buffers and enables kernel records; false with a reason. */
bool launch_time_start(char *why, size_t n);

/* Marks a callback's correlation id as the chosen launch's. */
void launch_time_note(uint32_t correlation_id);

/* Waits for the context's work, flushes the records and gives the chosen launch's duration in
 * nanoseconds; false with a reason. */
bool launch_time_end(CUcontext ctx, uint64_t *ns, char *why, size_t n);

#endif
