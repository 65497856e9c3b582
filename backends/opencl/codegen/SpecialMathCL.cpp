/// \file OpenCL C of the special functions: ir/loop/SpecialMath.h's algorithms, written once as
/// a template over the type (float, double) and its constants, with the coefficient tables
/// printed from SpecialMath.h. OpenCL C has no recursion, so the reflections (digamma, erfcx,
/// bessel_j1) call a positive-argument helper.

#include "backends/opencl/codegen/SpecialMathCL.h"
#include "ir/TextTemplate.h"
#include "ir/loop/SpecialMath.h"

#include <array>
#include <cstdio>
#include <span>
#include <utility>

namespace fxkit::opencl {

namespace {

namespace sp = loop::special;

/// The tables, by the OpenCL name they get (fx_<name>_f / fx_<name>_d).
const std::pair<const char *, std::span<const double>> kTables[] = {
    {"digamma_a", sp::kDigammaA}, {"ndtri_p0", sp::kNdtriP0}, {"ndtri_q0", sp::kNdtriQ0},
    {"ndtri_p1", sp::kNdtriP1},   {"ndtri_q1", sp::kNdtriQ1}, {"ndtri_p2", sp::kNdtriP2},
    {"ndtri_q2", sp::kNdtriQ2},   {"j0_pp", sp::kJ0PP},       {"j0_pq", sp::kJ0PQ},
    {"j0_qp", sp::kJ0QP},         {"j0_qq", sp::kJ0QQ},       {"j0_rp", sp::kJ0RP},
    {"j0_rq", sp::kJ0RQ},         {"j1_pp", sp::kJ1PP},       {"j1_pq", sp::kJ1PQ},
    {"j1_qp", sp::kJ1QP},         {"j1_qq", sp::kJ1QQ},       {"j1_rp", sp::kJ1RP},
    {"j1_rq", sp::kJ1RQ},         {"i0e_a", sp::kI0eA},       {"i0e_b", sp::kI0eB},
    {"i1e_a", sp::kI1eA},         {"i1e_b", sp::kI1eB},       {"zeta_a", sp::kZetaA},
};

/// The functions; {{T}} the type, {{s}} its suffix (f, d), {{f}} the literal suffix, and the
/// type's constants (Cephes' MACHEP, MAXLOG, BIG, BIGINV as PyTorch's igamma chooses them).
constexpr std::string_view kFunctions = R"(
#define FX_N(a) (int)(sizeof(a) / sizeof(a[0]))
static inline {{T}} fx_polevl_{{s}}({{T}} x, __constant {{T}} *c, int n) {
  {{T}} r = 0;
  for (int i = 0; i < n; ++i)
    r = r * x + c[i];
  return r;
}
static inline {{T}} fx_p1evl_{{s}}({{T}} x, __constant {{T}} *c, int n) {
  {{T}} r = 1;
  for (int i = 0; i < n; ++i)
    r = r * x + c[i];
  return r;
}
static inline {{T}} fx_chbevl_{{s}}({{T}} x, __constant {{T}} *c, int n) {
  {{T}} b0 = c[0], b1 = 0, b2 = 0;
  for (int i = 1; i < n; ++i) {
    b2 = b1;
    b1 = b0;
    b0 = x * b1 - b2 + c[i];
  }
  return 0.5{{f}} * (b0 - b2);
}
static inline {{T}} fx_digamma_pos_{{s}}({{T}} x) {
  {{T}} result = 0;
  while (x < 10) {
    result -= 1 / x;
    x += 1;
  }
  if (x == 10)
    return result + 2.25175258906672110764{{f}};
  {{T}} y = 0;
  if (x < 1.0e17{{f}}) {
    {{T}} z = 1 / (x * x);
    y = z * fx_polevl_{{s}}(z, fx_digamma_a_{{s}}, FX_N(fx_digamma_a_{{s}}));
  }
  return result + log(x) - 0.5{{f}} / x - y;
}
static inline {{T}} fx_digamma_{{s}}({{T}} x) {
  if (x == 0)
    return copysign(({{T}})INFINITY, -x);
  if (x < 0) {
    if (x == trunc(x))
      return ({{T}})NAN;
    {{T}} r = x - trunc(x);
    return fx_digamma_pos_{{s}}(1 - x) - 3.14159265358979323846{{f}} / tan(3.14159265358979323846{{f}} * r);
  }
  return fx_digamma_pos_{{s}}(x);
}
static inline {{T}} fx_expsq_{{s}}({{T}} x) {
  {{T}} hi = x * x;
  {{T}} lo = fma(x, x, -hi);
  return exp(hi) * exp(lo);
}
static inline {{T}} fx_erfcx_pos_{{s}}({{T}} x) {
  if (x < 2)
    return fx_expsq_{{s}}(x) * erfc(x);
  if (x > 5e7{{f}})
    return 0.56418958354775628694807945156{{f}} / x;
  {{T}} f = x;
  for (int k = 60; k >= 1; --k)
    f = x + (0.5{{f}} * k) / f;
  return 0.56418958354775628694807945156{{f}} / f;
}
static inline {{T}} fx_erfcx_{{s}}({{T}} x) {
  if (isnan(x))
    return x;
  if (x < 0)
    return x < -26.7{{f}} ? ({{T}})INFINITY : 2 * fx_expsq_{{s}}(x) - fx_erfcx_pos_{{s}}(-x);
  return fx_erfcx_pos_{{s}}(x);
}
static inline {{T}} fx_ndtri_{{s}}({{T}} y0) {
  if (y0 == 0)
    return -({{T}})INFINITY;
  if (y0 == 1)
    return ({{T}})INFINITY;
  if (!(y0 > 0 && y0 < 1))
    return ({{T}})NAN;
  int code = 1;
  {{T}} y = y0;
  if (y > 1 - 0.13533528323661269189{{f}}) {
    y = 1 - y;
    code = 0;
  }
  if (y > 0.13533528323661269189{{f}}) {
    y = y - 0.5{{f}};
    {{T}} y2 = y * y;
    {{T}} x = y + y * (y2 * fx_polevl_{{s}}(y2, fx_ndtri_p0_{{s}}, FX_N(fx_ndtri_p0_{{s}})) /
                       fx_polevl_{{s}}(y2, fx_ndtri_q0_{{s}}, FX_N(fx_ndtri_q0_{{s}})));
    return x * 2.50662827463100050242{{f}};
  }
  {{T}} x = sqrt(-2 * log(y));
  {{T}} x0 = x - log(x) / x;
  {{T}} z = 1 / x;
  {{T}} x1 = x < 8 ? z * fx_polevl_{{s}}(z, fx_ndtri_p1_{{s}}, FX_N(fx_ndtri_p1_{{s}})) /
                         fx_polevl_{{s}}(z, fx_ndtri_q1_{{s}}, FX_N(fx_ndtri_q1_{{s}}))
                   : z * fx_polevl_{{s}}(z, fx_ndtri_p2_{{s}}, FX_N(fx_ndtri_p2_{{s}})) /
                         fx_polevl_{{s}}(z, fx_ndtri_q2_{{s}}, FX_N(fx_ndtri_q2_{{s}}));
  x = x0 - x1;
  return code ? -x : x;
}
static inline {{T}} fx_bessel_j0_{{s}}({{T}} x) {
  x = fabs(x);
  if (x <= 5) {
    if (x < 1e-5{{f}})
      return 1 - x * x / 4;
    {{T}} z = x * x;
    return (z - 5.78318596294678452118{{f}}) * (z - 30.4712623436620863991{{f}}) *
           fx_polevl_{{s}}(z, fx_j0_rp_{{s}}, FX_N(fx_j0_rp_{{s}})) /
           fx_p1evl_{{s}}(z, fx_j0_rq_{{s}}, FX_N(fx_j0_rq_{{s}}));
  }
  {{T}} q = 25 / (x * x);
  {{T}} p = fx_polevl_{{s}}(q, fx_j0_pp_{{s}}, FX_N(fx_j0_pp_{{s}})) /
          fx_polevl_{{s}}(q, fx_j0_pq_{{s}}, FX_N(fx_j0_pq_{{s}}));
  {{T}} qq = fx_polevl_{{s}}(q, fx_j0_qp_{{s}}, FX_N(fx_j0_qp_{{s}})) /
           fx_p1evl_{{s}}(q, fx_j0_qq_{{s}}, FX_N(fx_j0_qq_{{s}}));
  {{T}} xn = x - 0.785398163397448309615660845819875721{{f}};
  return (p * cos(xn) - 5 / x * qq * sin(xn)) * 0.797884560802865355879892119868763737{{f}} / sqrt(x);
}
static inline {{T}} fx_bessel_j1_{{s}}({{T}} x) {
  {{T}} ax = fabs(x), r;
  if (ax <= 5) {
    {{T}} z = ax * ax;
    r = fx_polevl_{{s}}(z, fx_j1_rp_{{s}}, FX_N(fx_j1_rp_{{s}})) /
        fx_p1evl_{{s}}(z, fx_j1_rq_{{s}}, FX_N(fx_j1_rq_{{s}})) * ax *
        (z - 14.6819706421238932572{{f}}) * (z - 49.2184563216946036703{{f}});
  } else {
    {{T}} q = 5 / ax * (5 / ax);
    {{T}} p = fx_polevl_{{s}}(q, fx_j1_pp_{{s}}, FX_N(fx_j1_pp_{{s}})) /
            fx_polevl_{{s}}(q, fx_j1_pq_{{s}}, FX_N(fx_j1_pq_{{s}}));
    {{T}} qq = fx_polevl_{{s}}(q, fx_j1_qp_{{s}}, FX_N(fx_j1_qp_{{s}})) /
             fx_p1evl_{{s}}(q, fx_j1_qq_{{s}}, FX_N(fx_j1_qq_{{s}}));
    {{T}} xn = ax - 2.356194490192344928846982537459627163{{f}};
    r = (p * cos(xn) - 5 / ax * qq * sin(xn)) * 0.797884560802865355879892119868763737{{f}} / sqrt(ax);
  }
  return x < 0 ? -r : r;
}
static inline {{T}} fx_spherical_bessel_j0_{{s}}({{T}} x) {
  if (isinf(x))
    return 0;
  if (fabs(x) < 0.5{{f}}) {
    {{T}} z = x * x;
    return 1 + z * (-1.0{{f}} / 6 + z * (1.0{{f}} / 120 + z * (-1.0{{f}} / 5040 + z * (1.0{{f}} / 362880 +
                    z * (-1.0{{f}} / 39916800 + z * (1.0{{f}} / 6227020800.0{{f}}))))));
  }
  return sin(x) / x;
}
static inline {{T}} fx_i0e_{{s}}({{T}} x) {
  x = fabs(x);
  if (x <= 8)
    return fx_chbevl_{{s}}(x / 2 - 2, fx_i0e_a_{{s}}, FX_N(fx_i0e_a_{{s}}));
  return fx_chbevl_{{s}}(32 / x - 2, fx_i0e_b_{{s}}, FX_N(fx_i0e_b_{{s}})) / sqrt(x);
}
static inline {{T}} fx_i0_{{s}}({{T}} x) { return exp(fabs(x)) * fx_i0e_{{s}}(x); }
static inline {{T}} fx_i1e_{{s}}({{T}} x) {
  {{T}} z = fabs(x);
  {{T}} r = z <= 8 ? fx_chbevl_{{s}}(z / 2 - 2, fx_i1e_a_{{s}}, FX_N(fx_i1e_a_{{s}})) * z
                   : fx_chbevl_{{s}}(32 / z - 2, fx_i1e_b_{{s}}, FX_N(fx_i1e_b_{{s}})) / sqrt(z);
  return x < 0 ? -r : r;
}
static inline {{T}} fx_i1_{{s}}({{T}} x) { return exp(fabs(x)) * fx_i1e_{{s}}(x); }
static inline {{T}} fx_erfinv_{{s}}({{T}} y) {
  {{T}} ya = fabs(y), x;
  if (ya > 1)
    return ({{T}})NAN;
  if (ya == 1)
    return copysign(({{T}})INFINITY, y);
  if (ya <= 0.7{{f}}) {
    {{T}} z = y * y;
    {{T}} num = ((-0.140543331{{f}} * z + 0.914624893{{f}}) * z - 1.645349621{{f}}) * z + 0.886226899{{f}};
    {{T}} dem = (((0.012229801{{f}} * z - 0.329097515{{f}}) * z + 1.442710462{{f}}) * z - 2.118377725{{f}}) * z + 1;
    x = y * num / dem;
  } else {
    {{T}} z = sqrt(-log((1 - ya) / 2));
    {{T}} num = ((1.641345311{{f}} * z + 3.429567803{{f}}) * z - 1.624906493{{f}}) * z - 1.970840454{{f}};
    {{T}} dem = (1.637067800{{f}} * z + 3.543889200{{f}}) * z + 1;
    x = copysign(num, y) / dem;
  }
  const {{T}} k = 1.12837916709551257390{{f}}; // 2 / sqrt(pi)
  x = x - (erf(x) - y) / (k * exp(-x * x));
  x = x - (erf(x) - y) / (k * exp(-x * x));
  return x;
}
static inline {{T}} fx_zeta_{{s}}({{T}} x, {{T}} q) {
  const {{T}} machep = {{MACHEP}};
  if (x == 1)
    return ({{T}})INFINITY;
  if (x < 1)
    return ({{T}})NAN;
  if (q <= 0) {
    if (q == floor(q))
      return ({{T}})INFINITY;
    if (x != floor(x))
      return ({{T}})NAN;
  }
  {{T}} s = pow(q, -x), a = q, b = 0;
  int i = 0;
  while (i < 9 || a <= 9) {
    i += 1;
    a += 1;
    b = pow(a, -x);
    s += b;
    if (-machep * s < b && b < machep * s)
      return s;
  }
  {{T}} w = a;
  s += b * w / (x - 1);
  s -= 0.5{{f}} * b;
  a = 1;
  {{T}} k = 0;
  for (i = 0; i < 12; i++) {
    a *= x + k;
    b /= w;
    {{T}} t = a * b / fx_zeta_a_{{s}}[i];
    s = s + t;
    t = fabs(t / s);
    if (t < machep)
      return s;
    k += 1;
    a *= x + k;
    b /= w;
    k += 1;
  }
  return s;
}
static inline {{T}} fx_igam_fac_{{s}}({{T}} a, {{T}} x) {
  {{T}} ax = a * log(x) - x - lgamma(a);
  return ax < -{{MAXLOG}} ? 0 : exp(ax);
}
static inline {{T}} fx_igam_series_{{s}}({{T}} a, {{T}} x) {
  {{T}} ax = fx_igam_fac_{{s}}(a, x);
  if (ax == 0)
    return 0;
  {{T}} r = a, c = 1, ans = 1;
  for (int i = 0; i < 2000; i++) {
    r += 1;
    c *= x / r;
    ans += c;
    if (c <= {{MACHEP}} * ans)
      break;
  }
  return ans * ax / a;
}
static inline {{T}} fx_igamc_series_{{s}}({{T}} a, {{T}} x) {
  {{T}} fac = 1, sum = 0;
  for (int n = 1; n < 2000; n++) {
    fac *= -x / n;
    {{T}} term = fac / (a + n);
    sum += term;
    if (fabs(term) <= {{MACHEP}} * fabs(sum))
      break;
  }
  {{T}} logx = log(x);
  return -expm1(a * logx - lgamma(1 + a)) - exp(a * logx - lgamma(a)) * sum;
}
static inline {{T}} fx_igamc_fraction_{{s}}({{T}} a, {{T}} x) {
  {{T}} ax = fx_igam_fac_{{s}}(a, x);
  if (ax == 0)
    return 0;
  {{T}} y = 1 - a, z = x + y + 1, c = 0;
  {{T}} pkm2 = 1, qkm2 = x, pkm1 = x + 1, qkm1 = z * x;
  {{T}} ans = pkm1 / qkm1;
  for (int i = 0; i < 2000; i++) {
    c += 1;
    y += 1;
    z += 2;
    {{T}} yc = y * c;
    {{T}} pk = pkm1 * z - pkm2 * yc;
    {{T}} qk = qkm1 * z - qkm2 * yc;
    {{T}} t = 1;
    if (qk != 0) {
      {{T}} r = pk / qk;
      t = fabs((ans - r) / r);
      ans = r;
    }
    pkm2 = pkm1;
    pkm1 = pk;
    qkm2 = qkm1;
    qkm1 = qk;
    if (fabs(pk) > {{BIG}}) {
      pkm2 *= {{BIGINV}};
      pkm1 *= {{BIGINV}};
      qkm2 *= {{BIGINV}};
      qkm1 *= {{BIGINV}};
    }
    if (t <= {{MACHEP}})
      break;
  }
  return ans * ax;
}
static inline {{T}} fx_igammac_{{s}}({{T}} a, {{T}} x) {
  if (x < 0 || a < 0 || isnan(a) || isnan(x))
    return ({{T}})NAN;
  if (a == 0)
    return x > 0 ? 0 : ({{T}})NAN;
  if (x == 0)
    return 1;
  if (isinf(a))
    return isinf(x) ? ({{T}})NAN : 1;
  if (isinf(x))
    return 0;
  if (x > 1.1{{f}})
    return x < a ? 1 - fx_igam_series_{{s}}(a, x) : fx_igamc_fraction_{{s}}(a, x);
  if (x <= 0.5{{f}})
    return -0.4{{f}} / log(x) < a ? 1 - fx_igam_series_{{s}}(a, x) : fx_igamc_series_{{s}}(a, x);
  return x * 1.1{{f}} < a ? 1 - fx_igam_series_{{s}}(a, x) : fx_igamc_series_{{s}}(a, x);
}
static inline {{T}} fx_igamma_{{s}}({{T}} a, {{T}} x) {
  if (x < 0 || a < 0 || isnan(a) || isnan(x))
    return ({{T}})NAN;
  if (a == 0)
    return x > 0 ? 1 : ({{T}})NAN;
  if (x == 0)
    return 0;
  if (isinf(a))
    return isinf(x) ? ({{T}})NAN : 0;
  if (isinf(x))
    return 1;
  if (x > 1 && x > a)
    return 1 - fx_igammac_{{s}}(a, x);
  return fx_igam_series_{{s}}(a, x);
}
)";

/// A double printed exactly enough for `type` (17 digits; float literals rounded by the compiler).
std::string literal(double v, bool isFloat) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  std::string s = buf;
  if (isFloat) {
    if (s.find_first_of(".eEn") == std::string::npos)
      s += ".0";
    s += "f";
  }
  return s;
}

std::string block(bool isFloat) {
  const std::string T = isFloat ? "float" : "double";
  const std::string s = isFloat ? "f" : "d";
  const std::string guard = isFloat ? "FX_SPECIAL_MATH_F" : "FX_SPECIAL_MATH_D";
  std::string out = "#ifndef " + guard + "\n#define " + guard + "\n";
  for (const auto &[name, values] : kTables) {
    out += "__constant " + T + " fx_" + name + "_" + s + "[] = {";
    for (size_t i = 0; i < values.size(); ++i)
      out += (i ? ", " : "") + literal(values[i], isFloat);
    out += "};\n";
  }
  const std::array<std::pair<std::string_view, std::string>, 7> keys{{
      {"T", T},
      {"s", s},
      {"f", isFloat ? "f" : ""},
      {"MACHEP", isFloat ? "5.9604644775390625E-8f" : "1.11022302462515654042E-16"},
      {"MAXLOG", isFloat ? "88.72283905206835f" : "7.09782712893383996843E2"},
      {"BIG", isFloat ? "16777216.0f" : "4.503599627370496e15"},
      {"BIGINV", isFloat ? "5.9604644775390625E-8f" : "2.22044604925031308085e-16"},
  }};
  out += substituteKeys(kFunctions, keys);
  out += "#endif\n";
  return out;
}

} // namespace

bool usesSpecialMath(std::string_view source) {
  for (std::string_view name :
       {"fx_digamma_", "fx_erfcx_", "fx_erfinv_", "fx_ndtri_", "fx_bessel_j", "fx_spherical_bessel",
        "fx_i0_", "fx_i0e_", "fx_i1_", "fx_i1e_", "fx_igamma_", "fx_igammac_", "fx_zeta_"})
    if (source.find(name) != std::string_view::npos)
      return true;
  return false;
}

std::string specialMathOpenCL(bool withDouble) {
  std::string out = block(true);
  if (withDouble)
    out += block(false);
  return out;
}

} // namespace fxkit::opencl
