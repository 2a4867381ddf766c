/** Where a run sends its requests and with which keys. */
export interface LoadTarget {
  /** {base_url}: REST v2 and GraphQL. */
  readonly baseUrl: string;
  /** {serverless_url}: job endpoints. */
  readonly serverlessUrl: string;
  /** The key every scenario uses. */
  readonly apiKey: string;
  /** A rate-limited key for the rate-limit scenario (the run's key when none is known). */
  readonly limitedApiKey: string;
  /** Endpoint running the conformance handler. */
  readonly endpoint: string;
}
