// printf_call.cu — a kernel calling printf (vprintf): the simulator must refuse it.
#include <cstdio>

__global__ void says_hello(int *x)
{
    printf("hello %d\n", x[0]); // @printf
}
