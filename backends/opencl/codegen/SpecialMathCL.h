#pragma once
/// \file The OpenCL C of the special-function scalar ops (digamma, erfcx, ndtri, Bessel,
/// incomplete gamma, zeta, ...: ir/loop/ScalarOps.def spells them fx_<name>_f / fx_<name>_d).
/// They are long, so a kernel carries them only when it calls one: the generator puts this text,
/// guarded against a second copy in one program, in front of such a kernel's source.

#include <string>
#include <string_view>

namespace fxkit::opencl {

/// Whether OpenCL C `source` calls one of the special functions.
bool usesSpecialMath(std::string_view source);

/// The special functions for float (and for double when `withDouble`), each block guarded by
/// #ifndef so that several kernels of one program may carry it. The coefficient tables are
/// ir/loop/SpecialMath.h's, printed in the precision of the type.
std::string specialMathOpenCL(bool withDouble);

} // namespace fxkit::opencl
