/* record_sync: the runs of one recording side by side (record.h, BANKSCOPE_RECORD_SYNC). The command
 * starts the capture, count and time runs at once; only the capture run can tell which launch is
 * the recorded one (the first whose chosen block executes a shared-memory instruction), so the
 * other two wait at each launch that could be it until the capture run's verdict on it. They speak
 * through files of the private folder:
 *   verdicts.txt   appended by the capture run, one line per launch it examined, in launch order:
 *                  "passed INDEX HASH" or "chosen INDEX HASH" (HASH: FNV-1a 64 of the mangled name,
 *                  in hex; whole lines are written with one write, a reader takes only whole lines)
 *   capture.done   made by the command once the capture run has ended: no verdict will follow
 *   gpu.free       made by the command once the capture and count runs have ended: the time run
 *                  may take the recorded launch's duration with no other run on the GPU
 *   stop           made by the command on a signal: every wait gives up at once
 * Every wait polls each millisecond; waits run inside the program's launch call, where the
 * program's own thread is held. */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "record.h"

/* FNV-1a, 64 bits: a launch's kernel on a short line, however long its name. */
static uint64_t name_hash(const char *s)
{
    uint64_t h = 0xcbf29ce484222325ULL;
    for (const unsigned char *p = (const unsigned char *)s; *p; p++)
        h = (h ^ *p) * 0x100000001b3ULL;
    return h;
}

/* DIR/name exists. */
static bool sync_exists(const record_config *cfg, const char *name)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/%s", cfg->dir, name);
    return access(path, F_OK) == 0;
}

static void sync_nap(void)
{
    struct timespec ms = {.tv_sec = 0, .tv_nsec = 1000000};
    nanosleep(&ms, NULL);
}

void record_sync_verdict(const record_config *cfg, const char *mangled, int64_t index, bool chosen)
{
    if (!cfg->sync)
        return;
    char path[4200], line[96];
    snprintf(path, sizeof path, "%s/verdicts.txt", cfg->dir);
    int n = snprintf(line, sizeof line, "%s %lld %016" PRIx64 "\n", chosen ? "chosen" : "passed", (long long)index,
                     name_hash(mangled));
    int fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
    if (fd < 0)
        return; /* the waiting runs give up when the capture run ends */
    ssize_t w;
    while ((w = write(fd, line, (size_t)n)) < 0 && errno == EINTR)
        ;
    close(fd);
}

/* What the reading run has seen of verdicts.txt: the chosen launch once known, the launches
 * passed before it (the file is read ahead of the run's own launches). */
static struct {
    int fd;
    char part[128]; /* the start of a line not yet whole */
    size_t npart;
    bool chosen_known;
    uint64_t chosen_hash;
    int64_t chosen_index;
    struct {
        uint64_t hash;
        int64_t index;
    } * passed;
    size_t npassed, cap;
} rd = {.fd = -1};

/* One whole line of verdicts.txt. */
static void sync_line(const char *line)
{
    char word[16];
    long long index;
    uint64_t hash;
    if (sscanf(line, "%15s %lld %" SCNx64, word, &index, &hash) != 3)
        return;
    if (strcmp(word, "chosen") == 0) {
        rd.chosen_known = true;
        rd.chosen_hash = hash;
        rd.chosen_index = index;
    } else if (strcmp(word, "passed") == 0) {
        if (rd.npassed == rd.cap) {
            size_t cap = rd.cap ? 2 * rd.cap : 64;
            void *p = realloc(rd.passed, cap * sizeof *rd.passed);
            if (!p)
                return;
            rd.passed = p;
            rd.cap = cap;
        }
        rd.passed[rd.npassed].hash = hash;
        rd.passed[rd.npassed++].index = index;
    }
}

/* Read what the capture run has appended since the last call. */
static void sync_read(const record_config *cfg)
{
    if (rd.fd < 0) {
        char path[4200];
        snprintf(path, sizeof path, "%s/verdicts.txt", cfg->dir);
        rd.fd = open(path, O_RDONLY | O_CLOEXEC);
        if (rd.fd < 0)
            return;
    }
    char buf[4096];
    ssize_t got;
    while ((got = read(rd.fd, buf, sizeof buf)) > 0) {
        for (ssize_t i = 0; i < got; i++) {
            if (buf[i] == '\n') {
                rd.part[rd.npart] = '\0';
                sync_line(rd.part);
                rd.npart = 0;
            } else if (rd.npart < sizeof rd.part - 1) {
                rd.part[rd.npart++] = buf[i];
            }
        }
    }
}

bool record_sync_chosen(const record_config *cfg, const char *mangled, int64_t index)
{
    uint64_t hash = name_hash(mangled);
    for (;;) {
        bool over = sync_exists(cfg, "capture.done") || sync_exists(cfg, "stop");
        sync_read(cfg); /* after the look at capture.done: every verdict is in the file by then */
        if (rd.chosen_known)
            return rd.chosen_hash == hash && rd.chosen_index == index;
        for (size_t i = 0; i < rd.npassed; i++)
            if (rd.passed[i].hash == hash && rd.passed[i].index == index)
                return false;
        if (over)
            return false;
        sync_nap();
    }
}

bool record_sync_gpu_free(const record_config *cfg)
{
    for (;;) {
        if (sync_exists(cfg, "stop"))
            return false;
        if (sync_exists(cfg, "gpu.free"))
            return true;
        sync_nap();
    }
}
