// Vocabulary of the simulated language model. Common words first: a low temperature draws only
// from the head of the list, a high one from all of it, so text gets plainer as it cools.

export const WORDS: readonly string[] = [
  "the", "of", "and", "to", "in", "is", "that", "it", "for", "as", "with", "on", "be", "by", "this",
  "are", "can", "from", "or", "an", "at", "which", "more", "when", "each", "one", "will", "their",
  "system", "model", "data", "time", "work", "first", "new", "way", "use", "most", "many", "these",
  "other", "some", "what", "there", "than", "then", "only", "also", "into", "over", "after", "before",
  "queue", "worker", "request", "result", "stream", "token", "memory", "cache", "compute", "network",
  "value", "state", "event", "order", "limit", "method", "number", "point", "signal", "pattern",
  "light", "water", "river", "mountain", "city", "garden", "morning", "evening", "window", "letter",
  "simple", "quiet", "bright", "steady", "careful", "small", "large", "early", "late", "open",
  "measure", "follow", "build", "carry", "answer", "change", "begin", "return", "hold", "move",
  "because", "while", "under", "between", "through", "without", "around", "against", "toward", "within",
  "engine", "schedule", "balance", "capacity", "latency", "throughput", "journey", "harbor", "lantern",
  "meadow", "whisper", "granite", "compass", "horizon", "orchard", "ember", "cascade", "velvet",
  "quantum", "lattice", "prism", "vector", "gradient", "kernel", "spectrum", "cipher", "nebula",
];
