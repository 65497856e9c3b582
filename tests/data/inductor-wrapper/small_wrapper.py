# AOT ID: ['0_inference']
# Hand-written in the shape of Inductor's output_code.py (PyTorch 2.11) to pin the importer's
# output: size symbols, a precomputed size argument, views, reuse, an extern call with out=,
# a multi-output fallback op, frees and the return tuple. The kernel source is shortened.
import torch
from torch._inductor.async_compile import AsyncCompile
from torch._inductor.select_algorithm import extern_kernels

aten = torch.ops.aten
assert_size_stride = torch._C._dynamo.guards.assert_size_stride
assert_alignment = torch._C._dynamo.guards.assert_alignment
empty_strided_cuda = torch._C._dynamo.guards._empty_strided_cuda
reinterpret_tensor = torch._C._dynamo.guards._reinterpret_tensor
async_compile = AsyncCompile()


# kernel path: /tmp/torchinductor_root/ab/small.py
# Topologically Sorted Source Nodes: [add, mul], Original ATen: [aten.add, aten.mul]
# Graph fragment:
#   %add : Tensor "f32[s77, 8][8, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%arg1_1, 1), kwargs = {})
triton_poi_fused_add_mul_0 = async_compile.triton('triton_poi_fused_add_mul_0', '''
import triton
import triton.language as tl

@triton_heuristics.pointwise(
    size_hints={'x': 1024},
    filename=__file__,
    triton_meta={'signature': {'in_ptr0': '*fp32', 'out_ptr0': '*fp32', 'ks0': 'i64', 'xnumel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0), 'constants': {}, 'configs': [{(0,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'kernel_name': 'triton_poi_fused_add_mul_0', 'mutated_arg_names': []},
)
@triton.jit
def triton_poi_fused_add_mul_0(in_ptr0, out_ptr0, ks0, xnumel, XBLOCK : tl.constexpr):
    xoffset = tl.program_id(0) * XBLOCK
''', device_str='cuda')


async_compile.wait(globals())
del async_compile

class Runner:
    def __init__(self, partitions):
        self.partitions = partitions

    def call(self, args):
        arg0_1, arg1_1, arg2_1 = args
        args.clear()
        s77 = arg0_1
        assert_size_stride(arg1_1, (s77, 8), (8, 1))
        assert_size_stride(arg2_1, (8, 8), (8, 1))
        with torch.cuda._DeviceGuard(0):
            torch.cuda.set_device(0)
            buf0 = empty_strided_cuda((s77, 8), (8, 1), torch.float32)
            # Topologically Sorted Source Nodes: [add, mul], Original ATen: [aten.add, aten.mul]
            # [Provenance debug handles] triton_poi_fused_add_mul_0:1
            triton_poi_fused_add_mul_0_xnumel = 8*s77
            stream0 = get_raw_stream(0)
            triton_poi_fused_add_mul_0.run(arg1_1, buf0, s77, triton_poi_fused_add_mul_0_xnumel, stream=stream0)
            del arg1_1
            buf1 = empty_strided_cuda((s77, 8), (8, 1), torch.float32)
            # Topologically Sorted Source Nodes: [mm], Original ATen: [aten.mm]
            # [Provenance debug handles] extern_kernels.mm:2
            extern_kernels.mm(buf0, reinterpret_tensor(arg2_1, (8, 8), (1, 8), 0), out=buf1)
            del arg2_1
            buf2 = buf0; del buf0  # reuse
            buf3 = reinterpret_tensor(buf1, (8*s77, ), (1, ), 0); del buf1  # reuse
            buf4 = torch.ops.aten.var_mean.correction(buf2, [1], correction=0, keepdim=True)
            buf5 = buf4[0]
            assert_alignment(buf5, 16, 'torch.ops.aten.var_mean.correction')
            del buf4
            del buf2
        return (buf3, buf5, )

runner = Runner(partitions=[])
call = runner.call


def get_args():
    from torch._dynamo.testing import rand_strided
    arg0_1 = 4
    arg1_1 = rand_strided((4, 8), (8, 1), device='cuda:0', dtype=torch.float32)
    arg2_1 = rand_strided((8, 8), (8, 1), device='cuda:0', dtype=torch.float32)
    return [arg0_1, arg1_1, arg2_1]


def benchmark_compiled_module(args, times=10, repeat=10):
    from torch._inductor.utils import print_performance
    fn = lambda: call(list(args))
    return print_performance(fn, times=times, repeat=repeat)


if __name__ == "__main__":
    from torch._inductor.wrapper_benchmark import compiled_module_main
    args = get_args()
    compiled_module_main('None', lambda times, repeat: benchmark_compiled_module(args, times=times, repeat=repeat))
