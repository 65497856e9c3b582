inline double fx_maximum_d(double a, double b) { return isnan(a) || isnan(b) ? NAN : fmax(a, b); }
inline double fx_minimum_d(double a, double b) { return isnan(a) || isnan(b) ? NAN : fmin(a, b); }
inline double fx_remainder_d(double a, double b) {
  double r = fmod(a, b);
  return (r != 0 && ((r < 0) != (b < 0))) ? r + b : r;
}
inline double fx_gelu_d(double x) { return 0.5 * x * (1.0 + erf(x * 0.70710678118654752)); }
inline double fx_gelu_tanh_d(double x) {
  return 0.5 * x * (1.0 + tanh(0.79788456080286536 * (x + 0.044715 * x * x * x)));
}
/// tl.randn's Box-Muller, log and cos in double, rounded to float once (ir/loop/Philox.h).
inline float fx_randn(ulong seed, uint offset) {
  uint w[4];
  fx_philox(seed, offset, w);
  float u1 = fx_uniform(w[0]), u2 = fx_uniform(w[1]);
  u1 = u1 < 1.0e-7f ? 1.0e-7f : u1;
  float th = 6.283185307179586f * u2;
  double r = sqrt(-2.0 * log((double)u1));
  return (float)(r * cos((double)th));
}
