// A Map that forgets its oldest entries beyond a capacity: the followers keep a limit on memory however long the traffic runs.
export class BoundedMap<K, V> extends Map<K, V> {
  /**
   * Walks the keys oldest first, kept between evictions: a Map's deleted slots stay at its front
   * until it is rehashed, and a fresh `keys()` would step over all of them each time (an eviction
   * per new job cost a walk over thousands of slots). Every key it has passed was deleted, and a
   * key set again moves to the end, so the next one it yields is always the oldest.
   */
  private oldest: IterableIterator<K> | undefined;

  constructor(readonly capacity: number) {
    super();
  }

  override set(key: K, value: V): this {
    // A key set again moves to the end (one lookup: delete answers whether it was there).
    super.delete(key);
    super.set(key, value);
    while (this.size > this.capacity) {
      let next = this.oldest?.next();
      if (next === undefined || next.done) {
        this.oldest = this.keys();
        next = this.oldest.next();
      }
      this.delete(next.value as K);
    }
    return this;
  }

  override clear(): void {
    this.oldest = undefined;
    super.clear();
  }
}
