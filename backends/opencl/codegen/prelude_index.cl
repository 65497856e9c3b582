inline {{I}} fx_floordiv({{I}} a, {{I}} b) {
  {{I}} q = a / b;
  return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}
inline {{I}} fx_mod({{I}} a, {{I}} b) {
  {{I}} r = a % b;
  return (r != 0 && ((r < 0) != (b < 0))) ? r + b : r;
}
inline {{I}} fx_ceildiv({{I}} a, {{I}} b) { return -fx_floordiv(-a, b); }
inline {{I}} fx_truncdiv({{I}} a, {{I}} b) { return a / b; }
