// pow.js: the Web Worker that solves a join's proof of work (doc/api.md,
// "Proof of work"): the first decimal nonce n = 0, 1, 2... such that
// SHA-256 of the ASCII string challenge + n starts with `bits` zero bits.
// SHA-256 is written out here (crypto.subtle needs a secure context and
// costs a promise per hash); the challenge's whole 64-byte blocks are
// hashed once, so each try costs one or two compressions.
// In: {challenge, bits}. Out: {progress: tries so far} now and then, then
// {nonce, tries}.
(function () {
'use strict';

var K = new Int32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
  0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
  0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
  0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
  0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
  0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
  0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
  0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2
]);
var W = new Int32Array(64);

// One compression of the 64 bytes of buf at off into the state h.
function compress(h, buf, off) {
  var i, a, b, c, d, e, f, g, k, t1, t2, x, y;
  for (i = 0; i < 16; i++) {
    W[i] = buf[off + 4 * i] << 24 | buf[off + 4 * i + 1] << 16 |
      buf[off + 4 * i + 2] << 8 | buf[off + 4 * i + 3];
  }
  for (i = 16; i < 64; i++) {
    x = W[i - 15]; y = W[i - 2];
    W[i] = ((x >>> 7 | x << 25) ^ (x >>> 18 | x << 14) ^ (x >>> 3)) + W[i - 16] +
      ((y >>> 17 | y << 15) ^ (y >>> 19 | y << 13) ^ (y >>> 10)) + W[i - 7] | 0;
  }
  a = h[0]; b = h[1]; c = h[2]; d = h[3]; e = h[4]; f = h[5]; g = h[6]; k = h[7];
  for (i = 0; i < 64; i++) {
    t1 = k + ((e >>> 6 | e << 26) ^ (e >>> 11 | e << 21) ^ (e >>> 25 | e << 7)) +
      (e & f ^ ~e & g) + K[i] + W[i] | 0;
    t2 = ((a >>> 2 | a << 30) ^ (a >>> 13 | a << 19) ^ (a >>> 22 | a << 10)) +
      (a & b ^ a & c ^ b & c) | 0;
    k = g; g = f; f = e; e = d + t1 | 0; d = c; c = b; b = a; a = t1 + t2 | 0;
  }
  h[0] = h[0] + a | 0; h[1] = h[1] + b | 0; h[2] = h[2] + c | 0; h[3] = h[3] + d | 0;
  h[4] = h[4] + e | 0; h[5] = h[5] + f | 0; h[6] = h[6] + g | 0; h[7] = h[7] + k | 0;
}

// Does the state h start with bits zero bits?
function enough(h, bits) {
  for (var i = 0; bits > 0; i++, bits -= 32) {
    var w = h[i] >>> 0;
    if (bits >= 32) { if (w !== 0) return false; } else if (w >>> (32 - bits) !== 0) return false;
  }
  return true;
}

function solve(challenge, bits) {
  var bytes = [], i;
  for (i = 0; i < challenge.length; i++) bytes.push(challenge.charCodeAt(i) & 0x7f);
  // The midstate after the challenge's whole blocks.
  var mid = new Int32Array([0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
    0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19]);
  var whole = bytes.length - bytes.length % 64;
  var head = new Uint8Array(bytes.slice(0, whole));
  for (i = 0; i < whole; i += 64) compress(mid, head, i);
  var rest = bytes.slice(whole);
  var tail = new Uint8Array(128);
  var h = new Int32Array(8);
  var digits = [48]; // the nonce's decimal digits, most significant first
  for (var tries = 0; ; tries++) {
    var len = rest.length + digits.length;
    var blocks = len + 9 <= 64 ? 1 : 2;
    tail.fill(0);
    for (i = 0; i < rest.length; i++) tail[i] = rest[i];
    for (i = 0; i < digits.length; i++) tail[rest.length + i] = digits[i];
    tail[len] = 0x80;
    var bitlen = (whole + len) * 8;
    var end = blocks * 64;
    tail[end - 4] = bitlen >>> 24 & 0xff; tail[end - 3] = bitlen >>> 16 & 0xff;
    tail[end - 2] = bitlen >>> 8 & 0xff; tail[end - 1] = bitlen & 0xff;
    h.set(mid);
    compress(h, tail, 0);
    if (blocks === 2) compress(h, tail, 64);
    if (enough(h, bits)) return { nonce: String.fromCharCode.apply(null, digits), tries: tries + 1 };
    if ((tries & 0xffff) === 0xffff) self.postMessage({ progress: tries + 1 });
    // the next decimal number
    for (i = digits.length - 1; i >= 0 && digits[i] === 57; i--) digits[i] = 48;
    if (i < 0) digits.unshift(49); else digits[i]++;
  }
}

self.onmessage = function (ev) {
  var d = ev.data || {};
  self.postMessage(solve(String(d.challenge || ''), Number(d.bits) || 0));
};
self.solve = solve; // for a test outside a browser
}());
