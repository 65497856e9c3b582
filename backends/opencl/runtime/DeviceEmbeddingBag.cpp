/// \file aten._embedding_bag on the device, with the reference kernel's semantics
/// (backends/interp/NnKernels.cpp, PyTorch's CPU kernel in EmbeddingBag.cpp): per bag the sum
/// (times per_sample_weights), mean or max of its weight rows, padding_idx rows skipped, an
/// empty bag zeros; offset2bag, bag_size and max_indices as the CPU kernel returns them (sum
/// mode leaves the sizes zero; mean mode returns them as max_indices too).
///
/// One work-item checks the offsets and indices in the reference's order (the first bad one
/// is reported with PyTorch's message after the call, the only host wait) and turns the offsets
/// into offset2bag, PyTorch's make_offset2bag (a 1 at each offset, then a running sum, so
/// empty and unsorted offsets give what eager gives), and each bag's range of indices (bags
/// are runs of equal offset2bag). Then a work-item per (bag, column) reduces its rows.

#include "backends/opencl/runtime/DeviceExternSupport.h"

#include "ir/Try.h"

namespace fxkit::opencl::device_externs {

namespace {

constexpr std::string_view kSource = R"CL(
inline void fx_stl(__global uchar *p, long i, long dt, long v) {
  if (dt == FX_DT_I32)
    ((__global int *)p)[i] = (int)v;
  else
    ((__global long *)p)[i] = v;
}

// err: {kind, position, value}: kind 1 offsets[0] != 0, 2 an offset out of [0, count], 3 an
// index out of [0, rows); 0 when all are valid. marks: count + 1 longs of scratch; bag2:
// (start, end) of each bag's indices; o2b: offset2bag (also into the result where it has
// count elements).
__kernel void FX_NAME(fx_bag_prepare)(
    __global const uchar *i_base, const ulong i_off, __global const uchar *f_base,
    const ulong f_off, __global uchar *s_base, const ulong s_off, __global uchar *ob_base,
    const ulong ob_off, const long xnumel, const long count, const long numOffsets,
    const long numBags, const long rows, const long is0, const long fs0, const long obs0,
    const long idt, const long fdt, const long obdt, const long write_o2b) {
  if (get_global_id(0) != 0)
    return;
  __global const uchar *idx = i_base + i_off;
  __global const uchar *offs = f_base + f_off;
  __global long *err = (__global long *)(s_base + s_off);
  __global long *marks = err + 4;
  __global long *o2b = marks + count + 1;
  __global long *bag2 = o2b + count;
  err[0] = 0;
  for (long i = 0; i <= count; ++i)
    marks[i] = 0;
  for (long b = 0; b < 2 * numBags; ++b)
    bag2[b] = 0;
  for (long b = 0; b < numOffsets; ++b) {
    const long o = fx_ldl(offs, b * fs0, fdt);
    if (b == 0 && o != 0) {
      err[0] = 1; err[1] = b; err[2] = o;
      return;
    }
    if (o < 0 || o > count) {
      err[0] = 2; err[1] = b; err[2] = o;
      return;
    }
    ++marks[o];
  }
  if (numOffsets > 0)
    --marks[0];
  long running = 0;
  for (long i = 0; i < count; ++i) {
    running += marks[i];
    o2b[i] = running;
    if (write_o2b)
      fx_stl(ob_base + ob_off, i * obs0, obdt, running);
    if (running < numBags) {
      if (bag2[2 * running + 1] == 0)
        bag2[2 * running] = i;
      bag2[2 * running + 1] = i + 1;
    }
  }
  for (long i = 0; i < count; ++i) {
    const long row = fx_ldl(idx, i * is0, idt);
    if (row < 0 || row >= rows) {
      err[0] = 3; err[1] = i; err[2] = row;
      return;
    }
  }
}

// Bag b, column d: the sum, mean or max of its rows; max_indices, bag_size where the mode
// has them (column 0 writes the per-bag ones).
__kernel void FX_NAME(fx_bag_reduce)(
    __global const uchar *w_base, const ulong w_off, __global const uchar *i_base,
    const ulong i_off, __global const uchar *p_base, const ulong p_off, __global const uchar *s_base,
    const ulong s_off, __global uchar *o_base, const ulong o_off, __global uchar *bs_base,
    const ulong bs_off, __global uchar *mi_base, const ulong mi_off, const long xnumel,
    const long width, const long count, const long rows, const long ws0, const long ws1,
    const long is0, const long ps0, const long os0, const long os1, const long bss0,
    const long mis0, const long mis1, const long wdt, const long idt, const long bsdt,
    const long midt, const long mode, const long has_psw, const long padding_idx) {
  __global const uchar *w = w_base + w_off;
  __global const uchar *idx = i_base + i_off;
  __global const long *err = (__global const long *)(s_base + s_off);
  __global const long *bag2 = err + 4 + 2 * count + 1;
  for (long e = get_global_id(0); e < xnumel; e += get_global_size(0)) {
    const long d = e % width, b = e / width;
    FX_ACC acc = 0;
    long size = 0, argmax = 0;
    if (err[0] == 0)
      for (long i = bag2[2 * b]; i < bag2[2 * b + 1]; ++i) {
        const long row = fx_ldl(idx, i * is0, idt);
        if (row == padding_idx)
          continue;
        const FX_ACC v = FX_LD(w, row * ws0 + d * ws1, wdt);
        if (mode != 2) {
          acc += (has_psw ? FX_LD(p_base + p_off, i * ps0, wdt) : (FX_ACC)1) * v;
        } else if (size == 0 || v > acc) {
          acc = v;
          argmax = row;
        }
        ++size;
      }
    if (mode == 1)
      acc /= (FX_ACC)(size > 1 ? size : 1);
    FX_ST(o_base + o_off, b * os0 + d * os1, wdt, acc);
    if (mode == 2)
      fx_stl(mi_base + mi_off, b * mis0 + d * mis1, midt, argmax);
    if (d == 0 && mode != 0) {
      fx_stl(bs_base + bs_off, b * bss0, bsdt, size);
      if (mode == 1)
        fx_stl(mi_base + mi_off, b * mis0, midt, size);
    }
  }
}
)CL";

bool isIndexType(DType d) { return d == DType::Int64 || d == DType::Int32; }

} // namespace

FamilySource embeddingBagSource() {
  return {kSource,
          {{"fx_bag_prepare", false}, {"fx_bag_reduce", false}},
          {Variant::Float, Variant::Double},
          ""};
}

Expected<bool> runEmbeddingBag(const Call &call, const LauncherFor &launcherFor) {
  const BoundArgs &args = call.args();
  auto weight = call.input("weight"), indices = call.input("indices"),
       offsets = call.input("offsets");
  auto mode = args.integer("mode");
  auto paddingIdx = args.integer("padding_idx");
  if (!weight || !indices || !offsets || !mode || !paddingIdx || *mode < 0 || *mode > 2 ||
      call.numOutputs() != 4)
    return false;
  if (weight->dim() != 2 || indices->dim() != 1 || offsets->dim() != 1 ||
      !isIndexType(indices->dtype) || !isIndexType(offsets->dtype))
    return false;
  std::optional<Variant> variant = floatingVariant(weight->dtype, call.device());
  if (!variant)
    return false;
  std::optional<Operand> psw;
  if (!call.isNone("per_sample_weights")) {
    psw = call.input("per_sample_weights");
    if (!psw || *mode != 0 || psw->dtype != weight->dtype || psw->dim() != 1 ||
        psw->sizes[0] != indices->sizes[0])
      return false;
  }
  std::optional<Operand> out[4];
  for (size_t i = 0; i < 4; ++i) {
    out[i] = call.output(i);
    if (!out[i])
      return false;
  }
  const Operand &output = *out[0], &offset2bag = *out[1], &bagSize = *out[2], &maxIndices = *out[3];
  int64_t count = indices->sizes[0], numBags = output.sizes[0], width = weight->sizes[1];
  if (output.dim() != 2 || output.sizes[1] != width || output.dtype != weight->dtype ||
      offset2bag.dim() != 1 || bagSize.dim() != 1 || bagSize.sizes[0] < numBags ||
      !isIndexType(offset2bag.dtype) || !isIndexType(bagSize.dtype) ||
      !isIndexType(maxIndices.dtype) || numBags > offsets->sizes[0])
    return false;
  // max_indices: (bags, width) in max mode, else (bags) (mean mode's sizes; zeros in sum mode).
  if (*mode == 2
          ? maxIndices.dim() != 2 || maxIndices.sizes[0] != numBags || maxIndices.sizes[1] != width
          : maxIndices.dim() != 1 || (*mode == 1 && maxIndices.sizes[0] < numBags))
    return false;
  bool writeOffset2bag = offset2bag.sizes[0] == count;
  if (!writeOffset2bag && offset2bag.sizes[0] != 0)
    return false;
  // Results nothing writes are zeros, as the reference kernel allocates them.
  for (const Operand *o : {&offset2bag, &bagSize, &maxIndices})
    FXKIT_TRY(fillZeros(call.context(), o->buffer));
  size_t scratchLongs = 4 + 2 * static_cast<size_t>(count) + 1 + 2 * static_cast<size_t>(numBags);
  FXKIT_ASSIGN_OR_RETURN(auto scratch,
                         TempBuffer::create(call.context(), scratchLongs * sizeof(int64_t)));
  FXKIT_ASSIGN_OR_RETURN(auto launcher, launcherFor(*variant));
  std::vector<LaunchArg> a = {bufferArg(*indices, false),
                              bufferArg(*offsets, false),
                              bufferArg(scratch.buffer(), true),
                              bufferArg(offset2bag.numel() ? offset2bag : output, writeOffset2bag),
                              longArg(1),
                              longArg(count),
                              longArg(offsets->sizes[0]),
                              longArg(numBags),
                              longArg(weight->sizes[0]),
                              longArg(indices->strides[0]),
                              longArg(offsets->strides[0]),
                              longArg(writeOffset2bag ? offset2bag.strides[0] : 0),
                              longArg(dtypeCode(indices->dtype)),
                              longArg(dtypeCode(offsets->dtype)),
                              longArg(dtypeCode(offset2bag.dtype)),
                              longArg(writeOffset2bag)};
  FXKIT_TRY(launcher.launch("fx_bag_prepare", a, 1, 1));
  if (output.numel() > 0) {
    const Operand &anyInt = *indices; // where a result has no elements (not read then)
    std::vector<LaunchArg> b = {bufferArg(*weight, false),
                                bufferArg(*indices, false),
                                bufferArg(psw ? *psw : *weight, false),
                                bufferArg(scratch.buffer(), false),
                                bufferArg(output, true),
                                bufferArg(bagSize.numel() ? bagSize : anyInt, *mode != 0),
                                bufferArg(maxIndices.numel() ? maxIndices : anyInt, *mode != 0),
                                longArg(output.numel()),
                                longArg(width),
                                longArg(count),
                                longArg(weight->sizes[0]),
                                longArg(weight->strides[0]),
                                longArg(weight->strides[1]),
                                longArg(indices->strides[0]),
                                longArg(psw ? psw->strides[0] : 0),
                                longArg(output.strides[0]),
                                longArg(output.strides[1]),
                                longArg(bagSize.strides[0]),
                                longArg(maxIndices.strides[0]),
                                longArg(maxIndices.dim() == 2 ? maxIndices.strides[1] : 0),
                                longArg(dtypeCode(weight->dtype)),
                                longArg(dtypeCode(indices->dtype)),
                                longArg(dtypeCode(bagSize.dtype)),
                                longArg(dtypeCode(maxIndices.dtype)),
                                longArg(*mode),
                                longArg(psw.has_value()),
                                longArg(*paddingIdx)};
    FXKIT_TRY(launcher.launch("fx_bag_reduce", b, output.numel(), 1));
  }
  // The one wait: the checks' verdict, reported as the reference kernel words it.
  int64_t err[3] = {0, 0, 0};
  cl_int rc = clEnqueueReadBuffer(call.context().queue(), scratch.buffer().mem, CL_TRUE, 0,
                                  sizeof err, err, 0, nullptr, nullptr);
  if (rc != CL_SUCCESS)
    return clError("reading embedding_bag's index checks", rc);
  std::string where = "_embedding_bag: ";
  switch (err[0]) {
  case 0:
    return true;
  case 1:
    return Error(where +
                 "offsets[0] has to be 0, i.e., the first sequence in the mini-batch has to start "
                 "from position 0. However, got " +
                 std::to_string(err[2]));
  case 2:
    return Error(where + "offsets[" + std::to_string(err[1]) + "] = " + std::to_string(err[2]) +
                 " is out of range for input's length " + std::to_string(count));
  default:
    return Error(where + "Index " + std::to_string(err[1]) + " of input takes value " +
                 std::to_string(err[2]) + " which is not in the valid range [0, " +
                 std::to_string(weight->sizes[0]) + ")");
  }
}

} // namespace fxkit::opencl::device_externs
