/* abi: prints the layout of the Compute Sanitizer types the capture pass declares itself
 * (src/record/sanitizer_api.h); compiled once against the toolkit's headers (-DHAVE_SANITIZER_H)
 * and once against the declarations, the two outputs must be equal (tests/gpu/record_abi.sh). */
#include <stddef.h>
#include <stdio.h>

#include "sanitizer_api.h"

#define OFF(t, m) printf(#t "." #m " %zu\n", offsetof(t, m))

int main(void)
{
    OFF(Sanitizer_ResourceModuleData, context);
    OFF(Sanitizer_ResourceModuleData, module);
    OFF(Sanitizer_ResourceModuleData, cubinSize);
    OFF(Sanitizer_ResourceModuleData, pCubin);
    OFF(Sanitizer_LaunchData, context);
    OFF(Sanitizer_LaunchData, stream);
    OFF(Sanitizer_LaunchData, hStream);
    OFF(Sanitizer_LaunchData, module);
    OFF(Sanitizer_LaunchData, function);
    OFF(Sanitizer_LaunchData, functionName);
    OFF(Sanitizer_LaunchData, gridDim_x);
    OFF(Sanitizer_LaunchData, blockDim_z);
    OFF(Sanitizer_LaunchData, hLaunch);
    printf("domains %d %d\n", (int)SANITIZER_CB_DOMAIN_RESOURCE, (int)SANITIZER_CB_DOMAIN_LAUNCH);
    printf("cbids %d %d %d\n", (int)SANITIZER_CBID_RESOURCE_MODULE_LOADED, (int)SANITIZER_CBID_LAUNCH_BEGIN,
           (int)SANITIZER_CBID_LAUNCH_END);
    printf("instructions %d %d %d %d\n", (int)SANITIZER_INSTRUCTION_SHARED_MEMORY_ACCESS,
           (int)SANITIZER_INSTRUCTION_MEMCPY_ASYNC, (int)SANITIZER_INSTRUCTION_REMOTE_SHARED_MEMORY_ACCESS,
           (int)SANITIZER_INSTRUCTION_MATRIX_MEMORY_ACCESS);
    return 0;
}
