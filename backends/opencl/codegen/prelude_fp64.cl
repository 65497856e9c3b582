{{floating}}
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
