r"""
Compile-time auto-tuning block: 

import torch
from torch._dynamo.testing import rand_strided
from torch._dynamo.utils import preserve_rng_state
from torch._inductor.select_algorithm import AlgorithmSelectorCache
from torch._inductor.async_compile import AsyncCompile

async_compile = AsyncCompile()
generate_example_value = AlgorithmSelectorCache.generate_example_value
empty_strided_cuda = torch._C._dynamo.guards._empty_strided_cuda
empty_strided_xpu = torch._C._dynamo.guards._empty_strided_xpu
get_raw_stream = torch._C._cuda_getCurrentRawStream


# kernel path: /tmp/torchinductor_root/ba/cbal7xkl7bkavsw36qh7eewnkkylkjprmm4l35ivslzotas7bki6.py
# Topologically Sorted Source Nodes: [mul, c], Original ATen: [aten.mul, fxk.listop]
# Source node to ATen node mapping:
#   c => listop
#   mul => mul
# Graph fragment:
#   %arg0_1 : Tensor "f32[8][1]cuda:0" = PlaceHolder[target=arg0_1]
#   %mul : Tensor "f32[8][1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%arg0_1, 2), kwargs = {})
#   %listop : Tensor "f32[8][1]cuda:0"[num_users=2] = call_function[target=torch.ops.fxk.listop.default](args = ([%arg0_1, %arg1_1, %mul], 3), kwargs = {})
#   return %buf0
triton_poi_fused_listop_mul_0 = async_compile.triton('triton_poi_fused_listop_mul_0', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.pointwise(
    size_hints={'x': 8}, 
    filename=__file__,
    triton_meta={'signature': {'in_ptr0': '*fp32', 'out_ptr0': '*fp32', 'xnumel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_poi_fused_listop_mul_0', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 1, 'num_store': 1, 'num_reduction': 0, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': True, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'x': 96}},
    min_elem_per_thread=0
)
@triton.jit
def triton_poi_fused_listop_mul_0(in_ptr0, out_ptr0, xnumel, XBLOCK : tl.constexpr):
    xnumel = 8
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = xindex < xnumel
    x0 = xindex
    tmp0 = tl.load(in_ptr0 + (x0), xmask)
    tmp1 = tl.full([1], 2.0, tl.float32)
    tmp2 = tmp0 * tmp1
    tl.store(out_ptr0 + (x0), tmp2, xmask)
''', device_str='cuda')


# kernel path: /tmp/torchinductor_root/b7/cb7akif5pwc462eavbh62j2g63jz3vlwmam6eyfcm4k63knsba2b.py
# Topologically Sorted Source Nodes: [add, simple], Original ATen: [aten.add, fxk.simple]
# Source node to ATen node mapping:
#   add => add
#   simple => simple
# Graph fragment:
#   %listop : Tensor "f32[8][1]cuda:0" = PlaceHolder[target=listop]
#   %add : Tensor "f32[8][1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%listop, 1), kwargs = {})
#   %simple : [num_users=2] = call_function[target=torch.ops.fxk.simple.default](args = (%add, 2, 0.5, True), kwargs = {})
#   return %buf3
triton_poi_fused_add_simple_1 = async_compile.triton('triton_poi_fused_add_simple_1', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.pointwise(
    size_hints={'x': 8}, 
    filename=__file__,
    triton_meta={'signature': {'in_ptr0': '*fp32', 'out_ptr0': '*fp32', 'xnumel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_poi_fused_add_simple_1', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 1, 'num_store': 1, 'num_reduction': 0, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': True, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'x': 96}},
    min_elem_per_thread=0
)
@triton.jit
def triton_poi_fused_add_simple_1(in_ptr0, out_ptr0, xnumel, XBLOCK : tl.constexpr):
    xnumel = 8
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = xindex < xnumel
    x0 = xindex
    tmp0 = tl.load(in_ptr0 + (x0), xmask)
    tmp1 = tl.full([1], 1.0, tl.float32)
    tmp2 = tmp0 + tmp1
    tl.store(out_ptr0 + (x0), tmp2, xmask)
''', device_str='cuda')


# kernel path: /tmp/torchinductor_root/rz/crzf2g3ke2hw5qvimraqskzzzzpzxcd56ukvxmbkshcyqafkrxtq.py
# Topologically Sorted Source Nodes: [mut], Original ATen: [aten.as_strided, aten.clone]
# Source node to ATen node mapping:
#   mut => as_strided_default, clone_default
# Graph fragment:
#   %getitem : Tensor "f32[8][1]cuda:0" = PlaceHolder[target=getitem]
#   %as_strided_default : Tensor "f32[8][1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.as_strided.default](args = (%getitem, [8], [1], 0), kwargs = {})
#   %clone_default : Tensor "f32[8][1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.clone.default](args = (%as_strided_default,), kwargs = {})
#   return %clone_default
triton_poi_fused_as_strided_clone_2 = async_compile.triton('triton_poi_fused_as_strided_clone_2', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.pointwise(
    size_hints={'x': 8}, 
    filename=__file__,
    triton_meta={'signature': {'in_ptr0': '*fp32', 'out_ptr0': '*fp32', 'xnumel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_poi_fused_as_strided_clone_2', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 1, 'num_store': 1, 'num_reduction': 0, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': True, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'x': 96}},
    min_elem_per_thread=0
)
@triton.jit
def triton_poi_fused_as_strided_clone_2(in_ptr0, out_ptr0, xnumel, XBLOCK : tl.constexpr):
    xnumel = 8
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = xindex < xnumel
    x0 = xindex
    tmp0 = tl.load(in_ptr0 + (x0), xmask)
    tl.store(out_ptr0 + (x0), tmp0, xmask)
''', device_str='cuda')

async_compile.wait(globals())
del async_compile

import triton
import triton.language as tl
from torch._inductor.runtime.triton_heuristics import start_graph, end_graph
from torch._C import _cuda_getCurrentRawStream as get_raw_stream
with torch.cuda._DeviceGuard(0):
    stream0 = get_raw_stream(0)
stream0 = get_raw_stream(0)
arg0_1 = generate_example_value((8,), (1,), 'cuda:0', torch.float32, 0, (8,))
buf0 = generate_example_value((8,), (1,), 'cuda:0', torch.float32, 0, (8,))
with torch.cuda._DeviceGuard(0):
    triton_poi_fused_listop_mul_0.run(arg0_1, buf0, 8, stream=stream0)
del arg0_1, buf0

stream0 = get_raw_stream(0)
buf2 = generate_example_value((8,), (1,), 'cuda:0', torch.float32, 0, (8,))
buf3 = generate_example_value((8,), (1,), 'cuda:0', torch.float32, 0, (8,))
with torch.cuda._DeviceGuard(0):
    triton_poi_fused_add_simple_1.run(buf2, buf3, 8, stream=stream0)
del buf2, buf3

stream0 = get_raw_stream(0)
buf5 = generate_example_value((8,), (1,), 'cuda:0', torch.float32, 0, (8,))
buf7 = generate_example_value((8,), (1,), 'cuda:0', torch.float32, 0, (8,))
with torch.cuda._DeviceGuard(0):
    triton_poi_fused_as_strided_clone_2.run(buf5, buf7, 8, stream=stream0)
del buf5, buf7

"""


import torch
from torch._inductor.codecache import CppWrapperCodeCache

cpp_wrapper_src = (
r'''
#include <torch/csrc/inductor/cpp_wrapper/cuda.h>

#define CUDA_DRIVER_CHECK(EXPR)                    \
do {                                               \
    CUresult code = EXPR;                          \
    const char *msg;                               \
    CUresult code_get_error = cuGetErrorString(code, &msg); \
    if (code_get_error != CUDA_SUCCESS) {          \
        throw std::runtime_error(                  \
            std::string("CUDA driver error: ") +   \
            std::string("invalid error code!"));   \
    }                                              \
    if (code != CUDA_SUCCESS) {                    \
        throw std::runtime_error(                  \
            std::string("CUDA driver error: ") +   \
            std::string(msg));                     \
    }                                              \
} while (0);

static inline CUfunction loadKernel(
        std::string filePath,
        const std::string &funcName,
        uint32_t sharedMemBytes,
        const std::optional<std::string> &cubinDir = std::nullopt) {
    if (cubinDir) {
        std::filesystem::path p1{*cubinDir};
        std::filesystem::path p2{filePath};
        filePath = (p1 / p2.filename()).string();
    }

    CUmodule mod;
    CUfunction func;
    CUDA_DRIVER_CHECK(cuModuleLoad(&mod, filePath.c_str()));
    CUDA_DRIVER_CHECK(cuModuleGetFunction(&func, mod, funcName.c_str()));
    if (sharedMemBytes > 0) {
        CUDA_DRIVER_CHECK(cuFuncSetAttribute(
            func,
            CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
            sharedMemBytes
        ))
    }
    return func;
}

static inline CUfunction loadKernel(const void* start, const std::string &funcName, uint32_t sharedMemBytes) {
    CUmodule mod;
    CUfunction func;
    CUDA_DRIVER_CHECK(cuModuleLoadData(&mod, start));
    CUDA_DRIVER_CHECK(cuModuleGetFunction(&func, mod, funcName.c_str()));
    if (sharedMemBytes > 0) {
        CUDA_DRIVER_CHECK(cuFuncSetAttribute(
            func,
            CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
            sharedMemBytes
        ))
    }
    return func;
}

static inline void launchKernel(
        CUfunction func,
        uint32_t gridX,
        uint32_t gridY,
        uint32_t gridZ,
        uint32_t numWarps,
        uint32_t sharedMemBytes,
        void* args[],
        cudaStream_t stream) {
    CUDA_DRIVER_CHECK(cuLaunchKernel(
        func, gridX, gridY, gridZ, 32*numWarps, 1, 1, sharedMemBytes, stream, args, nullptr
    ));
}
CACHE_TORCH_DTYPE(float32);
CACHE_TORCH_DEVICE(cuda);

static CUfunction triton_poi_fused_listop_mul_0 = nullptr;
template <typename in_ptr0_type_, typename out_ptr0_type_>
static inline void call_triton_poi_fused_listop_mul_0(
    const in_ptr0_type_& in_ptr0,
    const out_ptr0_type_& out_ptr0,
    int64_t xnumel,
    int32_t device_idx_,
    cudaStream_t stream_,
    const std::optional<std::string>& cubin_dir_ = std::nullopt
){
    uint32_t grid_0 = ((xnumel + (8 - 1)) / (8));
    uint32_t grid_1 = 1;
    uint32_t grid_2 = 1;
    if (grid_0 == 0 || grid_1 == 0 || grid_2 == 0) return;
    if (triton_poi_fused_listop_mul_0 == nullptr) {
        triton_poi_fused_listop_mul_0 = loadKernel("/tmp/torchinductor_root/4n/c4nawqtiia343fpoerkxlosg7ddkvhapgqb2btxnkkogx25brmqd.cubin", "triton_poi_fused_listop_mul_0", 0, cubin_dir_); 
    }
    CUdeviceptr var_3 = reinterpret_cast<CUdeviceptr>(in_ptr0.data_ptr());
    CUdeviceptr var_4 = reinterpret_cast<CUdeviceptr>(out_ptr0.data_ptr());
    int32_t var_5 = xnumel;
    CUdeviceptr global_scratch_scratch_6 = 0;
    CUdeviceptr profile_scratch_scratch_7 = 0;
    void* kernel_args_[] = {&var_3, &var_4, &var_5, &global_scratch_scratch_6, &profile_scratch_scratch_7};
    launchKernel(triton_poi_fused_listop_mul_0, grid_0, grid_1, grid_2, 1, 0, kernel_args_, stream_);
}

static CUfunction triton_poi_fused_add_simple_1 = nullptr;
template <typename in_ptr0_type_, typename out_ptr0_type_>
static inline void call_triton_poi_fused_add_simple_1(
    const in_ptr0_type_& in_ptr0,
    const out_ptr0_type_& out_ptr0,
    int64_t xnumel,
    int32_t device_idx_,
    cudaStream_t stream_,
    const std::optional<std::string>& cubin_dir_ = std::nullopt
){
    uint32_t grid_0 = ((xnumel + (8 - 1)) / (8));
    uint32_t grid_1 = 1;
    uint32_t grid_2 = 1;
    if (grid_0 == 0 || grid_1 == 0 || grid_2 == 0) return;
    if (triton_poi_fused_add_simple_1 == nullptr) {
        triton_poi_fused_add_simple_1 = loadKernel("/tmp/torchinductor_root/nj/cnjwpcd5zfuyowfwo4t2vpnzvqyfkadqpkl3g3rrouzeduok7xta.cubin", "triton_poi_fused_add_simple_1", 0, cubin_dir_); 
    }
    CUdeviceptr var_8 = reinterpret_cast<CUdeviceptr>(in_ptr0.data_ptr());
    CUdeviceptr var_9 = reinterpret_cast<CUdeviceptr>(out_ptr0.data_ptr());
    int32_t var_10 = xnumel;
    CUdeviceptr global_scratch_scratch_11 = 0;
    CUdeviceptr profile_scratch_scratch_12 = 0;
    void* kernel_args_[] = {&var_8, &var_9, &var_10, &global_scratch_scratch_11, &profile_scratch_scratch_12};
    launchKernel(triton_poi_fused_add_simple_1, grid_0, grid_1, grid_2, 1, 0, kernel_args_, stream_);
}

static CUfunction triton_poi_fused_as_strided_clone_2 = nullptr;
template <typename in_ptr0_type_, typename out_ptr0_type_>
static inline void call_triton_poi_fused_as_strided_clone_2(
    const in_ptr0_type_& in_ptr0,
    const out_ptr0_type_& out_ptr0,
    int64_t xnumel,
    int32_t device_idx_,
    cudaStream_t stream_,
    const std::optional<std::string>& cubin_dir_ = std::nullopt
){
    uint32_t grid_0 = ((xnumel + (8 - 1)) / (8));
    uint32_t grid_1 = 1;
    uint32_t grid_2 = 1;
    if (grid_0 == 0 || grid_1 == 0 || grid_2 == 0) return;
    if (triton_poi_fused_as_strided_clone_2 == nullptr) {
        triton_poi_fused_as_strided_clone_2 = loadKernel("/tmp/torchinductor_root/aa/caankfwhpmkcy7h2c4lkexxlesh465vmaodwik54fztiltgqm3cb.cubin", "triton_poi_fused_as_strided_clone_2", 0, cubin_dir_); 
    }
    CUdeviceptr var_13 = reinterpret_cast<CUdeviceptr>(in_ptr0.data_ptr());
    CUdeviceptr var_14 = reinterpret_cast<CUdeviceptr>(out_ptr0.data_ptr());
    int32_t var_15 = xnumel;
    CUdeviceptr global_scratch_scratch_16 = 0;
    CUdeviceptr profile_scratch_scratch_17 = 0;
    void* kernel_args_[] = {&var_13, &var_14, &var_15, &global_scratch_scratch_16, &profile_scratch_scratch_17};
    launchKernel(triton_poi_fused_as_strided_clone_2, grid_0, grid_1, grid_2, 1, 0, kernel_args_, stream_);
}


void inductor_entry_impl(
    AtenTensorHandle*
        input_handles, // array of input AtenTensorHandle; handles
                        // are stolen; the array itself is borrowed
    AtenTensorHandle*
        output_handles  // array for writing output AtenTensorHandle; handles
                        // will be stolen by the caller; the array itself is
                        // borrowed)
) {
    py::gil_scoped_release_simple release;

    auto inputs = steal_from_raw_handles_to_raii_handles(input_handles, 2);
    auto arg0_1 = std::move(inputs[0]);
    auto arg1_1 = std::move(inputs[1]);

    AOTICudaGuard device_guard(0);
    static constexpr int64_t int_array_0[] = {8L, };
    static constexpr int64_t int_array_1[] = {1L, };
    AtenTensorHandle buf0_handle;
    AOTI_TORCH_ERROR_CODE_CHECK(aoti_torch_empty_strided(1, int_array_0, int_array_1, cached_torch_dtype_float32, cached_torch_device_type_cuda,  0, &buf0_handle));
    RAIIAtenTensorHandle buf0(buf0_handle);
    // Topologically Sorted Source Nodes: [mul, c], Original ATen: [aten.mul, fxk.listop]
    cudaStream_t stream0;
    AOTI_TORCH_ERROR_CODE_CHECK(aoti_torch_get_current_cuda_stream(0, (void**)&stream0));
    call_triton_poi_fused_listop_mul_0(arg0_1, buf0, 8L, 0, stream0);
    // Topologically Sorted Source Nodes: [mul, c], Original ATen: [aten.mul, fxk.listop]
    RAIIPyObject custom_op_wrapper;
    {
        py::gil_scoped_acquire_simple acquire;

        RAIIPyObject codecache_module(PyImport_ImportModule("torch._inductor.codecache"));
        if (!codecache_module) {
            throw std::runtime_error("Failed to load torch._inductor.codecache");
        }
        custom_op_wrapper = PyObject_GetAttrString(codecache_module, "custom_op_wrapper");
        if (!custom_op_wrapper) {
            throw std::runtime_error("Failed to load torch._inductor.codecache.custom_op_wrapper");
        }
    }
    RAIIAtenTensorHandle buf2;
    {
        py::gil_scoped_acquire_simple acquire;

        RAIIPyObject py_args_0(PyTuple_New(3));
        if (!py_args_0) {
            throw std::runtime_error("PyTuple_New py_args_0 failed");
        }
        PyTuple_SetItem(py_args_0, 0, PyUnicode_FromString("torch.ops.fxk.listop.default"));
        PyObject* py_args_0_1 = PyList_New(3);
        PyList_SetItem(py_args_0_1, 0, PyCapsule_New(reinterpret_cast<void*>(arg0_1.get()), NULL, NULL));
        PyList_SetItem(py_args_0_1, 1, PyCapsule_New(reinterpret_cast<void*>(arg1_1.get()), NULL, NULL));
        PyList_SetItem(py_args_0_1, 2, PyCapsule_New(reinterpret_cast<void*>(buf0.get()), NULL, NULL));
        PyTuple_SetItem(py_args_0, 1, py_args_0_1);
        PyTuple_SetItem(py_args_0, 2, PyLong_FromLongLong(3));

        // Call the custom op in Python
        RAIIPyObject py_buf1(PyObject_CallObject(custom_op_wrapper, py_args_0));
        if (!py_buf1) {
            if (PyErr_Occurred()) {
                return;
            }
            throw std::runtime_error("PyObject_CallObject torch.ops.fxk.listop.default failed");
        }
        buf2 = reinterpret_cast<AtenTensorHandle>(PyCapsule_GetPointer(py_buf1.get(), NULL));

    }
    arg0_1.reset();
    buf0.reset();

    static constexpr int64_t int_array_2[] = {8L, };
    static constexpr int64_t int_array_3[] = {1L, };
    AtenTensorHandle buf3_handle;
    AOTI_TORCH_ERROR_CODE_CHECK(aoti_torch_empty_strided(1, int_array_2, int_array_3, cached_torch_dtype_float32, cached_torch_device_type_cuda,  0, &buf3_handle));
    RAIIAtenTensorHandle buf3(buf3_handle);
    // Topologically Sorted Source Nodes: [add, simple], Original ATen: [aten.add, fxk.simple]
    call_triton_poi_fused_add_simple_1(buf2, buf3, 8L, 0, stream0);
    // Topologically Sorted Source Nodes: [add, simple], Original ATen: [aten.add, fxk.simple]
    RAIIAtenTensorHandle buf5;
    RAIIAtenTensorHandle buf6;
    {
        AtenTensorHandle tmp_var_0;
        aoti_torch_new_tensor_handle(buf3, &tmp_var_0);
        std::array<StableIValue, 5> dispatch_vars{torch::stable::detail::from(tmp_var_0), torch::stable::detail::from(2L), torch::stable::detail::from(0.5), torch::stable::detail::from(1), torch::stable::detail::from(std::nullopt)};
        AOTI_TORCH_ERROR_CODE_CHECK(
            aoti_torch_call_dispatcher("fxk::simple", "", dispatch_vars.data())
        );
        buf5 = torch::stable::detail::to<AtenTensorHandle>(dispatch_vars[0]);
        buf6 = torch::stable::detail::to<AtenTensorHandle>(dispatch_vars[1]);
    }
    buf3.reset();

    AtenTensorHandle buf7_handle;
    AOTI_TORCH_ERROR_CODE_CHECK(aoti_torch_empty_strided(1, int_array_2, int_array_3, cached_torch_dtype_float32, cached_torch_device_type_cuda,  0, &buf7_handle));
    RAIIAtenTensorHandle buf7(buf7_handle);
    // Topologically Sorted Source Nodes: [mut], Original ATen: [aten.as_strided, aten.clone]
    call_triton_poi_fused_as_strided_clone_2(buf5, buf7, 8L, 0, stream0);
    // Topologically Sorted Source Nodes: [mut], Original ATen: [aten.as_strided, fxk.mut]
    AtenTensorHandle tmp_buf7_0;
    AOTI_TORCH_ERROR_CODE_CHECK(aoti_torch_new_tensor_handle(buf7, &tmp_buf7_0));
    {
        auto var_1 = RAIIAtenTensorHandle(tmp_buf7_0);
        AtenTensorHandle tmp_var_0;
        aoti_torch_new_tensor_handle(arg1_1, &tmp_var_0);
        std::array<StableIValue, 2> dispatch_vars{torch::stable::detail::from(var_1.release()), torch::stable::detail::from(tmp_var_0)};
        AOTI_TORCH_ERROR_CODE_CHECK(
            aoti_torch_call_dispatcher("fxk::mut", "", dispatch_vars.data())
        );
    }
    arg1_1.reset();
    AtenTensorHandle tmp_buf7_1;
    AOTI_TORCH_ERROR_CODE_CHECK(aoti_torch_new_tensor_handle(buf7, &tmp_buf7_1));
    auto var_2 = RAIIAtenTensorHandle(tmp_buf7_1);
    output_handles[0] = buf2.release();
    output_handles[1] = buf5.release();
    output_handles[2] = buf6.release();
    output_handles[3] = var_2.release();
} // inductor_entry_impl
'''
)

inductor_entry = CppWrapperCodeCache.load_pybinding(
    argtypes=["std::vector<AtenTensorHandle>"],
    main_code=cpp_wrapper_src,
    device_type="cuda",
    num_outputs=4,
    kernel_code=None,
)

def _wrap_func(f):
    def g(args):
        input_tensors = [arg if isinstance(arg, torch.Tensor) else torch.tensor(arg, device='cpu') for arg in args]
        input_handles = torch._C._aoti.unsafe_alloc_void_ptrs_from_tensors(input_tensors)

        args.clear()
        del input_tensors

        output_handles = f(input_handles)
        output_tensors = torch._C._aoti.alloc_tensors_by_stealing_from_void_ptrs(output_handles)
        return output_tensors

    return g

call = _wrap_func(inductor_entry)


def get_args():
    from torch._dynamo.testing import rand_strided
    arg0_1 = rand_strided((8, ), (1, ), device='cuda:0', dtype=torch.float32)
    arg1_1 = rand_strided((8, ), (1, ), device='cuda:0', dtype=torch.float32)
    return [arg0_1, arg1_1]


def benchmark_compiled_module(args, times=10, repeat=10):
    from torch._inductor.utils import print_performance
    fn = lambda: call(list(args))
    return print_performance(fn, times=times, repeat=repeat)


if __name__ == "__main__":
    from torch._inductor.wrapper_benchmark import compiled_module_main
    args = get_args()
    compiled_module_main('None', lambda times, repeat: benchmark_compiled_module(args, times=times, repeat=repeat))
