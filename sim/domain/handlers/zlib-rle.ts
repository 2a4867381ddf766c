// A zlib stream (RFC 1950) holding one deflate block with the fixed Huffman code (RFC 1951 §3.2.6)
// whose only back-references are runs of the previous byte (distance 1).
//
// Why not node:zlib: its output bytes depend on the zlib build and on CPU features (Chromium's
// zlib hashes with SIMD CRC when it can), and the simulator promises byte-for-byte equal results
// on every machine. Runs are all the images we draw need: they are mosaics whose PNG-filtered rows
// are mostly zeros, which this compresses about as well as a general deflater would.

const MAX_MATCH = 258;
const MIN_MATCH = 3;

// Length codes 257..285: base lengths and extra-bit counts.
const LENGTH_BASE = [3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258];
const LENGTH_EXTRA = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0];

class BitWriter {
  private buf: Uint8Array;
  private pos = 0;
  private acc = 0;
  private nbits = 0;

  constructor(capacity: number) {
    this.buf = new Uint8Array(Math.max(64, capacity));
  }

  private ensure(extra: number): void {
    if (this.pos + extra <= this.buf.length) return;
    const next = new Uint8Array(Math.max(this.buf.length * 2, this.pos + extra));
    next.set(this.buf.subarray(0, this.pos));
    this.buf = next;
  }

  /** Writes the low n bits of v, least significant first (deflate's order for data fields). */
  bits(v: number, n: number): void {
    this.acc |= v << this.nbits;
    this.nbits += n;
    while (this.nbits >= 8) {
      this.ensure(1);
      this.buf[this.pos++] = this.acc & 0xff;
      this.acc >>>= 8;
      this.nbits -= 8;
    }
  }

  byte(b: number): void {
    this.bits(b & 0xff, 8);
  }

  /** Pads to a byte boundary and returns the bytes written. */
  finish(): Uint8Array {
    if (this.nbits > 0) this.bits(0, 8 - this.nbits);
    return this.buf.slice(0, this.pos);
  }
}

function reverseBits(c: number, n: number): number {
  let r = 0;
  for (let i = 0; i < n; i++) r |= ((c >>> i) & 1) << (n - 1 - i);
  return r;
}

// The fixed literal/length code, bit-reversed once so that writing a symbol is one bits() call.
const FIXED_CODE = new Uint16Array(288);
const FIXED_LEN = new Uint8Array(288);
for (let v = 0; v < 288; v++) {
  const [c, n] = v < 144 ? [0x30 + v, 8] : v < 256 ? [0x190 + v - 144, 9] : v < 280 ? [v - 256, 7] : [0xc0 + v - 280, 8];
  FIXED_CODE[v] = reverseBits(c, n);
  FIXED_LEN[v] = n;
}

function literal(w: BitWriter, v: number): void {
  w.bits(FIXED_CODE[v], FIXED_LEN[v]);
}

/** A back-reference of `len` (3..258) bytes at distance 1. */
function runMatch(w: BitWriter, len: number): void {
  let i = LENGTH_BASE.length - 1;
  while (LENGTH_BASE[i] > len) i--;
  literal(w, 257 + i);
  if (LENGTH_EXTRA[i] > 0) w.bits(len - LENGTH_BASE[i], LENGTH_EXTRA[i]);
  w.bits(0, 5); // distance code 0 (= distance 1, no extra bits); all-zero reads the same reversed
}

function adler32(data: Uint8Array): number {
  let a = 1;
  let b = 0;
  // 5552 is the longest stretch whose sums cannot overflow before the modulo (zlib's NMAX).
  for (let i = 0; i < data.length; ) {
    const end = Math.min(i + 5552, data.length);
    for (; i < end; i++) {
      a += data[i];
      b += a;
    }
    a %= 65521;
    b %= 65521;
  }
  return ((b << 16) | a) >>> 0;
}

/** Compresses data into a zlib stream that any inflater (zlib, browsers) decodes. */
export function zlibCompressRuns(data: Uint8Array): Uint8Array {
  const w = new BitWriter(Math.ceil(data.length / 4) + 64);
  w.byte(0x78); // CMF: deflate, 32 KB window
  w.byte(0x01); // FLG: fastest, no dictionary; (0x78 << 8 | 0x01) is a multiple of 31
  w.bits(1, 1); // BFINAL
  w.bits(1, 2); // BTYPE = 01, fixed Huffman
  let i = 0;
  while (i < data.length) {
    const v = data[i];
    literal(w, v);
    i++;
    // The byte just written is the run's source; copy it while the input repeats it.
    let run = 0;
    while (i + run < data.length && data[i + run] === v) run++;
    while (run >= MIN_MATCH) {
      // Never leave a remainder of 1 or 2 that could have been part of a match.
      let len = Math.min(run, MAX_MATCH);
      if (run - len > 0 && run - len < MIN_MATCH) len = run - MIN_MATCH;
      runMatch(w, len);
      i += len;
      run -= len;
    }
  }
  literal(w, 256); // end of block
  const body = w.finish();
  const out = new Uint8Array(body.length + 4);
  out.set(body);
  const sum = adler32(data);
  out[body.length] = sum >>> 24;
  out[body.length + 1] = (sum >>> 16) & 0xff;
  out[body.length + 2] = (sum >>> 8) & 0xff;
  out[body.length + 3] = sum & 0xff;
  return out;
}

/** Bits zlibCompressRuns spends on a maximal run of `count` bytes of value `v`. */
function runBits(v: number, count: number): number {
  let bits = 0;
  let rest = count;
  while (rest > 0) {
    bits += FIXED_LEN[v];
    rest--;
    let run = rest;
    while (run >= MIN_MATCH) {
      let len = Math.min(run, MAX_MATCH);
      if (run - len > 0 && run - len < MIN_MATCH) len = run - MIN_MATCH;
      let i = LENGTH_BASE.length - 1;
      while (LENGTH_BASE[i] > len) i--;
      bits += FIXED_LEN[257 + i] + LENGTH_EXTRA[i] + 5;
      rest -= len;
      run -= len;
    }
  }
  return bits;
}

/**
 * The exact length of zlibCompressRuns(data), told from data's runs without the bytes: each
 * maximal run of equal bytes is coded on its own (a literal, then distance-1 copies), so the
 * length follows from the runs alone. Feed the data in order as (value, count) pieces.
 */
export class RunSizer {
  private bits = 16 + 3; // zlib header, BFINAL and BTYPE
  private value = -1;
  private count = 0;
  private readonly memo = new Map<number, number>();

  add(value: number, count: number): void {
    if (count <= 0) return;
    if (value === this.value) {
      this.count += count;
      return;
    }
    this.flush();
    this.value = value;
    this.count = count;
  }

  private flush(): void {
    if (this.count === 0) return;
    const key = this.count * 256 + this.value;
    let b = this.memo.get(key);
    if (b === undefined) {
      b = runBits(this.value, this.count);
      this.memo.set(key, b);
    }
    this.bits += b;
    this.count = 0;
  }

  /** Bytes of the zlib stream of everything added: the block, its end code, padding, Adler-32. */
  bytes(): number {
    this.flush();
    this.value = -1;
    return Math.ceil((this.bits + FIXED_LEN[256]) / 8) + 4;
  }
}
