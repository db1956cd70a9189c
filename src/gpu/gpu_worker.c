/* gpu_worker: one thread, a one-slot queue (newest request wins), a one-slot result box. */
#include "gpu/gpu_worker.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct gpu_worker {
    pthread_t thread;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    bool quit;
    gpu_worker_state state;
    char status[300];
    int cc_major, cc_minor; /* the device's compute capability, once open (0.0 before) */
    bool pending, running;
    gpu_request rq;
    char *source;      /* owned copy of rq.source */
    long long *expect; /* owned copy of rq.expect (the submitter frees its own at once) */
    unsigned long id;
    bool has_result;
    gpu_worker_result result;
};

/* The worker thread: opens the GPU once, then runs each request handed to it and keeps the
 * result for the caller to collect, so that the caller never waits on the GPU. */
static void *worker_main(void *arg)
{
    gpu_worker *w = arg;
    gpu_device dev;
    char why[300];
    bool ok = gpu_open(&dev, why, sizeof why);
    pthread_mutex_lock(&w->mu);
    w->state = ok ? WORKER_READY : WORKER_NO_GPU;
    if (ok) {
        snprintf(w->status, sizeof w->status, "%s", dev.name);
        w->cc_major = dev.cc_major;
        w->cc_minor = dev.cc_minor;
    } else
        snprintf(w->status, sizeof w->status, "%.200s", why);
    for (;;) {
        while (!w->quit && !w->pending)
            pthread_cond_wait(&w->cv, &w->mu);
        if (w->quit)
            break;
        gpu_request rq = w->rq;
        char *src = w->source;
        long long *expect = w->expect;
        unsigned long id = w->id;
        w->source = NULL;
        w->expect = NULL;
        w->pending = false;
        w->running = true;
        pthread_mutex_unlock(&w->mu);

        gpu_worker_result r = {.id = id};
        rq.source = src;
        rq.expect = expect;
        if (ok)
            r.ok = gpu_measure(&rq, &r.m, r.error, sizeof r.error);
        else
            snprintf(r.error, sizeof r.error, "%s", why);
        free(src);
        free(expect);

        pthread_mutex_lock(&w->mu);
        w->running = false;
        w->result = r;
        w->has_result = true;
    }
    pthread_mutex_unlock(&w->mu);
    if (ok)
        gpu_close();
    return NULL;
}

gpu_worker *gpu_worker_start(void)
{
    gpu_worker *w = xcalloc(1, sizeof *w);
    pthread_mutex_init(&w->mu, NULL);
    pthread_cond_init(&w->cv, NULL);
    w->state = WORKER_OPENING;
    snprintf(w->status, sizeof w->status, "opening the GPU...");
    if (pthread_create(&w->thread, NULL, worker_main, w) != 0) {
        w->state = WORKER_NO_GPU;
        snprintf(w->status, sizeof w->status, "no GPU: could not start the worker thread");
        w->quit = true;
    }
    return w;
}

void gpu_worker_stop(gpu_worker *w)
{
    if (!w)
        return;
    pthread_mutex_lock(&w->mu);
    bool started = !w->quit;
    w->quit = true;
    pthread_cond_signal(&w->cv);
    pthread_mutex_unlock(&w->mu);
    if (started)
        pthread_join(w->thread, NULL);
    free(w->source);
    free(w->expect);
    pthread_mutex_destroy(&w->mu);
    pthread_cond_destroy(&w->cv);
    free(w);
}

bool gpu_worker_cc(gpu_worker *w, int *major, int *minor)
{
    pthread_mutex_lock(&w->mu);
    bool ready = w->state == WORKER_READY;
    *major = w->cc_major;
    *minor = w->cc_minor;
    pthread_mutex_unlock(&w->mu);
    return ready;
}

gpu_worker_state gpu_worker_status(gpu_worker *w, char *text, size_t n)
{
    pthread_mutex_lock(&w->mu);
    gpu_worker_state s = w->state;
    snprintf(text, n, "%s", w->status);
    pthread_mutex_unlock(&w->mu);
    return s;
}

void gpu_worker_submit(gpu_worker *w, const gpu_request *rq, unsigned long id)
{
    pthread_mutex_lock(&w->mu);
    free(w->source);
    free(w->expect);
    w->rq = *rq;
    w->source = xstrdup(rq->source);
    w->rq.source = NULL;
    w->expect = NULL;
    if (rq->expect && rq->nexpect > 0) {
        size_t n = (size_t)rq->nexpect;
        w->expect = xmalloc(n * sizeof *w->expect);
        memcpy(w->expect, rq->expect, n * sizeof *w->expect);
    }
    w->rq.expect = NULL;
    w->id = id;
    w->pending = true;
    pthread_cond_signal(&w->cv);
    pthread_mutex_unlock(&w->mu);
}

bool gpu_worker_busy(gpu_worker *w)
{
    pthread_mutex_lock(&w->mu);
    bool b = w->pending || w->running || w->state == WORKER_OPENING;
    pthread_mutex_unlock(&w->mu);
    return b;
}

bool gpu_worker_poll(gpu_worker *w, gpu_worker_result *out)
{
    pthread_mutex_lock(&w->mu);
    bool got = w->has_result;
    if (got) {
        *out = w->result;
        w->has_result = false;
    }
    pthread_mutex_unlock(&w->mu);
    return got;
}
