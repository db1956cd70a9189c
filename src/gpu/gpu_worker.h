/* gpu_worker: a background thread that owns all GPU work for the TUI, so a slow driver start,
 * NVRTC compile or kernel run never delays a keypress. The TUI submits requests tagged with an
 * id (its edit generation) and polls for results; a result carries the id it was made for, so
 * a stale measurement is never shown for a changed scenario. Only the newest request waits. */
#ifndef BANKSCOPE_GPU_WORKER_H
#define BANKSCOPE_GPU_WORKER_H

#include <stdbool.h>

#include "gpu/gpu.h"

typedef enum gpu_worker_state { WORKER_OPENING, WORKER_READY, WORKER_NO_GPU } gpu_worker_state;

typedef struct gpu_worker_result {
    unsigned long id;
    bool ok;
    char error[300];
    gpu_measurement m;
} gpu_worker_result;

typedef struct gpu_worker gpu_worker;

/* Start the thread; it opens the GPU in the background. */
gpu_worker *gpu_worker_start(void);
/* Stop the thread (after the current run) and free everything. */
void gpu_worker_stop(gpu_worker *w);
/* Device state; *text gets the device name, or why there is none. */
gpu_worker_state gpu_worker_status(gpu_worker *w, char *text, size_t n);
/* The open device's compute capability; false while none is open. */
bool gpu_worker_cc(gpu_worker *w, int *major, int *minor);
/* Queue a request (copied, source included), replacing any request not yet started. */
void gpu_worker_submit(gpu_worker *w, const gpu_request *rq, unsigned long id);
/* True while a request is queued or running. */
bool gpu_worker_busy(gpu_worker *w);
/* Take the newest finished result, if one arrived since the last call. */
bool gpu_worker_poll(gpu_worker *w, gpu_worker_result *out);

#endif
