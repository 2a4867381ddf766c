// A Map that forgets its oldest entries beyond a capacity: the followers keep a limit on memory however long the traffic runs.
export class BoundedMap<K, V> extends Map<K, V> {
  constructor(readonly capacity: number) {
    super();
  }

  override set(key: K, value: V): this {
    if (this.has(key)) this.delete(key);
    super.set(key, value);
    while (this.size > this.capacity) this.delete(this.keys().next().value as K);
    return this;
  }
}
