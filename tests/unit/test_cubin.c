/* test_cubin: a kernel's static shared variables from a cubin (tests/data/cubin, built by nvcc
 * from shared_vars.cu as its first lines say): names, offsets and sizes where the symbols are kept
 * (-G), the section alone where they are stripped (-lineinfo), and files that are not cubins. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <unistd.h>

#include "io/cubin.h"
#include "util.h"
#include "test_util.h"

static void test_named(void **state)
{
    (void)state;
    char p[512];
    cubin_shared s;
    assert_true(
        cubin_shared_read(test_path("data/cubin/shared-vars-G.cubin", p, sizeof p), "_Z11tile_kernelILi1EEvPf", &s));
    assert_true(s.found);
    assert_int_equal(s.reserved, 1024);
    assert_int_equal(s.section_bytes, 0x1880);
    assert_int_equal(s.nvars, 3);
    assert_string_equal(s.vars[0].name, "partial");
    assert_int_equal(s.vars[0].offset, 1024);
    assert_int_equal(s.vars[0].bytes, 512);
    assert_string_equal(s.vars[1].name, "g_s");
    assert_int_equal(s.vars[1].offset, 1536);
    assert_string_equal(s.vars[2].name, "tile");
    assert_string_equal(s.vars[2].symbol, "_ZZ11tile_kernelILi1EEvPfE4tile");
    assert_int_equal(s.vars[2].offset, 2048);
    assert_int_equal(s.vars[2].bytes, 32 * 33 * 4);
    cubin_shared_free(&s);
    /* the dynamic-only kernel: its section holds the reserved bytes alone */
    assert_true(cubin_shared_read(p, "_Z10dyn_kernelPf", &s));
    assert_true(s.found);
    assert_int_equal(s.section_bytes, 1024);
    assert_int_equal(s.nvars, 0);
    cubin_shared_free(&s);
}

static void test_stripped(void **state)
{
    (void)state;
    char p[512];
    cubin_shared s;
    assert_true(cubin_shared_read(test_path("data/cubin/shared-vars-lineinfo.cubin", p, sizeof p),
                                  "_Z11tile_kernelILi1EEvPf", &s));
    assert_true(s.found);
    assert_int_equal(s.nvars, 0);
    assert_int_equal(s.reserved, 1024);
    assert_int_equal(s.section_bytes - s.reserved, 512 + 512 + 32 * 33 * 4);
    cubin_shared_free(&s);
    assert_true(cubin_shared_read(p, "no_such_kernel", &s));
    assert_false(s.found);
    cubin_shared_free(&s);
    /* a name of 20 KB (CuTe kernels' run that long) is compared whole */
    char *longname = xmalloc(20001);
    memset(longname, 'k', 20000);
    longname[20000] = '\0';
    assert_true(cubin_shared_read(p, longname, &s));
    assert_false(s.found);
    cubin_shared_free(&s);
    free(longname);
}

static void test_not_cubins(void **state)
{
    (void)state;
    char p[512], tmp[] = "/tmp/bankscope-cubin-XXXXXX";
    cubin_shared s;
    assert_false(cubin_shared_read("/nonexistent/x.cubin", "k", &s));
    assert_false(cubin_shared_read(test_path("data/cubin/shared_vars.cu", p, sizeof p), "k", &s));
    /* the real cubin cut short at every 97th length: never a crash, never a variable past the end */
    FILE *f = fopen(test_path("data/cubin/shared-vars-G.cubin", p, sizeof p), "rb");
    assert_non_null(f);
    static unsigned char buf[65536];
    size_t len = fread(buf, 1, sizeof buf, f);
    fclose(f);
    int fd = mkstemp(tmp);
    assert_true(fd >= 0);
    close(fd);
    for (size_t cut = 0; cut < len; cut += 97) {
        FILE *o = fopen(tmp, "wb");
        fwrite(buf, 1, cut, o);
        fclose(o);
        cubin_shared_read(tmp, "_Z11tile_kernelILi1EEvPf", &s);
        cubin_shared_free(&s);
    }
    unlink(tmp);
}

static void test_short_name(void **state)
{
    (void)state;
    char b[64];
    cubin_short_name("_ZZ9transposeILi0EEvPfPKfE4tile", b, sizeof b);
    assert_string_equal(b, "tile");
    cubin_short_name("_ZN2ns3bufE", b, sizeof b);
    assert_string_equal(b, "buf");
    cubin_short_name("g_s", b, sizeof b);
    assert_string_equal(b, "g_s");
    cubin_short_name("_ZZ1fvE999999x", b, sizeof b); /* a length past the end: kept whole */
    assert_string_equal(b, "_ZZ1fvE999999x");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_named),
        cmocka_unit_test(test_stripped),
        cmocka_unit_test(test_not_cubins),
        cmocka_unit_test(test_short_name),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
