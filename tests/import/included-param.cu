// A host file that includes its kernel's header: '-D levels=4' gives the kernel's parameter
// (declared in the header, not in this file) its value; it is not made a macro, which would
// break the parameter's declaration.
#include "included-param.cuh"

void run(float *d)
{
    halves<<<1, 64>>>(d, 4, 512);
}
