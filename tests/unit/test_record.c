/* test_record: what `bankscope record` reads back after a run, without a GPU: the capture pass's
 * file (entries, truncation, the launch not chosen, a file cut short), the kernel's disassembly
 * (nvdisasm -g, cuobjdump -sass, a location inlined from the toolkit's headers), and captured
 * warp-instructions as trace entries (atomics from their SASS, ldmatrix lanes past 8 x matrices,
 * kinds the model does not cover), and the per-line book and recording built from them. The SASS lines are as nvdisasm
 * printed them on an H100. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "io/cubin.h"
#include "core/recording_capture.h"
#include "core/recording_book.h"
#include "io/trace_stream.h"

/* text into a temporary file; its path into path. */
static void write_tmp(const char *text, char *path, size_t n)
{
    snprintf(path, n, "/tmp/test_record.XXXXXX");
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    FILE *f = fdopen(fd, "w");
    fputs(text, f);
    fclose(f);
}

/* A disassembly listing's text parsed as record_sass_parse reads it (the function _Z1kPf). */
static void parse_listing(const char *text, record_sass *s)
{
    char path[64];
    write_tmp(text, path, sizeof path);
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    record_sass_parse(f, "_Z1kPf", s);
    fclose(f);
    unlink(path);
}

/* 32 addresses: stride bytes apart from base, lanes of mask; '-' for the others. */
static void lane_text(char *buf, size_t n, unsigned base, unsigned stride, uint32_t mask)
{
    size_t at = 0;
    for (int l = 0; l < 32; l++)
        at += (size_t)(mask >> l & 1 ? snprintf(buf + at, n - at, " %u", base + stride * l)
                                     : snprintf(buf + at, n - at, " -"));
}

static void test_capture(void **state)
{
    (void)state;
    char lanes[400], lanes2[400], text[2000], path[64], why[300];
    lane_text(lanes, sizeof lanes, 1024, 4, 0xffffffffu);
    lane_text(lanes2, sizeof lanes2, 1024, 128, 0x0000ffffu);
    snprintf(text, sizeof text,
             "bankscope-capture 1\ndevice 9 0 NVIDIA\\x20H100\\x2080GB\\x20HBM3\n"
             "kernel _Z1kPf k(float*)\nlaunch 2\ngrid 32 32 1\nblock_dim 32 8 1\nblock 1 0 0\n"
             "function_pc 140000 2688\ne 1 140400 4 2 0 0 ffffffff%s\ne 1 140416 4 1 0 3 0000ffff%s\n"
             "executed 5\nend\n",
             lanes, lanes2);
    write_tmp(text, path, sizeof path);
    record_capture c;
    assert_true(record_capture_read(path, &c, why, sizeof why));
    assert_int_equal(c.status, RECORD_CAPTURED);
    assert_string_equal(c.device, "NVIDIA H100 80GB HBM3");
    assert_string_equal(c.demangled, "k(float*)");
    assert_int_equal(c.launch, 2);
    assert_int_equal(c.grid[1], 32);
    assert_int_equal(c.block_dim[1], 8);
    assert_int_equal(c.block[0], 1);
    assert_int_equal(c.nentries, 2);
    assert_int_equal(c.executed, 5); /* more than kept: truncated */
    assert_int_equal(c.entries[0].pc, 400);
    assert_int_equal(c.entries[1].pc, 416);
    assert_int_equal(c.entries[1].warp, 3);
    assert_int_equal(c.entries[1].mask, 0xffff);
    assert_int_equal(c.entries[1].addr[15], 1024 + 15 * 128);
    record_capture_free(&c);
    /* cut short: no "end" */
    text[strlen(text) - 4] = '\0';
    write_tmp(text, path, sizeof path);
    assert_false(record_capture_read(path, &c, why, sizeof why));
    assert_non_null(strstr(why, "stopped before"));
    unlink(path);
    /* no launch chosen: what ran */
    write_tmp("bankscope-capture 1\nnone\noutside_launches 2 5 0 0 1 1 1\nlaunched 2 1 _Z1kPf k(float*)\n", path,
              sizeof path);
    assert_true(record_capture_read(path, &c, why, sizeof why));
    assert_int_equal(c.status, RECORD_NONE);
    assert_int_equal(c.nkernels, 1);
    assert_true(c.kernels[0].matches);
    assert_int_equal(c.kernels[0].launches, 2);
    assert_int_equal(c.outside_launches, 2);
    record_capture_free(&c);
    /* repeated kernel, device and error lines: the last counts, nothing leaks (ASan) */
    write_tmp("bankscope-capture 1\ndevice 9 0 A\ndevice 9 0 B\nkernel _Z1aPf a(float*)\nkernel _Z1kPf "
              "k(float*)\nerror one\nerror two\n",
              path, sizeof path);
    assert_true(record_capture_read(path, &c, why, sizeof why));
    unlink(path);
    assert_string_equal(c.device, "B");
    assert_string_equal(c.mangled, "_Z1kPf");
    assert_string_equal(c.error, "two");
    record_capture_free(&c);
    /* a number that is not one: the line is refused (no uninitialised value read) */
    write_tmp("bankscope-capture 1\nlaunch x\nend\n", path, sizeof path);
    assert_false(record_capture_read(path, &c, why, sizeof why));
    assert_non_null(strstr(why, ":2: not a capture file"));
    unlink(path);
    /* not a capture file */
    write_tmp("hello\n", path, sizeof path);
    assert_false(record_capture_read(path, &c, why, sizeof why));
    unlink(path);
}

/* text into the file at path. */
static void write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

/* The capture pass's binary entries: capture.txt says "entries N", entries.bin beside it holds N
 * record_entry as record_dev.h lays them out (inactive lanes unset: read back as 0); a file of
 * another size (checked before allocating, whatever N says), or an "e" line after the entries
 * file, is refused. */
static void test_entries_file(void **state)
{
    (void)state;
    char dir[] = "/tmp/test_record_entries.XXXXXX", path[128], bin[128], why[300];
    assert_non_null(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/capture.txt", dir);
    snprintf(bin, sizeof bin, "%s/entries.bin", dir);
    record_entry e[2];
    memset(e, 0xab, sizeof e); /* what the device left in unwritten lanes */
    for (int i = 0; i < 2; i++) {
        e[i].pc = 140400 + 16 * (uint64_t)i;
        e[i].kind = RECORD_KIND_SHARED;
        e[i].size = 4;
        e[i].flags = 1;
        e[i].count = 0;
        e[i].warp = (uint32_t)i;
        e[i].mask = i ? 0x0000ffffu : 0xffffffffu;
        for (int l = 0; l < 32; l++)
            if (e[i].mask >> l & 1)
                e[i].addr[l] = 4u * (uint32_t)l;
    }
    FILE *f = fopen(bin, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(e, sizeof *e, 2, f), 2);
    fclose(f);
    const char *head = "bankscope-capture 1\nkernel _Z1kPf k(float*)\nlaunch 0\ngrid 2 1 1\nblock_dim 32 2 1\n"
                       "block 0 0 0\nfunction_pc 140000 2688\n";
    char text[1000], lanes[100] = "";
    snprintf(text, sizeof text, "%sentries 2\nexecuted 2\nend\n", head);
    write_text(path, text);
    record_capture c;
    assert_true(record_capture_read(path, &c, why, sizeof why));
    assert_int_equal(c.nentries, 2);
    assert_int_equal(c.entries[0].pc, 400);
    assert_int_equal(c.entries[1].pc, 416);
    assert_int_equal(c.entries[1].warp, 1);
    assert_int_equal(c.entries[0].addr[31], 124);
    assert_int_equal(c.entries[1].addr[15], 60);
    assert_int_equal(c.entries[1].addr[16], 0); /* inactive: zeroed */
    record_capture_free(&c);
    /* an "e" line after the entries file */
    for (int l = 1; l < 32; l++)
        strcat(lanes, " -");
    snprintf(text, sizeof text, "%sentries 2\ne 1 140400 4 1 0 0 00000001 0%s\nexecuted 2\nend\n", head, lanes);
    write_text(path, text);
    assert_false(record_capture_read(path, &c, why, sizeof why));
    /* more entries named than the file holds, and a count far beyond memory: the file's size
     * is what refuses them, with the entries file named */
    static const char *const counts[] = {"3", "4000000000", "-1"};
    for (size_t i = 0; i < sizeof counts / sizeof *counts; i++) {
        snprintf(text, sizeof text, "%sentries %s\nexecuted 3\nend\n", head, counts[i]);
        write_text(path, text);
        assert_false(record_capture_read(path, &c, why, sizeof why));
        assert_non_null(strstr(why, "entries.bin"));
    }
    unlink(path);
    unlink(bin);
    rmdir(dir);
}

/* cubin_symbol_index on an ELF64 file (this test's own executable, which keeps its symbol
 * table): a defined function has an index, a name that is not there none, a file that is not
 * ELF none. */
static void test_cubin_symbol(void **state)
{
    (void)state;
    assert_true(cubin_symbol_index("/proc/self/exe", "main") > 0);
    assert_int_equal(cubin_symbol_index("/proc/self/exe", "no_such_symbol_here"), -1);
    char path[64];
    write_tmp("\x7f"
              "ELF but short",
              path, sizeof path);
    assert_int_equal(cubin_symbol_index(path, "main"), -1);
    unlink(path);
    assert_int_equal(cubin_symbol_index("/nonexistent/module.cubin", "main"), -1);
    /* an ELF header whose section table starts at an odd offset: read without misaligned loads
     * (UBSan in CI), and nothing found */
    unsigned char img[512];
    memset(img, 0, sizeof img);
    memcpy(img,
           "\x7f"
           "ELF\x02\x01\x01",
           7);
    uint64_t shoff = 65;
    uint16_t shentsize = 64, shnum = 2;
    memcpy(img + 0x28, &shoff, sizeof shoff);
    memcpy(img + 0x3a, &shentsize, sizeof shentsize);
    memcpy(img + 0x3c, &shnum, sizeof shnum);
    snprintf(path, sizeof path, "/tmp/test_record_elf.XXXXXX");
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, img, sizeof img), (ssize_t)sizeof img);
    close(fd);
    assert_int_equal(cubin_symbol_index(path, "main"), -1);
    unlink(path);
}

/* error.txt as the recording library writes it (an unknown pass; a --kernel pattern that does
 * not compile, its word escaped): the command reads the reason back, and none without the file. */
static void test_error_file(void **state)
{
    (void)state;
    char dir[] = "/tmp/test_record_err.XXXXXX", path[64], why[256];
    assert_non_null(mkdtemp(dir));
    assert_false(record_error_read(dir, why, sizeof why));
    snprintf(path, sizeof path, "%s/error.txt", dir);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs("error a --kernel pattern that does not compile: a\\x20(\n", f);
    fclose(f);
    assert_true(record_error_read(dir, why, sizeof why));
    assert_string_equal(why, "a --kernel pattern that does not compile: a (");
    f = fopen(path, "w");
    fclose(f);
    assert_true(record_error_read(dir, why, sizeof why));
    assert_string_equal(why, "it wrote error.txt without a reason");
    unlink(path);
    rmdir(dir);
}

static void test_sass(void **state)
{
    (void)state;
    /* nvdisasm -g -c: two functions, the second one's lines from a toolkit header */
    record_sass s;
    parse_listing("\t.text._Z5otherv:\n        /*0000*/                   LDS R1, [R2] ;\n"
                  ".text._Z1kPf:\n"
                  "\t//## File \"/src/k.cu\", line 12\n"
                  "        /*0190*/                   STS [R18+0x420], R7 ;\n"
                  "\t//## File \"/usr/local/cuda/include/crt/device_atomic_functions.hpp\", line 107\n"
                  "        /*0240*/              @P0  ATOMS.POPC.INC.32 RZ, [R2+URZ] ;\n",
                  &s);
    assert_int_equal(s.n, 2);
    assert_true(s.has_lines);
    const record_sass_line *l = record_sass_find(&s, 0x190);
    assert_non_null(l);
    assert_string_equal(l->text, "STS [R18+0x420], R7");
    assert_string_equal(l->file, "/src/k.cu");
    assert_int_equal(l->line, 12);
    assert_null(record_sass_find(&s, 0));
    assert_true(record_sass_in_toolkit(&s));
    /* nvdisasm -gi: the last annotation before the atomic is the line that calls it */
    record_sass outer;
    parse_listing(".text._Z1kPf:\n"
                  "\t//## File \"/usr/local/cuda/include/crt/device_atomic_functions.hpp\", line 107\n"
                  "\t//## File \"/src/k.cu\", line 15\n"
                  "        /*0240*/              @P0  ATOMS.POPC.INC.32 RZ, [R2+URZ] ;\n",
                  &outer);
    record_sass_inline(&s, &outer);
    l = record_sass_find(&s, 0x240);
    assert_string_equal(l->file, "/src/k.cu");
    assert_int_equal(l->line, 15);
    assert_false(record_sass_in_toolkit(&s));
    assert_int_equal(l->nchain, 2);
    assert_string_equal(l->chain[0].file, "/usr/local/cuda/include/crt/device_atomic_functions.hpp");
    assert_int_equal(l->chain[1].line, 15);
    record_sass_free(&outer);
    record_sass_free(&s);
    /* nvdisasm -gi of a CuTe-style kernel (tests/gpu/modern/tile_gemm.cu, H200, CUDA 13.0): each
     * instruction takes the chain annotated before it (innermost first) and stays on it until the
     * next annotations; its line is the kernel's own */
    parse_listing(".text._Z1kPf:\n"
                  "\t//## File \"/m/tile_gemm.cu\", line 21\n"
                  "        /*00a0*/                   VIADD R4, R0.reuse, 0x80 ;\n"
                  "\t//## File \"/m/tile_style.hpp\", line 39 inlined at \"/m/tile_style.hpp\", line 43\n"
                  "\t//## File \"/m/tile_style.hpp\", line 43 inlined at \"/m/tile_gemm.cu\", line 25\n"
                  "\t//## File \"/m/tile_gemm.cu\", line 25\n"
                  "        /*0300*/                   LDSM.16.M88.4 R4, [R4] ;\n"
                  "\t//## File \"/m/tile_style.hpp\", line 27 inlined at \"/m/tile_gemm.cu\", line 21\n"
                  "\t//## File \"/m/tile_gemm.cu\", line 21\n"
                  "        /*0320*/                   IMAD.X R7, RZ, RZ, R3, P0 ;\n"
                  "        /*0330*/                   LDGSTS.E.BYPASS.128 [R13], desc[UR10][R2.64] ;\n",
                  &s);
    l = record_sass_find(&s, 0x300);
    assert_int_equal(l->nchain, 3);
    assert_string_equal(l->chain[0].file, "/m/tile_style.hpp");
    assert_int_equal(l->chain[0].line, 39);
    assert_int_equal(l->chain[1].line, 43);
    assert_string_equal(l->file, "/m/tile_gemm.cu");
    assert_int_equal(l->line, 25);
    l = record_sass_find(&s, 0x330); /* no annotation of its own: the chain before it */
    assert_int_equal(l->nchain, 2);
    assert_int_equal(l->chain[0].line, 27);
    assert_int_equal(l->line, 21);
    l = record_sass_find(&s, 0xa0);
    assert_int_equal(l->nchain, 1);
    assert_int_equal(l->line, 21);
    record_sass_free(&s);
    /* a helper function of the kernel's own file (tests/gpu/record/transpose.cu: the loads of
     * transpose<PAD>() on lines 16 and 22, called from the one-line kernel on line 26) keeps its
     * line; a header inlined into it goes to that helper's line */
    parse_listing(".text._Z1kPf:\n"
                  "\t//## File \"/t/transpose.cu\", line 16 inlined at \"/t/transpose.cu\", line 26\n"
                  "\t//## File \"/t/transpose.cu\", line 26\n"
                  "        /*0100*/                   STS [R5], R2 ;\n"
                  "\t//## File \"/t/h.hpp\", line 9 inlined at \"/t/transpose.cu\", line 22\n"
                  "\t//## File \"/t/transpose.cu\", line 22 inlined at \"/t/transpose.cu\", line 26\n"
                  "\t//## File \"/t/transpose.cu\", line 26\n"
                  "        /*0200*/                   LDS R7, [R4] ;\n",
                  &s);
    l = record_sass_find(&s, 0x100);
    assert_string_equal(l->file, "/t/transpose.cu");
    assert_int_equal(l->line, 16);
    l = record_sass_find(&s, 0x200);
    assert_int_equal(l->nchain, 3);
    assert_int_equal(l->line, 22);
    record_sass_free(&s);
    /* cuobjdump -sass: no line info */
    parse_listing(
        "\t\tFunction : _Z1kPf\n        /*0460*/                   LDS R15, [R18] ;   /* 0x00000000120f7984 */\n", &s);
    assert_int_equal(s.n, 1);
    assert_false(s.has_lines);
    assert_string_equal(s.lines[0].text, "LDS R15, [R18]");
    record_sass_free(&s);
}

static void test_requests(void **state)
{
    (void)state;
    record_entry e = {.kind = RECORD_KIND_SHARED, .size = 4, .flags = 3, .mask = 0xffffffffu};
    for (int l = 0; l < 32; l++)
        e.addr[l] = (uint32_t)(4 * l);
    banks_request r;
    /* atomics from their SASS: the operation, and red (RZ) or atom */
    assert_null(record_entry_request(&e, "@P0 ATOMS.POPC.INC.32 RZ, [R2+URZ]", &r));
    assert_int_equal(r.op, BANKS_ATOMIC_POPC); /* atomicAdd(p, 1), result unused: lanes on a word merge */
    assert_false(r.returns);
    assert_null(record_entry_request(&e, "ATOMS.CAS R2, [R8], R2, R3", &r));
    assert_int_equal(r.op, BANKS_ATOMIC);
    assert_int_equal(r.atomic, BANKS_ATOM_CAS);
    assert_true(r.returns);
    assert_null(record_entry_request(&e, "ATOMS.MAX.S32 RZ, [R2], R3", &r));
    assert_int_equal(r.atomic, BANKS_ATOM_MAX);
    assert_non_null(
        strstr(record_entry_request(&e, "ATOMS.CAST.SPIN.64 P0, [R2], R4, R6", &r), "compare-and-swap loop"));
    assert_non_null(record_entry_request(&e, NULL, &r)); /* no SASS: the operation is unknown */
    /* loads and stores from the flags */
    e.flags = 1;
    assert_null(record_entry_request(&e, NULL, &r));
    assert_int_equal(r.op, BANKS_LOAD);
    e.flags = 2;
    assert_null(record_entry_request(&e, "STS [R18], R3", &r));
    assert_int_equal(r.op, BANKS_STORE);
    /* ldmatrix.x1: the lanes past 8 give no row (the hardware ignores them) */
    e = (record_entry){.kind = RECORD_KIND_MATRIX, .size = 16, .flags = 1, .count = 1, .mask = 0xffffffffu};
    assert_null(record_entry_request(&e, "LDSM.16.M88 R4, [R5]", &r));
    assert_int_equal(r.op, BANKS_LDMATRIX);
    assert_int_equal(r.matrices, 1);
    assert_int_equal(r.active, 0xff);
    assert_false(r.trans);
    e.count = 2;
    assert_null(record_entry_request(&e, "LDSM.16.MT88.2 R4, [R5]", &r));
    assert_true(r.trans);
    assert_int_equal(r.active, 0xffff);
    e.flags = 2;
    e.count = 4;
    assert_null(record_entry_request(&e, "STSM.16.M88.4 [R5], R4", &r));
    assert_int_equal(r.op, BANKS_STMATRIX);
    assert_int_equal(r.active, 0xffffffffu);
    /* cp.async, and what the model does not cover */
    e = (record_entry){.kind = RECORD_KIND_ASYNC, .size = 16, .flags = 2, .mask = 1};
    assert_null(record_entry_request(&e, NULL, &r));
    assert_int_equal(r.op, BANKS_CP_ASYNC);
    assert_null(record_entry_request(&e, "LDGSTS.E [R13], desc[UR6][R8.64]", &r));
    assert_int_equal(r.op, BANKS_CP_ASYNC);
    assert_null(record_entry_request(&e, "@P0 LDGSTS.E.BYPASS.128 [R13], desc[UR6][R8.64]", &r));
    assert_int_equal(r.op, BANKS_CP_ASYNC_CG); /* cp.async.cg: the trace names it, not modelled */
    e.kind = RECORD_KIND_REMOTE;
    assert_non_null(record_entry_request(&e, NULL, &r));
}

/* A capture of two instructions of one warp (a row store, then a column load of a 32x32 float
 * tile: 32-way), a third at a PC of the remote kind and a cp.async.cg (LDGSTS.E.BYPASS, kept in
 * the trace as "cache": "cg", not modelled), through the book and the JSON. */
static void test_book(void **state)
{
    (void)state;
    record_entry e[4] = {
        {.pc = 0x190, .kind = RECORD_KIND_SHARED, .size = 4, .flags = 2, .mask = 0xffffffffu},
        {.pc = 0x460, .kind = RECORD_KIND_SHARED, .size = 4, .flags = 1, .mask = 0xffffffffu},
        {.pc = 0x500, .kind = RECORD_KIND_REMOTE, .size = 4, .flags = 1, .mask = 1},
        {.pc = 0x480, .kind = RECORD_KIND_ASYNC, .size = 16, .flags = 2, .mask = 0xff},
    };
    for (int l = 0; l < 8; l++)
        e[3].addr[l] = (uint32_t)(16 * l);
    for (int l = 0; l < 32; l++) {
        e[0].addr[l] = (uint32_t)(4 * l);
        e[1].addr[l] = (uint32_t)(128 * l);
    }
    record_capture c = {.status = RECORD_CAPTURED,
                        .device = "NVIDIA H100 80GB HBM3",
                        .cc_major = 9,
                        .mangled = "_Z1kPf",
                        .demangled = "k(float*)",
                        .grid = {32, 32, 1},
                        .block_dim = {32, 8, 1},
                        .entries = e,
                        .nentries = 4,
                        .executed = 5,
                        .complete = true};
    record_sass s;
    parse_listing(".text._Z1kPf:\n\t//## File \"/nowhere/k.cu\", line 16\n"
                  "        /*0190*/                   STS [R18], R3 ;\n"
                  "\t//## File \"/nowhere/k.cu\", line 22\n"
                  "        /*0460*/                   LDS R15, [R18] ;\n"
                  "        /*0480*/                   LDGSTS.E.BYPASS.128 [R13], desc[UR6][R8.64] ;\n"
                  "        /*0500*/                   LD R1, [R2] ;\n"
                  "        /*0600*/                   UBLKCP.S.G [UR4], [UR6], UR8 ;\n",
                  &s);
    record_book b;
    char why[200];
    assert_true(record_book_build(&b, &c, &s, why, sizeof why));
    assert_string_equal(b.arch, "sm_90");
    assert_int_equal(b.nlines, 2);
    assert_int_equal(b.ntrace, 3); /* the remote access is not a trace entry, cp.async.cg is */
    assert_int_equal(b.lines[0].line, 16);
    assert_int_equal(b.lines[0].wavefronts, 1);
    assert_int_equal(b.lines[1].line, 22);
    assert_int_equal(b.lines[1].wavefronts, 32);
    assert_int_equal(b.lines[1].ideal_wavefronts, 1);
    assert_int_equal(b.lines[1].degree, 32);
    assert_int_equal(b.lines[1].unmodelled, 2);
    assert_int_equal(b.lines[1].ninstr, 2); /* the load and cp.async.cg */
    assert_int_equal(b.ninvisible, 1);
    bool measured_only = false; /* the TMA copy: a PC of its own on its line, measured only */
    for (int k = 0; k < b.npcs; k++)
        if (b.pcs[k].pc == 0x600)
            measured_only = b.pcs[k].measured_only && b.pcs[k].executions == 0;
    assert_true(measured_only);
    char *buf = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&buf, &len);
    bool ok;
    const char *w;
    const char *argv[] = {"./k", "--n", "3"};
    record_book_json(&b, NULL, argv, 3, out, &ok, &w); /* NULL: nothing measured */
    fclose(out);
    assert_true(ok);
    assert_non_null(strstr(buf, "\"format\": \"bankscope-record/1\""));
    assert_non_null(strstr(buf, "\"executions\": 0, \"measured_only\": true"));
    assert_non_null(strstr(buf, "\"truncated\": true"));
    assert_non_null(strstr(buf, "; 4 of 5 warp-instructions captured (truncated)\""));
    assert_non_null(strstr(buf, "\"conflict_degree\": 32"));
    assert_non_null(strstr(buf, "\"source\": \"/nowhere/k.cu:22\""));
    assert_non_null(strstr(buf, "\"sass\": \"UBLKCP.S.G [UR4], [UR6], UR8\""));
    assert_non_null(strstr(buf, "\"op\": \"cp.async\", \"cache\": \"cg\", \"width\": 16"));
    assert_non_null(strstr(buf, "\"not_modelled\": \"cp.async.cg bypasses L1"));
    free(buf);
    FILE *null = fopen("/dev/null", "w");
    record_book_print(&b, null);
    fclose(null);
    record_book_free(&b);
    record_sass_free(&s);
}

/* The texts of a recording's lines are read from the files the line info names without ever
 * waiting (a FIFO there gives no text, at once) and a line longer than the readers accept is cut
 * with an ellipsis. */
static void test_book_texts(void **state)
{
    (void)state;
    record_entry e[2] = {
        {.pc = 0x190, .kind = RECORD_KIND_SHARED, .size = 4, .flags = 2, .mask = 0xffffffffu},
        {.pc = 0x460, .kind = RECORD_KIND_SHARED, .size = 4, .flags = 1, .mask = 0xffffffffu},
    };
    for (int l = 0; l < 32; l++)
        e[0].addr[l] = e[1].addr[l] = (uint32_t)(4 * l);
    record_capture c = {.status = RECORD_CAPTURED,
                        .device = "NVIDIA H100 80GB HBM3",
                        .cc_major = 9,
                        .mangled = "_Z1kPf",
                        .demangled = "k(float*)",
                        .grid = {1, 1, 1},
                        .block_dim = {32, 1, 1},
                        .entries = e,
                        .nentries = 2,
                        .executed = 2,
                        .complete = true};
    char dir[] = "/tmp/bankscope-test-texts.XXXXXX", fifo[128], src[128], listing[1024];
    assert_non_null(mkdtemp(dir));
    snprintf(fifo, sizeof fifo, "%s/pipe.cu", dir);
    snprintf(src, sizeof src, "%s/k.cu", dir);
    assert_int_equal(mkfifo(fifo, 0600), 0);
    FILE *f = fopen(src, "w");
    assert_non_null(f);
    fputs("line one\r\n", f);
    for (size_t k = 0; k < TRACE_MAX_STRING + 100; k++)
        fputc('x', f);
    fputs("\nline three\n", f);
    fclose(f);
    snprintf(listing, sizeof listing,
             ".text._Z1kPf:\n\t//## File \"%s\", line 1\n        /*0190*/                   STS [R18], R3 ;\n"
             "\t//## File \"%s\", line 2\n        /*0460*/                   LDS R15, [R18] ;\n",
             fifo, src);
    record_sass s;
    parse_listing(listing, &s);
    record_book b;
    char why[200];
    assert_true(record_book_build(&b, &c, &s, why, sizeof why));
    assert_int_equal(b.nlines, 2);
    int p = strcmp(b.lines[0].file, fifo) == 0 ? 0 : 1; /* the lines are in file order */
    assert_string_equal(b.lines[p].file, fifo);
    assert_null(b.lines[p].text); /* the FIFO: not read, not waited on */
    assert_non_null(b.lines[1 - p].text);
    size_t len = strlen(b.lines[1 - p].text);
    assert_true(len <= TRACE_MAX_STRING && len > TRACE_MAX_STRING - 8);
    assert_string_equal(b.lines[1 - p].text + len - 3, "\xe2\x80\xa6");
    record_book_free(&b);
    record_sass_free(&s);
    unlink(fifo);
    unlink(src);
    rmdir(dir);
}

/* A source line longer than the readers accept of a string is cut when recorded, on a character
 * boundary, and says so with an ellipsis; a line that fits is kept as it is. */
static void test_cut_text(void **state)
{
    (void)state;
    char *same = record_cut_text("int x = tile[ty][tx];");
    assert_string_equal(same, "int x = tile[ty][tx];");
    free(same);
    size_t n = 3 * TRACE_MAX_STRING; /* "é" (2 bytes) repeated: a cut may fall inside one */
    char *line = malloc(n + 1);
    for (size_t i = 0; i + 1 < n; i += 2)
        memcpy(line + i, "\xc3\xa9", 2);
    line[n - (n % 2)] = '\0';
    char *cut = record_cut_text(line);
    size_t len = strlen(cut);
    assert_true(len <= TRACE_MAX_STRING);
    assert_true(len > TRACE_MAX_STRING - 8);
    assert_memory_equal(cut + len - 3, "\xe2\x80\xa6", 3); /* ends with U+2026 */
    assert_memory_equal(cut + len - 5, "\xc3\xa9", 2);     /* after a whole character */
    free(cut);
    free(line);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_capture), cmocka_unit_test(test_entries_file), cmocka_unit_test(test_cubin_symbol),
        cmocka_unit_test(test_sass),    cmocka_unit_test(test_error_file),   cmocka_unit_test(test_requests),
        cmocka_unit_test(test_book),    cmocka_unit_test(test_cut_text),     cmocka_unit_test(test_book_texts)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
