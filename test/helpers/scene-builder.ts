// A test scene built pair by pair, for 2D and 3D alike: every pair gets fresh shapes and bodies,
// a tag saying what it was generated to test (printed with a failing case), and optionally the
// swapped pair too (the same geometry seen from B: normals flip, ids swap halves).

/** What a pair was generated to test. */
export interface PairTag {
  set: string;
  note?: string;
}

export class PairSceneBuilder<Shape, Body extends { shape: number }> {
  readonly shapes: Shape[] = [];
  readonly bodies: Body[] = [];
  readonly pairs: [number, number][] = [];
  /** Per pair: what it tests. */
  readonly tags: PairTag[] = [];

  constructor(readonly margin: number) {}

  /** Adds a body of its own shape (its `shape` field is set here); returns the body index. */
  protected addBodyOf(shape: Shape, body: Omit<Body, 'shape'>): number {
    this.shapes.push(shape);
    this.bodies.push({ ...body, shape: this.shapes.length - 1 } as Body);
    return this.bodies.length - 1;
  }

  /** The pair (a, b) and, with `bothOrders`, (b, a) tagged `swappedTag`. */
  protected addPairOf(
    a: number,
    b: number,
    tag: PairTag,
    bothOrders: boolean,
    swappedTag: PairTag = tag,
  ): void {
    this.pairs.push([a, b]);
    this.tags.push(tag);
    if (bothOrders) {
      this.pairs.push([b, a]);
      this.tags.push(swappedTag);
    }
  }

  /** Appends every pair of another builder with the same margin. */
  append(other: PairSceneBuilder<Shape, Body>): void {
    if (other.margin !== this.margin) throw new Error('append: margins differ');
    const base = this.bodies.length;
    const shapeBase = this.shapes.length;
    this.shapes.push(...other.shapes);
    for (const b of other.bodies) this.bodies.push({ ...b, shape: b.shape + shapeBase });
    for (const [a, b] of other.pairs) this.pairs.push([a + base, b + base]);
    this.tags.push(...other.tags);
  }

  get pairCount(): number {
    return this.pairs.length;
  }
}
