// printf_call.cu — a kernel calling printf: the front end resolves vprintf to the built-in
// printf; renamed, the external function without a body is refused at launch.
#include <cstdio>

__global__ void says_hello(int *x)
{
    printf("hello %d\n", x[0]); // @printf
}
