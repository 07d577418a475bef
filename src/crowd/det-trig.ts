/**
 * sin and cos from + − × ÷ only, so sampling patterns are bit-identical in every JavaScript
 * engine (Math.sin/Math.cos are implementation-defined approximations). Accurate to ~1e-15 on
 * any finite angle, which is all a sampling pattern needs.
 */
export function detSinCos(angle: number, out: Float64Array): void {
  const twoPi = 6.283185307179586;
  const halfPi = 1.5707963267948966;
  // Reduce to [-π/4, π/4] plus a quadrant, where the Taylor series converges fast.
  let a = angle - Math.floor(angle / twoPi) * twoPi; // [0, 2π)
  const q = Math.floor(a / halfPi + 0.5); // 0..4
  a -= q * halfPi;
  const a2 = a * a;
  let s = a;
  let c = 1;
  let ts = a;
  let tc = 1;
  for (let k = 1; k <= 10; k++) {
    ts *= -a2 / (2 * k * (2 * k + 1));
    tc *= -a2 / ((2 * k - 1) * (2 * k));
    s += ts;
    c += tc;
  }
  switch (q & 3) {
    case 0:
      out[0] = s;
      out[1] = c;
      break;
    case 1:
      out[0] = c;
      out[1] = -s;
      break;
    case 2:
      out[0] = -s;
      out[1] = -c;
      break;
    default:
      out[0] = -c;
      out[1] = s;
  }
}
