// TDC_HOST_DEVICE: a function of the kernels' code compiled for the device under nvcc and for
// the host everywhere (the host emulation runs the same code: device.h).
#ifndef TDCONFORM_GPU_BACKEND_HOST_DEVICE_H_
#define TDCONFORM_GPU_BACKEND_HOST_DEVICE_H_

#include <cmath>

#ifdef __CUDACC__
#define TDC_HOST_DEVICE __host__ __device__
#else
#define TDC_HOST_DEVICE
#endif

#endif  // TDCONFORM_GPU_BACKEND_HOST_DEVICE_H_
