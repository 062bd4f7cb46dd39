// The double's randomness: one seeded PRNG (mulberry32) per double, so that
// a test that fails under some seed fails the same way again. The real
// kernel is random where Go ranges over a map (attribute order, `custom-*`
// order; kernel notes §1–§4) and where it calls `ast.NewNodeID()` (ids of
// re-IDed duplicates and repair paragraphs, notes §1); every such place in
// the double draws from this generator.

const ID_CHARS = '0123456789abcdefghijklmnopqrstuvwxyz';

export class Random {
  private state: number;

  constructor(readonly seed: number) {
    this.state = seed >>> 0;
  }

  /** A float in [0, 1) (mulberry32). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** An integer in [0, n). */
  int(n: number): number {
    return Math.floor(this.next() * n);
  }

  /** A shuffled copy (Fisher–Yates): the order Go gives a map's keys. */
  shuffle<T>(items: readonly T[]): T[] {
    const out = items.slice();
    for (let i = out.length - 1; i > 0; i--) {
      const j = this.int(i + 1);
      [out[i], out[j]] = [out[j]!, out[i]!];
    }
    return out;
  }

  /** `ast.NewNodeID()`: the time, a dash and seven random characters. */
  nodeId(stamp: string): string {
    let tail = '';
    for (let i = 0; i < 7; i++) tail += ID_CHARS[this.int(ID_CHARS.length)];
    return `${stamp}-${tail}`;
  }
}
