/// exp as every kernel computes it (the exp op, sigmoid, softmax's sums): {{exp}}.
inline {{T}} fx_exp_{{s}}({{T}} x) { return {{exp body}}; }
inline {{T}} fx_maximum_{{s}}({{T}} a, {{T}} b) { return isnan(a) || isnan(b) ? NAN : fmax(a, b); }
inline {{T}} fx_minimum_{{s}}({{T}} a, {{T}} b) { return isnan(a) || isnan(b) ? NAN : fmin(a, b); }
inline {{T}} fx_remainder_{{s}}({{T}} a, {{T}} b) {
  {{T}} r = fmod(a, b);
  return (r != 0 && ((r < 0) != (b < 0))) ? r + b : r;
}
inline {{T}} fx_gelu_{{s}}({{T}} x) { return 0.5{{f}} * x * (1.0{{f}} + erf(x * 0.70710678118654752{{f}})); }
inline {{T}} fx_gelu_tanh_{{s}}({{T}} x) {
  return 0.5{{f}} * x * (1.0{{f}} + tanh(0.79788456080286536{{f}} * (x + 0.044715{{f}} * x * x * x)));
}
